#include "framework/program.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>

#include "framework/environment.hpp"
#include "framework/error.hpp"
#include "framework/program_cache_file.hpp"
#include "framework/ptx_register_cap.hpp"

namespace clf {

const KernelInfo& Program::kernel_info(const std::string& name) const {
  for (const KernelInfo& kernel : kernels_) {
    if (kernel.name == name) return kernel;
  }
  std::string known;
  for (const KernelInfo& kernel : kernels_) known += (known.empty() ? "" : ", ") + kernel.name;
  throw Error("program '" + source_name_ + "' has no kernel '" + name +
              "' (it has: " + (known.empty() ? "none" : known) + ")");
}

DiskCacheSettings DiskCacheSettings::from_environment() {
  DiskCacheSettings settings;
  settings.enabled = env_flag("CL_CACHE", true);
  settings.trace = env_flag("CL_CACHE_TRACE");
  if (const std::string dir = env_text("CL_CACHE_DIR"); !dir.empty()) {
    settings.directory = dir;
  } else if (const std::string xdg = env_text("XDG_CACHE_HOME"); !xdg.empty()) {
    settings.directory = xdg + "/clf";
  } else if (const std::string home = env_text("HOME"); !home.empty()) {
    settings.directory = home + "/.cache/clf";
  } else {
    settings.enabled = false;
  }
  return settings;
}

namespace {

// --- source excerpts for build errors ------------------------------------------------------

// Splits flattened source back into its files, following the #line markers that
// inline_source() wrote: file name -> line number -> text, and for each physical line of the
// flattened text the (file, line) it came from (NVIDIA's compiler ignores #line and reports
// physical lines of "<kernel>").
struct SourceMap {
  std::map<std::string, std::map<int, std::string>> files;
  std::vector<std::pair<std::string, int>> origin;  // index: physical line - 1
};

SourceMap map_source(const std::string& flattened) {
  static const std::regex marker(R"(^#line (\d+) \"([^\"]+)\"$)");
  SourceMap map;
  std::istringstream in(flattened);
  std::string line;
  std::string file = "<source>";
  int number = 1;
  while (std::getline(in, line)) {
    std::smatch match;
    if (std::regex_match(line, match, marker)) {
      map.origin.emplace_back(file, 0);
      number = std::stoi(match[1]);
      file = match[2];
      continue;
    }
    map.origin.emplace_back(file, number);
    map.files[file][number++] = line;
  }
  return map;
}

// --- kernel argument info ------------------------------------------------------------------

std::vector<KernelInfo> query_kernels(cl::Program program, const std::string& source_name,
                                      const std::string& device_name) {
  std::vector<cl::Kernel> kernels;
  check(program.createKernels(&kernels), "clCreateKernelsInProgram",
        {"", device_name, "program '" + source_name + "'"});
  std::vector<KernelInfo> infos;
  for (const cl::Kernel& kernel : kernels) {
    KernelInfo info;
    info.name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
    while (!info.name.empty() && info.name.back() == '\0') info.name.pop_back();
    info.arg_count = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
    info.args_known = true;
    for (cl_uint i = 0; i < info.arg_count && info.args_known; ++i) {
      KernelArgInfo arg;
      cl_kernel_arg_address_qualifier address = 0;
      if (kernel.getArgInfo(i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, &address) != CL_SUCCESS) {
        info.args_known = false;  // CL_KERNEL_ARG_INFO_NOT_AVAILABLE
        break;
      }
      arg.address = address == CL_KERNEL_ARG_ADDRESS_GLOBAL     ? AddressSpace::global
                    : address == CL_KERNEL_ARG_ADDRESS_CONSTANT ? AddressSpace::constant
                    : address == CL_KERNEL_ARG_ADDRESS_LOCAL    ? AddressSpace::local
                                                                : AddressSpace::private_;
      cl_kernel_arg_type_qualifier qualifier = 0;
      kernel.getArgInfo(i, CL_KERNEL_ARG_TYPE_QUALIFIER, &qualifier);
      arg.is_const =
          (qualifier & CL_KERNEL_ARG_TYPE_CONST) != 0 || address == CL_KERNEL_ARG_ADDRESS_CONSTANT;
      kernel.getArgInfo(i, CL_KERNEL_ARG_TYPE_NAME, &arg.type_name);
      kernel.getArgInfo(i, CL_KERNEL_ARG_NAME, &arg.name);
      while (!arg.type_name.empty() && arg.type_name.back() == '\0') arg.type_name.pop_back();
      while (!arg.name.empty() && arg.name.back() == '\0') arg.name.pop_back();
      info.args.push_back(arg);
    }
    if (!info.args_known) info.args.clear();
    infos.push_back(std::move(info));
  }
  return infos;
}

std::string build_log(const cl::Program& program, const cl::Device& device) {
  std::string log;
  program.getBuildInfo(device, CL_PROGRAM_BUILD_LOG, &log);
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

std::string excerpt_reported_lines(const std::string& flattened_source, const std::string& log) {
  // Compilers differ in layout ("file:3:12: error: ..." from clang, "error: file:3:12: ..." from
  // PoCL, "<kernel>:88:12: error: ..." with physical lines from NVIDIA): take the first
  // file:line on every log line that says error.
  static const std::regex location(R"(([^\s:]+):(\d+):)");
  const SourceMap map = map_source(flattened_source);
  std::ostringstream out;
  std::set<std::pair<std::string, int>> shown;
  std::istringstream log_lines(log);
  std::string log_line;
  while (std::getline(log_lines, log_line) && shown.size() < 10) {
    std::smatch match;
    if (log_line.find("error") == std::string::npos ||
        !std::regex_search(log_line, match, location)) {
      continue;
    }
    std::string file = match[1];
    int line = std::stoi(match[2]);
    if (map.files.count(file) == 0) {  // not a name we wrote: a physical line of the whole text
      if (line < 1 || line > static_cast<int>(map.origin.size())) continue;
      std::tie(file, line) = map.origin[line - 1];
    }
    const auto found = map.files.find(file);
    if (found == map.files.end() || !shown.insert({file, line}).second) continue;
    out << file << ":" << line << ":\n";
    for (int n = line - 2; n <= line + 2; ++n) {
      const auto text = found->second.find(n);
      if (text == found->second.end()) continue;
      char number[16];
      std::snprintf(number, sizeof number, "%5d", n);
      out << (n == line ? " >" : "  ") << number << " | " << text->second << "\n";
    }
  }
  return out.str();
}

FrameworkBuildOptions split_build_options(const std::string& options) {
  static const std::string kMaxRegisters = "-clf-nv-maxnreg=";
  FrameworkBuildOptions split;
  // Options without the framework's own go to the driver untouched (quoted spaces included).
  if (options.find("-clf-") == std::string::npos) {
    split.driver_options = options;
    return split;
  }
  std::istringstream words(options);
  std::string word;
  while (words >> word) {
    if (word.rfind(kMaxRegisters, 0) == 0) {
      const std::string value = word.substr(kMaxRegisters.size());
      char* end = nullptr;
      const unsigned long registers = std::strtoul(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || registers < 16 || registers > 255) {
        throw Error("build option '" + word + "': the register cap must be 16 to 255");
      }
      split.nv_max_registers = static_cast<unsigned>(registers);
      continue;
    }
    split.driver_options += (split.driver_options.empty() ? "" : " ") + word;
  }
  return split;
}

std::string program_binary_text(const cl::Program& program, const ErrorContext& context) {
  std::vector<std::vector<unsigned char>> binaries;
  check(program.getInfo(CL_PROGRAM_BINARIES, &binaries), "clGetProgramInfo(CL_PROGRAM_BINARIES)",
        context);
  std::string text(binaries.at(0).begin(), binaries.at(0).end());
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

cl::Program program_with_register_cap(const cl::Context& context, const cl::Device& device,
                                      const cl::Program& built, unsigned registers,
                                      const ErrorContext& context_of_errors) {
  const std::string capped =
      with_register_cap(program_binary_text(built, context_of_errors), registers);
  cl_int status = CL_SUCCESS;
  std::vector<cl_int> binary_status;
  cl::Program program(
      context, {device},
      cl::Program::Binaries{std::vector<unsigned char>(capped.begin(), capped.end())},
      &binary_status, &status);
  check(status, "clCreateProgramWithBinary", context_of_errors);
  return program;
}

namespace {

// The program built again from its own PTX with every kernel capped at `registers`.
cl::Program rebuild_with_register_cap(const cl::Context& context, const DeviceInfo& device,
                                      const cl::Program& built, const Source& source,
                                      const std::string& options, unsigned registers) {
  const ErrorContext where{"", device.name, "program '" + source.name + "'"};
  cl::Program program = program_with_register_cap(context, device.device, built, registers, where);
  const cl_int rebuilt = program.build({device.device}, options.c_str());
  if (rebuilt != CL_SUCCESS) {
    const std::string log = build_log(program, device.device);
    throw BuildError("failed to build '" + source.name + "' for " + describe(device) +
                         " again with " + std::to_string(registers) + " registers a kernel (" +
                         error_name(rebuilt) + ")\nbuild log:\n" + log,
                     options, log);
  }
  return program;
}

}  // namespace

std::shared_ptr<const Program> build_program(const cl::Context& context, const DeviceInfo& device,
                                             const Source& source, const std::string& options,
                                             const DiskCacheSettings& disk_cache,
                                             ProgramCacheStats& stats) {
  const FrameworkBuildOptions split = split_build_options(options);
  const std::string& driver_options = split.driver_options;
  const std::string key = device.platform_name + "\n" + device.platform_version + "\n" +
                          device.name + "\n" + device.driver_version + "\n" + options + "\n" +
                          source.text;
  const std::filesystem::path cache_file =
      std::filesystem::path(disk_cache.directory) / program_cache_file_name(key);

  if (disk_cache.enabled) {
    if (std::optional<ProgramCacheEntry> entry = load_program_cache_entry(cache_file, key)) {
      cl_int status = CL_SUCCESS;
      std::vector<cl_int> binary_status;
      cl::Program program(context, {device.device},
                          cl::Program::Binaries{std::vector<unsigned char>(entry->binary.begin(),
                                                                           entry->binary.end())},
                          &binary_status, &status);
      if (status == CL_SUCCESS &&
          program.build({device.device}, driver_options.c_str()) == CL_SUCCESS) {
        ++stats.disk_hits;
        if (disk_cache.trace)
          std::cerr << "clf cache: hit  " << source.name << " " << cache_file.string() << "\n";
        return std::make_shared<Program>(program, source.name, options, std::move(entry->kernels),
                                         true);
      }
    }
    if (disk_cache.trace)
      std::cerr << "clf cache: miss " << source.name << " " << cache_file.string() << "\n";
  }

  cl_int status = CL_SUCCESS;
  cl::Program program(context, source.text, false, &status);
  check(status, "clCreateProgramWithSource", {"", device.name, "program '" + source.name + "'"});
  const cl_int built = program.build({device.device}, driver_options.c_str());
  if (built != CL_SUCCESS) {
    const std::string log = build_log(program, device.device);
    std::string message = "failed to build '" + source.name + "' for " + describe(device) + " (" +
                          error_name(built) + ")\noptions: " + options + "\nbuild log:\n" + log;
    const std::string excerpt = excerpt_reported_lines(source.text, log);
    if (!excerpt.empty()) message += "\nsource at the reported lines:\n" + excerpt;
    throw BuildError(message, options, log);
  }
  ++stats.builds;
  if (split.nv_max_registers != 0 && device.platform_name.find("NVIDIA") != std::string::npos) {
    program = rebuild_with_register_cap(context, device, program, source, driver_options,
                                        split.nv_max_registers);
  }

  std::vector<KernelInfo> kernels = query_kernels(program, source.name, device.name);
  if (disk_cache.enabled) {
    std::vector<std::vector<unsigned char>> binaries;
    if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS && binaries.size() == 1 &&
        !binaries[0].empty()) {
      save_program_cache_entry(
          cache_file, key,
          ProgramCacheEntry{std::string(binaries[0].begin(), binaries[0].end()), kernels});
    }
  }
  return std::make_shared<Program>(program, source.name, options, std::move(kernels), false);
}

}  // namespace clf
