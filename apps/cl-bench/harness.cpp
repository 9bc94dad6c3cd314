#include "apps/cl-bench/harness.hpp"
#include "framework/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "framework/event.hpp"

namespace bench {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Sizes above this are surely typos (2^48 elements); it also keeps the arithmetic exact.
constexpr long double kLargestSize = 281474976710656.0L;

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream stream(text);
  while (std::getline(stream, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

using clf::join;

[[noreturn]] void bad_size(const std::string& text, const std::string& why = "") {
  throw UsageError("'" + text + "' is not a size" + (why.empty() ? "" : " (" + why + ")") +
                   "; use forms like 1000, 1e6, 2^20, 1M, 16Mi, or a range 2^10..2^20");
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool selects_all(const std::vector<std::string>& names) {
  return names.empty() || contains(names, "all");
}

// A figure with about four significant digits and no exponent.
std::string figure(double value) {
  if (std::isnan(value)) return "-";
  char text[64];
  const double magnitude = std::fabs(value);
  const int decimals = magnitude >= 1000 ? 0 : magnitude >= 100 ? 1 : magnitude >= 10 ? 2 : 3;
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string milliseconds(double ms) {
  if (std::isnan(ms)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, ms >= 100 ? "%.1f" : ms >= 1 ? "%.3f" : "%.4f", ms);
  return text;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

// ---- sizes and statistics --------------------------------------------------------------------

std::size_t parse_size(const std::string& raw) {
  const std::string text = trim(raw);
  if (text.empty()) bad_size(raw, "empty");
  long double value = 0;
  static const std::regex power(R"(^(\d+)\^(\d+)$)");
  static const std::regex number(R"(^(\d*\.?\d+(?:[eE][+]?\d+)?)(k|K|M|G|T|Ki|Mi|Gi|Ti)?$)");
  std::smatch match;
  if (std::regex_match(text, match, power)) {
    const long double base = std::stold(match[1].str());
    const long double exponent = std::stold(match[2].str());
    if (exponent > 64) bad_size(raw, "too large");
    value = std::pow(base, exponent);
  } else if (std::regex_match(text, match, number)) {
    value = std::stold(match[1].str());
    static const std::map<std::string, long double> multipliers = {
        {"", 1},
        {"k", 1e3},
        {"K", 1e3},
        {"M", 1e6},
        {"G", 1e9},
        {"T", 1e12},
        {"Ki", 1024.0L},
        {"Mi", 1024.0L * 1024},
        {"Gi", 1024.0L * 1024 * 1024},
        {"Ti", 1024.0L * 1024 * 1024 * 1024}};
    value *= multipliers.at(match[2].str());
  } else {
    bad_size(raw);
  }
  if (value > kLargestSize) bad_size(raw, "larger than 2^48");
  const long double whole = std::round(value);
  if (std::fabs(value - whole) > 1e-6L) bad_size(raw, "not a whole number");
  return static_cast<std::size_t>(whole);
}

std::vector<std::size_t> parse_sizes(const std::string& list) {
  std::vector<std::size_t> sizes;
  for (const std::string& item : split(list, ',')) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      sizes.push_back(parse_size(item));
      continue;
    }
    const std::size_t first = parse_size(item.substr(0, dots));
    const std::size_t last = parse_size(item.substr(dots + 2));
    if (first == 0 || last < first) {
      throw UsageError("'" + trim(item) +
                       "' is not a range; A..B needs 0 < A <= B and gives A, 2A, 4A, ... <= B");
    }
    for (std::size_t n = first; n <= last; n *= 2) sizes.push_back(n);
  }
  if (sizes.empty()) throw UsageError("the size list is empty");
  return sizes;
}

std::string format_size(std::size_t n) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int exponent = 0;
    while ((std::size_t{1} << exponent) != n) ++exponent;
    return "2^" + std::to_string(exponent);
  }
  return std::to_string(n);
}

double median(std::vector<double> values) {
  if (values.empty()) throw std::invalid_argument("median of no values");
  const std::size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  const double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + middle);
  return (lower + upper) / 2;
}

double minimum(const std::vector<double>& values) {
  if (values.empty()) throw std::invalid_argument("minimum of no values");
  return *std::min_element(values.begin(), values.end());
}

// ---- choosing cases --------------------------------------------------------------------------

std::vector<std::string> registered_primitives() {
  static const std::vector<std::string> preferred = {"copy", "scan",   "reduce", "compact",
                                                     "sort", "matmul", "random"};
  std::set<std::string> registered;
  for (const auto& entry : registered_cases()) registered.insert(entry.first);
  std::vector<std::string> ordered;
  for (const auto& name : preferred) {
    if (registered.erase(name) > 0) ordered.push_back(name);
  }
  ordered.insert(ordered.end(), registered.begin(), registered.end());
  return ordered;
}

std::vector<std::unique_ptr<BenchCase>> select_cases(const std::vector<std::string>& primitives,
                                                     const std::vector<std::string>& variants,
                                                     const std::vector<std::string>& dtypes) {
  const std::vector<std::string> known = registered_primitives();
  std::vector<std::string> chosen;
  if (selects_all(primitives)) {
    chosen = known;
  } else {
    for (const auto& name : primitives) {
      if (!contains(known, name)) {
        throw UsageError("unknown primitive '" + name + "'; known: " + join(known) + " (or all)");
      }
      if (!contains(chosen, name)) chosen.push_back(name);
    }
  }

  std::vector<std::unique_ptr<BenchCase>> cases;
  for (const auto& name : chosen) {
    for (const auto& [primitive, factory] : registered_cases()) {
      if (primitive != name) continue;
      for (auto& bench_case : factory()) cases.push_back(std::move(bench_case));
    }
  }

  // Each requested name must exist among the chosen primitives' cases; a case is kept when it
  // matches both filters (so `all --variant default` runs every primitive that has a default).
  const auto check_names = [&](const std::vector<std::string>& requested, const char* what,
                               std::string (BenchCase::*field)() const) {
    if (selects_all(requested)) return;
    std::vector<std::string> existing;
    for (const auto& bench_case : cases) {
      const std::string value = ((*bench_case).*field)();
      if (!contains(existing, value)) existing.push_back(value);
    }
    for (const auto& name : requested) {
      if (!contains(existing, name)) {
        throw UsageError(std::string("unknown ") + what + " '" + name + "' for " + join(chosen) +
                         "; known: " + join(existing) + " (or all)");
      }
    }
  };
  check_names(variants, "variant", &BenchCase::variant);
  check_names(dtypes, "dtype", &BenchCase::dtype);

  std::vector<std::unique_ptr<BenchCase>> selected;
  for (auto& bench_case : cases) {
    if ((selects_all(variants) || contains(variants, bench_case->variant())) &&
        (selects_all(dtypes) || contains(dtypes, bench_case->dtype()))) {
      selected.push_back(std::move(bench_case));
    }
  }
  return selected;
}

std::string describe_cases(const std::vector<std::unique_ptr<BenchCase>>& cases) {
  std::ostringstream out;
  std::size_t primitive_width = 9, variant_width = 7, dtype_width = 5;
  for (const auto& c : cases) {
    primitive_width = std::max(primitive_width, c->primitive().size());
    variant_width = std::max(variant_width, c->variant().size());
    dtype_width = std::max(dtype_width, c->dtype().size());
  }
  const auto sizes = [](const std::vector<std::size_t>& list) {
    std::vector<std::string> names;
    for (std::size_t n : list) names.push_back(format_size(n));
    return join(names, ",");
  };
  out << std::left << std::setw(primitive_width + 2) << "primitive" << std::setw(variant_width + 2)
      << "variant" << std::setw(dtype_width + 2) << "dtype" << std::setw(10) << "unit"
      << "default sizes (--quick)\n";
  for (const auto& c : cases) {
    out << std::left << std::setw(primitive_width + 2) << c->primitive()
        << std::setw(variant_width + 2) << c->variant() << std::setw(dtype_width + 2) << c->dtype()
        << std::setw(10) << c->unit() << sizes(c->default_sizes(false)) << " ("
        << sizes(c->default_sizes(true)) << ")\n";
  }
  return out.str();
}

// ---- measuring -------------------------------------------------------------------------------

const char* to_string(Status status) {
  switch (status) {
    case Status::ok:
      return "ok";
    case Status::failed:
      return "FAIL";
    case Status::skipped:
      return "skipped";
    case Status::error:
      return "error";
  }
  return "?";
}

RunTime device_time(const std::vector<clf::Event>& events) {
  RunTime time;
  std::uint64_t first_start = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t last_end = 0;
  std::uint64_t busy_ns = 0;
  for (const clf::Event& event : events) {
    if (event.handle()() == nullptr) continue;
    const std::uint64_t start = event.start_ns();
    const std::uint64_t end = event.end_ns();
    first_start = std::min(first_start, start);
    last_end = std::max(last_end, end);
    busy_ns += end - start;
    ++time.commands;
  }
  if (time.commands > 0) {
    time.span_ms = static_cast<double>(last_end - first_start) * 1e-6;
    time.kernel_ms = static_cast<double>(busy_ns) * 1e-6;
  }
  return time;
}

Record measure(clf::Runtime& runtime, BenchCase& bench_case, std::size_t n,
               const Settings& settings, double copy_bandwidth_gbs, const PhaseCallback& on_phase) {
  const auto phase = [&](const std::string& text) {
    if (on_phase) on_phase(text);
  };
  Record record;
  record.primitive = bench_case.primitive();
  record.variant = bench_case.variant();
  record.dtype = bench_case.dtype();
  record.unit = bench_case.unit();
  record.n = n;
  record.warmup = settings.warmup;
  record.copy_bandwidth_gbs = copy_bandwidth_gbs;
  record.median_ms = record.min_ms = record.median_kernel_ms = kNaN;
  record.throughput = record.copy_fraction = record.cpu_speedup = kNaN;
  record.upload_ms = record.download_ms = record.cpu_reference_ms = kNaN;
  try {
    record.work = bench_case.work(n);
    record.bytes_moved = bench_case.bytes_moved(n);
    const std::size_t largest = bench_case.max_size(runtime);
    if (largest == 0) {
      record.note = "this case does not run on this device";
      return record;
    }
    if (n > largest) {
      record.note = "n = " + format_size(n) + " is over this case's largest size on this device, " +
                    format_size(largest);
      return record;
    }
    const double memory = static_cast<double>(runtime.device().global_memory_bytes);
    if (memory > 0 && record.bytes_moved > memory) {
      record.note = "needs at least " + figure(record.bytes_moved / 1e9) + " GB; the device has " +
                    figure(memory / 1e9) + " GB";
      return record;
    }

    phase("prepare");
    record.cpu_reference_ms = bench_case.prepare(runtime, n, settings.seed);
    phase("upload");
    record.upload_ms = bench_case.upload();
    phase("verify");
    bench_case.run();
    runtime.finish();
    record.download_ms = bench_case.download();
    std::string wrong = bench_case.verify();
    if (!wrong.empty()) {
      record.status = Status::failed;
      record.note = wrong;
      return record;
    }

    for (int i = 0; i < settings.warmup; ++i) {
      phase("warm-up " + std::to_string(i + 1) + "/" + std::to_string(settings.warmup));
      bench_case.run();
    }
    runtime.finish();
    std::vector<double> wall_ms;
    for (int i = 0; i < settings.runs; ++i) {
      phase("run " + std::to_string(i + 1) + "/" + std::to_string(settings.runs));
      const double wall_start = now_seconds();
      runtime.start_recording();
      bench_case.run();
      runtime.finish();
      const std::vector<clf::Event> events = runtime.stop_recording();
      wall_ms.push_back((now_seconds() - wall_start) * 1e3);
      const RunTime time = device_time(events);
      if (time.commands == 0 && n > 0) {
        record.note =
            "no device commands were recorded; the case enqueues outside CLKernel "
            "without Runtime::record, so the figures are missing";
      }
      record.runs_ms.push_back(time.span_ms);
      record.kernel_ms.push_back(time.kernel_ms);
    }

    // The timed runs must have repeated the verified work, not drifted from it.
    phase("verify again");
    bench_case.download();
    wrong = bench_case.verify();
    if (!wrong.empty()) {
      record.status = Status::failed;
      record.note = "right after one run but wrong after " +
                    std::to_string(settings.warmup + settings.runs + 1) + " runs: " + wrong;
      return record;
    }
    record.status = Status::ok;
    if (!record.runs_ms.empty()) {
      record.median_ms = median(record.runs_ms);
      record.min_ms = minimum(record.runs_ms);
      record.median_kernel_ms = median(record.kernel_ms);
    }
    if (record.median_ms > 0) {
      const double seconds = record.median_ms * 1e-3;
      record.throughput = record.work / seconds / 1e9;
      if (record.bytes_moved > 0 && copy_bandwidth_gbs > 0) {
        record.copy_fraction = record.bytes_moved / seconds / 1e9 / copy_bandwidth_gbs;
      }
      if (record.cpu_reference_ms > 0) {
        record.cpu_speedup = record.cpu_reference_ms / record.median_ms;
      }
    }
    if (record.median_ms > 0 && !wall_ms.empty() && median(wall_ms) > 20 * record.median_ms &&
        median(wall_ms) > 1.0) {
      // Host time far over device time: most likely commands the recording did not see.
      record.note = "host time per run " + milliseconds(median(wall_ms)) +
                    " ms is far above the recorded device time";
    }
  } catch (const std::exception& error) {
    runtime.stop_recording();  // in case a run threw while recording
    record.status = Status::error;
    record.note = error.what();
  }
  return record;
}

// ---- reporting -------------------------------------------------------------------------------

DeviceDescription describe_device(const clf::Runtime& runtime) {
  const clf::DeviceInfo& device = runtime.device();
  return {device.name, device.platform_name, device.driver_version};
}

namespace {

struct Column {
  const char* title;
  std::size_t width;
  bool left;
};

void print_row(std::ostream& out, const std::vector<Column>& columns,
               const std::vector<std::string>& cells) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    std::string cell = cells[i];
    const std::size_t width = columns[i].width;
    const std::string pad = cell.size() < width ? std::string(width - cell.size(), ' ') : "";
    line += columns[i].left ? cell + pad : pad + cell;
    if (i + 1 < columns.size()) line += "  ";
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out << line << "\n";
}

std::vector<Column> table_columns(std::size_t primitive, std::size_t variant, std::size_t dtype) {
  return {{"primitive", primitive, true}, {"variant", variant, true},
          {"dtype", dtype, true},         {"n", 10, false},
          {"verified", 8, true},          {"median ms", 10, false},
          {"min ms", 10, false},          {"upload ms", 10, false},
          {"download ms", 11, false},     {"throughput", 18, false},
          {"% of copy", 9, false},        {"vs CPU", 9, false}};
}

}  // namespace

