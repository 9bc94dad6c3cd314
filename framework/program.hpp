// A built OpenCL program and what the framework knows about its kernels' arguments.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "framework/device.hpp"
#include "framework/error.hpp"
#include "framework/opencl.hpp"
#include "framework/sources.hpp"

namespace clf {

enum class AddressSpace { global, constant, local, private_ };

// One kernel argument, as clGetKernelArgInfo reports it.
struct KernelArgInfo {
  std::string name;
  std::string type_name;  // "float*", "uint", "struct Particle*", "float4"
  AddressSpace address = AddressSpace::private_;
  bool is_const = false;  // a `const __global T*`: the kernel only reads it
};

struct KernelInfo {
  std::string name;
  unsigned arg_count = 0;
  bool args_known = false;  // false where the driver keeps no argument info
  std::vector<KernelArgInfo> args;
};

class Program {
 public:
  Program(cl::Program program, std::string source_name, std::string options,
          std::vector<KernelInfo> kernels, bool from_disk_cache)
      : program_(std::move(program)),
        source_name_(std::move(source_name)),
        options_(std::move(options)),
        kernels_(std::move(kernels)),
        from_disk_cache_(from_disk_cache) {}

  const cl::Program& handle() const { return program_; }
  const std::string& source_name() const { return source_name_; }
  const std::string& options() const { return options_; }
  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  // Throws Error naming the kernels the program has when `name` is not one of them.
  const KernelInfo& kernel_info(const std::string& name) const;
  bool from_disk_cache() const { return from_disk_cache_; }

 private:
  cl::Program program_;
  std::string source_name_;
  std::string options_;
  std::vector<KernelInfo> kernels_;
  bool from_disk_cache_;
};

// Counts of where programs came from, for tests and for the CL_CACHE_TRACE output.
struct ProgramCacheStats {
  unsigned memory_hits = 0;
  unsigned disk_hits = 0;
  unsigned builds = 0;  // compiled from source
};

// On-disk cache of program binaries. The key covers platform, device, driver version, options
// and source, and is stored in the file too, so a hash collision is a miss, never a wrong binary.
// CL_CACHE=0 turns it off, CL_CACHE_DIR moves it (default $XDG_CACHE_HOME/clf or ~/.cache/clf),
// CL_CACHE_TRACE=1 prints each hit and miss on stderr.
struct DiskCacheSettings {
  bool enabled = true;
  bool trace = false;
  std::string directory;
  static DiskCacheSettings from_environment();
};

// Build options the framework handles itself, taken out before the driver sees the rest:
//   -clf-nv-maxnreg=N  on NVIDIA platforms each kernel's PTX gets `.maxnreg N` and the program is
//                      built again from it: a register cap (the driver accepts
//                      -cl-nv-maxrregcount=N but ignores it); other platforms ignore the option.
struct FrameworkBuildOptions {
  std::string driver_options;
  unsigned nv_max_registers = 0;  // 0: no cap
};
// Throws Error naming the option when its value is not a count of registers (16 to 255).
FrameworkBuildOptions split_build_options(const std::string& options);
// A built program's binary as text, trailing NULs dropped (an NVIDIA program's binary is its
// PTX).
std::string program_binary_text(const cl::Program& program, const ErrorContext& context = {});
// The program, not yet built, made from the PTX of `built` (an NVIDIA program) with every kernel
// capped at `registers`.
cl::Program program_with_register_cap(const cl::Context& context, const cl::Device& device,
                                      const cl::Program& built, unsigned registers,
                                      const ErrorContext& context_of_errors = {});

// Builds `source` for one device: from the disk cache when possible, else from source (and
// stores the binary). Throws BuildError with the log and source excerpts when it fails.
std::shared_ptr<const Program> build_program(const cl::Context& context, const DeviceInfo& device,
                                             const Source& source, const std::string& options,
                                             const DiskCacheSettings& disk_cache,
                                             ProgramCacheStats& stats);

// The source lines around each line a build log reports as an error, for BuildError messages.
std::string excerpt_reported_lines(const std::string& flattened_source, const std::string& log);

}  // namespace clf
