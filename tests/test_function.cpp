// CLFunction: plain OpenCL C functions called from the host through a generated wrapper.
#include <gtest/gtest.h>

#include "shared/cl-info/selftest.h"
#include "test_support.hpp"

namespace {

using clf_test::runtime;

const char* kFunctions = R"(
#include "shared/cl-info/selftest.h"
int add_ints(int a, int b) { return a + b; }
uint rotate_left(uint x, uint bits) { return rotate(x, bits); }
float hypotenuse(float a, float b) { return sqrt(a * a + b * b); }
float4 scale4(float4 v, float s) { return v * s; }
int2 swap2(int2 v) { return v.yx; }
float dot_and_sum(float4 a, float4 b, float* sum) {
  *sum = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
  return dot(a, b);
}
void accumulate(int value, int* total) { *total += value; }
uchar clamp_byte(int v) { return (uchar)clamp(v, 0, 255); }
ulong widen(uint a, uint b) { return ((ulong)a << 32) | b; }
SelfTestParticle heavier(SelfTestParticle p, float factor, int* old_id) {
  *old_id = p.id;
  p.mass *= factor;
  p.id += 1000;
  return p;
}
)";

clf::Source source() { return clf::inline_source("functions.cl", kFunctions); }

TEST(Function, Scalars) {
  clf::CLFunction<cl_int(cl_int, cl_int)> add(runtime(), source(), "add_ints");
  EXPECT_EQ(add(2, 40), 42);
  EXPECT_EQ(add(-7, 3), -4);
  clf::CLFunction<cl_uint(cl_uint, cl_uint)> rotate_left(runtime(), source(), "rotate_left");
  EXPECT_EQ(rotate_left(0x80000001U, 1), 0x00000003U);
  clf::CLFunction<cl_float(cl_float, cl_float)> hypotenuse(runtime(), source(), "hypotenuse");
  EXPECT_FLOAT_EQ(hypotenuse(3.0f, 4.0f), 5.0f);
  clf::CLFunction<cl_uchar(cl_int)> clamp_byte(runtime(), source(), "clamp_byte");
  EXPECT_EQ(clamp_byte(300), 255);
  EXPECT_EQ(clamp_byte(-5), 0);
  clf::CLFunction<cl_ulong(cl_uint, cl_uint)> widen(runtime(), source(), "widen");
  EXPECT_EQ(widen(1U, 2U), (1ULL << 32) | 2U);
}

TEST(Function, Vectors) {
  clf::CLFunction<cl_float4(cl_float4, cl_float)> scale(runtime(), source(), "scale4");
  const cl_float4 r = scale(cl_float4{{1, 2, 3, 4}}, 0.5f);
  EXPECT_FLOAT_EQ(r.s[0], 0.5f);
  EXPECT_FLOAT_EQ(r.s[3], 2.0f);
  clf::CLFunction<cl_int2(cl_int2)> swap(runtime(), source(), "swap2");
  const cl_int2 s = swap(cl_int2{{7, -9}});
  EXPECT_EQ(s.s[0], -9);
  EXPECT_EQ(s.s[1], 7);
}

TEST(Function, OutParameters) {
  clf::CLFunction<cl_float(cl_float4, cl_float4, cl_float*)> dot_and_sum(runtime(), source(),
                                                                         "dot_and_sum");
  float sum = 0;
  const float dot = dot_and_sum(cl_float4{{1, 2, 3, 4}}, cl_float4{{1, 1, 1, 1}}, &sum);
  EXPECT_FLOAT_EQ(dot, 10.0f);
  EXPECT_FLOAT_EQ(sum, 14.0f);
}

TEST(Function, VoidWithInOutParameter) {
  clf::CLFunction<void(cl_int, cl_int*)> accumulate(runtime(), source(), "accumulate");
  int total = 5;
  accumulate(37, &total);
  EXPECT_EQ(total, 42);
  accumulate(-2, &total);
  EXPECT_EQ(total, 40);
}

TEST(Function, SharedStructsInAndOut) {
  clf::CLFunction<SelfTestParticle(SelfTestParticle, cl_float, cl_int*)> heavier(
      runtime(), source(), "heavier");
  SelfTestParticle p{};
  p.mass = 2.0f;
  p.id = 7;
  p.velocity.z = 3.5f;
  int old_id = 0;
  const SelfTestParticle q = heavier(p, 1.5f, &old_id);
  EXPECT_EQ(old_id, 7);
  EXPECT_EQ(q.id, 1007);
  EXPECT_FLOAT_EQ(q.mass, 3.0f);
  EXPECT_FLOAT_EQ(q.velocity.z, 3.5f);
}

TEST(Function, SharedHeaderFunctionMatchesTheHost) {
  clf::CLFunction<SelfTestParticle(SelfTestParticle, cl_float)> step(
      runtime(), clf::kernel_source("kernels/cl-info/selftest.cl"), "selftest_step");
  SelfTestParticle p{};
  p.position = {{1, 2, 3, 0}};
  p.velocity = {{0.5f, 4, -1, 0}};
  const SelfTestParticle device = step(p, 0.125f);
  const SelfTestParticle host = selftest_step(p, 0.125f);
  EXPECT_FLOAT_EQ(device.position.x, host.position.x);
  EXPECT_FLOAT_EQ(device.position.y, host.position.y);
  EXPECT_FLOAT_EQ(device.velocity.y, host.velocity.y);
}

TEST(Function, DoubleWhereTheDeviceHasFp64) {
  const char* text = "double half_of(double x) { return x / 2.0; }";
  if (!runtime().device().has_fp64) {
    EXPECT_CLF_ERROR((clf::CLFunction<cl_double(cl_double)>(runtime(), text, "half_of")), "double",
                     "cl_khr_fp64");
    GTEST_SKIP() << runtime().device_name() << " has no fp64";
  }
  clf::CLFunction<cl_double(cl_double)> half_of(runtime(), text, "half_of");
  EXPECT_DOUBLE_EQ(half_of(1.0 / 3.0), 1.0 / 6.0);
}

TEST(Function, AMissingFunctionIsABuildError) {
  try {
    clf::CLFunction<cl_int(cl_int)> missing(runtime(), source(), "no_such_function");
    ADD_FAILURE() << "expected a BuildError";
  } catch (const clf::BuildError& error) {
    EXPECT_NE(std::string(error.what()).find("no_such_function"), std::string::npos)
        << error.what();
  }
}

TEST(Function, NullOutParameterIsAnError) {
  clf::CLFunction<void(cl_int, cl_int*)> accumulate(runtime(), source(), "accumulate");
  EXPECT_CLF_ERROR(accumulate(1, nullptr), "null");
}

}  // namespace
