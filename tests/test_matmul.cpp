// Matrix multiply: every variant at rectangular and odd sizes against a double-precision
// reference, within the fp32 error bound (k + 2) * 2^-24 * sum_i |a_i| |b_i| per element (see
// matmul_error_bound), and bad arguments.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "framework/clf.hpp"
#include "framework/primitives/matmul.hpp"
#include "framework/primitives/matmul_reference.hpp"
#include "test_support.hpp"

namespace clf::primitives {
namespace {

struct Shape {
  std::size_t m, k, n;
};

// Runs `multiply` on fresh random inputs of `shape` and checks every element of C.
void expect_correct(Matmul& multiply, const Shape& shape) {
  const auto [m, k, n] = shape;
  const std::vector<float> a =
      clf_test::uniform_floats(m * k, static_cast<std::uint32_t>(m * 31 + k));
  const std::vector<float> b =
      clf_test::uniform_floats(k * n, static_cast<std::uint32_t>(n * 17 + k));
  Runtime& runtime = Runtime::shared();
  DeviceBuffer<float> device_a(runtime, a.size());
  DeviceBuffer<float> device_b(runtime, b.size());
  DeviceBuffer<float> device_c(runtime, m * n);
  device_a.write(a);
  device_b.write(b);
  // C starts as NaN, so an element the kernel never writes cannot pass.
  device_c.write(std::vector<float>(m * n, std::nanf("")));
  multiply(device_a, device_b, device_c, m, k, n);
  EXPECT_EQ(matmul_verify(a, b, device_c.read(), m, k, n), "")
      << multiply.variant() << " " << m << "x" << k << "x" << n;
}

const Shape kShapes[] = {{1, 1, 1},   {3, 5, 7},       {17, 33, 65},    {64, 64, 64},  {1, 300, 1},
                         {300, 1, 2}, {127, 129, 131}, {256, 512, 128}, {128, 64, 256}};

class MatmulVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(MatmulVariant, MatchesDoubleReferenceAtOddAndRectangularSizes) {
  Matmul multiply(Runtime::shared(), GetParam());
  for (const Shape& shape : kShapes) expect_correct(multiply, shape);
}

TEST_P(MatmulVariant, DepthZeroGivesZerosAndEmptyShapesDoNothing) {
  Runtime& runtime = Runtime::shared();
  EXPECT_EQ(matmul(runtime, {}, {}, 3, 0, 5, GetParam()), std::vector<float>(15, 0.0f));
  EXPECT_TRUE(matmul(runtime, {}, std::vector<float>(20, 1.0f), 0, 4, 5, GetParam()).empty());
  EXPECT_TRUE(matmul(runtime, std::vector<float>(12, 1.0f), {}, 3, 4, 0, GetParam()).empty());
}

INSTANTIATE_TEST_SUITE_P(AllVariants, MatmulVariant, ::testing::ValuesIn(matmul_variants()),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& ch : name) {
                             if (ch == '-') ch = '_';
                           }
                           return name;
                         });

TEST(Matmul, VariantsAreListedWithDefaultFirst) {
  const std::vector<std::string>& names = matmul_variants();
  ASSERT_EQ(names.size(), 7U);
  EXPECT_EQ(names[0], "default");
  for (const char* seed_variant :
       {"register-tiles", "tf32x3", "naive", "tiles", "blocks", "blocks-tiles"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), seed_variant), names.end()) << seed_variant;
  }
}

// The register-tiled kernel with other tilings than the device's, among them the GPU one, so
// that PoCL checks the code the GPU runs.
TEST(Matmul, RegisterTilesIsCorrectWithOtherTilings) {
  for (const char* text : {"64x128x16/8x8", "64x64x8/8x4", "32x64x8/4x8"}) {
    const MatmulTiling tiling = MatmulTiling::parse(text);
    Matmul multiply(Runtime::shared(), "register-tiles", &tiling);
    EXPECT_EQ(multiply.tiling().to_string(), text);
    for (const Shape& shape : {Shape{256, 64, 128}, Shape{129, 47, 131}}) {
      expect_correct(multiply, shape);
    }
  }
}

