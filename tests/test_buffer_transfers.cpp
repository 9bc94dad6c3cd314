// Lazy buffers copy only when the other side's copy is stale; the counts are exact.
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace {

using clf_test::runtime;

const char* kKernels = R"(
__kernel void increment(__global int* data, uint n) {
  const uint i = get_global_id(0);
  if (i < n) data[i] += 1;
}
__kernel void copy(__global const int* in, __global int* out, uint n) {
  const uint i = get_global_id(0);
  if (i < n) out[i] = in[i];
}
__kernel void fill(__global int* out, int value, uint n) {
  const uint i = get_global_id(0);
  if (i < n) out[i] = value;
}
)";

class BufferTransfers : public ::testing::Test {
 protected:
  clf::Source source_ = clf::inline_source("transfer_kernels.cl", kKernels);
  clf::CLKernel increment_{runtime(), source_, "increment"};
  clf::CLKernel copy_{runtime(), source_, "copy"};
  clf::CLKernel fill_{runtime(), source_, "fill"};
  static constexpr cl_uint kN = 1000;
  clf::Range range_ = clf::Range::linear(kN, 64);
};

TEST_F(BufferTransfers, TwoKernelsInARowUploadOnceAndDownloadOnlyWhenRead) {
  clf::Buffer<int> data(runtime(), std::vector<int>(kN, 1));
  increment_(range_, data, kN);
  increment_(range_, data, kN);
  EXPECT_EQ(data.transfers().uploads, 1U);
  EXPECT_EQ(data.transfers().downloads, 0U);
  EXPECT_FALSE(data.host_is_current());
  EXPECT_EQ(data[0], 3);
  EXPECT_EQ(data[kN - 1], 3);
  EXPECT_EQ(data.transfers().downloads, 1U);  // both reads share one download
  EXPECT_EQ(data.transfers().bytes_downloaded, kN * sizeof(int));
}

TEST_F(BufferTransfers, ConstParametersAreReadOnly) {
  clf::Buffer<int> in(runtime(), std::vector<int>(kN, 7));
  clf::Buffer<int> out(runtime(), kN);
  copy_(range_, in, out, kN);
  copy_(range_, in, out, kN);
  EXPECT_TRUE(in.host_is_current());  // `const __global int*`: the kernel cannot change it
  EXPECT_EQ(in[5], 7);
  EXPECT_EQ(in.transfers().uploads, 1U);
  EXPECT_EQ(in.transfers().downloads, 0U);
  EXPECT_EQ(out[5], 7);
  EXPECT_EQ(out.transfers().uploads, 1U);  // inferred read-write: its zeros went up once
  EXPECT_EQ(out.transfers().downloads, 1U);
}

TEST_F(BufferTransfers, WriteOnlySkipsTheUpload) {
  clf::Buffer<int> out(runtime(), kN);
  fill_(range_, clf::write_only(out), 9, kN);
  EXPECT_EQ(out.transfers().uploads, 0U);
  EXPECT_EQ(out[0], 9);
  EXPECT_EQ(out.transfers().downloads, 1U);
}

TEST_F(BufferTransfers, ReadOnlyOverrideKeepsTheHostCopy) {
  clf::Buffer<int> data(runtime(), std::vector<int>(kN, 1));
  // The kernel writes, but the caller says its changes are not wanted back (a scratch use).
  increment_(range_, clf::read_only(data), kN);
  EXPECT_TRUE(data.host_is_current());
  EXPECT_EQ(data[0], 1);
  EXPECT_EQ(data.transfers().downloads, 0U);
}

TEST_F(BufferTransfers, HostWritesMakeTheDeviceStale) {
  clf::Buffer<int> data(runtime(), std::vector<int>(kN, 0));
  increment_(range_, data, kN);
  data.host_mutable()[0] = 100;  // downloads the 1s first, then edits
  EXPECT_EQ(data.transfers().downloads, 1U);
  EXPECT_FALSE(data.device_is_current());
  increment_(range_, data, kN);
  EXPECT_EQ(data.transfers().uploads, 2U);
  EXPECT_EQ(data[0], 101);
  EXPECT_EQ(data[1], 2);
  data.assign(std::vector<int>(kN, 50));  // replaces without downloading
  EXPECT_EQ(data.transfers().downloads, 2U);
  increment_(range_, data, kN);
  EXPECT_EQ(data[3], 51);
  EXPECT_EQ(data.transfers().uploads, 3U);
  EXPECT_EQ(data.transfers().downloads, 3U);
}

