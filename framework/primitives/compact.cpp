#include "framework/primitives/compact.hpp"

#include <optional>

#include "framework/error.hpp"
#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

cl_uint as_uint(std::size_t value) { return static_cast<cl_uint>(value); }

// The config's tile, checked against `device`.
TileShape checked_tile(const DeviceInfo& device, const CompactConfig& config) {
  config.check(device);
  return config.tile;
}

bool in_chunks(const CompactConfig& config) { return config.layout == Layout::chunks; }

}  // namespace

template <typename T>
class Compact<T>::Impl {
 public:
  Impl(Runtime& runtime, const CompactConfig& config)
      : runtime_(runtime),
        shape_(checked_tile(runtime.device(), config)),
        chunks_(in_chunks(config) ? std::optional<ChunkShape>(config.chunks) : std::nullopt),
        count_(kernel(chunks_ ? "chunk_count" : "compact_count", false)),
        scatter_values_(kernel(chunks_ ? "chunk_scatter" : "compact_scatter", false)),
        scatter_indices_(kernel(chunks_ ? "chunk_scatter" : "compact_scatter", true)),
        selected_count_(runtime, 1) {
    if (!chunks_) scan_ = std::make_unique<Scan<std::uint32_t>>(runtime);
  }

  Runtime& runtime() const { return runtime_; }

  // Compacts input[0, count) into output (values or indices, by `scatter`).
  template <typename Out>
  void run(CLKernel& scatter, const DeviceBuffer<T>& input, DeviceBuffer<Out>& output,
           DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
           const Predicate<T>& predicate) {
    detail::check_buffers("compaction", runtime_, input, input.size(), output, output.size(),
                          count);
    if (&selected_count.runtime() != &runtime_ || selected_count.size() < 1) {
      throw Error("compaction: the count buffer must hold one element on the same runtime");
    }
    if (count == 0) {
      selected_count.write(std::vector<std::uint32_t>(selected_count.size(), 0));
      return;
    }
    if (chunks_) {
      run_chunks(scatter, input, output, selected_count, count, predicate);
      return;
    }
    const detail::GroupSplit split =
        detail::split_tiles(runtime_.device(), ceil_div(count, shape_.tile()));
    DeviceBuffer<std::uint32_t>& counts =
        detail::ensure_buffer(group_counts_, runtime_, split.groups);
    DeviceBuffer<std::uint32_t>& offsets =
        detail::ensure_buffer(group_offsets_, runtime_, split.groups);
    const Range groups = Range::linear(split.groups * shape_.work_group, shape_.work_group);
    const auto comparison = static_cast<cl_uint>(predicate.comparison);
    count_(groups, input, counts, as_uint(count), as_uint(split.tiles_per_group), comparison,
           predicate.value);
    scan_->run(counts, offsets, split.groups, ScanType::exclusive);
    scatter(groups, input, offsets, output, selected_count, as_uint(count),
            as_uint(split.tiles_per_group), comparison, predicate.value);
  }

  // The CPU's layout (kernels/primitives/compact/chunks.cl): count per chunk, then each chunk
  // writes from the sum of the counts before it.
  template <typename Out>
  void run_chunks(CLKernel& scatter, const DeviceBuffer<T>& input, DeviceBuffer<Out>& output,
                  DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
                  const Predicate<T>& predicate) {
    const std::size_t chunks = chunks_->chunks(runtime_.device(), count);
    DeviceBuffer<std::uint32_t>& counts = detail::ensure_buffer(group_counts_, runtime_, chunks);
    const Range grid = Range::linear(chunks, 1);
    const auto comparison = static_cast<cl_uint>(predicate.comparison);
    count_(grid, input, counts, as_uint(count), comparison, predicate.value);
    scatter(grid, input, counts, output, selected_count, as_uint(count), comparison,
            predicate.value);
  }

  template <typename Out>
  std::size_t run_and_wait(CLKernel& scatter, const DeviceBuffer<T>& input,
                           DeviceBuffer<Out>& output, const Predicate<T>& predicate) {
    run(scatter, input, output, selected_count_, input.size(), predicate);
    return selected_count_.read()[0];
  }

  template <typename Out>
  std::vector<Out> run_host(CLKernel& scatter, const std::vector<T>& input,
                            const Predicate<T>& predicate) {
    if (input.size() > kMaxScanElements) {
      throw Error("compaction: " + std::to_string(input.size()) + " elements is more than the " +
                  std::to_string(kMaxScanElements) + " this implementation handles");
    }
    if (input.empty()) return {};
    DeviceBuffer<T> device_input(runtime_, input.size());
    DeviceBuffer<Out> device_output(runtime_, input.size());
    device_input.write(input);
    const std::size_t selected = run_and_wait(scatter, device_input, device_output, predicate);
    std::vector<Out> result = device_output.read();
    result.resize(selected);
    return result;
  }

