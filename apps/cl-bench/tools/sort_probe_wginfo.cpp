// sort-probe --wginfo: build information and trial launches (see sort_probe.cpp).
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "apps/cl-bench/tools/sort_probe_common.hpp"
#include "framework/program.hpp"

namespace sort_probe {

namespace {

const char* kMini = R"CLC(
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

// Launches a "mini" kernel with the WG of `options` (384 by default) work-items and says whether
// it ran and wrote what it should.
void launch_mini(clf::Runtime& rt, cl::Kernel& kernel, const std::string& name,
                 const std::string& options) {
  std::size_t wg = 384;
  const std::size_t at = options.find("-DWG=");
  if (at != std::string::npos) wg = std::strtoul(options.c_str() + at + 5, nullptr, 10);
  cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, 4 * wg);
  kernel.setArg(0, out);
  const cl_int launched =
      rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(wg), cl::NDRange(wg));
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

// The PTX lines that say how a kernel is launched and compiled, and the PTX into PTX_DIR.
void print_ptx(const cl::Program& program, const char* ptx_dir, const std::string& label) {
  const std::string ptx = clf::program_binary_text(program);
  if (!ptx.empty()) {
    for (const std::string& line : split(ptx, '\n')) {
      if (line.find(".entry") != std::string::npos || line.find(".maxntid") != std::string::npos ||
          line.find(".reqntid") != std::string::npos ||
          line.find(".maxnreg") != std::string::npos ||
          line.find(".minnctapersm") != std::string::npos ||
          line.find(".target") != std::string::npos)
        std::printf("   ptx: %s\n", line.c_str());
    }
    if (ptx_dir != nullptr) {
      std::ofstream(std::string(ptx_dir) + "/" + label + ".ptx") << ptx;
    }
  }
}

}  // namespace

// The --wginfo mode (see the top of sort_probe.cpp).
int wginfo(clf::Runtime& rt, int argc, char** argv) {
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
    // The framework's own options (-clf-nv-maxnreg) as build_program applies them.
    const clf::FrameworkBuildOptions split_options = clf::split_build_options(parts[1]);
    const std::string options = split_options.driver_options + (nvidia ? " -cl-nv-verbose" : "");
    cl_int built = program.build({device}, options.c_str());
    if (built == CL_SUCCESS && nvidia && split_options.nv_max_registers != 0) {
      program = clf::program_with_register_cap(rt.context(), device, program,
                                               split_options.nv_max_registers);
      built = program.build({device}, options.c_str());
    }
    const std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device);
    std::printf("== %s (%s): build %d\n", parts[0].c_str(), parts[1].c_str(), built);
    for (const std::string& line : split(log, '\n')) {
      if (line.find("ptxas") != std::string::npos || line.find("error") != std::string::npos ||
          line.find("registers") != std::string::npos)
        std::printf("   log: %s\n", line.c_str());
    }
    if (built != CL_SUCCESS) continue;
    print_ptx(program, ptx_dir, parts[0]);
    std::vector<cl::Kernel> kernels;
    program.createKernels(&kernels);
    for (cl::Kernel& kernel : kernels) {
      const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
      std::printf("   %-28s wg %4zu local %6llu private %6llu", name.c_str(),
                  kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device),
                  (unsigned long long)kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device),
                  (unsigned long long)kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device));
      if (mini) launch_mini(rt, kernel, name, parts[1]);
      std::printf("\n");
    }
    std::fflush(stdout);
  }
  return 0;
}

}  // namespace sort_probe
