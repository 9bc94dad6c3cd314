// Builds endgame database levels on an OpenCL device (kernels/mankalah/endgame_level.cl): the
// finished levels stay on the device, one after the other, for the levels above them to read.
#pragma once

#include <cstdint>
#include <vector>

#include "framework/clf.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::endgame {

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
  void finish_level();

 private:
  void store(clf::BufferBase& level_values, std::uint64_t count);

  clf::Runtime& runtime_;
  int max_level_;
  int levels_ = 0;
  clf::DeviceBuffer<cl_char> lower_;
  clf::DeviceBuffer<cl_char> level_;  // the level being built
  clf::Buffer<cl_int> changed_;
  clf::CLKernel pass_;
  clf::CLKernel store_;
};

}  // namespace mankalah::endgame