Table::Table(std::ostream& out, const std::vector<std::unique_ptr<BenchCase>>& cases) : out_(out) {
  for (const auto& c : cases) {
    primitive_width_ = std::max(primitive_width_, c->primitive().size());
    variant_width_ = std::max(variant_width_, c->variant().size());
    dtype_width_ = std::max(dtype_width_, c->dtype().size());
  }
}

void Table::header() {
  const auto columns = table_columns(primitive_width_, variant_width_, dtype_width_);
  std::vector<std::string> titles;
  for (const auto& column : columns) titles.emplace_back(column.title);
  print_row(out_, columns, titles);
  out_.flush();
}

void Table::row(const Record& r) {
  const auto columns = table_columns(primitive_width_, variant_width_, dtype_width_);
  const bool ok = r.status == Status::ok;
  const std::string verified = ok                            ? "yes"
                               : r.status == Status::skipped ? "skipped"
                                                             : to_string(r.status);
  std::string throughput = "-", copy = "-", cpu = "-";
  if (ok && !std::isnan(r.throughput)) throughput = figure(r.throughput) + " " + r.unit;
  if (ok && !std::isnan(r.copy_fraction)) copy = figure(r.copy_fraction * 100) + "%";
  if (ok && !std::isnan(r.cpu_speedup)) cpu = figure(r.cpu_speedup) + "x";
  print_row(out_, columns,
            {r.primitive, r.variant, r.dtype, format_size(r.n), verified,
             ok ? milliseconds(r.median_ms) : "-", ok ? milliseconds(r.min_ms) : "-",
             ok ? milliseconds(r.upload_ms) : "-", ok ? milliseconds(r.download_ms) : "-",
             throughput, copy, cpu});
  if (!r.note.empty()) {
    const char* label = r.status == Status::failed    ? "FAIL: "
                        : r.status == Status::error   ? "error: "
                        : r.status == Status::skipped ? "skipped: "
                                                      : "note: ";
    out_ << "    " << label << r.note << "\n";
  }
  out_.flush();
}

