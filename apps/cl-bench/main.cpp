// cl-bench: measures the primitives on one OpenCL device. It measures the device's copy
// bandwidth first, then for every selected primitive, variant, dtype and size verifies the
// result against the CPU reference (a wrong result is reported, never timed, and makes the exit
// code 1) and times the median of N runs after warm-up with device events. Prints a table on
// stdout; --json, --csv and --plot write the same records to files. Usage errors exit 2.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "apps/cl-bench/harness.hpp"
#include "framework/cli.hpp"
#include "framework/device.hpp"

namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_names(const std::string& list) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    if (comma > start) names.push_back(list.substr(start, comma - start));
    start = comma + 1;
  }
  return names;
}

void write_file(const std::string& path, const std::string& text) {
  if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path());
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

std::string shell_quote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// plot_bench.py beside the executable (the build copies it there), else in the source tree.
fs::path plot_script() {
  std::error_code error;
  const fs::path beside = fs::read_symlink("/proc/self/exe", error).parent_path() / "plot_bench.py";
  if (!error && fs::exists(beside)) return beside;
  return fs::path(CL_BENCH_SOURCE_DIR) / "plot_bench.py";
}

// Runs plot_bench.py on the JSON with $CL_BENCH_PYTHON, else python3 from PATH and, should that
// one lack matplotlib (a pyenv or venv python), Debian's /usr/bin/python3, where
// python3-matplotlib installs. Returns false (having said why) when no plot was drawn.
bool plot(const std::string& json_path, const std::string& directory) {
  const fs::path script = plot_script();
  if (!fs::exists(script)) {
    std::cerr << "cl-bench: --plot: " << script << " is missing\n";
    return false;
  }
  std::vector<std::string> pythons = {"python3"};
  if (const char* chosen = std::getenv("CL_BENCH_PYTHON"); chosen != nullptr && *chosen != 0) {
    pythons = {chosen};
  } else if (fs::exists("/usr/bin/python3")) {
    pythons.push_back("/usr/bin/python3");
  }
  // The first python that imports matplotlib; if none does, the first, whose run of the script
  // then says that matplotlib is missing.
  std::string python = pythons.front();
  for (const std::string& candidate : pythons) {
    const std::string probe = shell_quote(candidate) + " -c 'import matplotlib' >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) {
      python = candidate;
      break;
    }
  }
  const std::string command = shell_quote(python) + " " + shell_quote(script.string()) + " " +
                              shell_quote(json_path) + " --out " + shell_quote(directory);
  std::cout.flush();  // the script's lines come after ours
  const int status = std::system(command.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 0) return true;
  if (code == 127) {
    std::cerr << "cl-bench: --plot needs python3 with matplotlib; python3 was not found "
                 "(Debian: apt-get install python3-matplotlib)\n";
  } else if (code == 3) {
    std::cerr << "cl-bench: --plot drew nothing because matplotlib is missing; the results are "
                 "in "
              << json_path << "\n";
  } else {
    std::cerr << "cl-bench: --plot: " << command << " failed (exit " << code << ")\n";
  }
  return false;
}

