// sort-profile: runs the Onesweep radix sort from the PTX that NVIDIA's OpenCL compiler made of
// kernels/primitives/sort/radix.cl, through the CUDA driver API and in the order the Sorter runs
// the kernels, so that Nsight Compute (which does not see OpenCL launches) can profile a pass of
// the code the OpenCL driver runs. docs/sort.md ("Profiling a pass") has the commands.
// Arguments: PTX file, the tile shape (WGxITEMS, or ITEMS for work-groups of 256), with values
// (0/1), keys, runs, and a register cap (0: the JIT's own choice; the OpenCL driver's build of
// the keys-only pass uses 64, the CUDA JIT left to itself 80). Prints the median time of each
// launch and checks the result against std::sort. KEY_BITS=k in the environment keeps only the
// keys' low k bits.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "apps/cl-bench/tools/cuda/opencl_ptx.hpp"
#include "framework/ptx_register_cap.hpp"

namespace {

void check(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) {
    const char* text = nullptr;
    cuGetErrorString(result, &text);
    std::fprintf(stderr, "sort-profile: %s failed: %s\n", call, text ? text : "?");
    std::exit(1);
  }
}
#define CHECK(call) check((call), #call)

// The histogram's and the init kernel's work-groups (GLOBAL_WG in radix_onesweep.cl, and 256
// for init as the Sorter launches it) and the Sorter's histogram groups an SM on NVIDIA GPUs
// (framework/primitives/tuning.hpp: SortConfig::histogram_groups_per_cu).
constexpr unsigned kDigits = 256, kPasses = 4, kGroup = 256, kHistogramGroupsPerSm = 8;

struct Launch {
  CUfunction function;
  unsigned groups;
  unsigned group_size;
  std::vector<void*> args;
};

// The PTX loaded into the current context, every kernel capped at `max_registers` (0: no cap).
CUmodule load_module(const std::string& ptx, unsigned max_registers) {
  CUmodule module;
  const std::string capped = max_registers ? clf::with_register_cap(ptx, max_registers) : ptx;
  CHECK(cuModuleLoadData(&module, capped.c_str()));
  return module;
}

CUfunction kernel(CUmodule module, const char* name) {
  CUfunction function;
  CHECK(cuModuleGetFunction(&function, module, name));
  return function;
}

// Device buffers of one sort and the kernel arguments that point into them (the launches keep
// pointers to these members, so a SortLaunches is neither copied nor moved).
struct SortLaunches {
  CUdeviceptr keys[2], values[2], status[2], counters, digit_counts, digit_offsets;
  unsigned status_words, key_kind = 0, count, shift[kPasses], pass_index[kPasses];
  unsigned passes = kPasses, top_shift = 8 * (kPasses - 1);  // whole keys
  Launch init;  // once: every sort leaves what it zeroes zero
  std::vector<Launch> launches;

  // Tiles of `group` work-items x `items` keys (RADIX_WG and RADIX_ITEMS of the PTX's build).
  SortLaunches(CUmodule module, unsigned n, unsigned group, unsigned items, bool with_values,
               int sms)
      : count(n) {
    const unsigned tile = group * items;
    const unsigned tiles = (n + tile - 1) / tile;
    status_words = tiles * kDigits;
    for (int b = 0; b < 2; ++b) {
      CHECK(cuMemAlloc(&keys[b], size_t(n) * 4));
      CHECK(cuMemAlloc(&values[b], size_t(n) * 4));
      CHECK(cuMemAlloc(&status[b], size_t(status_words) * 4));
    }
    CHECK(cuMemAlloc(&counters, (kPasses + 1) * 4));
    CHECK(cuMemAlloc(&digit_counts, kPasses * kDigits * 4));
    CHECK(cuMemAlloc(&digit_offsets, kPasses * kDigits * 4));
    init = {kernel(module, "radix_onesweep_init"),
            (std::max(status_words, kPasses * kDigits) + kGroup - 1) / kGroup,
            kGroup,
            {&status[0], &status_words, &counters, &digit_counts}};
    launches.push_back({kernel(module, "radix_global_histogram"),
                        kHistogramGroupsPerSm * unsigned(sms),
                        kGroup,
                        {&keys[0], &key_kind, &count, &passes, &top_shift, &digit_counts, &counters,
                         &digit_offsets}});
    const CUfunction pass_kernel = kernel(module, "radix_onesweep");
    for (unsigned p = 0; p < kPasses; ++p) {
      shift[p] = 8 * p;
      pass_index[p] = p;
      const int in = p % 2, out = 1 - in;
      if (p == 0 && !with_values) {  // the Sorter's unstable first pass (keys only)
        launches.push_back(
            {kernel(module, "radix_onesweep_unstable"),
             tiles,
             group,
             {&keys[0], &keys[1], &key_kind, &count, &digit_offsets, &status[1], &status_words}});
        continue;
      }
      std::vector<void*> args = {&keys[in], &keys[out], &key_kind};
      if (with_values) {
        args.push_back(&values[in]);
        args.push_back(&values[out]);
      }
      for (void* a : {(void*)&count, (void*)&shift[p], (void*)&pass_index[p], (void*)&counters,
                      (void*)&digit_offsets, (void*)&status[p % 2], (void*)&status[1 - p % 2]}) {
        args.push_back(a);
      }
      launches.push_back({pass_kernel, tiles, group, args});
    }
  }
  SortLaunches(const SortLaunches&) = delete;
  SortLaunches& operator=(const SortLaunches&) = delete;
};

