// cl-bench: measures the primitives on one OpenCL device (or each of --devices in turn). It
// measures the device's copy bandwidth first, then for every selected primitive, variant, dtype and
// size verifies the result against the CPU reference (a wrong result is reported, never timed, and
// makes the exit code 1) and times the median of N runs after warm-up with device events. Prints a
// table on stdout; --json, --csv and --plot write the same records to files. Usage errors exit 2.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "apps/cl-bench/harness.hpp"
#include "apps/cl-bench/harness_helpers.hpp"
#include "apps/cl-bench/outputs.hpp"
#include "apps/cl-bench/peers.hpp"
#include "framework/atomic_file.hpp"
#include "framework/cli.hpp"
#include "framework/device.hpp"
#include "framework/device_set.hpp"
#include "framework/stopwatch.hpp"

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

// The command line.
struct Options {
  std::vector<std::string> primitives;
  std::string variant_list = "all";
  std::string dtype_list = "all";
  std::string size_list;
  bench::Settings settings;
  std::string json_path, csv_path, plot_dir;
  bool quick = false;
  bool list = false;
  bool peers = false;
  clf::DeviceOptions device_options;
  std::vector<std::string> primitive_names;  // "scan sort" and "scan,sort" alike
  CLI::Option* runs_option = nullptr;
  CLI::Option* warmup_option = nullptr;
};

void add_options(CLI::App& app, Options& options) {
  app.add_option("primitive", options.primitives,
                 "primitives to run: copy, scan, reduce, compact, sort, matmul, random, or all "
                 "(default: all)");
  app.add_option("--variant", options.variant_list, "variants, comma-separated, or all")
      ->type_name("NAME|all");
  app.add_option("--dtype", options.dtype_list, "data types, comma-separated, or all")
      ->type_name("NAME|all");
  app.add_option("--sizes", options.size_list,
                 "sizes, comma-separated: 1000, 1e6, 2^20, 1M, 16Mi; A..B for A, 2A, ... B "
                 "(default: each case's own)")
      ->type_name("LIST");
  options.runs_option = app.add_option("--runs", options.settings.runs,
                                       "timed runs per size (default 10; --quick: 3)")
                            ->type_name("N")
                            ->check(CLI::Range(1, 100000));
  options.warmup_option = app.add_option("--warmup", options.settings.warmup,
                                         "untimed runs first (default 2; --quick: 1)")
                              ->type_name("N")
                              ->check(CLI::Range(0, 100000));
  app.add_option("--seed", options.settings.seed, "seed of the inputs (default 1)")
      ->type_name("S")
      ->check(clf::not_negative());
  app.add_option("--json", options.json_path, "write the records as a JSON list to FILE")
      ->type_name("FILE");
  app.add_option("--csv", options.csv_path, "write the records as CSV to FILE")->type_name("FILE");
  app.add_option("--plot", options.plot_dir,
                 "draw throughput against size per variant, one PNG per primitive, into DIR "
                 "(python3 with matplotlib)")
      ->type_name("DIR");
  app.add_flag("--peers", options.peers,
               "also run the peers on the same device (Boost.Compute: scan, reduce, compact, "
               "sort; CLBlast: matmul), with the ratio ours / peer");
  app.add_flag("--quick", options.quick, "small sizes and 3 runs: a smoke test in seconds");
  app.add_flag("--list", options.list,
               "list the cases (primitive, variant, dtype, sizes) and exit");
  options.device_options.add_to(app);
}

// Our variant that a peer's row is compared with.
std::string ours_for_peer(const std::string& primitive) {
  return primitive == "compact" ? "values" : "default";
}

// The listing index of the device a record was measured on; -1 with one device.
int device_index(const bench::Record& record) { return record.device ? record.device->index : -1; }

// Our record of the peer's primitive, dtype and size on the same device, or nullptr (peers are
// registered after our variants, so ours is measured first).
const bench::Record* ours_beside(const bench::Record& peer,
                                 const std::vector<bench::Record>& records) {
  if (!peer.verified()) return nullptr;
  for (const bench::Record& ours : records) {
    if (ours.verified() && device_index(ours) == device_index(peer) &&
        ours.primitive == peer.primitive && ours.dtype == peer.dtype && ours.n == peer.n &&
        ours.variant == ours_for_peer(peer.primitive)) {
      return &ours;
    }
  }
  return nullptr;
}