// The copy bandwidth every other figure is compared with: the faster of the copy cases (the
// uint4 kernel and clEnqueueCopyBuffer) at a size large enough to reach it -- smaller on CPUs,
// where it takes long, and with --quick. Returns 0 (having said why) when it cannot be measured.
double measure_copy_bandwidth(clf::Runtime& runtime, const bench::Settings& settings, bool quick) {
  const int exponent = quick ? 20 : runtime.device().type == clf::DeviceType::gpu ? 28 : 24;
  bench::Settings reference = settings;
  reference.runs = std::max(settings.runs, 5);
  double best = 0;
  std::string figures;
  std::size_t n = 0;
  for (const auto& copy : bench::select_cases({"copy"}, {}, {})) {
    n = std::min(std::size_t{1} << exponent, copy->max_size(runtime) / 2);
    const bench::Record record = bench::measure(runtime, *copy, n, reference, 0);
    if (record.status != bench::Status::ok || !(record.throughput > 0)) {
      std::cerr << "cl-bench: the copy bandwidth reference failed: copy " << record.variant
                << " n = " << bench::format_size(n) << ": " << to_string(record.status) << ": "
                << record.note << "\n";
      return 0;
    }
    best = std::max(best, record.throughput);
    std::ostringstream figure;
    figure << std::fixed << std::setprecision(1) << record.throughput;
    figures += (figures.empty() ? "" : ", ") + record.variant + " " + figure.str();
  }
  std::cout << "copy bandwidth: " << std::fixed << std::setprecision(1) << best << std::defaultfloat
            << " GB/s, read + write (the faster of " << figures
            << " GB/s; n = " << bench::format_size(n) << " uint32, median of " << reference.runs
            << " runs); '% of copy' is relative to it\n";
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Benchmarks the GPU primitives on one OpenCL device: verifies each result against the CPU "
      "reference, then reports the median device time of N runs, throughput, the fraction of "
      "the device's copy bandwidth and the speedup over the CPU reference."};
  std::vector<std::string> primitives;
  std::string variant_list = "all";
  std::string dtype_list = "all";
  std::string size_list;
  bench::Settings settings;
  std::string json_path, csv_path, plot_dir;
  bool quick = false;
  bool list = false;
  clf::DeviceOptions device_options;
  app.add_option("primitive", primitives,
                 "primitives to run: copy, scan, reduce, compact, sort, matmul, random, or all "
                 "(default: all)");
  app.add_option("--variant", variant_list, "variants, comma-separated, or all")
      ->type_name("NAME|all");
  app.add_option("--dtype", dtype_list, "data types, comma-separated, or all")
      ->type_name("NAME|all");
  app.add_option("--sizes", size_list,
                 "sizes, comma-separated: 1000, 1e6, 2^20, 1M, 16Mi; A..B for A, 2A, ... B "
                 "(default: each case's own)")
      ->type_name("LIST");
  auto* runs_option =
      app.add_option("--runs", settings.runs, "timed runs per size (default 10; --quick: 3)")
          ->type_name("N")
          ->check(CLI::Range(1, 100000));
  auto* warmup_option =
      app.add_option("--warmup", settings.warmup, "untimed runs first (default 2; --quick: 1)")
          ->type_name("N")
          ->check(CLI::Range(0, 100000));
  app.add_option("--seed", settings.seed, "seed of the inputs (default 1)")->type_name("S");
  app.add_option("--json", json_path, "write the records as a JSON list to FILE")
      ->type_name("FILE");
  app.add_option("--csv", csv_path, "write the records as CSV to FILE")->type_name("FILE");
  app.add_option("--plot", plot_dir,
                 "draw throughput against size per variant, one PNG per primitive, into DIR "
                 "(python3 with matplotlib)")
      ->type_name("DIR");
  app.add_flag("--quick", quick, "small sizes and 3 runs: a smoke test in seconds");
  app.add_flag("--list", list, "list the cases (primitive, variant, dtype, sizes) and exit");
  device_options.add_to(app);
  CLI11_PARSE(app, argc, argv);

  if (quick) {
    if (runs_option->count() == 0) settings.runs = 3;
    if (warmup_option->count() == 0) settings.warmup = 1;
  }

  std::vector<std::unique_ptr<bench::BenchCase>> cases;
  std::vector<std::size_t> sizes;
  try {
    if (device_options.handle_list_devices()) return 0;
    std::vector<std::string> primitive_names;  // "scan sort" and "scan,sort" alike
    for (const std::string& item : primitives) {
      for (const std::string& name : split_names(item)) primitive_names.push_back(name);
    }
    cases =
        bench::select_cases(primitive_names, split_names(variant_list), split_names(dtype_list));
    if (!size_list.empty()) sizes = bench::parse_sizes(size_list);
  } catch (const bench::UsageError& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 1;
  }
  if (list) {
    std::cout << bench::describe_cases(cases);
    return 0;
  }
  if (cases.empty()) {
    std::cerr << "cl-bench: no case matches the selection\n";
    return 2;
  }

  try {
    device_options.request.profiling = true;  // device times come from event timestamps
    const std::unique_ptr<clf::Runtime> runtime = device_options.make_runtime();
    const bench::DeviceDescription device = bench::describe_device(*runtime);
    const std::string date = bench::utc_now();
    std::cout << "cl-bench on " << clf::describe(runtime->device()) << ", " << date << "\n"
              << settings.runs << " timed runs after " << settings.warmup
              << " warm-up runs per size, seed " << settings.seed << "\n";
    const double copy_bandwidth = measure_copy_bandwidth(*runtime, settings, quick);

    std::size_t total = 0;
    for (const auto& c : cases)
      total += sizes.empty() ? c->default_sizes(quick).size() : sizes.size();
    bench::Progress progress(total, isatty(STDERR_FILENO) != 0);
    bench::Table table(std::cout, cases);
    std::cout << "\n";
    table.header();
    std::vector<bench::Record> records;
    bool all_ok = copy_bandwidth > 0;
    for (auto& bench_case : cases) {
      const std::string label =
          bench_case->primitive() + " " + bench_case->variant() + " " + bench_case->dtype();
      const auto case_start = std::chrono::steady_clock::now();
      const std::vector<std::size_t> case_sizes =
          sizes.empty() ? bench_case->default_sizes(quick) : sizes;
      std::size_t not_ok = 0;
      for (const std::size_t n : case_sizes) {
        progress.begin(label + " n=" + bench::format_size(n));
        bench::Record record =
            bench::measure(*runtime, *bench_case, n, settings, copy_bandwidth,
                           [&progress](const std::string& phase) { progress.phase(phase); });
        progress.end();
        progress.clear();
        table.row(record);
        if (record.status == bench::Status::failed || record.status == bench::Status::error) {
          all_ok = false;
          ++not_ok;
        }
        records.push_back(std::move(record));
      }
      bench_case.reset();  // frees its device buffers before the next case allocates
      progress.case_done(
          label, case_sizes.size(), not_ok,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - case_start).count());
    }
    progress.clear();

    std::size_t counts[4] = {0, 0, 0, 0};
    for (const auto& record : records) ++counts[static_cast<int>(record.status)];
    std::cout << "\n"
              << records.size() << " measurements: " << counts[0] << " verified, " << counts[1]
              << " wrong, " << counts[2] << " skipped, " << counts[3] << " errors\n";

    if (!json_path.empty()) {
      write_file(json_path, bench::to_json(records, device, settings, date));
    }
    if (!csv_path.empty()) write_file(csv_path, bench::to_csv(records, device, settings, date));
    if (!plot_dir.empty()) {
      fs::create_directories(plot_dir);
      const std::string plot_json =
          json_path.empty() ? (fs::path(plot_dir) / "cl-bench.json").string() : json_path;
      if (json_path.empty()) write_file(plot_json, bench::to_json(records, device, settings, date));
      if (!plot(plot_json, plot_dir)) all_ok = false;
    }
    return all_ok ? 0 : 1;
  } catch (const std::exception& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 1;
  }
}
