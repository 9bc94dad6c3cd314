#include "self_test.hpp"

#include <chrono>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>

#include "framework/clf.hpp"
#include "framework/stopwatch.hpp"
#include "shared/cl-info/selftest.h"

namespace cl_info {

namespace {

bool close(float expected, float actual, float tolerance) {
  return std::fabs(expected - actual) <= tolerance * std::max(1.0f, std::fabs(expected));
}

std::string format(const char* pattern, double a, double b = 0) {
  char text[200];
  std::snprintf(text, sizeof text, pattern, a, b);
  return text;
}

// y = a*x + y over a million elements, twice, through lazy buffers: checks the result and that
// the buffers copied exactly once each way.
CheckResult check_saxpy(clf::Runtime& runtime) {
  const cl_uint n = 1U << 20;
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> x(n);
  std::vector<float> y(n);
  for (cl_uint i = 0; i < n; ++i) {
    x[i] = uniform(random);
    y[i] = uniform(random);
  }
  clf::Buffer<float> device_x(runtime, x);
  clf::Buffer<float> device_y(runtime, y);
  clf::CLKernel saxpy(runtime, clf::kernel_source("kernels/cl-info/selftest.cl"), "saxpy");
  const auto start = std::chrono::steady_clock::now();
  saxpy(clf::Range::linear(n, 256), 2.0f, device_x, device_y, n);
  saxpy(clf::Range::linear(n, 256), 2.0f, device_x, device_y, n);
  const std::vector<float>& result = device_y.host();
  const double ms = clf::milliseconds_since(start);
  std::size_t wrong = 0;
  for (cl_uint i = 0; i < n; ++i) {
    const float expected = 2.0f * x[i] + (2.0f * x[i] + y[i]);
    if (!close(expected, result[i], 1e-5f)) ++wrong;
  }
  const clf::TransferCounts& tx = device_x.transfers();
  const clf::TransferCounts& ty = device_y.transfers();
  const bool copies_ok =
      tx.uploads == 1 && tx.downloads == 0 && ty.uploads == 1 && ty.downloads == 1;
  std::ostringstream detail;
  detail << n << " elements, 2 launches, " << wrong << " wrong; copies x " << tx.uploads << " up "
         << tx.downloads << " down, y " << ty.uploads << " up " << ty.downloads << " down; "
         << format("%.2f ms with copies", ms);
  return {"saxpy through lazy buffers", wrong == 0 && copies_ok, detail.str()};
}

// Shared structs in a buffer, stepped on the device and by the same function on the host.
CheckResult check_particles(clf::Runtime& runtime) {
  const cl_uint n = 4096;
  const int steps = 10;
  const float dt = 0.01f;
  std::vector<SelfTestParticle> particles(n);
  for (cl_uint i = 0; i < n; ++i) {
    particles[i].position = {{static_cast<float>(i), 100.0f, -static_cast<float>(i), 0.0f}};
    particles[i].velocity = {{1.0f, static_cast<float>(i % 7), 0.5f, 0.0f}};
    particles[i].mass = 1.0f + static_cast<float>(i % 3);
    particles[i].id = static_cast<cl_int>(i);
  }
  clf::Buffer<SelfTestParticle> device_particles(runtime, particles);
  clf::CLKernel step(runtime, clf::kernel_source("kernels/cl-info/selftest.cl"),
                     "selftest_particles");
  for (int s = 0; s < steps; ++s) step(clf::Range::linear(n, 64), device_particles, dt, n);
  std::size_t wrong = 0;
  for (cl_uint i = 0; i < n; ++i) {
    SelfTestParticle expected = particles[i];
    for (int s = 0; s < steps; ++s) expected = selftest_step(expected, dt);
    const SelfTestParticle& got = device_particles[i];
    if (!close(expected.position.x, got.position.x, 1e-4f) ||
        !close(expected.position.y, got.position.y, 1e-4f) ||
        !close(expected.velocity.y, got.velocity.y, 1e-4f) || got.id != expected.id ||
        got.mass != expected.mass) {
      ++wrong;
    }
  }
  return {"shared struct kernel", wrong == 0,
          std::to_string(n) + " particles, " + std::to_string(steps) + " steps, " +
              std::to_string(wrong) + " differ from the host"};
}

// A device function called from the host through a generated wrapper kernel.
CheckResult check_function(clf::Runtime& runtime) {
  clf::CLFunction<SelfTestParticle(SelfTestParticle, cl_float)> step(
      runtime, clf::kernel_source("kernels/cl-info/selftest.cl"), "selftest_step");
  SelfTestParticle p{};
  p.position = {{0.0f, 10.0f, 0.0f, 0.0f}};
  p.velocity = {{2.0f, 0.0f, 0.0f, 0.0f}};
  p.id = 42;
  const SelfTestParticle got = step(p, 0.5f);
  const SelfTestParticle expected = selftest_step(p, 0.5f);
  const bool ok = close(expected.position.y, got.position.y, 1e-6f) &&
                  close(expected.position.x, got.position.x, 1e-6f) && got.id == 42;
  return {"CLFunction on a shared function", ok,
          format("position (%.4f, %.4f) after one step", got.position.x, got.position.y)};
}

// A work-group reduction in __local memory.
CheckResult check_local_memory(clf::Runtime& runtime) {
  const cl_uint n = 100003;
  std::vector<float> values(n);
  for (cl_uint i = 0; i < n; ++i) values[i] = static_cast<float>(i % 100) * 0.25f;
  double expected = 0;
  for (float v : values) expected += v;
  clf::CLKernel group_sum(runtime, clf::kernel_source("kernels/cl-info/selftest.cl"), "group_sum");
  std::size_t local = 1;
  while (local * 2 <= std::min<std::size_t>(256, group_sum.max_work_group_size())) local *= 2;
  clf::Buffer<float> device_values(runtime, values);
  clf::Buffer<float> sum(runtime, 1);
  group_sum(clf::Range::linear(local, local), device_values, n, clf::Local<float>{local},
            clf::write_only(sum));
  const bool ok = close(static_cast<float>(expected), sum[0], 1e-5f);
  return {"local-memory reduction", ok,
          format("sum %.1f, expected %.1f", sum[0], expected) + ", work-group " +
              std::to_string(local)};
}

}  // namespace

std::vector<CheckResult> run_self_test(clf::Runtime& runtime) {
  const std::vector<std::function<CheckResult(clf::Runtime&)>> checks = {
      check_saxpy, check_particles, check_function, check_local_memory};
  const char* names[] = {"saxpy through lazy buffers", "shared struct kernel",
                         "CLFunction on a shared function", "local-memory reduction"};
  std::vector<CheckResult> results;
  for (std::size_t i = 0; i < checks.size(); ++i) {
    try {
      results.push_back(checks[i](runtime));
    } catch (const std::exception& error) {
      results.push_back({names[i], false, error.what()});
    }
  }
  return results;
}

}  // namespace cl_info
