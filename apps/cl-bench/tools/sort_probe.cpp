// sort-probe: times the default sort (Onesweep on NVIDIA) under many configurations in one
// process, launch by launch, for tuning on a GPU you hold briefly (docs/sort.md, "How it was
// measured"). Usage:
//   sort-probe N RUNS 'label|VAR=VAL|...' ...
// VARs are the lab's sort knobs (apps/cl-bench/tuning_knobs.hpp: CLF_SORT_WG, CLF_SORT_ITEMS,
// CLF_SORT_ITEMS_FLOAT, CLF_SORT_ITEMS_KV, CLF_SORT_RAW_KEYS, CLF_SORT_UNSTABLE_FIRST,
// CLF_SORT_ITEMS_FIRST, CLF_SORT_LARGE_KV, CLF_SORT_PAIRS, CLF_SORT_LOOKBACK, CLF_SORT_RANK,
// CLF_SORT_OPTIONS, CLF_SORT_HIST_GROUPS_PER_CU), turned into the SortConfig of each Sorter,
// plus KV=1 (uint32 values), FLOAT=1 / INT=1 (the keys' bits as float32 / int32),
// VARIANT=name (a sort variant other than "default") and NOVERIFY=1. Results (keys; values:
// permutation and stability) are checked against a CPU sort of the same bits as the key type
// unless NOVERIFY=1. With KEY_BITS=k in the environment (1 to 32) the keys keep only their low k
// bits, as keys of a small range (Morton codes, cell ids, small integers) do, and LOW_BITS=1 sorts
// uint32 keys by those bits only (KeyBits{k}).
// Each line: median span of RUNS sorts, then the median time of each launch in order (the
// histogram, the four passes; the untimed first sort also zeroes the Sorter's new buffers).
//
//   sort-probe --wginfo 'label|build options|file' ...
// builds `file` (an embedded kernel file, or "mini": small kernels with and without inline PTX,
// barriers and reqd_work_group_size, WG work-items) with the options plus -cl-nv-verbose (and
// -clf-nv-maxnreg=N applied as the framework does, so ptxas reports the capped build), and
// prints for every kernel CL_KERNEL_WORK_GROUP_SIZE, local and private memory, the ptxas lines
// of the build log and the PTX's .maxntid/.reqntid/.maxnreg lines; "mini" kernels are also
// launched with WG work-items (and their output checked) to see whether the driver takes more
// than it reports. With PTX_DIR set, each build's PTX is written to PTX_DIR/label.ptx.
//
//   sort-probe --raw N RUNS WGxITEMS ...
// sorts N uint32 keys with the onesweep kernels (early counts, NVIDIA ranking, the unstable first
// pass) launched directly with work-groups of WG, bypassing clf::CLKernel's check against
// CL_KERNEL_WORK_GROUP_SIZE (which this driver reports as 256 for every kernel); checks the
// result, prints timings as above.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "apps/cl-bench/tools/sort_probe_common.hpp"
#include "apps/cl-bench/tuning_knobs.hpp"
#include "framework/clf.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/primitives/sort_reference.hpp"

using sort_probe::count_argument;
using sort_probe::median;
using sort_probe::random_keys;
using sort_probe::split;

// Bits as K (cl_uint, cl_int or cl_float) and back.
template <typename K>
static std::vector<K> as_type(const std::vector<cl_uint>& bits) {
  std::vector<K> typed(bits.size());
  std::memcpy(typed.data(), bits.data(), bits.size() * sizeof(cl_uint));
  return typed;
}
template <typename K>
static std::vector<cl_uint> bits_of(const std::vector<K>& typed) {
  std::vector<cl_uint> bits(typed.size());
  std::memcpy(bits.data(), typed.data(), typed.size() * sizeof(cl_uint));
  return bits;
}

// The CPU sort of `keys` read as K, as bits.
template <typename K>
static std::vector<cl_uint> sorted_as(const std::vector<cl_uint>& keys) {
  std::vector<K> typed = as_type<K>(keys);
  clf::primitives::reference::radix_sort16(typed);
  return bits_of(typed);
}