TEST(Matmul, ReferencesAgree) {
  const std::size_t m = 37, k = 301, n = 53;
  const std::vector<float> a = clf_test::uniform_floats(m * k, 1);
  const std::vector<float> b = clf_test::uniform_floats(k * n, 2);
  EXPECT_EQ(matmul_verify(a, b, matmul_reference_naive(a, b, m, k, n), m, k, n), "");
  EXPECT_EQ(matmul_verify(a, b, matmul_reference_blocked(a, b, m, k, n, 3), m, k, n), "");
  const std::vector<double> exact = matmul_reference_double(a, b, m, k, n);
  EXPECT_DOUBLE_EQ(exact[5 * n + 7], matmul_reference_entry(a, b, k, n, 5, 7).value);
}

TEST(Matmul, VerifyCatchesAWrongElement) {
  const std::size_t m = 20, k = 30, n = 40;
  const std::vector<float> a = clf_test::uniform_floats(m * k, 3);
  const std::vector<float> b = clf_test::uniform_floats(k * n, 4);
  std::vector<float> c = matmul_reference_blocked(a, b, m, k, n);
  c[7 * n + 9] += 1e-3f;
  EXPECT_NE(matmul_verify(a, b, c, m, k, n), "");
  // Sampling always includes the corners.
  c = matmul_reference_blocked(a, b, m, k, n);
  c[m * n - 1] = std::nanf("");
  EXPECT_NE(matmul_verify(a, b, c, m, k, n, 10), "");
}

// A product deep enough that the worst-case bound (k + 2) 2^-24 sum |a| |b| exceeds every term
// of the sum: one term dropped from every element (an off-by-one in the depth loop) must still
// fail verification, while the fp32 product (a naive loop's rounding) passes.
TEST(Matmul, VerifyCatchesATermDroppedFromADeepProduct) {
  const std::size_t m = 4, k = 16384, n = 8;
  const std::vector<float> a = clf_test::uniform_floats(m * k, 5);
  const std::vector<float> b = clf_test::uniform_floats(k * n, 6);
  std::vector<float> c = matmul_reference_naive(a, b, m, k, n);
  EXPECT_EQ(matmul_verify(a, b, c, m, k, n), "");
  for (std::size_t row = 0; row < m; ++row) {
    for (std::size_t col = 0; col < n; ++col) {
      const ExactEntry exact = matmul_reference_entry(a, b, k, n, row, col);
      EXPECT_GT(matmul_error_bound(k, exact.magnitude), 1.0);  // larger than any one term
      c[row * n + col] -= a[row * k + k - 1] * b[(k - 1) * n + col];
    }
  }
  EXPECT_NE(matmul_verify(a, b, c, m, k, n), "");
}

TEST(Matmul, BadArgumentsThrowClearErrors) {
  Runtime& runtime = Runtime::shared();
  const std::vector<float> six(6, 1.0f);
  clf_test::expect_error([&] { matmul(runtime, six, six, 2, 3, 2, "strassen"); },
                         "unknown variant 'strassen'");
  clf_test::expect_error([&] { matmul(runtime, six, six, 2, 4, 2); }, "A has 6 elements");
  clf_test::expect_error([&] { matmul(runtime, six, six, 2, 3, 3); }, "B has 6 elements");
  DeviceBuffer<float> a(runtime, 6), b(runtime, 6), c(runtime, 5);
  clf_test::expect_error([&] { matmul(a, b, c, 2, 3, 2); }, "C has 5 elements");
  clf_test::expect_error(
      [&] { matmul(runtime, {}, {}, std::size_t{1} << 20, std::size_t{1} << 13, 0); },
      "more than 2^32 - 1 elements");
  // Empty matrices, but a depth the kernels' 32-bit loops over K would wrap around.
  clf_test::expect_error([&] { matmul(runtime, {}, {}, 0, 4294967295u, 0); },
                         "a depth K of 4294967295 is more than the kernels' 4294967231");
  clf_test::expect_error([] { MatmulTiling::parse("128x128/8"); }, "expected BMxBNxBK/TMxTN");
  const MatmulTiling odd = MatmulTiling::parse("64x64x16/6x8");
  clf_test::expect_error([&] { Matmul(runtime, "register-tiles", &odd); }, "multiples of 4");
  const MatmulTiling huge = MatmulTiling::parse("1024x1024x64/4x4");
  clf_test::expect_error([&] { Matmul(runtime, "register-tiles", &huge); }, "work-items");
}

}  // namespace
}  // namespace clf::primitives