namespace {

// One record's fields in a fixed order, for both JSON and CSV.
nlohmann::ordered_json record_fields(const Record& r, const DeviceDescription& device,
                                     const Settings& settings, const std::string& date) {
  nlohmann::ordered_json j;
  j["primitive"] = r.primitive;
  j["variant"] = r.variant;
  j["dtype"] = r.dtype;
  j["n"] = r.n;
  j["device"] = device.name;
  j["platform"] = device.platform;
  j["driver"] = device.driver;
  j["status"] = to_string(r.status);
  j["verified"] = r.verified();
  j["note"] = r.note;
  j["median_ms"] = r.median_ms;
  j["min_ms"] = r.min_ms;
  j["kernel_ms"] = r.median_kernel_ms;
  j["upload_ms"] = r.upload_ms;
  j["download_ms"] = r.download_ms;
  j["throughput"] = r.throughput;
  j["unit"] = r.unit;
  j["work"] = r.work;
  j["bytes_moved"] = r.bytes_moved;
  j["copy_bandwidth_gbs"] = r.copy_bandwidth_gbs;
  j["copy_fraction"] = r.copy_fraction;
  j["cpu_reference_ms"] = r.cpu_reference_ms;
  j["cpu_speedup"] = r.cpu_speedup;
  j["runs"] = r.runs_ms.size();
  j["warmup"] = r.warmup;
  j["seed"] = settings.seed;
  j["date"] = date;
  return j;
}

std::string csv_cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  if (value.is_number_float()) {
    const double number = value.get<double>();
    if (std::isnan(number)) return "";
    std::ostringstream out;
    out << std::setprecision(10) << number;
    return out.str();
  }
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string to_json(const std::vector<Record>& records, const DeviceDescription& device,
                    const Settings& settings, const std::string& date) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Record& r : records) {
    nlohmann::ordered_json j = record_fields(r, device, settings, date);
    j["runs_ms"] = r.runs_ms;
    list.push_back(std::move(j));
  }
  return list.dump(2) + "\n";  // NaN (not measured) is written as null
}