TEST_F(BufferTransfers, DeviceBuffersNeverCopyImplicitly) {
  const clf::TransferCounts before = runtime().transfers();
  clf::DeviceBuffer<int> scratch(runtime(), kN);
  fill_(range_, scratch, 4, kN);
  increment_(range_, scratch, kN);
  increment_(range_, scratch, kN);
  const clf::TransferCounts middle = runtime().transfers();
  EXPECT_EQ(middle.uploads, before.uploads);
  EXPECT_EQ(middle.downloads, before.downloads);
  EXPECT_EQ(scratch.read(), std::vector<int>(kN, 6));
  EXPECT_EQ(runtime().transfers().downloads, before.downloads + 1);
}

TEST_F(BufferTransfers, ZeroFillHappensOnTheDevice) {
  clf::DeviceBuffer<int> buffer(runtime(), kN);
  fill_(range_, buffer, 7, kN);
  const clf::TransferCounts before = runtime().transfers();
  buffer.fill_zero();
  EXPECT_EQ(runtime().transfers().uploads, before.uploads);
  EXPECT_EQ(buffer.read(), std::vector<int>(kN, 0));
}

// Sizes that are not a whole number of 16-byte words zero to the last byte.
TEST_F(BufferTransfers, ZeroFillReachesTheLastByteOfAnySize) {
  for (std::size_t count : {1, 15, 16, 17, 4099}) {
    SCOPED_TRACE(std::to_string(count) + " bytes");
    clf::DeviceBuffer<cl_uchar> buffer(runtime(), count);
    buffer.write(std::vector<cl_uchar>(count, 0xAB));
    buffer.fill_zero();
    EXPECT_EQ(buffer.read(), std::vector<cl_uchar>(count, 0));
  }
}

TEST_F(BufferTransfers, RuntimeCountsEveryBuffer) {
  const clf::TransferCounts before = runtime().transfers();
  clf::Buffer<int> a(runtime(), std::vector<int>(kN, 1));
  clf::Buffer<int> b(runtime(), kN);
  copy_(range_, a, clf::write_only(b), kN);
  EXPECT_EQ(b[0], 1);
  const clf::TransferCounts after = runtime().transfers();
  EXPECT_EQ(after.uploads - before.uploads, 1U);
  EXPECT_EQ(after.downloads - before.downloads, 1U);
  EXPECT_EQ(after.bytes_uploaded - before.bytes_uploaded, kN * sizeof(int));
}

TEST_F(BufferTransfers, EmptyBuffersWork) {
  clf::Buffer<int> empty(runtime(), 0);
  increment_(clf::Range::linear(1), empty, cl_uint{0});
  EXPECT_TRUE(empty.host().empty());
  EXPECT_EQ(empty.transfers().uploads + empty.transfers().downloads, 0U);
  // Nothing reads the result back, so wait for the launch: PoCL compiles a kernel's work-group
  // function when it runs, and a process that exits meanwhile aborted in LLVM's teardown.
  runtime().finish();
}

TEST_F(BufferTransfers, SizeMismatchAndOversizeAreErrors) {
  clf::Buffer<int> data(runtime(), 4);
  EXPECT_CLF_ERROR(data.assign(std::vector<int>(5)), "5 elements", "buffer of 4");
  clf::DeviceBuffer<int> device(runtime(), 4);
  EXPECT_CLF_ERROR(device.write(std::vector<int>(3)), "3 elements", "buffer of 4");
  const std::size_t too_many = runtime().device().max_allocation_bytes / sizeof(int) + 1;
  EXPECT_CLF_ERROR(clf::DeviceBuffer<int>(runtime(), too_many), "larger than",
                   runtime().device_name().c_str());
  // Sizes whose bytes wrap around size_t (here to 16) are refused, not allocated small.
  const std::size_t wrapping = (std::size_t{1} << 61) + 2;
  const std::string count = std::to_string(wrapping);
  EXPECT_CLF_ERROR(clf::DeviceBuffer<cl_ulong>(runtime(), wrapping), "DeviceBuffer", count.c_str(),
                   "overflows");
  EXPECT_CLF_ERROR(clf::Buffer<cl_ulong>(runtime(), wrapping), "Buffer", "overflows");
}

TEST_F(BufferTransfers, DestroyingABufferInUseNeitherBlocksNorBreaks) {
  clf::Buffer<int> kept(runtime(), std::vector<int>(kN, 0));
  {
    clf::Buffer<int> temporary(runtime(), std::vector<int>(kN, 5));
    copy_(range_, temporary, kept, kN);
  }  // released while the copy may still be queued: OpenCL keeps it until the copy is done
  EXPECT_EQ(kept[kN - 1], 5);
}

}  // namespace
