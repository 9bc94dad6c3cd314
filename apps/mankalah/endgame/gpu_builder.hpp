// Builds endgame database levels on an OpenCL device (kernels/mankalah/endgame_level.cl): the
// finished levels stay on the device, one after the other, for the levels above them to read.
#pragma once

#include <cstdint>
#include <vector>

#include "framework/clf.hpp"
#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::endgame {

// Classes a and n - a of level n (one class when a = n - a): a level's positions whose
// same-level children lie among themselves (shared/mankalah/kalah_endgame.h), so that the pair
// is built without reading the rest of the level.
struct ClassPair {
  std::vector<clf::WorkRange> ranges;  // the classes' runs of ranks
  std::size_t positions = 0;
};

// The pairs of level n, a = 0..n/2.
std::vector<ClassPair> class_pairs(int n);

class GpuLevelBuilder {
 public:
  // Room on the device for levels 0..max_level-1, the ones level max_level reads.
  GpuLevelBuilder(clf::Runtime& runtime, int max_level);

  // Levels so far (built or given), available to the levels above.
  int levels() const { return levels_; }
  // The next level given (a file's values).
  void add_next(const cl_char* values);

  // The next level built in parts (a SplitLevelBuilder shares it among devices and processes):
  // begin_level() (all values zero), build_pair() for the pairs this device takes, the rest of
  // the level copied in (write_values), then finish_level() once this device holds it all.
  void begin_level();
  // Passes over the pair until one changes none of its values; returns the passes (the last,
  // which changed nothing, counted).
  int build_pair(const ClassPair& pair);
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
  clf::Buffer<cl_int> changed_;       // set by a pass that changed a value
  clf::CLKernel pass_;
  clf::CLKernel store_;
};

}  // namespace mankalah::endgame