// Sorts `keys` (with `values`) `runs` times; returns each launch's times in ms.
std::vector<std::vector<float>> time_sorts(SortLaunches& sort, const std::vector<unsigned>& keys,
                                           const std::vector<unsigned>& values, int runs) {
  const size_t bytes = keys.size() * 4;
  std::vector<std::vector<float>> ms(sort.launches.size());
  std::vector<CUevent> events(sort.launches.size() + 1);
  for (CUevent& e : events) CHECK(cuEventCreate(&e, CU_EVENT_DEFAULT));
  const auto launch = [](const Launch& l) {
    CHECK(cuLaunchKernel(l.function, l.groups, 1, 1, l.group_size, 1, 1, 0, nullptr,
                         const_cast<void**>(l.args.data()), nullptr));
  };
  launch(sort.init);
  for (int run = 0; run < runs; ++run) {
    CHECK(cuMemcpyHtoD(sort.keys[0], keys.data(), bytes));
    CHECK(cuMemcpyHtoD(sort.values[0], values.data(), bytes));
    CHECK(cuEventRecord(events[0], nullptr));
    for (size_t l = 0; l < sort.launches.size(); ++l) {
      launch(sort.launches[l]);
      CHECK(cuEventRecord(events[l + 1], nullptr));
    }
    CHECK(cuEventSynchronize(events.back()));
    for (size_t l = 0; l < sort.launches.size(); ++l) {
      float t = 0;
      CHECK(cuEventElapsedTime(&t, events[l], events[l + 1]));
      ms[l].push_back(t);
    }
  }
  for (CUevent e : events) CHECK(cuEventDestroy(e));
  return ms;
}

// Whether the sort's output is `keys` sorted (with values: each key's value is its index).
bool sorted_correctly(const SortLaunches& sort, const std::vector<unsigned>& keys,
                      bool with_values) {
  const size_t n = keys.size();
  std::vector<unsigned> sorted(n), sorted_values(n);
  CHECK(cuMemcpyDtoH(sorted.data(), sort.keys[0], n * 4));
  CHECK(cuMemcpyDtoH(sorted_values.data(), sort.values[0], n * 4));
  std::vector<unsigned> expected = keys;
  std::sort(expected.begin(), expected.end());
  bool ok = sorted == expected;
  for (size_t i = 0; ok && with_values && i < n; ++i) ok = keys[sorted_values[i]] == sorted[i];
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: sort-profile PTX [WGx]ITEMS WITH_VALUES [N] [RUNS] [MAX_REGISTERS]\n");
    return 2;
  }
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "sort-profile: cannot read %s\n", argv[1]);
    return 2;
  }
  std::stringstream text;
  text << file.rdbuf();
  unsigned group = kGroup, items = 0;
  if (std::strchr(argv[2], 'x') != nullptr) {
    char rest = 0;
    if (std::sscanf(argv[2], "%ux%u%c", &group, &items, &rest) != 2) group = 0;
  } else {
    items = std::strtoul(argv[2], nullptr, 10);
  }
  const bool with_values = std::atoi(argv[3]) != 0;
  const unsigned n = argc > 4 ? std::strtoul(argv[4], nullptr, 0) : (1u << 24);
  const int runs = argc > 5 ? std::atoi(argv[5]) : 3;
  const unsigned max_registers = argc > 6 ? std::strtoul(argv[6], nullptr, 0) : 0;
  if (group == 0 || group % 32 != 0 || items == 0 || n == 0 || runs < 1) {
    std::fprintf(stderr,
                 "sort-profile: the tile must be WGxITEMS (WG a multiple of 32) or ITEMS, N and "
                 "RUNS positive (got '%s', %u, %d)\n",
                 argv[2], n, runs);
    return 2;
  }
  std::string ptx;
  try {
    ptx = sort_profile::cuda_ptx(text.str());
  } catch (const std::invalid_argument& error) {
    std::fprintf(stderr, "sort-profile: %s: %s\n", argv[1], error.what());
    return 2;
  }

  CHECK(cuInit(0));
  CUdevice device;
  CHECK(cuDeviceGet(&device, 0));
  CUcontext context;
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
  CHECK(cuCtxSetCurrent(context));
  int sms = 0;
  CHECK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device));
  const CUmodule module = load_module(ptx, max_registers);

  // KEY_BITS=k in the environment keeps the keys' low k bits (as sort-probe).
  const char* bits_text = std::getenv("KEY_BITS");
  const unsigned key_bits = bits_text ? std::strtoul(bits_text, nullptr, 10) : 32;
  if (key_bits < 1 || key_bits > 32) {
    std::fprintf(stderr, "sort-profile: KEY_BITS must be 1 to 32 (got '%s')\n", bits_text);
    return 2;
  }
  const unsigned key_mask = key_bits == 32 ? ~0u : (1u << key_bits) - 1;
  std::vector<unsigned> keys(n), values(n);
  unsigned x = 2463534242u;
  for (unsigned i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    keys[i] = x & key_mask;
    values[i] = i;
  }
  SortLaunches sort(module, n, group, items, with_values, sms);
  std::vector<std::vector<float>> ms = time_sorts(sort, keys, values, runs);
  const bool ok = sorted_correctly(sort, keys, with_values);

  double total = 0;
  std::printf("sort-profile %s n=%u tile=%ux%u values=%d %s |", argv[1], n, group, items,
              with_values, ok ? "ok" : "WRONG");
  for (auto& l : ms) {
    std::sort(l.begin(), l.end());
    total += l[l.size() / 2];
    std::printf(" %.3f", l[l.size() / 2]);
  }
  std::printf(" | %.3f ms, %.2f Gkeys/s\n", total, n / total / 1e6);
  return ok ? 0 : 1;
}
