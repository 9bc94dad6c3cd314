// Builds endgame database levels on an OpenCL device (kernels/mankalah/endgame_level.cl): the
// finished levels stay on the device, one after the other, for the levels above them to read.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/compact.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::endgame {

// What a pass changed in one part of a level, to send to the devices that did not run it: the
// whole part, or (when few changed) a list of positions and their values.
struct PartChanges {
  bool any = false;
  bool whole = false;
  std::vector<cl_uint> offsets;  // from the part's first position
  std::vector<cl_char> values;
};

class GpuLevelBuilder {
 public:
  // Room on the device for levels 0..max_level-1, the ones level max_level reads.
  GpuLevelBuilder(clf::Runtime& runtime, int max_level);

  // The next level in order (levels() of them so far): built here, or given (a file's values),
  // made available to the levels above.
  int levels() const { return levels_; }
  std::vector<cl_char> build_next(int* passes = nullptr);
  void add_next(const cl_char* values);

  // The next level built pass by pass, for a level shared with other devices or processes:
  // begin_level() (all values zero), pass() over this device's part until no part anywhere
  // changes, with the parts changed elsewhere copied in (write_values) between passes, then
  // finish_level() once this device holds the whole final level.
  void begin_level();
  // One pass over positions `part` of the level; true when a value changed.
  bool pass(clf::WorkRange part);
  void read_values(clf::WorkRange part, cl_char* level_values) const;
  void write_values(clf::WorkRange part, const cl_char* level_values);
  // pass(), then what it changed into `changes` and into `level_values` (the level's host copy):
  // listed when that is smaller than the whole part.
  void pass_and_read_changes(clf::WorkRange part, cl_char* level_values, PartChanges* changes);
  // Another device's changes in its `part` (`level_values` holds them when whole).
  void write_changes(clf::WorkRange part, const PartChanges& changes, const cl_char* level_values);
  void finish_level();

 private:
  void store(clf::BufferBase& level_values, std::uint64_t count);
  // The offsets of the positions of `part` the last marked pass changed, on the device.
  std::size_t list_changed(clf::WorkRange part);

  clf::Runtime& runtime_;
  int max_level_;
  int levels_ = 0;
  clf::DeviceBuffer<cl_char> lower_;
  clf::DeviceBuffer<cl_char> level_;  // the level being built
  clf::Buffer<cl_int> changed_;
  clf::CLKernel pass_;
  clf::CLKernel store_;
  // For listing changes: a mark per position of the part, the offsets of the marked ones, and
  // their values packed.
  clf::CLKernel pass_marked_;
  clf::CLKernel gather_;
  clf::CLKernel scatter_;
  std::unique_ptr<clf::primitives::Compact<std::uint32_t>> compact_;  // made when first needed
  clf::DeviceBuffer<std::uint32_t> marks_;
  clf::DeviceBuffer<std::uint32_t> offsets_;
  clf::DeviceBuffer<std::uint32_t> listed_count_;
  clf::DeviceBuffer<cl_char> packed_;
};

}  // namespace mankalah::endgame
