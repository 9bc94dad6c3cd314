#include "apps/mankalah/endgame/database_builder.hpp"

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "apps/mankalah/endgame/cpu_builder.hpp"
#include "apps/mankalah/endgame/level_file.hpp"
#include "apps/mankalah/endgame/split_builder.hpp"
#include "framework/process_group.hpp"
#include "framework/stopwatch.hpp"

namespace mankalah::endgame {

namespace {

using clf::seconds_since;

bool several(const clf::ProcessGroup* group) { return group != nullptr && group->size() > 1; }

// Level files written on a thread of their own, so that writing level n overlaps building level
// n + 1; at most one write is under way, and its errors come out of the next call.
class LevelWriter {
 public:
  explicit LevelWriter(std::filesystem::path dir) : dir_(std::move(dir)) {}
  ~LevelWriter() {
    if (pending_.valid()) pending_.wait();  // a failed build does not leave a thread behind
  }
  // Waits for the previous write, then starts writing `values` as level `level`. The values
  // must stay as they are until the next write() or finish() returns.
  void write(int level, const cl_char* values, std::size_t count) {
    finish();
    pending_ = std::async(std::launch::async, [this, level, values, count] {
      write_level(dir_, level, values, count);
      return LevelFile::open(level_path(dir_, level), level, LevelCheck::header);
    });
  }
  // Waits for the write under way; the files written so far, in level order.
  std::vector<LevelFile>& finish() {
    if (pending_.valid()) files_.push_back(pending_.get());
    return files_;
  }
  void keep(LevelFile file) {
    finish();
    files_.push_back(std::move(file));
  }

