// One benchmark case of cl-bench: a primitive, a variant and a data type, at any size. The
// harness (main.cpp) drives every case the same way, so results are comparable:
//   prepare(n) -> upload() -> run() once -> download() -> verify()   (a wrong result is never
//   timed) then warm-up run()s and N timed run()s: the device time of each run is the span from the
//   first launch's start to the last launch's end (Runtime::start_recording), the median is
//   reported.
// Each primitive registers its cases from its own bench_<primitive>.cpp with CLF_BENCH_CASES.
//
// What the harness relies on (apps/cl-bench/harness.cpp):
// - Constructing a case touches no device: factories also run for --list and name checks.
// - prepare() may be called again with another n on the same object; it replaces the buffers.
// - run() repeats the same work each time: it leaves its inputs as they were (writes separate
//   outputs), since the result is verified again after the timed runs.
// - Device time is measured from the events of CLKernel launches. A command enqueued otherwise
//   (clEnqueueCopyBuffer, a fill) counts only if passed to Runtime::record (see bench_copy.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "framework/runtime.hpp"

namespace bench {

class BenchCase {
 public:
  virtual ~BenchCase() = default;

  virtual std::string primitive() const = 0;  // "scan", "sort", "matmul", ...
  virtual std::string variant() const = 0;    // "blelloch", "radix", "default", ...
  // "int32", "uint32", "float32"; key-value sorts "<key type>-kv" (compare_torch.py reads it).
  virtual std::string dtype() const = 0;
  // Throughput is work(n) / seconds / 1e9, so units are G-prefixed: "Gelem/s", "Gkeys/s",
  // "GFLOP/s", "GB/s".
  virtual std::string unit() const = 0;

  // Sizes to run when the user gives none; `quick` asks for a smoke test in seconds.
  virtual std::vector<std::size_t> default_sizes(bool quick) const = 0;
  // Largest n this case can run on `runtime` (memory, device limits); larger sizes are skipped
  // with a note. For matmul, n is the edge of the square matrices (M = N = K = n).
  virtual std::size_t max_size(const clf::Runtime& runtime) const = 0;

  // Makes inputs of size n from `seed` and allocates device buffers. Returns the milliseconds
  // the CPU reference took to compute the expected result (0 if there is none for this case).
  virtual double prepare(clf::Runtime& runtime, std::size_t n, std::uint64_t seed) = 0;
  // Copies the inputs to the device; returns milliseconds.
  virtual double upload() = 0;
  // Enqueues the primitive once on the device-resident inputs (no host copies).
  virtual void run() = 0;
  // Copies the result back; returns milliseconds.
  virtual double download() = 0;
  // Empty when the downloaded result equals the CPU reference, else what is wrong.
  virtual std::string verify() = 0;
  // Units of work in one run (elements, keys, FLOPs (2n^3 for matmul) or bytes), for the
  // throughput figure.
  virtual double work(std::size_t n) const = 0;
  // Why there is nothing to measure at size n ("" where there is): no minimum of no elements.
  virtual std::string no_result_at(std::size_t n) const {
    (void)n;
    return "";
  }
  // Bytes one run must at least read and write, for the fraction of copy bandwidth (0: n/a).
  // Asked before prepare() (to check the device's memory) and after it (where the figure
  // depends on the input, as compact's does on the elements kept).
  virtual double bytes_moved(std::size_t n) const = 0;
};

using CaseFactory = std::function<std::vector<std::unique_ptr<BenchCase>>()>;

// Registers the cases of one primitive; called at static-initialisation time by
// CLF_BENCH_CASES. Returns true so it can initialise a static.
bool register_cases(const std::string& primitive, CaseFactory factory);
// All registered primitives with their factories, in registration order.
const std::vector<std::pair<std::string, CaseFactory>>& registered_cases();

}  // namespace bench

#define CLF_BENCH_CONCAT_(a, b) a##b
#define CLF_BENCH_CONCAT(a, b) CLF_BENCH_CONCAT_(a, b)
// In bench_<primitive>.cpp: CLF_BENCH_CASES("scan", [] { ...return the cases...; })
#define CLF_BENCH_CASES(primitive, factory)                   \
  static const bool CLF_BENCH_CONCAT(registered_, __LINE__) = \
      ::bench::register_cases(primitive, factory)
