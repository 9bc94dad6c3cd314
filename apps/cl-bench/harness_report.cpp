// Writing the results: the table on stdout, JSON and CSV.
#include "apps/cl-bench/harness.hpp"

#include <ctime>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/cl-bench/harness_helpers.hpp"

namespace bench {

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

std::vector<Column> table_columns(std::size_t primitive, std::size_t variant, std::size_t dtype,
                                  bool device_column) {
  std::vector<Column> columns;
  if (device_column) columns.push_back({"device", 6, false});
  const std::vector<Column> rest = {{"primitive", primitive, true}, {"variant", variant, true},
                                    {"dtype", dtype, true},         {"n", 10, false},
                                    {"verified", 8, true},          {"median ms", 10, false},
                                    {"min ms", 10, false},          {"upload ms", 10, false},
                                    {"download ms", 11, false},     {"throughput", 18, false},
                                    {"% of copy", 9, false},        {"vs CPU", 9, false}};
  columns.insert(columns.end(), rest.begin(), rest.end());
  return columns;
}

}  // namespace

Table::Table(std::ostream& out, const std::vector<std::unique_ptr<BenchCase>>& cases,
             bool device_column)
    : out_(out), device_column_(device_column) {
  for (const auto& c : cases) {
    primitive_width_ = std::max(primitive_width_, c->primitive().size());
    variant_width_ = std::max(variant_width_, c->variant().size());
    dtype_width_ = std::max(dtype_width_, c->dtype().size());
  }
}

void Table::header() {
  const auto columns =
      table_columns(primitive_width_, variant_width_, dtype_width_, device_column_);
  std::vector<std::string> titles;
  for (const auto& column : columns) titles.emplace_back(column.title);
  print_row(out_, columns, titles);
  out_.flush();
}

void Table::row(const Record& r) {
  const auto columns =
      table_columns(primitive_width_, variant_width_, dtype_width_, device_column_);
  const bool ok = r.status == Status::ok;
  const std::string verified = ok                            ? "yes"
                               : r.status == Status::skipped ? "skipped"
                                                             : to_string(r.status);
  std::string throughput = "-", copy = "-", cpu = "-";
  if (ok && !std::isnan(r.throughput)) throughput = figure(r.throughput) + " " + r.unit;
  if (ok && !std::isnan(r.copy_fraction)) copy = figure(r.copy_fraction * 100) + "%";
  if (ok && !std::isnan(r.cpu_speedup)) cpu = figure(r.cpu_speedup) + "x";
  std::vector<std::string> cells = {r.primitive,
                                    r.variant,
                                    r.dtype,
                                    format_size(r.n),
                                    verified,
                                    ok ? milliseconds(r.median_ms) : "-",
                                    ok ? milliseconds(r.min_ms) : "-",
                                    ok ? milliseconds(r.upload_ms) : "-",
                                    ok ? milliseconds(r.download_ms) : "-",
                                    throughput,
                                    copy,
                                    cpu};
  if (device_column_) {
    cells.insert(cells.begin(), r.device && r.device->index >= 0 ? std::to_string(r.device->index)
                                                                 : std::string("-"));
  }
  print_row(out_, columns, cells);
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
nlohmann::ordered_json record_fields(const Record& r, const DeviceDescription& default_device,
                                     const Settings& settings, const std::string& date) {
  const DeviceDescription& device = r.device ? *r.device : default_device;
  nlohmann::ordered_json j;
  j["primitive"] = r.primitive;
  j["variant"] = r.variant;
  j["dtype"] = r.dtype;
  j["n"] = r.n;
  j["device"] = device.name;
  if (device.index >= 0) j["device_index"] = device.index;
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

}  // namespace bench
