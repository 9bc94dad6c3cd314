// Builds endgame database levels with each level's index range split across the devices of a
// set and the processes of a group (MPI ranks), pass by pass: every device runs the level's pass
// (kernels/mankalah/endgame_level.cl) over its part, then the parts that changed are copied to
// every other device, until a pass changes nothing anywhere. A pass reads same-level children
// from the whole level, so every device keeps a whole copy; the pass argument (a child's old or
// new value may be read) holds across devices, and the fixed point is the same unique one, so the
// values equal the one-device build's byte for byte. With one device and one process this is the
// one-device build exactly: the same launches and no copies between passes.
#pragma once

#include <memory>
#include <vector>

#include "apps/mankalah/endgame/gpu_builder.hpp"
#include "framework/clf.hpp"
#include "framework/process_group.hpp"

namespace mankalah::endgame {

class SplitLevelBuilder {
 public:
  // Room on every device for levels 0..max_level-1. `group` null: this process alone. Part
  // boundaries fall on multiples of `granularity` positions.
  SplitLevelBuilder(const clf::DeviceSet& devices, const clf::ProcessGroup* group, int max_level,
                    std::size_t granularity = 4096);

  int levels() const { return builders_.front()->levels(); }
  // The next level, built by every device of every process; each process calls it at once and
  // gets the whole level. `passes` counts the passes (the same in every process).
  std::vector<cl_char> build_next(int* passes = nullptr);
  // The next level given: `values` on process 0 (a file's values), ignored elsewhere (null);
  // every process calls it at once.
  void add_next(const cl_char* values);

 private:
  // Copies the parts that changed in the last pass to the devices that did not compute them.
  void exchange(const std::vector<clf::WorkRange>& parts, const std::vector<bool>& part_changed,
                const std::vector<clf::WorkRange>& remote, const std::vector<cl_char>& values);

  const clf::DeviceSet& devices_;
  const clf::ProcessGroup* group_;
  std::size_t granularity_;
  std::vector<std::unique_ptr<GpuLevelBuilder>> builders_;  // one per device
  clf::SpeedBalancer balancer_;
};

}  // namespace mankalah::endgame