// The peers' rows beside ours: throughput of each, the ratio, and ours against the CPU. Nothing
// where no peer ran (neither --peers nor a peer named in --variant).
void peer_table(const std::vector<bench::Record>& records) {
  if (std::none_of(records.begin(), records.end(),
                   [](const bench::Record& r) { return bench::peers::is_peer(r.variant); })) {
    return;
  }
  std::cout << "\nours vs peers (same device, same inputs, same process)\n"
            << std::left << std::setw(10) << "primitive" << std::setw(16) << "dtype" << std::setw(7)
            << "n" << std::right << std::setw(12) << "ours" << std::setw(15) << "peer"
            << std::setw(12) << "peer" << std::setw(11) << "ours/peer" << std::setw(9) << "vs CPU"
            << "\n";
  for (const bench::Record& peer : records) {
    if (!bench::peers::is_peer(peer.variant)) continue;
    const bench::Record* ours = ours_beside(peer, records);
    if (ours == nullptr) continue;
    std::ostringstream line;
    line << std::left << std::setw(10) << ours->primitive << std::setw(16) << ours->dtype
         << std::setw(7) << bench::format_size(ours->n) << std::right << std::fixed
         << std::setprecision(3) << std::setw(12) << ours->throughput << std::setw(15)
         << peer.variant << std::setw(12) << peer.throughput << std::setprecision(2)
         << std::setw(10) << ours->throughput / peer.throughput << "x" << std::setw(8)
         << ours->cpu_speedup << "x  " << ours->unit;
    std::cout << line.str() << "\n";
  }
}

// Every case at every size, as a table row each; returns the records and whether all verified.
// `device` (several devices) goes into every record and the table's device column.
std::vector<bench::Record> run_cases(clf::Runtime& runtime, const Options& options,
                                     std::vector<std::unique_ptr<bench::BenchCase>>& cases,
                                     const std::vector<std::size_t>& sizes, double copy_bandwidth,
                                     const std::optional<bench::DeviceDescription>& device,
                                     bool& all_ok) {
  std::size_t total = 0;
  for (const auto& c : cases) {
    total += sizes.empty() ? c->default_sizes(options.quick).size() : sizes.size();
  }
  bench::Progress progress(total, isatty(STDERR_FILENO) != 0);
  bench::Table table(std::cout, cases, device.has_value());
  std::cout << "\n";
  table.header();
  std::vector<bench::Record> records;
  for (auto& bench_case : cases) {
    const std::string label =
        bench_case->primitive() + " " + bench_case->variant() + " " + bench_case->dtype();
    const auto case_start = std::chrono::steady_clock::now();
    const std::vector<std::size_t> case_sizes =
        sizes.empty() ? bench_case->default_sizes(options.quick) : sizes;
    std::size_t not_ok = 0;
    for (const std::size_t n : case_sizes) {
      progress.begin(label + " n=" + bench::format_size(n));
      bench::Record record =
          bench::measure(runtime, *bench_case, n, options.settings, copy_bandwidth,
                         [&progress](const std::string& phase) { progress.phase(phase); });
      progress.end();
      progress.clear();
      record.device = device;
      if (const bench::Record* ours =
              bench::peers::is_peer(record.variant) ? ours_beside(record, records) : nullptr) {
        std::ostringstream ratio;
        ratio << std::setprecision(3) << ours->throughput / record.throughput;
        record.note = ours->variant + " / " + record.variant + " = " + ratio.str() + "x";
      }
      table.row(record);
      if (record.status == bench::Status::failed || record.status == bench::Status::error) {
        all_ok = false;
        ++not_ok;
      }
      records.push_back(std::move(record));
    }
    bench_case.reset();  // frees its device buffers before the next case allocates
    progress.case_done(label, case_sizes.size(), not_ok, clf::seconds_since(case_start));
  }
  progress.clear();
  return records;
}

// The summary line and the files asked for; false when a plot was asked for and not drawn.
bool report(const std::vector<bench::Record>& records, const Options& options,
            const bench::DeviceDescription& device, const std::string& date) {
  std::size_t counts[4] = {0, 0, 0, 0};
  for (const auto& record : records) ++counts[static_cast<int>(record.status)];
  std::cout << "\n"
            << records.size() << " measurements: " << counts[0] << " verified, " << counts[1]
            << " wrong, " << counts[2] << " skipped, " << counts[3] << " errors\n";
  const bench::Settings& settings = options.settings;
  if (!options.json_path.empty()) {
    clf::write_file_atomically(options.json_path, bench::to_json(records, device, settings, date));
  }
  if (!options.csv_path.empty()) {
    clf::write_file_atomically(options.csv_path, bench::to_csv(records, device, settings, date));
  }
  if (options.plot_dir.empty()) return true;
  fs::create_directories(options.plot_dir);
  const std::string plot_json = options.json_path.empty()
                                    ? (fs::path(options.plot_dir) / "cl-bench.json").string()
                                    : options.json_path;
  if (options.json_path.empty()) {
    clf::write_file_atomically(plot_json, bench::to_json(records, device, settings, date));
  }
  return bench::plot(plot_json, options.plot_dir);
}