 private:
  std::filesystem::path dir_;
  std::future<LevelFile> pending_;
  std::vector<LevelFile> files_;  // levels 0..n-1 written or kept
};

// Process 0's `decision`, on every process.
bool decided_by_root(const clf::ProcessGroup* group, bool decision) {
  if (!several(group)) return decision;
  return group->sum(group->is_root() && decision ? 1 : 0) > 0;
}

// Whether any process was asked to stop.
bool stop_asked(const DatabaseBuild& build) {
  const bool here = build.stop != nullptr && build.stop->load();
  return several(build.group) ? build.group->sum(here ? 1 : 0) > 0 : here;
}

void check_settings(const DatabaseBuild& build) {
  if (build.max_stones < 0 || build.max_stones > KALAH_ENDGAME_MAX_LEVEL) {
    throw std::invalid_argument("--max-stones must be 0.." +
                                std::to_string(KALAH_ENDGAME_MAX_LEVEL) + ", not " +
                                std::to_string(build.max_stones));
  }
  if (build.builder != "gpu" && build.builder != "cpu") {
    throw std::invalid_argument("--builder must be gpu or cpu, not " + build.builder);
  }
  if (build.builder == "cpu" && several(build.group)) {
    throw std::invalid_argument("--builder cpu runs in one process: run it without mpirun");
  }
}

// Opens the devices for a build whose first level to build is n: the split builder, given levels
// 0..n-1 (`lower`: their values on process 0, null elsewhere), and the two arrays levels are built
// into in turn, each pinned once for the largest level it will hold.
DeviceSetup start_devices(const DatabaseBuild& build, int n,
                          const std::vector<const cl_char*>& lower,
                          std::unique_ptr<SplitLevelBuilder>& gpu,
                          std::vector<LevelValues>& level_arrays) {
  DeviceSetup setup;
  const auto start = std::chrono::steady_clock::now();
  gpu = std::make_unique<SplitLevelBuilder>(build.devices(), build.group, build.max_stones);
  for (const cl_char* values : lower) gpu->add_next(values);
  const auto pin_start = std::chrono::steady_clock::now();
  for (int slot = 0; slot < 2; ++slot) level_arrays.push_back(gpu->new_level_values());
  for (int m = std::max(n, build.max_stones - 1); m <= build.max_stones; ++m) {
    level_arrays[static_cast<std::size_t>(m % 2)].reserve(kalah_endgame_level_size(m));
    setup.pinned_bytes += kalah_endgame_level_size(m);
  }
  setup.pinning_seconds = seconds_since(pin_start);
  setup.seconds = seconds_since(start);
  return setup;
}

// The devices' times in the level just built, into its report.
void add_device_times(const SplitLevelBuilder& gpu, LevelDone& done) {
  const SplitLevelBuilder::Times& times = gpu.last_times();
  const std::vector<double>& busy = times.device_seconds;
  done.least_busy_seconds = *std::min_element(busy.begin(), busy.end());
  done.most_busy_seconds = *std::max_element(busy.begin(), busy.end());
  done.most_read_seconds = *std::max_element(times.read_seconds.begin(), times.read_seconds.end());
  done.exchange_seconds = times.exchange_seconds;
}

}  // namespace

double seconds_left(const LevelDone& done) {
  if (done.positions_left == 0) return 0;
  if (done.built_seconds < 0.2 || done.built_positions == 0) return -1;
  return static_cast<double>(done.positions_left) * done.built_seconds /
         static_cast<double>(done.built_positions);
}

bool build_database(const DatabaseBuild& build,
                    const std::function<void(const LevelDone&)>& on_level, std::ostream& err) {
  check_settings(build);
  const bool root = !several(build.group) || build.group->is_root();
  const auto start = std::chrono::steady_clock::now();
  const int last = build.max_stones;
  std::uint64_t left = kalah_endgame_level_offset(last + 1);  // positions still to visit
  // Levels are built into these in turn: one is being written while the next builds. Declared
  // before the writer, whose destructor waits for a write still reading one of them.
  std::vector<LevelValues> device_values;
  std::vector<cl_char> host_values[2];
  LevelWriter files(build.dir);  // levels 0..n-1, on process 0
  std::unique_ptr<SplitLevelBuilder> gpu;
  std::uint64_t built_positions = 0;
  double built_seconds = 0;
  // What every level's report says of the whole build so far.
  const auto progress = [&](int n, std::uint64_t count) {
    LevelDone done;
    done.level = n;
    done.positions = count;
    done.positions_left = left;
    done.elapsed_seconds = seconds_since(start);
    done.built_positions = built_positions;
    done.built_seconds = built_seconds;
    return done;
  };
  for (int n = 0; n <= last; ++n) {
    if (stop_asked(build)) {
      if (root) files.finish();
      return false;
    }
    const std::uint64_t count = kalah_endgame_level_size(n);
    left -= count;
    std::optional<LevelFile> kept = root ? open_valid_level(build.dir, n, err) : std::nullopt;
    if (decided_by_root(build.group, kept.has_value())) {
      if (gpu) gpu->add_next(root ? kept->values() : nullptr);
      if (root) files.keep(std::move(*kept));
      LevelDone done = progress(n, count);
      done.kept = true;
      on_level(done);
      continue;
    }
    // A damaged file is rebuilt too: its message came first.
    DeviceSetup setup;
    if (build.builder == "gpu" && !gpu) {
      std::vector<const cl_char*> lower(static_cast<std::size_t>(n), nullptr);
      if (root) {
        for (std::size_t m = 0; m < lower.size(); ++m) lower[m] = files.finish()[m].values();
      }
      setup = start_devices(build, n, lower, gpu, device_values);
    }
    const auto level_start = std::chrono::steady_clock::now();
    // The slot level n - 2 used: its write ended when level n - 1's began.
    const auto slot = static_cast<std::size_t>(n % 2);
    const cl_char* values = nullptr;
    int passes = 0;
    if (gpu) {
      gpu->build_next(device_values[slot], &passes);
      values = device_values[slot].data();
    } else {
      std::vector<const cl_char*> lower;
      for (const LevelFile& file : files.finish()) lower.push_back(file.values());
      host_values[slot] = build_level_cpu(n, lower, build.threads);
      values = host_values[slot].data();
    }
    const double seconds = seconds_since(level_start);
    if (root) files.write(n, values, count);
    built_positions += count;
    built_seconds += seconds;
    LevelDone done = progress(n, count);
    done.seconds = seconds;
    done.passes = passes;
    done.setup = setup;
    if (gpu) add_device_times(*gpu, done);
    on_level(done);
  }
  if (root) files.finish();
  return true;
}

}  // namespace mankalah::endgame
