// Builds the missing levels of an endgame database folder in order, on an OpenCL device or on the
// CPU, keeping the valid levels already there (so a build resumes) and rebuilding damaged ones:
// what `cl-mankalah db build` and the window's "build the databases" run.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>

namespace clf {
class Runtime;
}

namespace mankalah::endgame {

struct DatabaseBuild {
  std::filesystem::path dir;
  int max_stones = 12;                     // levels 0..max_stones
  std::string builder = "gpu";             // gpu (the OpenCL device) or cpu (the reference builder)
  unsigned threads = 0;                    // cpu builder threads (0: one per core)
  std::function<clf::Runtime&()> runtime;  // the device, for the gpu builder
  const std::atomic<bool>* stop = nullptr;  // checked between levels
};

// After each level: what was done and how far the whole build is.
struct LevelDone {
  int level;
  std::uint64_t positions;       // in this level
  bool kept;                     // a valid file was there already
  double seconds;                // to build it (0 when kept)
  int passes;                    // device passes (gpu builder)
  std::uint64_t positions_left;  // in the levels above it, up to max_stones
  double elapsed_seconds;        // since the build began
};

// Builds levels 0..build.max_stones; calls `on_level` after each one. Returns false when stopped
// first. A damaged file is reported on `err` and rebuilt. Throws DatabaseError (a file cannot be
// written) and std::invalid_argument (bad settings, naming them).
bool build_database(const DatabaseBuild& build,
                    const std::function<void(const LevelDone&)>& on_level, std::ostream& err);

// A guess of the time left from the levels built so far: the last level's rate, which is a low
// guess, as a larger level costs more per position.
double seconds_left(const LevelDone& done);

}  // namespace mankalah::endgame
