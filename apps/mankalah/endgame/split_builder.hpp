// Builds endgame database levels with each level split across the devices of a set and the
// processes of a group (MPI ranks). A level falls apart into pairs of classes whose same-level
// moves stay inside the pair (shared/mankalah/kalah_endgame.h): the pairs are dealt out to the
// processes (largest first, equal shares), each process's devices take its pairs largest first
// as they come free (so a faster device, or one given cheaper pairs, takes more), every device
// builds its pairs to their fixed point without hearing from the others, and the level is then
// exchanged once so that every device holds all of it for the levels above. The values are the
// unique fixed point whatever the split, so they equal the one-device build's byte for byte. With
// one device and one process this is the one-device build exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "apps/mankalah/endgame/gpu_builder.hpp"
#include "framework/clf.hpp"
#include "framework/pinned_memory.hpp"
#include "framework/process_group.hpp"

namespace mankalah::endgame {

// A level's values on the host, in memory the devices copy to and from at the bus's speed.
using LevelValues = clf::PinnedVector<cl_char>;

class SplitLevelBuilder {
 public:
  // Room on every device for levels 0..max_level-1. `group` null: this process alone.
  SplitLevelBuilder(const clf::DeviceSet& devices, const clf::ProcessGroup* group, int max_level);

  int levels() const { return builders_.front()->levels(); }
  // An empty array for build_next. Reuse it from level to level, its capacity reserved for the
  // largest: pinning gigabytes takes longer than building a small level.
  LevelValues new_level_values() const;
  // The next level into `values` (resized to the level), built by every device of every
  // process; each process calls it at once and gets the whole level. `passes`: the passes of the
  // pair that needed most (the same in every process).
  void build_next(LevelValues& values, int* passes = nullptr);
  // Where the last build_next's time went, to tell an uneven split (devices busy for unequal
  // times) from a slow exchange or from devices that each build slower beside the others.
  struct Times {
    std::vector<double> device_seconds;  // each device building and reading back its pairs
    std::vector<double> read_seconds;    // of device_seconds, reading back
    double exchange_seconds = 0;         // copying the level between devices and processes
  };
  const Times& last_times() const { return times_; }
  // The next level given: `values` on process 0 (a file's values), ignored elsewhere (null);
  // every process calls it at once.
  void add_next(const cl_char* values);

 private:
  // Who builds which pairs of a level.
  struct Shares {
    std::vector<std::vector<clf::WorkRange>> by_rank;  // the runs of ranks each process builds
    std::vector<ClassPair> mine;                       // this process's pairs, largest first
  };
  Shares share_out(int level) const;
  // Every device and process gets the runs the others built (`built`: each device's, already in
  // `values`): `values` ends whole everywhere.
  void exchange(const Shares& shares, const std::vector<std::vector<clf::WorkRange>>& built,
                LevelValues& values);
  int rank_count() const;
  int rank() const;

  const clf::DeviceSet& devices_;
  const clf::ProcessGroup* group_;
  std::vector<std::unique_ptr<GpuLevelBuilder>> builders_;  // one per device
  Times times_;
};

}  // namespace mankalah::endgame
