// What the sort-probe modes share (apps/cl-bench/tools/sort_probe.cpp has their description).
#pragma once

#include <string>
#include <vector>

#include "framework/clf.hpp"

namespace sort_probe {

std::vector<std::string> split(const std::string& s, char c);
// The middle value (the upper one of an even count); 0 for none.
double median(std::vector<double> v);
// The same n pseudo-random keys every run (splitmix64).
std::vector<cl_uint> random_keys(std::size_t n);
// A count on the command line (N, RUNS) read as cl-bench reads sizes ("2^28", "1M", "1000");
// anything else, or below `least`, ends the program with a usage error naming the argument.
std::size_t count_argument(const char* name, const char* text, std::size_t least);

// The --wginfo mode (sort_probe_wginfo.cpp) and the --raw mode (sort_probe_raw.cpp).
int wginfo(clf::Runtime& rt, int argc, char** argv);
int raw(clf::Runtime& rt, int argc, char** argv);

}  // namespace sort_probe
