// sort-probe: times the default sort (Onesweep on NVIDIA) under many configurations in one
// process, launch by launch, for tuning on a GPU you hold briefly (docs/sort.md, "How it was
// measured"). Usage:
//   sort-probe N RUNS 'label|VAR=VAL|...' ...
// VARs are the lab's sort knobs (apps/cl-bench/tuning_knobs.hpp: CLF_SORT_WG, CLF_SORT_ITEMS,
// CLF_SORT_ITEMS_FLOAT, CLF_SORT_ITEMS_KV, CLF_SORT_EARLY, CLF_SORT_EARLY_KV, CLF_SORT_LOOKBACK,
// CLF_SORT_RANK, CLF_SORT_OPTIONS, CLF_SORT_HIST_GROUPS_PER_CU), turned into the SortConfig of
// each Sorter, plus KV=1 (uint32 values), FLOAT=1 / INT=1 (the keys' bits as float32 / int32) and
// NOVERIFY=1. uint32 results are checked against a CPU sort unless NOVERIFY=1; float32 and int32
// results are not checked (cl-bench does). Each line: median span of RUNS sorts, then the median
// time of each launch in order (init, histogram, scan, the four passes).
//
//   sort-probe --wginfo 'label|build options|file' ...
// builds `file` (an embedded kernel file, or "mini": small kernels with and without inline PTX,
// barriers and reqd_work_group_size, WG work-items) with the options plus -cl-nv-verbose, and
// prints for every kernel CL_KERNEL_WORK_GROUP_SIZE, local and private memory, the ptxas lines
// of the build log and the PTX's .maxntid/.reqntid/.maxnreg lines; "mini" kernels are also
// launched with WG work-items (and their output checked) to see whether the driver takes more
// than it reports. With PTX_DIR set, each build's PTX is written to PTX_DIR/label.ptx.
//
//   sort-probe --raw N RUNS WGxITEMS ...
// sorts N uint32 keys with the onesweep kernels (early counts, NVIDIA ranking) launched directly
// with work-groups of WG, bypassing clf::CLKernel's check against CL_KERNEL_WORK_GROUP_SIZE
// (which this driver reports as 256 for every kernel); checks the result, prints timings as
// above.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "apps/cl-bench/tuning_knobs.hpp"
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