  CLKernel& scatter_values() { return scatter_values_; }
  CLKernel& scatter_indices() { return scatter_indices_; }

 private:
  CLKernel kernel(const char* name, bool indices) {
    const char* file =
        chunks_ ? "kernels/primitives/compact/chunks.cl" : "kernels/primitives/compact/compact.cl";
    return CLKernel(runtime_, kernel_source(file), name,
                    detail::scan_build_options<T>(shape_) + (indices ? " -DWRITE_INDICES" : ""));
  }

  Runtime& runtime_;
  detail::TileShape shape_;
  std::optional<ChunkShape> chunks_;  // set for the chunk layout
  CLKernel count_;
  CLKernel scatter_values_;
  CLKernel scatter_indices_;
  std::unique_ptr<Scan<std::uint32_t>> scan_;  // the tile layout's scan of group counts
  DeviceBuffer<std::uint32_t> selected_count_;
  std::unique_ptr<DeviceBuffer<std::uint32_t>> group_counts_;
  std::unique_ptr<DeviceBuffer<std::uint32_t>> group_offsets_;
};

template <typename T>
Compact<T>::Compact(Runtime& runtime) : Compact(runtime, tuning_for(runtime.device()).compact) {}
template <typename T>
Compact<T>::Compact(Runtime& runtime, const CompactConfig& config)
    : impl_(std::make_unique<Impl>(runtime, config)) {}
template <typename T>
Compact<T>::~Compact() = default;
template <typename T>
Compact<T>::Compact(Compact&&) noexcept = default;
template <typename T>
Compact<T>& Compact<T>::operator=(Compact&&) noexcept = default;

template <typename T>
Runtime& Compact<T>::runtime() const {
  return impl_->runtime();
}

template <typename T>
void Compact<T>::run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output,
                     DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
                     const Predicate<T>& predicate) {
  impl_->run(impl_->scatter_values(), input, output, selected_count, count, predicate);
}

template <typename T>
std::size_t Compact<T>::run(const DeviceBuffer<T>& input, DeviceBuffer<T>& output,
                            const Predicate<T>& predicate) {
  return impl_->run_and_wait(impl_->scatter_values(), input, output, predicate);
}

template <typename T>
std::vector<T> Compact<T>::run(const std::vector<T>& input, const Predicate<T>& predicate) {
  return impl_->template run_host<T>(impl_->scatter_values(), input, predicate);
}

template <typename T>
void Compact<T>::indices(const DeviceBuffer<T>& input, DeviceBuffer<std::uint32_t>& output,
                         DeviceBuffer<std::uint32_t>& selected_count, std::size_t count,
                         const Predicate<T>& predicate) {
  impl_->run(impl_->scatter_indices(), input, output, selected_count, count, predicate);
}

template <typename T>
std::size_t Compact<T>::indices(const DeviceBuffer<T>& input, DeviceBuffer<std::uint32_t>& output,
                                const Predicate<T>& predicate) {
  return impl_->run_and_wait(impl_->scatter_indices(), input, output, predicate);
}

template <typename T>
std::vector<std::uint32_t> Compact<T>::indices(const std::vector<T>& input,
                                               const Predicate<T>& predicate) {
  return impl_->template run_host<std::uint32_t>(impl_->scatter_indices(), input, predicate);
}

template class Compact<std::int32_t>;
template class Compact<std::uint32_t>;
template class Compact<float>;

template <typename T>
std::vector<T> compact(const std::vector<T>& input, const Predicate<T>& predicate) {
  return Compact<T>().run(input, predicate);
}

template <typename T>
std::vector<std::uint32_t> compact_indices(const std::vector<T>& flags,
                                           const Predicate<T>& predicate) {
  return Compact<T>().indices(flags, predicate);
}

template std::vector<std::int32_t> compact(const std::vector<std::int32_t>&,
                                           const Predicate<std::int32_t>&);
template std::vector<std::uint32_t> compact(const std::vector<std::uint32_t>&,
                                            const Predicate<std::uint32_t>&);
template std::vector<float> compact(const std::vector<float>&, const Predicate<float>&);
template std::vector<std::uint32_t> compact_indices(const std::vector<std::int32_t>&,
                                                    const Predicate<std::int32_t>&);
template std::vector<std::uint32_t> compact_indices(const std::vector<std::uint32_t>&,
                                                    const Predicate<std::uint32_t>&);
template std::vector<std::uint32_t> compact_indices(const std::vector<float>&,
                                                    const Predicate<float>&);

}  // namespace clf::primitives
