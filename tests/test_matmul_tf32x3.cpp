// The tf32x3 matmul (three TF32 products per fp32 product, mma.sync on NVIDIA GPUs and the same
// fragments through local memory elsewhere): other tilings than the default, the depth below
// which the register-tiled kernel runs, its accuracy beside the fp32 kernel's, bad tilings.
// (MatmulVariant in test_matmul.cpp checks it at the shared odd and rectangular sizes.)
#include <gtest/gtest.h>

#include <iostream>

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
