#include "apps/mankalah/endgame/gpu_builder.hpp"

#include <algorithm>
#include <string>

namespace mankalah::endgame {

namespace {

// Positions per launch: bounded so a launch's ids fit 32 bits and no launch runs for long.
constexpr std::uint64_t kLaunchPositions = std::uint64_t{1} << 22;

// Runs `launch(first, count)` over `total` positions in launches of at most kLaunchPositions.
template <typename Launch>
void in_launches(std::uint64_t total, Launch launch) {
  for (std::uint64_t first = 0; first < total; first += kLaunchPositions) {
    launch(first, static_cast<cl_uint>(std::min(kLaunchPositions, total - first)));
  }
}

}  // namespace

GpuLevelBuilder::GpuLevelBuilder(clf::Runtime& runtime, int max_level)
    : runtime_(runtime),
      max_level_(max_level),
      // One byte at least: an OpenCL buffer cannot be empty.
      lower_(runtime, std::max<std::uint64_t>(1, kalah_endgame_level_offset(max_level))),
      pass_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"), "endgame_level_pass"),
      store_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
             "endgame_store_level") {
  if (max_level < 0 || max_level > KALAH_ENDGAME_MAX_LEVEL) {
    throw clf::Error("endgame levels go up to " + std::to_string(KALAH_ENDGAME_MAX_LEVEL) +
                     ", not " + std::to_string(max_level));
  }
}

std::vector<cl_char> GpuLevelBuilder::build_next(int* passes) {
  const int n = levels_;
  if (n > max_level_)
    throw clf::Error("GpuLevelBuilder: level " + std::to_string(n) + " not planned");
  const std::uint64_t count = kalah_endgame_level_size(n);
  clf::Buffer<cl_char> values(runtime_, count);  // zeros: any start reaches the fixed point
  clf::Buffer<cl_int> changed(runtime_, 1);
  int made = 0;
  do {
    changed.host_mutable()[0] = 0;
    in_launches(count, [&](std::uint64_t first, cl_uint chunk) {
      pass_(clf::Range::linear(chunk), clf::read_only(lower_), cl_int(n), cl_ulong(first), chunk,
            clf::read_write(values), clf::read_write(changed));
    });
    ++made;
  } while (changed.host()[0] != 0);
  if (passes != nullptr) *passes = made;
  store(values);
  return values.host();
}

void GpuLevelBuilder::add_next(const cl_char* values) {
  const std::uint64_t count = kalah_endgame_level_size(levels_);
  clf::Buffer<cl_char> level_values(runtime_, std::vector<cl_char>(values, values + count));
  store(level_values);
}

void GpuLevelBuilder::store(clf::Buffer<cl_char>& level_values) {
  const int n = levels_++;
  if (n >= max_level_) return;  // no planned level reads it
  const cl_ulong offset = kalah_endgame_level_offset(n);
  in_launches(level_values.size(), [&](std::uint64_t first, cl_uint chunk) {
    store_(clf::Range::linear(chunk), clf::read_only(level_values), offset, chunk, cl_ulong(first),
           clf::read_write(lower_));
  });
}

}  // namespace mankalah::endgame
