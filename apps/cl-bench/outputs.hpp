// cl-bench's files: the JSON and CSV it writes and the plots plot_bench.py draws from them.
#pragma once

#include <string>

namespace bench {

// Writes `text` to `path` whole or not at all (a temporary file renamed over it), creating its
// folder; throws clf::Error (a std::runtime_error) naming the file when it cannot.
void write_file(const std::string& path, const std::string& text);

// Runs plot_bench.py on the JSON at `json_path`, one PNG per primitive into `directory`, with
// $CL_BENCH_PYTHON, else python3 from PATH and, should that one lack matplotlib (a pyenv or venv
// python), Debian's /usr/bin/python3, where python3-matplotlib installs. Returns false (having
// said why) when no plot was drawn.
bool plot(const std::string& json_path, const std::string& directory);

}  // namespace bench