// The sweep mode's inputs: N keys (and values 0..N-1) on the host and the device, the CPU sorts
// of the keys' bits as each key type (made when first asked for), and work buffers of each type.
struct SweepInputs {
  SweepInputs(clf::Runtime& rt, std::size_t count, unsigned bits)
      : n(count),
        key_bits(bits),
        keys(random_keys(count)),
        values(count),
        in_k(rt, count),
        work_k(rt, count),
        in_v(rt, count),
        work_v(rt, count),
        work_f(rt, count),
        work_i(rt, count) {
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<cl_uint>(i);
    if (key_bits < 32) {
      for (cl_uint& key : keys) key &= (1u << key_bits) - 1;
    }
    in_k.write(keys);
    in_v.write(values);
  }
  // kind: 'u', 'i' or 'f'.
  const std::vector<cl_uint>& sorted(char kind) {
    std::vector<cl_uint>& bits = sorted_bits[kind];
    if (bits.empty() && n != 0) {
      bits = kind == 'f'   ? sorted_as<cl_float>(keys)
             : kind == 'i' ? sorted_as<cl_int>(keys)
                           : sorted_as<cl_uint>(keys);
    }
    return bits;
  }
  std::size_t n;
  unsigned key_bits;
  std::vector<cl_uint> keys, values;
  std::map<char, std::vector<cl_uint>> sorted_bits;
  clf::DeviceBuffer<cl_uint> in_k, work_k, in_v, work_v;
  clf::DeviceBuffer<cl_float> work_f;
  clf::DeviceBuffer<cl_int> work_i;
};

// One configuration of the sweep: 'label|VAR=VAL|...'.
struct SweepConfiguration {
  std::string label;
  std::map<std::string, std::string> knobs;
  bool kv = false, verify = true, fl = false, in = false, low_bits = false;
  char kind() const { return fl ? 'f' : in ? 'i' : 'u'; }

  explicit SweepConfiguration(const std::string& text) {
    std::vector<std::string> parts = split(text, '|');
    label = parts[0];
    for (std::size_t p = 1; p < parts.size(); ++p) {
      std::size_t eq = parts[p].find('=');
      std::string name = parts[p].substr(0, eq), value = parts[p].substr(eq + 1);
      if (name == "KV")
        kv = value == "1";
      else if (name == "NOVERIFY")
        verify = value != "1";
      else if (name == "FLOAT")
        fl = value == "1";
      else if (name == "INT")
        in = value == "1";
      else if (name == "LOW_BITS")
        low_bits = value == "1";
      else
        knobs[name] = value;
    }
  }
};

// "ok", "WRONG-KEYS", "WRONG-VALUES" (permutation or stability), or "unchecked".
static std::string check_sorted(SweepInputs& inputs, const SweepConfiguration& config) {
  if (!config.verify) return "unchecked";
  const std::vector<cl_uint> out = config.fl   ? bits_of(inputs.work_f.read())
                                   : config.in ? bits_of(inputs.work_i.read())
                                               : inputs.work_k.read();
  if (out != inputs.sorted(config.kind())) return "WRONG-KEYS";
  if (!config.kv) return "ok";
  const std::vector<cl_uint> ov = inputs.work_v.read();
  const std::size_t n = inputs.n;
  for (std::size_t i = 0; i < n; ++i) {
    if (ov[i] >= n || inputs.keys[ov[i]] != out[i] ||
        (i > 0 && out[i] == out[i - 1] && ov[i] <= ov[i - 1])) {
      return "WRONG-VALUES";
    }
  }
  return "ok";
}