static const char* kMini = R"CLC(
#ifndef WG
#define WG 384
#endif
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void plain(__global uint* out) {
  out[get_global_id(0)] = get_local_id(0);
}
__kernel void plain_noreqd(__global uint* out) { out[get_global_id(0)] = get_local_id(0); }
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void asm_mov(__global uint* out) {
  uint v = get_local_id(0), r;
  asm("mov.u32 %0, %1;" : "=r"(r) : "r"(v));
  out[get_global_id(0)] = r;
}
__kernel void asm_mov_noreqd(__global uint* out) {
  uint v = get_local_id(0), r;
  asm("mov.u32 %0, %1;" : "=r"(r) : "r"(v));
  out[get_global_id(0)] = r;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void asm_shfl(__global uint* out) {
  uint v = get_local_id(0), r;
  asm volatile("shfl.sync.idx.b32 %0, %1, 0, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v));
  out[get_global_id(0)] = r;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void asm_vote(__global uint* out) {
  uint v = get_local_id(0), r;
  asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
      : "=r"(r) : "r"(v & 1));
  out[get_global_id(0)] = r;
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void local_barrier(__global uint* out) {
  __local uint s[WG];
  const uint lid = get_local_id(0);
  s[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[WG - 1 - lid];
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void local_atomic(__global uint* out) {
  __local uint s[1];
  if (get_local_id(0) == 0) s[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&s[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = s[0];
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void global_atomic(__global uint* out) {
  out[get_global_id(0)] = atomic_inc(&out[0]);
}
)CLC";

// The --wginfo mode (see the top of this file).
static int wginfo(clf::Runtime& rt, int argc, char** argv) {
  const cl::Device& device = rt.device().device;
  std::printf("extensions: %s\n", device.getInfo<CL_DEVICE_EXTENSIONS>().c_str());
  std::printf("device max work-group %zu\n", device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
  const char* ptx_dir = std::getenv("PTX_DIR");
  for (int a = 2; a < argc; ++a) {
    std::vector<std::string> parts = split(argv[a], '|');
    if (parts.size() < 3) {
      std::printf("%s: need 'label|options|file'\n", argv[a]);
      continue;
    }
    const bool mini = parts[2] == "mini";
    const std::string text = mini ? std::string(kMini) : clf::kernel_source(parts[2]).text;
    cl::Program program(rt.context(), text);
    const bool nvidia = device.getInfo<CL_DEVICE_VENDOR>().find("NVIDIA") != std::string::npos;
    const std::string options = parts[1] + (nvidia ? " -cl-nv-verbose" : "");
    const cl_int built = program.build({device}, options.c_str());
    const std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    std::printf("== %s (%s): build %d\n", parts[0].c_str(), parts[1].c_str(), built);
    for (const std::string& line : split(log, '\n')) {
      if (line.find("ptxas") != std::string::npos || line.find("error") != std::string::npos ||
          line.find("registers") != std::string::npos)
        std::printf("   log: %s\n", line.c_str());
    }
    if (built != CL_SUCCESS) continue;
    std::vector<std::vector<unsigned char>> binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (!binaries.empty()) {
      const std::string ptx(binaries[0].begin(), binaries[0].end());
      for (const std::string& line : split(ptx, '\n')) {
        if (line.find(".entry") != std::string::npos ||
            line.find(".maxntid") != std::string::npos ||
            line.find(".reqntid") != std::string::npos ||
            line.find(".maxnreg") != std::string::npos ||
            line.find(".minnctapersm") != std::string::npos ||
            line.find(".target") != std::string::npos)
          std::printf("   ptx: %s\n", line.c_str());
      }
      if (ptx_dir != nullptr) {
        std::ofstream(std::string(ptx_dir) + "/" + parts[0] + ".ptx") << ptx;
      }
    }
    std::vector<cl::Kernel> kernels;
    program.createKernels(&kernels);
    for (cl::Kernel& kernel : kernels) {
      const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
      std::printf("   %-28s wg %4zu local %6llu private %6llu", name.c_str(),
                  kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device),
                  (unsigned long long)kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device),
                  (unsigned long long)kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device));
      if (mini) {
        std::size_t wg = 384;
        const std::size_t at = parts[1].find("-DWG=");
        if (at != std::string::npos) wg = std::strtoul(parts[1].c_str() + at + 5, nullptr, 10);
        cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, 4 * wg);
        kernel.setArg(0, out);
        const cl_int launched = rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange,
                                                                cl::NDRange(wg), cl::NDRange(wg));
        const cl_int finished = rt.queue().finish();
        // What each mini kernel writes, to see that a launch larger than the reported limit ran.
        std::vector<cl_uint> got(wg, 0xdeadbeefu);
        rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, 4 * wg, got.data());
        bool right = true;
        for (std::size_t i = 0; i < wg; ++i) {
          std::size_t want = i;
          if (name == "asm_shfl") want = i / 32 * 32;
          if (name == "asm_vote") want = 0xaaaaaaaau;
          if (name == "local_barrier") want = wg - 1 - i;
          if (name == "local_atomic") want = wg;
          if (name == "global_atomic") continue;
          right = right && got[i] == want;
        }
        std::printf(" | launch %zu: %d, finish %d, output %s", wg, launched, finished,
                    name == "global_atomic" ? "-"
                    : right                 ? "right"
                                            : "WRONG");
      }
      std::printf("\n");
    }
    std::fflush(stdout);
  }
  return 0;
}

static double median(std::vector<double> v);

// The same n pseudo-random keys every run (splitmix64).
static std::vector<cl_uint> random_keys(std::size_t n) {
  std::vector<cl_uint> keys(n);
  std::uint64_t x = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    x += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    keys[i] = static_cast<cl_uint>(z ^ (z >> 31));
  }
  return keys;
}

// The --raw mode: the onesweep sort of uint32 keys with kernels launched directly (not through
// clf::CLKernel, which refuses work-groups above the CL_KERNEL_WORK_GROUP_SIZE the driver
// reports), for tile shapes the Sorter cannot launch.
//   sort-probe --raw N RUNS 'WGxITEMS' ...
static int raw(clf::Runtime& rt, int argc, char** argv) {
  const std::size_t n = std::strtoull(argv[2], nullptr, 10);
  const int runs = std::atoi(argv[3]);
  std::vector<cl_uint> keys = random_keys(n);
  std::vector<cl_uint> sorted = keys;
  clf::primitives::reference::radix_sort16(sorted);
  const cl::Context& context = rt.context();
  const cl::CommandQueue& queue = rt.queue();
  const cl::Device& device = rt.device().device;
  cl::Buffer input(context, CL_MEM_READ_WRITE, 4 * n), work(context, CL_MEM_READ_WRITE, 4 * n),
      other(context, CL_MEM_READ_WRITE, 4 * n), tickets(context, CL_MEM_READ_WRITE, 16),
      digits(context, CL_MEM_READ_WRITE, 4096);
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
                                " -DLOOKBACK_WINDOW=4 "
                                "-DRANK_EARLY=1 -DKEY_KIND=0";
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
        scan(program, "radix_global_scan"), pass(program, "radix_onesweep");
    const cl_uint count = static_cast<cl_uint>(n), kind = 0;
    std::vector<std::vector<double>> per(7);
    std::vector<double> spans;
    bool right = true;
    cl_int status = CL_SUCCESS;
    for (int r = 0; r <= runs && status == CL_SUCCESS; ++r) {
      queue.enqueueCopyBuffer(input, work, 0, 0, 4 * n);
      queue.finish();
      std::vector<cl::Event> events(7);
      init.setArg(0, even);
      init.setArg(1, static_cast<cl_uint>(status_words));
      init.setArg(2, tickets);
      init.setArg(3, digits);
      const std::size_t init_items = (std::max<std::size_t>(status_words, 1024) + 255) / 256 * 256;
      status |= queue.enqueueNDRangeKernel(init, cl::NullRange, cl::NDRange(init_items),
                                           cl::NDRange(256), nullptr, &events[0]);
      histogram.setArg(0, work);
      histogram.setArg(1, kind);
      histogram.setArg(2, count);
      histogram.setArg(3, digits);
      const std::size_t groups = std::min<std::size_t>((n + 2047) / 2048, 8 * units);
      status |= queue.enqueueNDRangeKernel(histogram, cl::NullRange, cl::NDRange(groups * 256),
                                           cl::NDRange(256), nullptr, &events[1]);
      scan.setArg(0, digits);
      status |= queue.enqueueNDRangeKernel(scan, cl::NullRange, cl::NDRange(256), cl::NDRange(256),
                                           nullptr, &events[2]);
      for (cl_uint p = 0; p < 4; ++p) {
        pass.setArg(0, p % 2 == 0 ? work : other);
        pass.setArg(1, p % 2 == 0 ? other : work);
        pass.setArg(2, kind);
        pass.setArg(3, count);
        pass.setArg(4, 8 * p);
        pass.setArg(5, p);
        pass.setArg(6, tickets);
        pass.setArg(7, digits);
        pass.setArg(8, p % 2 == 0 ? even : odd);
        pass.setArg(9, p % 2 == 0 ? odd : even);
        status |= queue.enqueueNDRangeKernel(pass, cl::NullRange, cl::NDRange(tiles * wg),
                                             cl::NDRange(wg), nullptr, &events[3 + p]);
      }
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

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

int main(int argc, char** argv) {
  if (argc >= 5 && std::strcmp(argv[1], "--raw") == 0) {
    clf::DeviceRequest request = clf::DeviceRequest::from_environment();
    request.profiling = true;
    clf::Runtime rt(request);
    return raw(rt, argc, argv);
  }
  if (argc >= 2 && std::strcmp(argv[1], "--wginfo") == 0) {
    clf::Runtime rt(clf::DeviceRequest::from_environment());
    return wginfo(rt, argc, argv);
  }
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: sort-probe N RUNS 'label|VAR=VAL|...' ...\n"
                 "       sort-probe --wginfo 'label|options|file' ...\n"
                 "       sort-probe --raw N RUNS WGxITEMS ...\n");
    return 2;
  }
  const std::size_t n = std::strtoull(argv[1], nullptr, 10);
  const int runs = std::atoi(argv[2]);
  clf::DeviceRequest request = clf::DeviceRequest::from_environment();
  request.profiling = true;
  clf::Runtime rt(request);
  std::vector<cl_uint> keys = random_keys(n), values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<cl_uint>(i);
  std::vector<cl_uint> sorted = keys;
  clf::primitives::reference::radix_sort16(sorted);
  clf::DeviceBuffer<cl_uint> in_k(rt, n), work_k(rt, n), in_v(rt, n), work_v(rt, n);
  clf::DeviceBuffer<cl_float> work_f(rt, n);
  clf::DeviceBuffer<cl_int> work_i(rt, n);
  in_k.write(keys);
  in_v.write(values);
  for (int a = 3; a < argc; ++a) {
    std::vector<std::string> parts = split(argv[a], '|');
    std::map<std::string, std::string> knobs;
    bool kv = false, verify = true, fl = false, in = false;
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
      else
        knobs[name] = value;
    }
    try {
      const bench::KnobLookup lookup = [&](const char* name) {
        const auto found = knobs.find(name);
        return found == knobs.end() ? std::string() : found->second;
      };
      clf::primitives::Sorter sorter(rt, "default", bench::sort_config(rt.device(), lookup));
      auto copy_inputs = [&] {
        clf::check(rt.queue().enqueueCopyBuffer(in_k.mem(),
                                                fl   ? work_f.mem()
                                                : in ? work_i.mem()
                                                     : work_k.mem(),
                                                0, 0, n * 4),
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
        else if (in && kv)
          sorter.sort(work_i, work_v);
        else if (in)
          sorter.sort(work_i);
        else if (kv)
          sorter.sort(work_k, work_v);
        else
          sorter.sort(work_k);
      };
      copy_inputs();
      run();
      rt.finish();
      std::string status = "unchecked";
      if (verify && !fl && !in) {
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
      std::printf("%-28s %s%s %-9s %8.3f ms %7.2f Gkeys/s |", parts[0].c_str(),
                  fl   ? "f"
                  : in ? "i"
                       : "u",
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
