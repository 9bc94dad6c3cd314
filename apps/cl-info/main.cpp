// cl-info: lists the OpenCL devices and runs a self-test through the framework on the chosen
// one (or on every device with --all-devices). Exits non-zero when a check fails.
#include <CLI/CLI.hpp>
#include <iostream>

#include "framework/clf.hpp"
#include "framework/cli.hpp"
#include "self_test.hpp"

namespace {

bool report(clf::Runtime& runtime) {
  std::cout << "\nself-test on " << clf::describe(runtime.device()) << "\n";
  const auto results = cl_info::run_self_test(runtime);
  std::size_t passed = 0;
  for (const auto& result : results) {
    std::cout << "  " << (result.passed ? "pass" : "FAIL") << "  " << result.name << ": "
              << result.detail << "\n";
    passed += result.passed ? 1 : 0;
  }
  std::cout << "self-test: " << passed << " of " << results.size() << " checks passed on "
            << runtime.device_name() << "\n";
  return passed == results.size();
}

}  // namespace

int main(int argc, char** argv) try {
  CLI::App app{"Lists OpenCL devices and runs a self-test kernel through the framework."};
  clf::DeviceOptions device_options;
  device_options.add_to(app);
  bool all_devices = false;
  app.add_flag("--all-devices", all_devices, "run the self-test on every device");
  CLI11_PARSE(app, argc, argv);

  {
    if (device_options.handle_list_devices()) return 0;
    const std::vector<clf::DeviceInfo> devices = clf::enumerate_devices();
    std::cout << "OpenCL devices:\n" << clf::format_device_table(devices);
    bool ok = true;
    if (all_devices) {
      for (const clf::DeviceInfo& device : devices) {
        clf::Runtime runtime(device, device_options.request);
        ok = report(runtime) && ok;
      }
    } else {
      const std::unique_ptr<clf::Runtime> runtime = device_options.make_runtime();
      ok = report(*runtime);
    }
    return ok ? 0 : 1;
  }
} catch (const std::exception& error) {
  std::cerr << "cl-info: " << error.what() << "\n";
  return 1;
}
