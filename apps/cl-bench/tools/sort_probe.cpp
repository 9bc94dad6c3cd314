// sort-probe: times the default sort (Onesweep on NVIDIA) under many configurations in one
// process, launch by launch, for tuning on a GPU you hold briefly (docs/sort.md, "How it was
// measured"). Usage:
//   sort-probe N RUNS 'label|VAR=VAL|...' ...
// VARs are the Sorter's environment knobs (CLF_SORT_WG, CLF_SORT_ITEMS, CLF_SORT_ITEMS_FLOAT,
// CLF_SORT_LOOKBACK, CLF_SORT_RANK, CLF_SORT_OPTIONS, CLF_SORT_HIST_GROUPS_PER_CU), set before
// each Sorter is made, plus KV=1 (uint32 values), FLOAT=1 (the keys' bits as float32) and
// NOVERIFY=1. uint32 results are checked against a CPU sort unless NOVERIFY=1 (needed with
// CLF_SORT_OPTIONS=-DSORT_PROBE=..., which leaves steps out); float32 results are not checked
// (cl-bench does). Each line: median span of RUNS sorts, then the median time of each launch
// in order (init, histogram, scan, the four passes).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/sort_reference.hpp"

static std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = s.find(c, start);
    out.push_back(s.substr(start, at - start));
    if (at == std::string::npos) break;
    start = at + 1;
  }
  return out;
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: sort-probe N RUNS 'label|VAR=VAL|...' ...\n");
    return 2;
  }
  const std::size_t n = std::strtoull(argv[1], nullptr, 10);
  const int runs = std::atoi(argv[2]);
  clf::DeviceRequest request = clf::DeviceRequest::from_environment();
  request.profiling = true;
  clf::Runtime rt(request);
  std::vector<cl_uint> keys(n), values(n);
  std::uint64_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = static_cast<cl_uint>(z ^ (z >> 31));
    values[i] = static_cast<cl_uint>(i);
  }
  std::vector<cl_uint> sorted = keys;
  clf::primitives::reference::radix_sort16(sorted);
  clf::DeviceBuffer<cl_uint> in_k(rt, n), work_k(rt, n), in_v(rt, n), work_v(rt, n);
  clf::DeviceBuffer<cl_float> work_f(rt, n);
  in_k.write(keys);
  in_v.write(values);
  const char* knobs[] = {
      "CLF_SORT_WG",   "CLF_SORT_ITEMS",   "CLF_SORT_ITEMS_FLOAT",       "CLF_SORT_LOOKBACK",
      "CLF_SORT_RANK", "CLF_SORT_OPTIONS", "CLF_SORT_HIST_GROUPS_PER_CU"};
  for (int a = 3; a < argc; ++a) {
    std::vector<std::string> parts = split(argv[a], '|');
    for (const char* k : knobs) unsetenv(k);
    bool kv = false, verify = true, fl = false;
    for (std::size_t p = 1; p < parts.size(); ++p) {
      std::size_t eq = parts[p].find('=');
      std::string name = parts[p].substr(0, eq), value = parts[p].substr(eq + 1);
      if (name == "KV")
        kv = value == "1";
      else if (name == "NOVERIFY")
        verify = value != "1";
      else if (name == "FLOAT")
        fl = value == "1";
      else
        setenv(name.c_str(), value.c_str(), 1);
    }
    try {
      clf::primitives::Sorter sorter(rt, "default");
      auto copy_inputs = [&] {
        clf::check(
            rt.queue().enqueueCopyBuffer(in_k.mem(), fl ? work_f.mem() : work_k.mem(), 0, 0, n * 4),
            "copy", {"", "", ""});
        if (kv)
          clf::check(rt.queue().enqueueCopyBuffer(in_v.mem(), work_v.mem(), 0, 0, n * 4), "copy",
                     {"", "", ""});
      };
      auto run = [&] {
        if (fl && kv)
          sorter.sort(work_f, work_v);
        else if (fl)
          sorter.sort(work_f);
        else if (kv)
          sorter.sort(work_k, work_v);
        else
          sorter.sort(work_k);
      };
      copy_inputs();
      run();
      rt.finish();
      std::string status = "unchecked";
      if (verify && !fl) {
        std::vector<cl_uint> out = work_k.read();
        status = out == sorted ? "ok" : "WRONG-KEYS";
        if (kv && status == "ok") {
          std::vector<cl_uint> ov = work_v.read();
          for (std::size_t i = 0; i < n; ++i) {
            if (ov[i] >= n || keys[ov[i]] != out[i] ||
                (i > 0 && out[i] == out[i - 1] && ov[i] <= ov[i - 1])) {
              status = "WRONG-VALUES";
              break;
            }
          }
        }
      }
      std::vector<std::vector<double>> per;
      std::vector<double> spans;
      for (int r = 0; r < runs; ++r) {
        copy_inputs();
        rt.finish();
        rt.start_recording();
        run();
        std::vector<clf::Event> events = rt.stop_recording();
        rt.finish();
        if (per.size() < events.size()) per.resize(events.size());
        std::uint64_t first = ~0ull, last = 0;
        for (std::size_t e = 0; e < events.size(); ++e) {
          per[e].push_back(events[e].duration_ms());
          first = std::min(first, events[e].start_ns());
          last = std::max(last, events[e].end_ns());
        }
        spans.push_back((last - first) * 1e-6);
      }
      const double ms = median(spans);
      std::printf("%-28s %s%s %-9s %8.3f ms %7.2f Gkeys/s |", parts[0].c_str(), fl ? "f" : "u",
                  kv ? "kv" : "k ", status.c_str(), ms, n / ms * 1e-6);
      for (auto& v : per) std::printf(" %.3f", median(v));
      std::printf("\n");
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::printf("%-28s ERROR %s\n", parts[0].c_str(), e.what());
      std::fflush(stdout);
    }
  }
}
