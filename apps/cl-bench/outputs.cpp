#include "apps/cl-bench/outputs.hpp"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <vector>

namespace bench {

namespace {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// plot_bench.py beside the executable (the build copies it there), else in the source tree.
fs::path plot_script() {
  std::error_code error;
  fs::path beside = fs::read_symlink("/proc/self/exe", error).parent_path() / "plot_bench.py";
  if (!error && fs::exists(beside)) return beside;
  return fs::path(CL_BENCH_SOURCE_DIR) / "plot_bench.py";
}

}  // namespace

// Runs plot_bench.py on the JSON with $CL_BENCH_PYTHON, else python3 from PATH and, should that
// one lack matplotlib (a pyenv or venv python), Debian's /usr/bin/python3, where
// python3-matplotlib installs. Returns false (having said why) when no plot was drawn.
bool plot(const std::string& json_path, const std::string& directory) {
  const fs::path script = plot_script();
  if (!fs::exists(script)) {
    std::cerr << "cl-bench: --plot: " << script << " is missing\n";
    return false;
  }
  std::vector<std::string> pythons = {"python3"};
  if (const char* chosen = std::getenv("CL_BENCH_PYTHON"); chosen != nullptr && *chosen != 0) {
    pythons = {chosen};
  } else if (fs::exists("/usr/bin/python3")) {
    pythons.push_back("/usr/bin/python3");
  }
  // The first python that imports matplotlib; if none does, the first, whose run of the script
  // then says that matplotlib is missing.
  std::string python = pythons.front();
  for (const std::string& candidate : pythons) {
    const std::string probe = shell_quote(candidate) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) {
      python = candidate;
      break;
    }
  }
  const std::string command = shell_quote(python) + " " + shell_quote(script.string()) + " " +
                              shell_quote(json_path) + " --out " + shell_quote(directory);
  std::cout.flush();  // the script's lines come after ours
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0) return true;
  if (code == 127) {
    std::cerr << "cl-bench: --plot needs python3 with matplotlib; python3 was not found "
                 "(Debian: apt-get install python3-matplotlib)\n";
  } else if (code == 3) {
    std::cerr << "cl-bench: --plot drew nothing because matplotlib is missing; the results are "
                 "in "
              << json_path << "\n";
  } else {
    std::cerr << "cl-bench: --plot: " << command << " failed (exit " << code << ")\n";
  }
  return false;
}

}  // namespace bench
