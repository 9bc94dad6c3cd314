// Builds endgame database levels with each level's index range split across the devices of a
// set and the processes of a group (MPI ranks), pass by pass: every device runs the level's pass
// (kernels/mankalah/endgame_level.cl) over its part, then what changed is copied to every other
// device (the whole part while many values change, then a list of the changed positions), until
// a pass changes nothing anywhere. A pass reads same-level children
// from the whole level, so every device keeps a whole copy; the pass argument (a child's old or
// new value may be read) holds across devices, and the fixed point is the same unique one, so the
// values equal the one-device build's byte for byte. With one device and one process this is the
// one-device build exactly: the same launches and no copies between passes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "apps/mankalah/endgame/gpu_builder.hpp"
#include "framework/clf.hpp"
#include "framework/process_group.hpp"

namespace mankalah::endgame {

class SplitLevelBuilder {
 public:
  // Room on every device for levels 0..max_level-1. `group` null: this process alone. Part
  // boundaries fall on multiples of `granularity` positions; a device's part is run in rounds
  // of about `round_positions` positions (see Split::rounds).
  SplitLevelBuilder(const clf::DeviceSet& devices, const clf::ProcessGroup* group, int max_level,
                    std::size_t granularity = 4096, std::size_t round_positions = 1 << 24);

  int levels() const { return builders_.front()->levels(); }
  // The next level, built by every device of every process; each process calls it at once and
  // gets the whole level. `passes` counts the passes (the same in every process).
  std::vector<cl_char> build_next(int* passes = nullptr);
  // The next level given: `values` on process 0 (a file's values), ignored elsewhere (null);
  // every process calls it at once.
  void add_next(const cl_char* values);

 private:
  // Who runs which positions of a level: a contiguous range per rank, this rank's range cut
  // into a part per device.
  struct Split {
    int ranks = 1;
    int rank = 0;
    std::vector<clf::WorkRange> by_rank;
    std::vector<clf::WorkRange> parts;  // this rank's, per device
    bool shared = false;                // more than one part in all
    // Each pass runs in rounds: in round r every device runs the r-th slice of its part, then
    // the devices exchange what changed. On one device a pass's later positions read values
    // its earlier ones just made final; the rounds keep that for children in other devices'
    // parts (fewer passes), at the price of an exchange per round, hence rounds only on parts
    // large enough. The processes exchange once per pass.
    std::size_t rounds = 1;
  };
  Split split_level(std::uint64_t count) const;
  // Sends this rank's changed parts (now in `values`) to the other ranks and receives theirs
  // (listed in `remote`); whether any rank changed a value.
  bool gather_ranks(const Split& split, bool changed_here, std::vector<cl_char>& values,
                    std::vector<clf::WorkRange>* remote) const;
  // Round `round` of a pass on every device; whether a value changed.
  bool run_round(const Split& split, std::size_t round, std::vector<cl_char>& values,
                 std::vector<double>& seconds);

  const clf::DeviceSet& devices_;
  const clf::ProcessGroup* group_;
  std::size_t granularity_;
  std::size_t round_positions_;
  std::vector<std::unique_ptr<GpuLevelBuilder>> builders_;  // one per device
  clf::SpeedBalancer balancer_;
};

}  // namespace mankalah::endgame
