#include "apps/mankalah/endgame/gpu_builder.hpp"

#include <algorithm>
#include <string>

namespace mankalah::endgame {

namespace {

// Positions per launch: bounded so a launch's ids fit 32 bits and no launch runs for long.
constexpr std::uint64_t kLaunchPositions = std::uint64_t{1} << 22;

// Runs `launch(first, count)` over positions [begin, end) in launches of at most
// kLaunchPositions.
template <typename Launch>
void in_launches(std::uint64_t begin, std::uint64_t end, Launch launch) {
  for (std::uint64_t first = begin; first < end; first += kLaunchPositions) {
    launch(first, static_cast<cl_uint>(std::min(kLaunchPositions, end - first)));
  }
}

}  // namespace

std::vector<ClassPair> class_pairs(int n) {
  std::vector<ClassPair> pairs;
  for (int a = 0; a <= n - a; ++a) {
    ClassPair pair;
    const auto add_class = [&](int c) {
      pair.ranges.push_back(
          {kalah_endgame_class_offset(n, c), kalah_endgame_class_offset(n, c + 1)});
      pair.positions += pair.ranges.back().size();
    };
    add_class(a);
    if (n - a != a) add_class(n - a);
    pairs.push_back(std::move(pair));
  }
  return pairs;
}

GpuLevelBuilder::GpuLevelBuilder(clf::Runtime& runtime, int max_level)
    : runtime_(runtime),
      max_level_(max_level),
      // One byte at least: an OpenCL buffer cannot be empty.
      lower_(runtime, std::max<std::uint64_t>(1, kalah_endgame_level_offset(max_level))),
      level_(runtime, 1),
      changed_(runtime, 1),
      pass_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"), "endgame_level_pass"),
      store_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
             "endgame_store_level") {
  if (max_level < 0 || max_level > KALAH_ENDGAME_MAX_LEVEL) {
    throw clf::Error("endgame levels go up to " + std::to_string(KALAH_ENDGAME_MAX_LEVEL) +
                     ", not " + std::to_string(max_level));
  }
}

void GpuLevelBuilder::begin_level() {
  const int n = levels_;
  if (n > max_level_)
    throw clf::Error("GpuLevelBuilder: level " + std::to_string(n) + " not planned");
  // Zeros: any start reaches the fixed point.
  level_ = clf::DeviceBuffer<cl_char>(runtime_, kalah_endgame_level_size(n));
  level_.fill_zero();
}

int GpuLevelBuilder::build_pair(const ClassPair& pair) {
  int passes = 0;
  do {
    ++passes;
    changed_.host_mutable()[0] = 0;
    for (const clf::WorkRange& run : pair.ranges) {
      in_launches(run.begin, run.end, [&](std::uint64_t first, cl_uint chunk) {
        pass_(clf::Range::linear(chunk), clf::read_only(lower_), cl_int(levels_), cl_ulong(first),
              chunk, clf::read_write(level_), clf::read_write(changed_));
      });
    }
  } while (changed_.host()[0] != 0);
  return passes;
}

void GpuLevelBuilder::read_values(clf::WorkRange part, cl_char* level_values) const {
  level_.read_range(part.begin, level_values + part.begin, part.size());
}

void GpuLevelBuilder::write_values(clf::WorkRange part, const cl_char* level_values) {
  level_.write_range(part.begin, level_values + part.begin, part.size());
}

void GpuLevelBuilder::finish_level() {
  store(level_, level_.size());
  level_ = clf::DeviceBuffer<cl_char>(runtime_, 1);  // the memory back (the store keeps it alive)
}

void GpuLevelBuilder::add_next(const cl_char* values) {
  const std::uint64_t count = kalah_endgame_level_size(levels_);
  clf::Buffer<cl_char> level_values(runtime_, std::vector<cl_char>(values, values + count));
  store(level_values, count);
}

void GpuLevelBuilder::store(clf::BufferBase& level_values, std::uint64_t count) {
  const int n = levels_++;
  if (n >= max_level_) return;  // no planned level reads it
  const cl_ulong offset = kalah_endgame_level_offset(n);
  in_launches(0, count, [&](std::uint64_t first, cl_uint chunk) {
    store_(clf::Range::linear(chunk), clf::read_only(level_values), offset, chunk, cl_ulong(first),
           clf::read_write(lower_));
  });
}

}  // namespace mankalah::endgame
