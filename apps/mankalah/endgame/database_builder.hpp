// Builds the missing levels of an endgame database folder in order, on OpenCL devices or on the
// CPU, keeping the valid levels already there (so a build resumes) and rebuilding damaged ones:
// what `cl-mankalah db build` and the window's "build the databases" run. The device build may
// be shared by several devices and by several processes (mpirun): process 0 alone reads and
// writes the folder and decides which levels to keep, the others follow its decisions.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>

namespace clf {
class DeviceSet;
class ProcessGroup;
}  // namespace clf

namespace mankalah::endgame {

struct DatabaseBuild {
  std::filesystem::path dir;
  int max_stones = 12;          // levels 0..max_stones
  std::string builder = "gpu";  // gpu (the OpenCL device) or cpu (the reference builder)
  unsigned threads = 0;         // cpu builder threads (0: one per core)
  std::function<const clf::DeviceSet&()> devices;  // for the gpu builder (each level split)
  const clf::ProcessGroup* group = nullptr;  // the processes sharing the build (null: this one)
  const std::atomic<bool>* stop = nullptr;   // checked between levels (on every process)
};

// Getting the devices ready, before the first level they build.
struct DeviceSetup {
  double seconds = 0;  // the devices opened, their programs built, the levels below loaded
  std::uint64_t pinned_bytes = 0;  // host memory pinned for the level arrays
  double pinning_seconds = 0;      // of `seconds`, pinning it
};

// After each level: what was done and how far the whole build is.
struct LevelDone {
  int level = 0;
  std::uint64_t positions = 0;        // in this level
  bool kept = false;                  // a valid file was there already
  double seconds = 0;                 // to build it (0 when kept)
  int passes = 0;                     // device passes (gpu builder)
  double exchange_seconds = 0;        // of `seconds`, copying the level between devices/processes
  double least_busy_seconds = 0;      // the device (of this process) busy least building its share
  double most_busy_seconds = 0;       // and the one busy most
  double most_read_seconds = 0;       // the longest a device spent reading its share back
  DeviceSetup setup;                  // before this level (the first level the devices build)
  std::uint64_t positions_left = 0;   // in the levels above it, up to max_stones
  double elapsed_seconds = 0;         // since the build began
  std::uint64_t built_positions = 0;  // in the levels built (not kept) so far, this one included
  double built_seconds = 0;           // building them
};

// Builds levels 0..build.max_stones; calls `on_level` after each one (on every process; the
// figures are this process's). Returns false when stopped first. Every process of build.group
// calls it at once; only process 0 reads and writes build.dir. A damaged file is reported on `err`
// and rebuilt. Throws DatabaseError (a file cannot be written) and std::invalid_argument (bad
// settings, naming them).
bool build_database(const DatabaseBuild& build,
                    const std::function<void(const LevelDone&)>& on_level, std::ostream& err);

// A guess of the time left at the rate of the levels built so far (a low guess, as a larger
// level costs more per position); negative while too little was built to tell.
double seconds_left(const LevelDone& done);

}  // namespace mankalah::endgame
