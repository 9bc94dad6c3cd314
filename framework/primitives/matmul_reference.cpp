#include "framework/primitives/matmul_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <thread>

#include "framework/primitives/support.hpp"

namespace clf::primitives {

std::vector<float> matmul_reference_naive(const std::vector<float>& a, const std::vector<float>& b,
                                          std::size_t m, std::size_t k, std::size_t n) {
  std::vector<float> c(m * n);
  for (std::size_t row = 0; row < m; ++row) {
    for (std::size_t col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (std::size_t i = 0; i < k; ++i) sum += a[row * k + i] * b[i * n + col];
      c[row * n + col] = sum;
    }
  }
  return c;
}

std::vector<float> matmul_reference_blocked(const std::vector<float>& a,
                                            const std::vector<float>& b, std::size_t m,
                                            std::size_t k, std::size_t n, unsigned threads) {
  // Blocks of B (kBlockK rows x kBlockN columns, 128 KiB) stay in the L2 cache while a thread's
  // rows of A pass over them.
  constexpr std::size_t kBlockK = 128;
  constexpr std::size_t kBlockN = 256;
  std::vector<float> c(m * n, 0.0f);
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(m, 1)));
  auto multiply_rows = [&](std::size_t first_row, std::size_t end_row) {
    for (std::size_t k0 = 0; k0 < k; k0 += kBlockK) {
      const std::size_t k1 = std::min(k, k0 + kBlockK);
      for (std::size_t n0 = 0; n0 < n; n0 += kBlockN) {
        const std::size_t n1 = std::min(n, n0 + kBlockN);
        for (std::size_t row = first_row; row < end_row; ++row) {
          float* c_row = c.data() + row * n;
          for (std::size_t i = k0; i < k1; ++i) {
            const float a_value = a[row * k + i];
            const float* b_row = b.data() + i * n;
            for (std::size_t col = n0; col < n1; ++col) c_row[col] += a_value * b_row[col];
          }
        }
      }
    }
  };
  std::vector<std::thread> workers;
  const std::size_t rows_per_thread = ceil_div(m, threads);
  for (unsigned t = 0; t < threads; ++t) {
    const std::size_t first = t * rows_per_thread;
    const std::size_t end = std::min(m, first + rows_per_thread);
    if (first < end) workers.emplace_back(multiply_rows, first, end);
  }
  for (std::thread& worker : workers) worker.join();
  return c;
}

ExactEntry matmul_reference_entry(const std::vector<float>& a, const std::vector<float>& b,
                                  std::size_t k, std::size_t n, std::size_t row, std::size_t col) {
  ExactEntry entry;
  for (std::size_t i = 0; i < k; ++i) {
    const double product = static_cast<double>(a[row * k + i]) * b[i * n + col];
    entry.value += product;
    entry.magnitude += std::fabs(product);
  }
  return entry;
}

std::vector<double> matmul_reference_double(const std::vector<float>& a,
                                            const std::vector<float>& b, std::size_t m,
                                            std::size_t k, std::size_t n) {
  std::vector<double> c(m * n, 0.0);
  for (std::size_t row = 0; row < m; ++row) {
    for (std::size_t i = 0; i < k; ++i) {
      const double a_value = a[row * k + i];
      for (std::size_t col = 0; col < n; ++col) c[row * n + col] += a_value * b[i * n + col];
    }
  }
  return c;
}

double matmul_error_bound(std::size_t k, double magnitude) {
  return static_cast<double>(k + 2) * std::ldexp(1.0, -24) * magnitude;
}

double matmul_likely_error_bound(std::size_t k, double magnitude) {
  const double likely =
      8.0 * std::sqrt(static_cast<double>(k + 2)) * std::ldexp(1.0, -24) * magnitude;
  return std::min(likely, matmul_error_bound(k, magnitude));
}

MatmulAccuracy matmul_accuracy(const std::vector<float>& a, const std::vector<float>& b,
                               const std::vector<float>& c, std::size_t m, std::size_t k,
                               std::size_t n, std::size_t samples) {
  MatmulAccuracy accuracy;
  const std::size_t total = m * n;
  const bool every = samples == 0 || samples >= total;
  accuracy.checked = every ? total : samples;
  for (std::size_t s = 0; s < accuracy.checked; ++s) {
    std::size_t index = s;
    if (!every) {
      // The corners first, then a stride coprime-ish to the row length, to hit all tiles.
      const std::size_t corners[4] = {0, n - 1, (m - 1) * n, total - 1};
      index = s < 4 ? corners[s] : (s * 2654435761ULL) % total;
    }
    const ExactEntry exact = matmul_reference_entry(a, b, k, n, index / n, index % n);
    const double error = std::fabs(static_cast<double>(c[index]) - exact.value);
    const double bound = matmul_error_bound(k, exact.magnitude);
    const double ratio = bound > 0 ? error / bound : (error > 0 ? INFINITY : 0);
    // NaN counts as outside.
    if (!(error <= matmul_likely_error_bound(k, exact.magnitude))) ++accuracy.outside;
    if (!(ratio <= accuracy.worst_ratio)) {
      accuracy.worst_ratio = ratio;
      accuracy.worst_index = index;
      accuracy.worst_entry = exact;
    }
  }
  return accuracy;
}

std::string matmul_verify(const std::vector<float>& a, const std::vector<float>& b,
                          const std::vector<float>& c, std::size_t m, std::size_t k, std::size_t n,
                          std::size_t samples) {
  if (c.size() != m * n) {
    return "C has " + std::to_string(c.size()) + " elements, expected " + std::to_string(m * n);
  }
  const MatmulAccuracy accuracy = matmul_accuracy(a, b, c, m, k, n, samples);
  if (accuracy.outside == 0) return "";
  const std::size_t worst = accuracy.worst_index;
  std::ostringstream out;
  out << accuracy.outside << " of " << accuracy.checked
      << " checked elements outside the error bound; worst C(" << worst / n << ", " << worst % n
      << ") = " << c[worst] << ", expected " << accuracy.worst_entry.value << " (bound "
      << matmul_likely_error_bound(k, accuracy.worst_entry.magnitude) << ")";
  return out.str();
}

}  // namespace clf::primitives
