// sort-probe --raw: the onesweep kernels launched directly (see sort_probe.cpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "apps/cl-bench/tools/sort_probe_common.hpp"
#include "framework/primitives/sort_reference.hpp"

namespace sort_probe {

namespace {

// The buffers and kernels of one direct-launch onesweep sort.
struct RawSort {
  // first: radix_onesweep_unstable, the first pass of a keys-only sort as the Sorter runs it.
  cl::Kernel &histogram, &first, &pass;
  cl::Buffer &work, &other, &even, &odd, &counters, &digit_counts, &digit_offsets;
  std::size_t n, wg, tiles, units;
};

// Sets a kernel's arguments in order.
template <typename... Args>
void set_args(cl::Kernel& kernel, const Args&... args) {
  cl_uint index = 0;
  (kernel.setArg(index++, args), ...);
}

// Zeroes what the first sort needs zero (each sort leaves it zero for the next).
cl_int enqueue_raw_init(const cl::CommandQueue& queue, cl::Kernel& init, const RawSort& sort,
                        std::size_t status_words) {
  set_args(init, sort.even, static_cast<cl_uint>(status_words), sort.counters, sort.digit_counts);
  const std::size_t items = (std::max<std::size_t>(status_words, 1024) + 255) / 256 * 256;
  return queue.enqueueNDRangeKernel(init, cl::NullRange, cl::NDRange(items), cl::NDRange(256));
}

// Enqueues one sort (histogram, the unstable first pass, three stable passes), an event each.
// The first pass takes the others' tile here (the Sorter's may have its own).
cl_int enqueue_raw_sort(const cl::CommandQueue& queue, const RawSort& sort,
                        std::vector<cl::Event>& events) {
  auto& [histogram, first, pass, work, other, even, odd, counters, digit_counts, digit_offsets, n,
         wg, tiles, units] = sort;
  const cl_uint count = static_cast<cl_uint>(n), kind = 0;
  const cl_uint passes = 4, top_shift = 24;  // whole keys
  cl_int status = CL_SUCCESS;
  set_args(histogram, work, kind, count, passes, top_shift, digit_counts, counters, digit_offsets);
  const std::size_t groups = std::min<std::size_t>((n + 2047) / 2048, 8 * units);
  status |= queue.enqueueNDRangeKernel(histogram, cl::NullRange, cl::NDRange(groups * 256),
                                       cl::NDRange(256), nullptr, &events[0]);
  set_args(first, work, other, kind, count, digit_offsets, odd, static_cast<cl_uint>(tiles * 256));
  status |= queue.enqueueNDRangeKernel(first, cl::NullRange, cl::NDRange(tiles * wg),
                                       cl::NDRange(wg), nullptr, &events[1]);
  for (cl_uint p = 1; p < 4; ++p) {
    const bool even_pass = p % 2 == 0;
    set_args(pass, even_pass ? work : other, even_pass ? other : work, kind, count, 8 * p, p,
             counters, digit_offsets, even_pass ? even : odd, even_pass ? odd : even);
    status |= queue.enqueueNDRangeKernel(pass, cl::NullRange, cl::NDRange(tiles * wg),
                                         cl::NDRange(wg), nullptr, &events[1 + p]);
  }
  return status;
}

}  // namespace

// The --raw mode: the onesweep sort of uint32 keys with kernels launched directly (not through
// clf::CLKernel, which refuses work-groups above the CL_KERNEL_WORK_GROUP_SIZE the driver
// reports), for tile shapes the Sorter cannot launch; RAW_RANK sets the warp ranking (1 or 2).
//   sort-probe --raw N RUNS 'WGxITEMS' ...
int raw(clf::Runtime& rt, int argc, char** argv) {
  const std::size_t n = count_argument("N", argv[2], 1);
  const int runs = static_cast<int>(count_argument("RUNS", argv[3], 1));
  std::vector<cl_uint> keys = random_keys(n);
  std::vector<cl_uint> sorted = keys;
  clf::primitives::reference::radix_sort16(sorted);
  const cl::Context& context = rt.context();
  const cl::CommandQueue& queue = rt.queue();
  const cl::Device& device = rt.device().device;
  cl::Buffer input(context, CL_MEM_READ_WRITE, 4 * n), work(context, CL_MEM_READ_WRITE, 4 * n),
      other(context, CL_MEM_READ_WRITE, 4 * n), counters(context, CL_MEM_READ_WRITE, 20),
      digit_counts(context, CL_MEM_READ_WRITE, 4096),
      digit_offsets(context, CL_MEM_READ_WRITE, 4096);
  queue.enqueueWriteBuffer(input, CL_TRUE, 0, 4 * n, keys.data());
  const std::string text = clf::kernel_source("kernels/primitives/sort/radix.cl").text;
  const std::size_t units = rt.device().compute_units;
  for (int a = 4; a < argc; ++a) {
    const std::size_t wg = std::strtoul(argv[a], nullptr, 10);
    const char* cross = std::strchr(argv[a], 'x');
    const std::size_t items = cross ? std::strtoul(cross + 1, nullptr, 10) : 16;
    const std::string options = "-DWITH_VALUES=0 -DRADIX_WG=" + std::to_string(wg) +
                                " -DRADIX_ITEMS=" + std::to_string(items) +
                                " -DRADIX_UNROLL_LOOPS=1 -DRANK_MATCH=" +
                                (std::getenv("RAW_RANK") ? std::getenv("RAW_RANK") : "2") +
                                " -DLOOKBACK_WINDOW=4 -DKEY_KIND=0";
    cl::Program program(context, text);
    if (program.build({device}, options.c_str()) != CL_SUCCESS) {
      std::printf("%-10s build failed: %s\n", argv[a],
                  program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device).substr(0, 600).c_str());
      continue;
    }
    const std::size_t tile = wg * items;
    const std::size_t tiles = (n + tile - 1) / tile;
    const std::size_t status_words = tiles * 256;
    cl::Buffer even(context, CL_MEM_READ_WRITE, 4 * status_words),
        odd(context, CL_MEM_READ_WRITE, 4 * status_words);
    cl::Kernel init(program, "radix_onesweep_init"), histogram(program, "radix_global_histogram"),
        first(program, "radix_onesweep_unstable"), pass(program, "radix_onesweep");
    const RawSort sort{histogram, first,        pass,          work, other, even,  odd,
                       counters,  digit_counts, digit_offsets, n,    wg,    tiles, units};
    std::vector<std::vector<double>> per(5);
    std::vector<double> spans;
    bool right = true;
    cl_int status = enqueue_raw_init(queue, init, sort, status_words);
    for (int r = 0; r <= runs && status == CL_SUCCESS; ++r) {
      queue.enqueueCopyBuffer(input, work, 0, 0, 4 * n);
      queue.finish();
      std::vector<cl::Event> events(5);
      status |= enqueue_raw_sort(queue, sort, events);
      status |= queue.finish();
      if (status != CL_SUCCESS) break;
      if (r == 0) {
        std::vector<cl_uint> out(n);
        queue.enqueueReadBuffer(work, CL_TRUE, 0, 4 * n, out.data());
        right = out == sorted;
        continue;
      }
      std::uint64_t first = ~0ull, last = 0;
      for (std::size_t e = 0; e < events.size(); ++e) {
        const std::uint64_t start = events[e].getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const std::uint64_t end = events[e].getProfilingInfo<CL_PROFILING_COMMAND_END>();
        per[e].push_back((end - start) * 1e-6);
        first = std::min(first, start);
        last = std::max(last, end);
      }
      spans.push_back((last - first) * 1e-6);
    }
    if (status != CL_SUCCESS) {
      std::printf("%-10s launch failed: %d\n", argv[a], status);
      continue;
    }
    const double ms = median(spans);
    std::printf("raw %-10s %-6s %8.3f ms %7.2f Gkeys/s |", argv[a], right ? "ok" : "WRONG", ms,
                n / ms * 1e-6);
    for (auto& v : per) std::printf(" %.3f", median(v));
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace sort_probe