// The cases the command line selects; throws bench::UsageError.
std::vector<std::unique_ptr<bench::BenchCase>> select_cases(const Options& options) {
  const std::vector<std::string> named = split_names(options.variant_list);
  const std::vector<std::string> dtypes = split_names(options.dtype_list);
  // Checks the names; with --peers the peers join the variants named (`--variant default
  // --peers`: ours and theirs), so every variant is selected and filtered below.
  std::vector<std::unique_ptr<bench::BenchCase>> cases =
      bench::select_cases(options.primitive_names, named, dtypes);
  if (options.peers) cases = bench::select_cases(options.primitive_names, {}, dtypes);
  // The peers run with --peers, or when named in --variant.
  const auto kept = [&](const std::unique_ptr<bench::BenchCase>& c) {
    const bool listed = std::find(named.begin(), named.end(), c->variant()) != named.end();
    if (bench::peers::is_peer(c->variant())) return options.peers || listed;
    return bench::selects_all(named) || listed;
  };
  cases.erase(std::remove_if(cases.begin(), cases.end(),
                             [&](const std::unique_ptr<bench::BenchCase>& c) { return !kept(c); }),
              cases.end());
  return cases;
}

// Measures the selected cases on each chosen device in turn (one at a time, so that no device's
// figures include another's load); the exit code.
int run(Options& options, std::vector<std::unique_ptr<bench::BenchCase>>& cases,
        const std::vector<std::size_t>& sizes) {
  options.device_options.request.profiling = true;  // device times come from event timestamps
  const std::unique_ptr<clf::DeviceSet> devices = options.device_options.make_device_set();
  const bool several = devices->size() > 1;
  const std::string date = bench::utc_now();
  const bench::Settings& settings = options.settings;
  std::cout << "cl-bench on "
            << (several ? devices->description() : clf::describe(devices->front().device())) << ", "
            << date << "\n"
            << settings.runs << " timed runs after " << settings.warmup
            << " warm-up runs per size, seed " << settings.seed << "\n";
  bool all_ok = true;
  std::vector<bench::Record> records;
  std::optional<bench::DeviceDescription> first_device;
  for (std::size_t d = 0; d < devices->size(); ++d) {
    clf::Runtime& runtime = devices->at(d);
    std::optional<bench::DeviceDescription> device;
    if (several) {
      device = bench::describe_device(runtime);
      device->index = runtime.device().index;
      std::cout << "\n" << clf::device_label(runtime) << "\n";
    }
    if (d == 0) first_device = device;
    const double copy_bandwidth = measure_copy_bandwidth(runtime, settings, options.quick);
    if (!(copy_bandwidth > 0)) all_ok = false;
    if (d == 0 && options.peers) std::cout << bench::peers::missing_note();
    // Each device measures fresh cases: nothing a case built on one device is reused on another.
    std::vector<std::unique_ptr<bench::BenchCase>> device_cases =
        d == 0 ? std::move(cases) : select_cases(options);
    std::vector<bench::Record> device_records =
        run_cases(runtime, options, device_cases, sizes, copy_bandwidth, device, all_ok);
    records.insert(records.end(), std::make_move_iterator(device_records.begin()),
                   std::make_move_iterator(device_records.end()));
  }
  peer_table(records);
  const bench::DeviceDescription device =
      first_device ? *first_device : bench::describe_device(devices->front());
  if (!report(records, options, device, date)) all_ok = false;
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Benchmarks the GPU primitives on one OpenCL device: verifies each result against the CPU "
      "reference, then reports the median device time of N runs, throughput, the fraction of "
      "the device's copy bandwidth and the speedup over the CPU reference."};
  Options options;
  add_options(app, options);
  CLI11_PARSE(app, argc, argv);

  if (options.quick) {
    if (options.runs_option->count() == 0) options.settings.runs = 3;
    if (options.warmup_option->count() == 0) options.settings.warmup = 1;
  }

  std::vector<std::unique_ptr<bench::BenchCase>> cases;
  std::vector<std::size_t> sizes;
  try {
    if (options.device_options.handle_list_devices()) return 0;
    for (const std::string& item : options.primitives) {
      for (const std::string& name : split_names(item)) options.primitive_names.push_back(name);
    }
    cases = select_cases(options);
    if (!options.size_list.empty()) sizes = bench::parse_sizes(options.size_list);
  } catch (const bench::UsageError& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 1;
  }
  if (options.list) {
    std::cout << bench::describe_cases(cases);
    return 0;
  }
  if (cases.empty()) {
    std::cerr << "cl-bench: no case matches the selection\n";
    return 2;
  }
  try {
    return run(options, cases, sizes);
  } catch (const std::exception& error) {
    std::cerr << "cl-bench: " << error.what() << "\n";
    return 1;
  }
}