std::string to_csv(const std::vector<Record>& records, const DeviceDescription& device,
                   const Settings& settings, const std::string& date) {
  std::ostringstream out;
  const nlohmann::ordered_json header = record_fields(Record{}, device, settings, date);
  std::vector<std::string> keys;
  for (const auto& item : header.items()) keys.push_back(item.key());
  out << join(keys, ",") << "\n";
  for (const Record& r : records) {
    const nlohmann::ordered_json fields = record_fields(r, device, settings, date);
    std::vector<std::string> cells;
    for (const auto& item : fields.items()) cells.push_back(csv_cell(item.value()));
    out << join(cells, ",") << "\n";
  }
  return out.str();
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

// ---- progress --------------------------------------------------------------------------------

Progress::Progress(std::size_t total_measurements, bool terminal)
    : total_(total_measurements), terminal_(terminal), start_seconds_(now_seconds()) {}

void Progress::begin(const std::string& label) {
  label_ = label;
  phase_.clear();
  draw();
}

void Progress::phase(const std::string& phase) {
  phase_ = phase;
  // Runs on a GPU take microseconds: redraw at most ten times a second.
  if (now_seconds() - last_draw_seconds_ >= 0.1) draw();
}

void Progress::end() {
  ++done_;
  phase_.clear();
  draw();
}

void Progress::case_done(const std::string& label, std::size_t sizes, std::size_t failures,
                         double seconds) {
  if (terminal_) return;
  std::cerr << "cl-bench: [" << done_ << "/" << total_ << "] " << label << ": " << sizes
            << (sizes == 1 ? " size" : " sizes")
            << (failures > 0 ? ", " + std::to_string(failures) + " not ok" : std::string()) << ", "
            << figure(seconds) << " s" << std::endl;
}

void Progress::clear() {
  if (terminal_ && drawn_) {
    std::cerr << "\r\033[K" << std::flush;
    drawn_ = false;
  }
}

void Progress::draw() {
  if (!terminal_) return;
  constexpr std::size_t kWidth = 24;
  const std::size_t filled = total_ == 0 ? kWidth : done_ * kWidth / total_;
  std::string bar = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "]";
  std::string line = bar + " " + std::to_string(done_) + "/" + std::to_string(total_) + "  " +
                     figure(now_seconds() - start_seconds_) + " s  " + label_;
  if (!phase_.empty()) line += "  (" + phase_ + ")";
  if (line.size() > 120) line.resize(120);
  std::cerr << "\r\033[K" << line << std::flush;
  drawn_ = true;
  last_draw_seconds_ = now_seconds();
}

}  // namespace bench
