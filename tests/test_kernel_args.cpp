// CLKernel: calls like a function, checks every argument against the kernel's signature.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "shared/cl-info/selftest.h"
#include "test_support.hpp"

namespace {

using clf_test::runtime;

const char* kArgKernels = R"(
#include "shared/cl-info/selftest.h"
__kernel void scale(__global float* data, float factor, uint n) {
  const uint i = get_global_id(0);
  if (i < n) data[i] *= factor;
}
__kernel void with_local(__global const int* in, __local int* scratch, __global int* out) {
  const uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[get_local_size(0) - 1 - lid];
}
__kernel void take_struct(SelfTestParticle p, __global float* out) {
  out[0] = p.position.y + (float)p.id;
}
__kernel void grid_2d(__global uint* out, uint width) {
  out[get_global_id(1) * width + get_global_id(0)] = get_global_id(1) * 1000 + get_global_id(0);
}
)";

clf::Source source() { return clf::inline_source("arg_kernels.cl", kArgKernels); }

TEST(KernelArgs, CallsLikeAFunction) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), std::vector<float>{1, 2, 3, 4, 5});
  scale(clf::Range::linear(5, 4), data, 2.0f, cl_uint{5});
  EXPECT_EQ(data.host(), (std::vector<float>{2, 4, 6, 8, 10}));
}

TEST(KernelArgs, LocalMemoryArguments) {
  clf::CLKernel reverse(runtime(), source(), "with_local");
  std::vector<int> values(64);
  for (int i = 0; i < 64; ++i) values[i] = i;
  clf::Buffer<int> in(runtime(), values);
  clf::Buffer<int> out(runtime(), 64);
  reverse(clf::Range::linear(64, 16), in, clf::Local<int>{16}, clf::write_only(out));
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], (i / 16) * 16 + 15 - i % 16) << i;
}

TEST(KernelArgs, SharedStructsPassByValue) {
  clf::CLKernel take(runtime(), source(), "take_struct");
  SelfTestParticle p{};
  p.position.y = 2.5f;
  p.id = 40;
  clf::Buffer<float> out(runtime(), 1);
  take(clf::Range::linear(1), p, out);
  EXPECT_FLOAT_EQ(out[0], 42.5f);
}

TEST(KernelArgs, TwoDimensionalRanges) {
  clf::CLKernel grid(runtime(), source(), "grid_2d");
  clf::Buffer<cl_uint> out(runtime(), 12 * 5);
  grid(clf::Range::grid(12, 5, 4, 1), out, cl_uint{12});
  EXPECT_EQ(out[3 * 12 + 7], 3007U);
  EXPECT_EQ(out[4 * 12 + 11], 4011U);
}

TEST(KernelArgs, WrongCountNamesKernelAndSignature) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 4);
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, 2.0f), "kernel 'scale'", "takes 3",
                   "passes 2", "float factor");
}

TEST(KernelArgs, ScalarWhereABufferBelongs) {
  clf::CLKernel scale(runtime(), source(), "scale");
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), 1.0f, 2.0f, cl_uint{4}), "kernel 'scale'",
                   "argument 0", "'data'", "__global float*", "float (a scalar of 4 bytes)");
}

TEST(KernelArgs, BufferWhereAScalarBelongs) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 4);
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, data, cl_uint{4}), "argument 1", "'factor'",
                   "a buffer of float");
}

TEST(KernelArgs, ScalarOfTheWrongSize) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 4);
  const std::size_t n = 4;  // 8 bytes where the kernel takes a 4-byte uint
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, 2.0f, n), "argument 2", "'n'",
                   "uint (a scalar of 4 bytes)", "ulong (a scalar of 8 bytes)");
}

TEST(KernelArgs, IntegerWhereAFloatBelongs) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 4);
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, 2, cl_uint{4}), "argument 1", "float",
                   "int (a scalar of 4 bytes)");
}

TEST(KernelArgs, BufferOfTheWrongElementType) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<int> data(runtime(), 4);
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, 2.0f, cl_uint{4}), "argument 0",
                   "__global float*", "a buffer of int");
}

// Two runtimes on one device have two contexts and queues: the buffer would be uploaded and read
// on a queue the kernel's launch is not ordered with (the result came back all zeros).
TEST(KernelArgs, BufferOfAnotherRuntime) {
  clf::Runtime other(runtime().device(), clf::DeviceRequest{});
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(other, std::vector<float>{1, 2, 3, 4});
  EXPECT_CLF_ERROR(scale(clf::Range::linear(4), data, 2.0f, cl_uint{4}), "argument 0", "'data'",
                   "another runtime");
  EXPECT_EQ(data.host(), (std::vector<float>{1, 2, 3, 4}));
}

