// cl-bench's plots: what plot_bench.py draws from the JSON it writes (atomically, main.cpp).
#pragma once

#include <string>

namespace bench {

// Runs plot_bench.py on the JSON at `json_path`, one PNG per primitive into `directory`, with
// $CL_BENCH_PYTHON, else python3 from PATH and, should that one lack matplotlib (a pyenv or venv
// python), Debian's /usr/bin/python3, where python3-matplotlib installs. Returns false (having
// said why) when no plot was drawn.
bool plot(const std::string& json_path, const std::string& directory);

}  // namespace bench
