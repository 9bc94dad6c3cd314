// cl-bench's harness (apps/cl-bench/harness.hpp): size lists, statistics, choosing cases by
// name, and the measuring procedure -- that a wrong result is reported and never timed.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/cl-bench/harness.hpp"
#include "framework/clf.hpp"

namespace {

using bench::parse_size;
using bench::parse_sizes;

TEST(BenchHarnessSizes, AcceptsTheDocumentedForms) {
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("1000"), 1000u);
  EXPECT_EQ(parse_size("1e6"), 1000000u);
  EXPECT_EQ(parse_size("2^20"), 1u << 20);
  EXPECT_EQ(parse_size("1M"), 1000000u);
  EXPECT_EQ(parse_size("16Mi"), 16u << 20);
  EXPECT_EQ(parse_size("64Ki"), 64u << 10);
  EXPECT_EQ(parse_size("1.5k"), 1500u);
  EXPECT_EQ(parse_size("2Gi"), std::size_t{2} << 30);
  EXPECT_EQ(parse_size(" 3 "), 3u);
}

TEST(BenchHarnessSizes, RejectsMalformedSizesNamingThem) {
  for (const char* bad : {"", "x", "1x", "-5", "1.5", "2^", "^3", "1e", "2^99", "1MiB", "0x10"}) {
    try {
      parse_size(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const bench::UsageError& error) {
      EXPECT_NE(std::string(error.what()).find(std::string("'") + bad), std::string::npos)
          << error.what();
    }
  }
}

TEST(BenchHarnessSizes, ParsesListsAndPowerOfTwoRanges) {
  EXPECT_EQ(parse_sizes("1e6,2^20,1M,16Mi"),
            (std::vector<std::size_t>{1000000, 1u << 20, 1000000, 16u << 20}));
  EXPECT_EQ(parse_sizes("2^10..2^13"), (std::vector<std::size_t>{1024, 2048, 4096, 8192}));
  EXPECT_EQ(parse_sizes("3..20,7"), (std::vector<std::size_t>{3, 6, 12, 7}));
  EXPECT_THROW(parse_sizes(""), bench::UsageError);
  EXPECT_THROW(parse_sizes("1,,2"), bench::UsageError);
  EXPECT_THROW(parse_sizes("0..8"), bench::UsageError);
  EXPECT_THROW(parse_sizes("8..4"), bench::UsageError);
}

TEST(BenchHarnessSizes, FormatsPowersOfTwo) {
  EXPECT_EQ(bench::format_size(1u << 20), "2^20");
  EXPECT_EQ(bench::format_size(1024), "2^10");
  EXPECT_EQ(bench::format_size(512), "512");
  EXPECT_EQ(bench::format_size(100003), "100003");
}

TEST(BenchHarnessStatistics, MedianAndMinimum) {
  EXPECT_DOUBLE_EQ(bench::median({3.0}), 3.0);
  EXPECT_DOUBLE_EQ(bench::median({5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(bench::median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_DOUBLE_EQ(bench::median({9.0, 9.0, 1.0, 100.0, 2.0}), 9.0);
  EXPECT_DOUBLE_EQ(bench::minimum({4.0, 1.5, 3.0}), 1.5);
  EXPECT_THROW(bench::median({}), std::invalid_argument);
  EXPECT_THROW(bench::minimum({}), std::invalid_argument);
}

// A case whose device work is a saxpy on n floats (kernels/cl-info/selftest.cl) and whose result
// can be made wrong on purpose; it counts its runs.
class FakeCase : public bench::BenchCase {
 public:
  FakeCase(std::string primitive, std::string variant, std::string dtype)
      : primitive_(std::move(primitive)), variant_(std::move(variant)), dtype_(std::move(dtype)) {}

  std::string primitive() const override { return primitive_; }
  std::string variant() const override { return variant_; }
  std::string dtype() const override { return dtype_; }
  std::string unit() const override { return "Gelem/s"; }
  std::vector<std::size_t> default_sizes(bool) const override { return {1000}; }
  std::size_t max_size(const clf::Runtime&) const override { return max_size_; }
  double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t) override {
    runtime_ = &runtime;
    n_ = n;
    x_.emplace(runtime, n);
    y_.emplace(runtime, n);
    if (!saxpy_)
      saxpy_.emplace(runtime, clf::kernel_source("kernels/cl-info/selftest.cl"), "saxpy");
    bytes_per_element_ = prepared_bytes_per_element;
    return 2.0;
  }
  double upload() override {
    x_->write(std::vector<float>(n_, 1.0f));
    y_->write(std::vector<float>(n_, 0.0f));
    return 0.5;
  }
  void run() override {
    ++runs;
    // y = 0*x + y leaves y as it was: every run repeats the same work.
    (*saxpy_)(clf::Range::linear(n_, 64), 0.0f, *x_, *y_, static_cast<cl_uint>(n_));
    if (throw_in_run) throw clf::Error("run failed on purpose");
  }
  double download() override {
    result_ = y_->read();
    return 0.25;
  }
  std::string verify() override {
    ++verifications;
    if (wrong_after_verifications >= 0 && verifications > wrong_after_verifications) {
      return "wrong on purpose";
    }
    for (float value : result_) {
      if (value != 0.0f) return "y changed";
    }
    return "";
  }
  double work(std::size_t n) const override { return static_cast<double>(n); }
  // Like compact's, the bytes may depend on the input: those of the last one prepared.
  double bytes_moved(std::size_t n) const override { return bytes_per_element_ * n; }

  double prepared_bytes_per_element = 8.0;
  int runs = 0;
  int verifications = 0;
  int wrong_after_verifications = -1;  // verify() fails once called more often than this
  bool throw_in_run = false;
  std::size_t max_size_ = std::size_t{1} << 30;

 private:
  std::string primitive_, variant_, dtype_;
  clf::Runtime* runtime_ = nullptr;
  std::size_t n_ = 0;
  double bytes_per_element_ = 8.0;
  std::optional<clf::DeviceBuffer<float>> x_, y_;
  std::optional<clf::CLKernel> saxpy_;
  std::vector<float> result_;
};

// Registered once for the whole test binary, as bench_<primitive>.cpp files do.
const bool registered = [] {
  bench::register_cases("fake-scan", [] {
    std::vector<std::unique_ptr<bench::BenchCase>> cases;
    cases.push_back(std::make_unique<FakeCase>("fake-scan", "naive", "int32"));
    cases.push_back(std::make_unique<FakeCase>("fake-scan", "fast", "int32"));
    cases.push_back(std::make_unique<FakeCase>("fake-scan", "fast", "float32"));
    return cases;
  });
  bench::register_cases("fake-sort", [] {
    std::vector<std::unique_ptr<bench::BenchCase>> cases;
    cases.push_back(std::make_unique<FakeCase>("fake-sort", "radix", "uint32"));
    return cases;
  });
  return true;
}();

std::vector<std::string> names(const std::vector<std::unique_ptr<bench::BenchCase>>& cases) {
  std::vector<std::string> result;
  for (const auto& c : cases)
    result.push_back(c->primitive() + "/" + c->variant() + "/" + c->dtype());
  return result;
}

std::string usage_error(const std::function<void()>& action) {
  try {
    action();
  } catch (const bench::UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(BenchHarnessRegistry, SelectsByPrimitiveVariantAndDtype) {
  ASSERT_TRUE(registered);
  EXPECT_EQ(names(bench::select_cases({"fake-sort"}, {}, {})),
            (std::vector<std::string>{"fake-sort/radix/uint32"}));
  EXPECT_EQ(names(bench::select_cases({"fake-scan"}, {"fast"}, {"all"})),
            (std::vector<std::string>{"fake-scan/fast/int32", "fake-scan/fast/float32"}));
  EXPECT_EQ(names(bench::select_cases({"fake-scan"}, {"all"}, {"int32"})),
            (std::vector<std::string>{"fake-scan/naive/int32", "fake-scan/fast/int32"}));
  // A variant that only some selected primitives have selects theirs.
  EXPECT_EQ(names(bench::select_cases({"fake-scan", "fake-sort"}, {"radix"}, {})),
            (std::vector<std::string>{"fake-sort/radix/uint32"}));
  // The test binary has only these cases; "all" takes them in display order.
  EXPECT_EQ(bench::registered_primitives(), (std::vector<std::string>{"fake-scan", "fake-sort"}));
  EXPECT_EQ(bench::select_cases({"all"}, {}, {}).size(), 4u);
}

TEST(BenchHarnessRegistry, UnknownNamesListWhatExists) {
  EXPECT_EQ(usage_error([] { bench::select_cases({"nope"}, {}, {}); })
                .find("unknown primitive "
                      "'nope'; known: "),
            0u);
  const std::string primitive_error = usage_error([] { bench::select_cases({"nope"}, {}, {}); });
  EXPECT_NE(primitive_error.find("fake-scan"), std::string::npos) << primitive_error;
  EXPECT_EQ(usage_error([] { bench::select_cases({"fake-scan"}, {"radix"}, {}); }),
            "unknown variant 'radix' for fake-scan; known: naive, fast (or all)");
  EXPECT_EQ(usage_error([] { bench::select_cases({"fake-sort"}, {}, {"int64"}); }),
            "unknown dtype 'int64' for fake-sort; known: uint32 (or all)");
}

clf::Runtime& profiling_runtime() {
  static clf::Runtime runtime([] {
    clf::DeviceRequest request;
    request.profiling = true;
    request.quiet = true;
    return request;
  }());
  return runtime;
}

TEST(BenchHarnessMeasure, TimesAVerifiedCase) {
  FakeCase fake("fake-scan", "naive", "int32");
  bench::Settings settings;
  settings.runs = 4;
  settings.warmup = 2;
  const bench::Record record = bench::measure(profiling_runtime(), fake, 4096, settings, 10.0);
  ASSERT_EQ(record.status, bench::Status::ok) << record.note;
  EXPECT_TRUE(record.verified());
  EXPECT_EQ(fake.runs, 1 + 2 + 4);
  EXPECT_EQ(fake.verifications, 2);  // before timing, and again after the timed runs
  ASSERT_EQ(record.runs_ms.size(), 4u);
  EXPECT_GT(record.median_ms, 0.0);
  EXPECT_LE(record.min_ms, record.median_ms);
  EXPECT_DOUBLE_EQ(record.cpu_reference_ms, 2.0);
  EXPECT_DOUBLE_EQ(record.upload_ms, 0.5);
  EXPECT_DOUBLE_EQ(record.download_ms, 0.25);
  EXPECT_NEAR(record.throughput, 4096 / (record.median_ms * 1e-3) / 1e9, 1e-9);
  EXPECT_NEAR(record.copy_fraction, 8.0 * 4096 / (record.median_ms * 1e-3) / 1e9 / 10.0, 1e-9);
  EXPECT_NEAR(record.cpu_speedup, 2.0 / record.median_ms, 1e-9);
}

// Compact's bytes depend on how many elements its input keeps: the record's are those of the
// input measured, not of the one before it.
TEST(BenchHarnessMeasure, BytesMovedAreThoseOfTheInputMeasured) {
  FakeCase fake("fake-compact", "values", "int32");
  fake.prepared_bytes_per_element = 12.0;
  const bench::Record record = bench::measure(profiling_runtime(), fake, 4096, {}, 10.0);
  ASSERT_EQ(record.status, bench::Status::ok) << record.note;
  EXPECT_DOUBLE_EQ(record.bytes_moved, 12.0 * 4096);
  EXPECT_NEAR(record.copy_fraction, 12.0 * 4096 / (record.median_ms * 1e-3) / 1e9 / 10.0, 1e-9);
}

TEST(BenchHarnessMeasure, AWrongResultIsReportedAndNeverTimed) {
  FakeCase fake("fake-scan", "naive", "int32");
  fake.wrong_after_verifications = 0;
  const bench::Record record = bench::measure(profiling_runtime(), fake, 1000, {}, 10.0);
  EXPECT_EQ(record.status, bench::Status::failed);
  EXPECT_FALSE(record.verified());
  EXPECT_EQ(record.note, "wrong on purpose");
  EXPECT_EQ(fake.runs, 1);
  EXPECT_TRUE(record.runs_ms.empty());
  EXPECT_TRUE(std::isnan(record.throughput));
}

TEST(BenchHarnessMeasure, AResultThatGoesWrongDuringTimingFails) {
  FakeCase fake("fake-scan", "naive", "int32");
  fake.wrong_after_verifications = 1;
  const bench::Record record = bench::measure(profiling_runtime(), fake, 1000, {}, 10.0);
  EXPECT_EQ(record.status, bench::Status::failed);
  EXPECT_NE(record.note.find("wrong after"), std::string::npos) << record.note;
}

TEST(BenchHarnessMeasure, ErrorsAndOversizedRunsAreReported) {
  FakeCase throwing("fake-scan", "naive", "int32");
  throwing.throw_in_run = true;
  const bench::Record error = bench::measure(profiling_runtime(), throwing, 1000, {}, 0);
  EXPECT_EQ(error.status, bench::Status::error);
  EXPECT_EQ(error.note, "run failed on purpose");

  FakeCase small("fake-scan", "naive", "int32");
  small.max_size_ = 100;
  const bench::Record skipped = bench::measure(profiling_runtime(), small, 1000, {}, 0);
  EXPECT_EQ(skipped.status, bench::Status::skipped);
  EXPECT_NE(skipped.note.find("largest size"), std::string::npos) << skipped.note;
  EXPECT_EQ(small.runs, 0);
}

TEST(BenchHarnessReport, JsonAndCsvCarryTheRequiredKeys) {
  FakeCase fake("fake-scan", "fast", "int32");
  bench::Settings settings;
  settings.runs = 3;
  std::vector<bench::Record> records = {
      bench::measure(profiling_runtime(), fake, 2048, settings, 0)};
  fake.wrong_after_verifications = 0;
  records.push_back(bench::measure(profiling_runtime(), fake, 512, settings, 0));
  const bench::DeviceDescription device = bench::describe_device(profiling_runtime());
  const auto json = nlohmann::json::parse(bench::to_json(records, device, settings, "DATE"));
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), 2u);
  for (const char* key : {"primitive", "variant", "dtype", "n", "device", "driver", "verified",
                          "median_ms", "kernel_ms", "upload_ms", "download_ms", "throughput",
                          "unit", "cpu_reference_ms", "min_ms", "runs", "copy_fraction", "date"}) {
    EXPECT_TRUE(json[0].contains(key)) << key;
  }
  EXPECT_EQ(json[0]["n"], 2048);
  EXPECT_EQ(json[0]["verified"], true);
  EXPECT_EQ(json[0]["runs"], 3);
  EXPECT_GT(json[0]["throughput"].get<double>(), 0);
  EXPECT_TRUE(json[0]["copy_fraction"].is_null());  // no copy bandwidth given
  EXPECT_EQ(json[1]["verified"], false);
  EXPECT_EQ(json[1]["status"], "FAIL");
  EXPECT_TRUE(json[1]["median_ms"].is_null());

  const std::string csv = bench::to_csv(records, device, settings, "DATE");
  EXPECT_EQ(csv.rfind("primitive,variant,dtype,n,device,", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

TEST(BenchHarnessReport, SeveralDevicesAreNamedPerRecordAndInTheTable) {
  FakeCase fake("fake-scan", "fast", "int32");
  bench::Settings settings;
  settings.runs = 3;
  bench::Record first = bench::measure(profiling_runtime(), fake, 2048, settings, 0);
  bench::Record second = first;
  bench::DeviceDescription device = bench::describe_device(profiling_runtime());
  EXPECT_EQ(nlohmann::json::parse(bench::to_json({first}, device, settings, "DATE"))[0].count(
                "device_index"),
            0u);  // one device: today's keys
  first.device = device;
  first.device->index = 0;
  second.device = device;
  second.device->index = 3;
  second.device->name = "other card";
  const auto json =
      nlohmann::json::parse(bench::to_json({first, second}, *first.device, settings, "DATE"));
  EXPECT_EQ(json[0]["device_index"], 0);
  EXPECT_EQ(json[1]["device_index"], 3);
  EXPECT_EQ(json[1]["device"], "other card");
  const std::string csv = bench::to_csv({first, second}, *first.device, settings, "DATE");
  EXPECT_EQ(csv.rfind("primitive,variant,dtype,n,device,device_index,platform,", 0), 0u) << csv;
  EXPECT_NE(csv.find(",other card,3,"), std::string::npos) << csv;

  std::vector<std::unique_ptr<bench::BenchCase>> cases;
  cases.push_back(std::make_unique<FakeCase>("fake-scan", "fast", "int32"));
  std::ostringstream with_column, without;
  bench::Table table(with_column, cases, true);
  table.header();
  table.row(second);
  bench::Table plain(without, cases);
  plain.header();
  plain.row(second);
  EXPECT_EQ(with_column.str().rfind("device  primitive", 0), 0u) << with_column.str();
  EXPECT_NE(with_column.str().find("\n     3  fake-scan"), std::string::npos) << with_column.str();
  EXPECT_EQ(without.str().rfind("primitive", 0), 0u) << without.str();
}

}  // namespace
