// Measuring one case at one size: verify first, then time.
#include "apps/cl-bench/harness.hpp"

#include "framework/event.hpp"

#include "apps/cl-bench/harness_helpers.hpp"

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

}  // namespace bench
