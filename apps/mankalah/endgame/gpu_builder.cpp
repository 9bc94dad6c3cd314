#include "apps/mankalah/endgame/gpu_builder.hpp"

#include <algorithm>
#include <string>

namespace mankalah::endgame {

namespace {

// Positions per launch: bounded so a launch's ids fit 32 bits and no launch runs for long.
constexpr std::uint64_t kLaunchPositions = std::uint64_t{1} << 22;
// Work-group size of the list copies (a driver left to choose may pick tiny groups for an odd
// count of listed positions).
constexpr std::size_t kListGroup = 64;

// Runs `launch(first, count)` over positions [begin, end) in launches of at most
// kLaunchPositions.
template <typename Launch>
void in_launches(std::uint64_t begin, std::uint64_t end, Launch launch) {
  for (std::uint64_t first = begin; first < end; first += kLaunchPositions) {
    launch(first, static_cast<cl_uint>(std::min(kLaunchPositions, end - first)));
  }
}

}  // namespace

GpuLevelBuilder::GpuLevelBuilder(clf::Runtime& runtime, int max_level)
    : runtime_(runtime),
      max_level_(max_level),
      // One byte at least: an OpenCL buffer cannot be empty.
      lower_(runtime, std::max<std::uint64_t>(1, kalah_endgame_level_offset(max_level))),
      level_(runtime, 1),
      changed_(runtime, 1),
      pass_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"), "endgame_level_pass"),
      store_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
             "endgame_store_level"),
      pass_marked_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
                   "endgame_level_pass_marked"),
      gather_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
              "endgame_gather_listed"),
      scatter_(runtime, clf::kernel_source("kernels/mankalah/endgame_level.cl"),
               "endgame_scatter_listed"),
      marks_(runtime, 1),
      offsets_(runtime, 1),
      listed_count_(runtime, 1),
      packed_(runtime, 1) {
  if (max_level < 0 || max_level > KALAH_ENDGAME_MAX_LEVEL) {
    throw clf::Error("endgame levels go up to " + std::to_string(KALAH_ENDGAME_MAX_LEVEL) +
                     ", not " + std::to_string(max_level));
  }
}

std::vector<cl_char> GpuLevelBuilder::build_next(int* passes) {
  begin_level();
  const std::uint64_t count = kalah_endgame_level_size(levels_);
  int made = 0;
  while (pass(clf::WorkRange{0, count})) ++made;
  if (passes != nullptr) *passes = made + 1;  // the last pass, which changed nothing, too
  std::vector<cl_char> values(count);
  read_values(clf::WorkRange{0, count}, values.data());
  finish_level();
  return values;
}

void GpuLevelBuilder::begin_level() {
  const int n = levels_;
  if (n > max_level_)
    throw clf::Error("GpuLevelBuilder: level " + std::to_string(n) + " not planned");
  // Zeros: any start reaches the fixed point.
  level_ = clf::DeviceBuffer<cl_char>(runtime_, kalah_endgame_level_size(n));
  level_.fill_zero();
}

bool GpuLevelBuilder::pass(clf::WorkRange part) {
  changed_.host_mutable()[0] = 0;
  in_launches(part.begin, part.end, [&](std::uint64_t first, cl_uint chunk) {
    pass_(clf::Range::linear(chunk), clf::read_only(lower_), cl_int(levels_), cl_ulong(first),
          chunk, clf::read_write(level_), clf::read_write(changed_));
  });
  return changed_.host()[0] != 0;
}

void GpuLevelBuilder::read_values(clf::WorkRange part, cl_char* level_values) const {
  level_.read_range(part.begin, level_values + part.begin, part.size());
}

void GpuLevelBuilder::write_values(clf::WorkRange part, const cl_char* level_values) {
  level_.write_range(part.begin, level_values + part.begin, part.size());
}

void GpuLevelBuilder::pass_and_read_changes(clf::WorkRange part, cl_char* level_values,
                                            PartChanges* changes) {
  *changes = PartChanges{};
  if (part.size() > clf::primitives::kMaxScanElements) {  // too many to list: the whole part
    changes->any = changes->whole = pass(part);
    if (changes->whole) read_values(part, level_values);
    return;
  }
  const std::size_t listed = list_changed(part);
  changes->any = listed > 0;
  // A listed position costs 5 bytes, a position of the whole part 1.
  if (listed == 0 || listed * 5 >= part.size()) {
    changes->whole = changes->any;
    if (changes->whole) read_values(part, level_values);
    return;
  }
  if (packed_.size() < listed) packed_ = clf::DeviceBuffer<cl_char>(runtime_, listed);
  gather_(clf::Range::linear(listed, kListGroup), clf::read_only(level_), cl_ulong(part.begin),
          clf::read_only(offsets_), cl_uint(listed), clf::read_write(packed_));
  changes->offsets.resize(listed);
  changes->values.resize(listed);
  offsets_.read_range(0, changes->offsets.data(), listed);
  packed_.read_range(0, changes->values.data(), listed);
  for (std::size_t i = 0; i < listed; ++i) {
    level_values[part.begin + changes->offsets[i]] = changes->values[i];
  }
}

std::size_t GpuLevelBuilder::list_changed(clf::WorkRange part) {
  if (marks_.size() < part.size()) marks_ = clf::DeviceBuffer<std::uint32_t>(runtime_, part.size());
  if (offsets_.size() < part.size()) {
    offsets_ = clf::DeviceBuffer<std::uint32_t>(runtime_, part.size());
  }
  if (!compact_) compact_ = std::make_unique<clf::primitives::Compact<std::uint32_t>>(runtime_);
  in_launches(part.begin, part.end, [&](std::uint64_t first, cl_uint chunk) {
    pass_marked_(clf::Range::linear(chunk), clf::read_only(lower_), cl_int(levels_),
                 cl_ulong(first), chunk, clf::read_write(level_), clf::read_write(marks_),
                 cl_ulong(part.begin));
  });
  compact_->indices(marks_, offsets_, listed_count_, part.size(),
                    clf::primitives::Predicate<std::uint32_t>::nonzero());
  return listed_count_.read()[0];
}

void GpuLevelBuilder::write_changes(clf::WorkRange part, const PartChanges& changes,
                                    const cl_char* level_values) {
  if (!changes.any) return;
  if (changes.whole) {
    write_values(part, level_values);
    return;
  }
  const std::size_t listed = changes.offsets.size();
  if (offsets_.size() < listed) offsets_ = clf::DeviceBuffer<std::uint32_t>(runtime_, listed);
  if (packed_.size() < listed) packed_ = clf::DeviceBuffer<cl_char>(runtime_, listed);
  offsets_.write_range(0, changes.offsets.data(), listed);
  packed_.write_range(0, changes.values.data(), listed);
  scatter_(clf::Range::linear(listed, kListGroup), clf::read_write(level_), cl_ulong(part.begin),
           clf::read_only(offsets_), cl_uint(listed), clf::read_only(packed_));
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
