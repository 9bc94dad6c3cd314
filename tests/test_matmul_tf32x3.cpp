// The tf32x3 matmul (three TF32 products per fp32 product, mma.sync on NVIDIA GPUs and the same
// fragments through local memory elsewhere): other tilings than the default, the depth below
// which the register-tiled kernel runs, its accuracy beside the fp32 kernel's, infinities, NaN
// and overflow, bad tilings.
// (MatmulVariant in test_matmul.cpp checks it at the shared odd and rectangular sizes.)
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>

#include "framework/clf.hpp"
#include "framework/primitives/matmul.hpp"
#include "framework/primitives/matmul_reference.hpp"
#include "test_support.hpp"

namespace clf::primitives {
namespace {

struct Product {
  std::vector<float> a, b, c;
  std::size_t m, k, n;
};

Product multiply(Matmul& matmul, std::size_t m, std::size_t k, std::size_t n) {
  Product product{clf_test::uniform_floats(m * k, static_cast<std::uint32_t>(m + 7 * k)),
                  clf_test::uniform_floats(k * n, static_cast<std::uint32_t>(n + 5 * k)),
                  {},
                  m,
                  k,
                  n};
  Runtime& runtime = Runtime::shared();
  DeviceBuffer<float> a(runtime, product.a.size()), b(runtime, product.b.size()), c(runtime, m * n);
  a.write(product.a);
  b.write(product.b);
  c.write(std::vector<float>(m * n, std::nanf("")));
  matmul(a, b, c, m, k, n);
  product.c = c.read();
  return product;
}

std::string check(const Product& p) { return matmul_verify(p.a, p.b, p.c, p.m, p.k, p.n); }

TEST(MatmulTf32x3, IsCorrectWithOtherTilings) {
  // 32 x 32 tiles of 2 warps, 64 x 64 of 4 warps with a depth of 32, 128 x 16 of 4 warps; sums
  // on the tensor cores over 1, 2 and all steps.
  for (const char* text : {"1x2/2x2x8/1", "2x2/2x4x32/2", "4x1/2x2x32/0"}) {
    MatmulConfig config;
    config.tf32x3 = Tf32x3Tiling::parse(text);
    Matmul tf32x3(Runtime::shared(), "tf32x3", config);
    EXPECT_EQ(tf32x3.config().tf32x3.to_string(), text);
    // Multiples of every tile (the build without bounds checks), then ragged sizes.
    EXPECT_EQ(check(multiply(tf32x3, 128, 256, 64)), "") << text;
    EXPECT_EQ(check(multiply(tf32x3, 75, 131, 41)), "") << text;
  }
}

TEST(MatmulTf32x3, ShallowProductsAreWithinTheFp32Bound) {
  // Below a depth of 128 the register-tiled kernel runs; 1 and 127 are the hardest for the bound.
  Matmul tf32x3(Runtime::shared(), "tf32x3");
  for (std::size_t k : {1, 8, 127}) EXPECT_EQ(check(multiply(tf32x3, 128, k, 128)), "") << k;
}

TEST(MatmulTf32x3, IsAboutAsAccurateAsTheFp32Kernel) {
  constexpr std::size_t m = 64, k = 2048, n = 64;
  Matmul fp32(Runtime::shared(), "register-tiles");
  Matmul tf32x3(Runtime::shared(), "tf32x3");
  const Product ours = multiply(tf32x3, m, k, n);
  const Product theirs = multiply(fp32, m, k, n);
  const double tf32x3_worst = matmul_accuracy(ours.a, ours.b, ours.c, m, k, n).worst_ratio;
  const double fp32_worst = matmul_accuracy(theirs.a, theirs.b, theirs.c, m, k, n).worst_ratio;
  std::cout << "worst |error| / fp32 bound at " << m << " x " << k << " x " << n
            << ": register-tiles " << fp32_worst << ", tf32x3 " << tf32x3_worst << " ("
            << Runtime::shared().device_name() << ")\n";
  // The bound allows (K + 2) 2^-24 sum |a| |b|; random signs keep both far inside it. Partial
  // sums in fp32 keep the tensor cores' truncation from drifting: chained on them (partial steps
  // 0) an H200 was 8x worse than the fp32 kernel at 128 x 1024 x 128.
  EXPECT_LT(fp32_worst, 0.05);
  EXPECT_LE(tf32x3_worst, 2 * fp32_worst);
}

TEST(MatmulTf32x3, InfinitiesNansAndOverflowGiveTheFp32Results) {
  // Three tiles of 128 rows: the first two hold non-finite and huge inputs, the third none.
  constexpr std::size_t m = 384, k = 256, n = 64;
  std::vector<float> a = clf_test::uniform_floats(m * k, 11);
  std::vector<float> b = clf_test::uniform_floats(k * n, 12);
  const float inf = std::numeric_limits<float>::infinity();
  a[5 * k + 7] = inf;  // times row 7 of B, all zeros: NaN
  a[9 * k + 3] = std::nanf("");
  a[140 * k + 3] = -inf;  // -inf times row 3 of B: an infinity of either sign
  a[20 * k + 0] = 3e38f;  // times 10 (row 0 of B): overflows to inf
  a[30 * k + 1] = std::numeric_limits<float>::max();  // finite products, but TF32 rounds it to inf
  for (std::size_t col = 0; col < n; ++col) {
    b[7 * n + col] = 0.0f;
    b[0 * n + col] = 10.0f;
  }
  Matmul tf32x3(Runtime::shared(), "tf32x3");
  Runtime& runtime = Runtime::shared();
  DeviceBuffer<float> device_a(runtime, a.size()), device_b(runtime, b.size()), c(runtime, m * n);
  device_a.write(a);
  device_b.write(b);
  tf32x3(device_a, device_b, c, m, k, n);
  const std::vector<float> result = c.read();
  const std::vector<float> expected = matmul_reference_naive(a, b, m, k, n);
  std::size_t not_finite = 0;
  for (std::size_t i = 0; i < m * n; ++i) {
    const std::size_t row = i / n, col = i % n;
    if (!std::isfinite(expected[i])) {
      ++not_finite;
      EXPECT_EQ(std::isnan(result[i]), std::isnan(expected[i])) << row << ", " << col;
      if (std::isinf(expected[i])) {
        EXPECT_EQ(result[i], expected[i]) << row << ", " << col;
      }
      continue;
    }
    const ExactEntry exact = matmul_reference_entry(a, b, k, n, row, col);
    ASSERT_LE(std::fabs(result[i] - exact.value), matmul_error_bound(k, exact.magnitude))
        << row << ", " << col;
  }
  EXPECT_EQ(not_finite, 4 * n);  // rows 5, 9, 20 and 140
}

TEST(MatmulTf32x3, BadTilingsThrowClearErrors) {
  clf_test::expect_error([] { Tf32x3Tiling::parse("2x4/4x4x16"); }, "expected WMxWN/TMxTNxBK/S");
  Runtime& runtime = Runtime::shared();
  MatmulConfig config;
  config.tf32x3 = Tf32x3Tiling::parse("2x4/4x4x12/1");
  clf_test::expect_error([&] { Matmul(runtime, "tf32x3", config); }, "multiple of 8");
  config.tf32x3 = Tf32x3Tiling::parse("8x8/1x1x8/1");
  clf_test::expect_error([&] { Matmul(runtime, "tf32x3", config); }, "evenly");
}

}  // namespace
}  // namespace clf::primitives
