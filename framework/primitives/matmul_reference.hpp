// CPU matrix multiplies for tests and benchmarks: C = A . B, row-major, A m x k, B k x n.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clf::primitives {

// The textbook triple loop, one dot product per element (Gruber, listing 3), fp32.
std::vector<float> matmul_reference_naive(const std::vector<float>& a, const std::vector<float>& b,
                                          std::size_t m, std::size_t k, std::size_t n);

// Cache-blocked fp32 on `threads` threads (0: std::thread::hardware_concurrency()), rows of C
// split between them; the inner loop runs along rows of B so the compiler vectorises it.
std::vector<float> matmul_reference_blocked(const std::vector<float>& a,
                                            const std::vector<float>& b, std::size_t m,
                                            std::size_t k, std::size_t n, unsigned threads = 0);

// Element (row, col) of A . B in double precision, with sum_i |A(row,i)| |B(i,col)|, the scale of
// its rounding error.
struct ExactEntry {
  double value = 0;
  double magnitude = 0;
};
ExactEntry matmul_reference_entry(const std::vector<float>& a, const std::vector<float>& b,
                                  std::size_t k, std::size_t n, std::size_t row, std::size_t col);

// The whole product in double precision.
std::vector<double> matmul_reference_double(const std::vector<float>& a,
                                            const std::vector<float>& b, std::size_t m,
                                            std::size_t k, std::size_t n);

// The error bound every fp32 multiply must meet, whatever its order of summation: an fp32 dot
// product of length k (products and sums rounded, fused or not) is within
// k * 2^-24 / (1 - k * 2^-24) * sum |a_i| |b_i| of the exact one (Higham, Accuracy and Stability,
// 3.1). We allow (k + 2) * 2^-24 * magnitude, which covers the double reference's own error.
double matmul_error_bound(std::size_t k, double magnitude);

// What verification holds results to: the bound above, or where smaller (k above about 60) the
// probabilistic one of Higham and Mary (2019), 8 sqrt(k + 2) 2^-24 magnitude, which rounding
// errors of random sign exceed with a chance below 1e-13 an element. The worst-case bound grows
// as k and the sum as k again, so at k = 8192 with inputs in [-1, 1] it passed a product with a
// whole term of the sum dropped (at most 1 in size, the bound 1.0); the errors measured on the
// H200 are at most 4.6e-3 of this one at 8192^3 (docs/matmul.md).
double matmul_likely_error_bound(std::size_t k, double magnitude);

// How close c (m x n, as many elements as that) is to the double-precision product, over the
// elements matmul_verify checks: how many lie outside matmul_likely_error_bound, and the worst
// |error| / matmul_error_bound (0 for an exact product, above 1 outside that bound).
struct MatmulAccuracy {
  std::size_t checked = 0;
  std::size_t outside = 0;
  std::size_t worst_index = 0;
  double worst_ratio = 0;
  ExactEntry worst_entry;
};
MatmulAccuracy matmul_accuracy(const std::vector<float>& a, const std::vector<float>& b,
                               const std::vector<float>& c, std::size_t m, std::size_t k,
                               std::size_t n, std::size_t samples = 0);

// Checks c against the double-precision product with matmul_likely_error_bound. `samples` = 0
// checks every element; otherwise that many elements spread over C (the four corners always
// among them), for sizes where the full product on the CPU takes too long. Returns "" when all
// are within the bound, else the count of bad elements and the worst one.
std::string matmul_verify(const std::vector<float>& a, const std::vector<float>& b,
                          const std::vector<float>& c, std::size_t m, std::size_t k, std::size_t n,
                          std::size_t samples = 0);

}  // namespace clf::primitives