TEST(KernelArgs, LocalWhereAGlobalBelongs) {
  clf::CLKernel reverse(runtime(), source(), "with_local");
  clf::Buffer<int> in(runtime(), 16);
  clf::Buffer<int> out(runtime(), 16);
  EXPECT_CLF_ERROR(reverse(clf::Range::linear(16, 16), in, out, out), "argument 1", "__local int*",
                   "a buffer of int");
  EXPECT_CLF_ERROR(
      reverse(clf::Range::linear(16, 16), clf::Local<int>{16}, clf::Local<int>{16}, out),
      "argument 0", "local memory");
}

TEST(KernelArgs, WrongStructType) {
  clf::CLKernel take(runtime(), source(), "take_struct");
  clf::Buffer<float> out(runtime(), 1);
  EXPECT_CLF_ERROR(take(clf::Range::linear(1), cl_float4{}, out), "argument 0", "SelfTestParticle");
}

TEST(KernelArgs, UnknownKernelListsTheKernels) {
  EXPECT_CLF_ERROR(clf::CLKernel(runtime(), source(), "scael"), "no kernel 'scael'", "scale",
                   "with_local");
}

TEST(KernelArgs, EmptyRangeEnqueuesNothing) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 0);
  const clf::Event event = scale(clf::Range::linear(0), data, 2.0f, cl_uint{0});
  EXPECT_EQ(event.handle()(), nullptr);
  EXPECT_EQ(data.transfers().uploads, 0U);
}

TEST(KernelArgs, LaunchErrorsNameCallKernelAndDevice) {
  clf::CLKernel scale(runtime(), source(), "scale");
  clf::Buffer<float> data(runtime(), 4096);
  clf::Range too_large = clf::Range::linear(16);
  too_large.local[0] = scale.max_work_group_size() * 2;  // more than the device allows
  too_large.global[0] = too_large.local[0];
  EXPECT_CLF_ERROR(scale(too_large, data, 2.0f, cl_uint{16}), "clEnqueueNDRangeKernel",
                   "CL_INVALID_WORK_GROUP_SIZE", "kernel 'scale'", runtime().device_name().c_str(),
                   "more than this kernel allows");
  clf::Range ragged = clf::Range::linear(16);
  ragged.global[0] = 10;
  ragged.local[0] = 4;
  EXPECT_CLF_ERROR(scale(ragged, data, 2.0f, cl_uint{10}), "CL_INVALID_WORK_GROUP_SIZE",
                   "global 10, local 4", "multiple of the local size");
}

// NVIDIA's driver reports a CL_KERNEL_WORK_GROUP_SIZE of 256 for every kernel; a kernel that
// declares 512 work-items is compiled for them and must be launchable with them.
TEST(KernelArgs, RequiredWorkGroupSizeIsTrusted) {
  if (runtime().device().max_work_group_size < 512) GTEST_SKIP() << "device allows fewer than 512";
  const clf::Source wide = clf::inline_source("wide_group.cl", R"(
__kernel __attribute__((reqd_work_group_size(512, 1, 1)))
void reverse_512(__global const int* in, __global int* out) {
  __local int scratch[512];
  const uint lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = scratch[511 - lid];
}
)");
  clf::CLKernel reverse(runtime(), wide, "reverse_512");
  EXPECT_GE(reverse.max_work_group_size(), 512U);
  const int n = 512 * 3;
  std::vector<int> values(n);
  for (int i = 0; i < n; ++i) values[i] = i * 7;
  clf::Buffer<int> in(runtime(), values);
  clf::Buffer<int> out(runtime(), n);
  reverse(clf::Range::linear(n, 512), in, clf::write_only(out));
  runtime().finish();
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], ((i / 512) * 512 + 511 - i % 512) * 7) << i;
}

TEST(KernelArgs, SafeToCallFromSeveralThreads) {
  clf::CLKernel scale(runtime(), source(), "scale");
  constexpr int kThreads = 4;
  constexpr int kCalls = 25;
  std::vector<std::vector<float>> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      clf::Buffer<float> data(runtime(), std::vector<float>(256, 1.0f));
      for (int c = 0; c < kCalls; ++c) {
        scale(clf::Range::linear(256, 64), data, static_cast<float>(t + 1), cl_uint{256});
        if (c % 5 == 4) data.host();  // interleave downloads with other threads' launches
      }
      results[t] = data.host();
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    float expected = 1.0f;  // the same float multiplications the device makes, in order
    for (int c = 0; c < kCalls; ++c) expected *= static_cast<float>(t + 1);
    for (float value : results[t]) ASSERT_FLOAT_EQ(value, expected) << "thread " << t;
  }
}

}  // namespace