// Sorts under one configuration: once checked, then RUNS times timed; prints one line.
static void sweep(clf::Runtime& rt, SweepInputs& inputs, int runs,
                  const SweepConfiguration& config) {
  const bench::KnobLookup lookup = [&](const char* name) {
    const auto found = config.knobs.find(name);
    return found == config.knobs.end() ? std::string() : found->second;
  };
  const std::string variant = lookup("VARIANT");
  clf::primitives::Sorter sorter(rt, variant.empty() ? "default" : variant,
                                 bench::sort_config(rt.device(), lookup));
  const std::size_t n = inputs.n;
  auto copy_inputs = [&] {
    clf::check(rt.queue().enqueueCopyBuffer(inputs.in_k.mem(),
                                            config.fl   ? inputs.work_f.mem()
                                            : config.in ? inputs.work_i.mem()
                                                        : inputs.work_k.mem(),
                                            0, 0, n * 4),
               "copy", {"", "", ""});
    if (config.kv)
      clf::check(rt.queue().enqueueCopyBuffer(inputs.in_v.mem(), inputs.work_v.mem(), 0, 0, n * 4),
                 "copy", {"", "", ""});
  };
  const clf::primitives::KeyBits key_bits{inputs.key_bits};
  auto run = [&] {
    if (config.low_bits && config.kv)
      sorter.sort(inputs.work_k, inputs.work_v, key_bits);
    else if (config.low_bits)
      sorter.sort(inputs.work_k, key_bits);
    else if (config.fl && config.kv)
      sorter.sort(inputs.work_f, inputs.work_v);
    else if (config.fl)
      sorter.sort(inputs.work_f);
    else if (config.in && config.kv)
      sorter.sort(inputs.work_i, inputs.work_v);
    else if (config.in)
      sorter.sort(inputs.work_i);
    else if (config.kv)
      sorter.sort(inputs.work_k, inputs.work_v);
    else
      sorter.sort(inputs.work_k);
  };
  copy_inputs();
  run();
  rt.finish();
  const std::string status = check_sorted(inputs, config);
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
  std::printf("%-28s %c%s %-9s %8.3f ms %7.2f Gkeys/s |", config.label.c_str(), config.kind(),
              config.kv ? "kv" : "k ", status.c_str(), ms, n / ms * 1e-6);
  for (auto& v : per) std::printf(" %.3f", median(v));
  std::printf("\n");
}

int main(int argc, char** argv) {
  if (argc >= 5 && std::strcmp(argv[1], "--raw") == 0) {
    clf::DeviceRequest request = clf::DeviceRequest::from_environment();
    request.profiling = true;
    clf::Runtime rt(request);
    return sort_probe::raw(rt, argc, argv);
  }
  if (argc >= 2 && std::strcmp(argv[1], "--wginfo") == 0) {
    clf::Runtime rt(clf::DeviceRequest::from_environment());
    return sort_probe::wginfo(rt, argc, argv);
  }
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: sort-probe N RUNS 'label|VAR=VAL|...' ...\n"
                 "       sort-probe --wginfo 'label|options|file' ...\n"
                 "       sort-probe --raw N RUNS WGxITEMS ...\n");
    return 2;
  }
  const std::size_t n = count_argument("N", argv[1], 0);
  const int runs = static_cast<int>(count_argument("RUNS", argv[2], 1));
  clf::DeviceRequest request = clf::DeviceRequest::from_environment();
  request.profiling = true;
  clf::Runtime rt(request);
  const char* bits_text = std::getenv("KEY_BITS");
  const unsigned key_bits = bits_text ? static_cast<unsigned>(std::atoi(bits_text)) : 32;
  if (key_bits < 1 || key_bits > 32) {
    std::fprintf(stderr, "sort-probe: KEY_BITS must be 1 to 32 (got '%s')\n", bits_text);
    return 2;
  }
  SweepInputs inputs(rt, n, key_bits);
  for (int a = 3; a < argc; ++a) {
    const SweepConfiguration config(argv[a]);
    try {
      sweep(rt, inputs, runs, config);
    } catch (const std::exception& e) {
      std::printf("%-28s ERROR %s\n", config.label.c_str(), e.what());
    }
    std::fflush(stdout);
  }
}
