// Measuring one case at one size: verify first, then time.
#include "apps/cl-bench/harness.hpp"

#include <functional>

#include "apps/cl-bench/harness_helpers.hpp"
#include "framework/event.hpp"

namespace bench {

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

namespace {

// A record naming the case at size n, every figure not yet measured.
Record empty_record(const BenchCase& bench_case, std::size_t n, const Settings& settings,
                    double copy_bandwidth_gbs) {
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
  return record;
}

// Why the case cannot run at size n on this device, or "".
std::string reason_to_skip(clf::Runtime& runtime, BenchCase& bench_case, std::size_t n,
                           double bytes_moved) {
  const std::size_t largest = bench_case.max_size(runtime);
  if (largest == 0) return "this case does not run on this device";
  if (std::string nothing = bench_case.no_result_at(n); !nothing.empty()) return nothing;
  if (n > largest) {
    return "n = " + format_size(n) + " is over this case's largest size on this device, " +
           format_size(largest);
  }
  const double memory = static_cast<double>(runtime.device().global_memory_bytes);
  if (memory > 0 && bytes_moved > memory) {
    return "needs at least " + figure(bytes_moved / 1e9) + " GB; the device has " +
           figure(memory / 1e9) + " GB";
  }
  return "";
}

// The warm-up and timed runs; returns the host time of each timed run.
std::vector<double> timed_runs(clf::Runtime& runtime, BenchCase& bench_case, std::size_t n,
                               const Settings& settings,
                               const std::function<void(const std::string&)>& phase,
                               Record& record) {
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
  return wall_ms;
}

// The statistics and rates of a verified record's runs.
void summarise(Record& record, const std::vector<double>& wall_ms, double copy_bandwidth_gbs) {
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
}

}  // namespace

Record measure(clf::Runtime& runtime, BenchCase& bench_case, std::size_t n,
               const Settings& settings, double copy_bandwidth_gbs, const PhaseCallback& on_phase) {
  const std::function<void(const std::string&)> phase = [&](const std::string& text) {
    if (on_phase) on_phase(text);
  };
  Record record = empty_record(bench_case, n, settings, copy_bandwidth_gbs);
  try {
    record.work = bench_case.work(n);
    record.bytes_moved = bench_case.bytes_moved(n);
    record.note = reason_to_skip(runtime, bench_case, n, record.bytes_moved);
    if (!record.note.empty()) return record;

    phase("prepare");
    record.cpu_reference_ms = bench_case.prepare(runtime, n, settings.seed);
    record.bytes_moved = bench_case.bytes_moved(n);  // some depend on the input (compact's)
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
    const std::vector<double> wall_ms = timed_runs(runtime, bench_case, n, settings, phase, record);
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
    summarise(record, wall_ms, copy_bandwidth_gbs);
  } catch (const std::exception& error) {
    runtime.stop_recording();  // in case a run threw while recording
    record.status = Status::error;
    record.note = error.what();
  }
  return record;
}

}  // namespace bench
