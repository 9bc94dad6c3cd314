#include "framework/primitives/sort_algorithm.hpp"

#include <algorithm>

#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives::sorting {

namespace {

// The block scan's work-group and block (kernels/primitives/sort/scan.cl).
constexpr std::size_t kScanWorkGroup = 256;
constexpr std::size_t kScanBlock = kScanWorkGroup * 8;

}  // namespace

std::size_t SortAlgorithm::max_keys(bool /*with_values*/) const {
  const std::uint64_t allocation = runtime_->device().max_allocation_bytes;
  return std::min<std::uint64_t>(kMaxKeys, allocation / sizeof(cl_uint));
}

std::size_t SortAlgorithm::temporary_bytes() const {
  std::size_t bytes = 0;
  for (const auto& entry : temporaries_) bytes += entry.second ? entry.second->bytes() : 0;
  return bytes;
}

CLKernel& SortAlgorithm::kernel(const char* file, const std::string& name,
                                const std::string& options) {
  const std::string key = std::string(file) + "|" + name + "|" + options;
  auto found = kernels_.find(key);
  if (found == kernels_.end()) {
    found =
        kernels_
            .emplace(key, std::make_unique<CLKernel>(*runtime_, kernel_source(file), name, options))
            .first;
  }
  return *found->second;
}

BufferBase& SortAlgorithm::temporary_keys(KeyKind kind, std::size_t count,
                                          const std::string& role) {
  switch (kind) {
    case KeyKind::uint32:
      return temporary<cl_uint>(role, count);
    case KeyKind::int32:
      return temporary<cl_int>(role, count);
    case KeyKind::float32:
      break;
  }
  return temporary<cl_float>(role, count);
}

void SortAlgorithm::copy(const BufferBase& from, BufferBase& to, std::size_t bytes) {
  if (bytes == 0) return;
  cl::Event event;
  check(runtime_->queue().enqueueCopyBuffer(from.mem(), to.mem(), 0, 0, bytes, nullptr, &event),
        "clEnqueueCopyBuffer", {"", runtime_->device_name(), std::to_string(bytes) + " bytes"});
  runtime_->record(Event(event));
}

void SortAlgorithm::scan_exclusive(DeviceBuffer<cl_uint>& data, std::size_t count, unsigned depth) {
  const char* file = "kernels/primitives/sort/scan.cl";
  const std::size_t blocks = ceil_div(count, kScanBlock);
  auto& sums = temporary<cl_uint>("scan-sums-" + std::to_string(depth), blocks);
  const auto n = static_cast<cl_uint>(count);
  const Range range = Range::linear(blocks * kScanWorkGroup, kScanWorkGroup);
  kernel(file, "scan_blocks", "")(range, data, sums, n);
  if (blocks > 1) {
    scan_exclusive(sums, blocks, depth + 1);
    kernel(file, "scan_add_block_offsets", "")(range, data, read_only(sums), n);
  }
}

std::string SortAlgorithm::values_option(bool with_values, const std::string& extra) {
  return std::string("-DWITH_VALUES=") + (with_values ? "1" : "0") +
         (extra.empty() ? "" : " " + extra);
}

}  // namespace clf::primitives::sorting
