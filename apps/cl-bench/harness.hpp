// The pieces of cl-bench that are not its command line: size lists, statistics, choosing cases
// by name, measuring one case at one size, and writing the results (table, JSON, CSV). They live
// in a small library so that tests/test_bench_harness.cpp can test them without main().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "apps/cl-bench/bench_case.hpp"
#include "framework/runtime.hpp"

namespace bench {

// A mistake on the command line (unknown name, malformed size): main() prints it and exits 2.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// ---- sizes and statistics --------------------------------------------------------------------

// One size: "1000", "1e6", "2^20", "1M" (10^6), "16Mi" (16*2^20), "1.5k", "64Ki", "1G", "1Gi".
// Throws UsageError unless the text is a whole, non-negative number in one of these forms.
std::size_t parse_size(const std::string& text);
// A comma-separated list of sizes; "A..B" stands for A, 2A, 4A, ... up to B (e.g. 2^10..2^20).
std::vector<std::size_t> parse_sizes(const std::string& list);
// "2^20" for powers of two from 2^10 up, the decimal number otherwise.
std::string format_size(std::size_t n);

// The median (mean of the middle two for an even count); throws std::invalid_argument if empty.
double median(std::vector<double> values);
double minimum(const std::vector<double>& values);

// ---- choosing cases --------------------------------------------------------------------------

// The registered primitives in display order: copy first, then the order (scan, reduce,
// compact, sort, matmul, random), then any others alphabetically; each name once.
std::vector<std::string> registered_primitives();

// The cases of `primitives` ("all" for every registered one) whose variant and dtype are in
// `variants` and `dtypes` (empty or "all": any). Throws UsageError naming what exists when a
// primitive is unknown, or a variant or dtype matches none of the selected primitives' cases.
std::vector<std::unique_ptr<BenchCase>> select_cases(const std::vector<std::string>& primitives,
                                                     const std::vector<std::string>& variants,
                                                     const std::vector<std::string>& dtypes);

// "copy: uint4, enqueue (uint32)\nscan: ..." for --list.
std::string describe_cases(const std::vector<std::unique_ptr<BenchCase>>& cases);

// ---- measuring -------------------------------------------------------------------------------

struct Settings {
  int runs = 10;
  int warmup = 2;
  std::uint64_t seed = 1;
};

enum class Status { ok, failed, skipped, error };
// "ok", "FAIL", "skipped", "error"
const char* to_string(Status status);

struct DeviceDescription {
  std::string name, platform, driver;
  // The device's index in --list-devices when several devices ran (--devices): then JSON and
  // CSV carry it as device_index, which tells two cards of one model apart. -1: one device.
  int index = -1;
};

// One case at one size: everything the table, JSON and CSV show.
struct Record {
  std::string primitive, variant, dtype, unit;
  std::size_t n = 0;
  Status status = Status::skipped;
  std::string note;  // why it failed or was skipped, or a remark on an ok measurement
  double cpu_reference_ms = 0;
  double upload_ms = 0;
  double download_ms = 0;
  std::vector<double> runs_ms;    // device time of each timed run: first start to last end
  std::vector<double> kernel_ms;  // per run: the sum of the commands' own durations
  double median_ms = 0;
  double min_ms = 0;
  double median_kernel_ms = 0;
  int warmup = 0;
  double work = 0;         // BenchCase::work(n)
  double bytes_moved = 0;  // BenchCase::bytes_moved(n)
  double throughput = 0;   // work / median time / 1e9, in `unit`; NaN when not measured
  double copy_bandwidth_gbs = 0;
  double copy_fraction = 0;  // bytes_moved / median time / copy bandwidth; NaN when n/a
  double cpu_speedup = 0;    // cpu_reference_ms / median_ms; NaN when n/a
  // The device that measured it, when several did (--devices); JSON and CSV then take the
  // device from here rather than from their `device` argument.
  std::optional<DeviceDescription> device;

  bool verified() const { return status == Status::ok; }
};

// Device time of the commands recorded for one run, in milliseconds.
struct RunTime {
  double span_ms = 0;    // last end - first start
  double kernel_ms = 0;  // sum of the commands' durations (span minus gaps between them)
  std::size_t commands = 0;
};
RunTime device_time(const std::vector<clf::Event>& events);

// Called with a short phase description ("verify", "run 3/10") while a measurement runs.
using PhaseCallback = std::function<void(const std::string& phase)>;

// Measures `bench_case` at size n: skips it (with a note) when n exceeds the case's max_size or
// the device memory; else prepare, upload, one run, download, verify -- a wrong result becomes a
// FAIL record and is never timed -- then `warmup` and `runs` timed runs on the device-resident
// inputs, and a second download and verify (runs must repeat the same work). Exceptions from
// the case become error records. `copy_bandwidth_gbs` (0: unknown) scales copy_fraction.
Record measure(clf::Runtime& runtime, BenchCase& bench_case, std::size_t n,
               const Settings& settings, double copy_bandwidth_gbs,
               const PhaseCallback& on_phase = {});

// ---- reporting -------------------------------------------------------------------------------

DeviceDescription describe_device(const clf::Runtime& runtime);

// The table on stdout: a header, then one aligned row per record, streamed as records arrive.
// Name columns are as wide as the longest name among the cases to be run.
class Table {
 public:
  // With `device_column` (several devices), rows begin with the index of the record's device.
  Table(std::ostream& out, const std::vector<std::unique_ptr<BenchCase>>& cases,
        bool device_column = false);
  void header();
  void row(const Record& record);

 private:
  std::ostream& out_;
  std::size_t primitive_width_ = 9;
  std::size_t variant_width_ = 7;
  std::size_t dtype_width_ = 5;
  bool device_column_ = false;
};

// The JSON records (a list) and CSV rows; both carry at least primitive, variant, dtype, n,
// device, driver, verified, median_ms, kernel_ms, upload_ms, download_ms, throughput, unit,
// cpu_reference_ms. `date` is ISO 8601 UTC.
std::string to_json(const std::vector<Record>& records, const DeviceDescription& device,
                    const Settings& settings, const std::string& date);
std::string to_csv(const std::vector<Record>& records, const DeviceDescription& device,
                   const Settings& settings, const std::string& date);
// The current time as "2025-01-31T12:34:56Z".
std::string utc_now();

// Progress on stderr: a redrawn bar when stderr is a terminal, else one line per finished case.
class Progress {
 public:
  Progress(std::size_t total_measurements, bool terminal);
  // A measurement of `label` begins; then phases of it; then it ends.
  void begin(const std::string& label);
  void phase(const std::string& phase);
  void end();
  // A case (all its sizes) is done: the one line written when stderr is not a terminal.
  void case_done(const std::string& label, std::size_t sizes, std::size_t failures, double seconds);
  // Erases the bar so that other output (the table on the same terminal) starts clean.
  void clear();

 private:
  void draw();
  std::size_t total_;
  std::size_t done_ = 0;
  bool terminal_;
  bool drawn_ = false;
  std::string label_, phase_;
  double start_seconds_;
  double last_draw_seconds_ = 0;
};

}  // namespace bench
