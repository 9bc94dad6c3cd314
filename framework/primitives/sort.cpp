// The Sorter: a thin dispatcher that picks one algorithm by variant name and device (one file
// per algorithm: sort_radix.cpp, sort_bitonic.cpp, sort_gruber_radix.cpp).
#include "framework/primitives/sort.hpp"

#include "framework/primitives/sort_algorithm.hpp"
#include "framework/primitives/support.hpp"

namespace clf::primitives {

namespace {

using sorting::GruberHistograms;
using sorting::KeyKind;
using sorting::RadixTiles;
using sorting::SortAlgorithm;

struct Variant {
  const char* name;
  std::unique_ptr<SortAlgorithm> (*make)(Runtime& runtime, const SortConfig& config);
};

// "default": onesweep on NVIDIA GPUs, else radix. Onesweep also runs on PoCL, but there its
// waiting work-groups spin on the cores the others need (tens of times slower: docs/sort-log.md).
std::unique_ptr<SortAlgorithm> make_default(Runtime& runtime, const SortConfig& config) {
  const bool onesweep = device_class(runtime.device()) == DeviceClass::nvidia_gpu;
  return sorting::make_radix_sort(runtime, config, RadixTiles::device_choice, onesweep, false);
}

template <RadixTiles tiles, bool onesweep>
std::unique_ptr<SortAlgorithm> make_radix(Runtime& runtime, const SortConfig& config) {
  return sorting::make_radix_sort(runtime, config, tiles, onesweep, onesweep);
}

template <unsigned elements_per_item>
std::unique_ptr<SortAlgorithm> make_bitonic(Runtime& runtime, const SortConfig&) {
  return sorting::make_bitonic_sort(runtime, elements_per_item);
}

template <GruberHistograms histograms>
std::unique_ptr<SortAlgorithm> make_gruber_radix(Runtime& runtime, const SortConfig&) {
  return sorting::make_gruber_radix_sort(runtime, histograms);
}

const Variant kVariants[] = {
    {"default", make_default},
    {"radix", make_radix<RadixTiles::device_choice, false>},
    {"radix-tiles", make_radix<RadixTiles::split, false>},
    {"radix-match", make_radix<RadixTiles::warp_match, false>},
    {"onesweep", make_radix<RadixTiles::device_choice, true>},
    {"bitonic", make_bitonic<0>},
    {"bitonic-fused-2", make_bitonic<2>},
    {"bitonic-fused-4", make_bitonic<4>},
    {"bitonic-fused-8", make_bitonic<8>},
    {"bitonic-fused-16", make_bitonic<16>},
    {"radix-private", make_gruber_radix<GruberHistograms::private_memory>},
    {"radix-local", make_gruber_radix<GruberHistograms::local_memory>},
    {"radix-local-vec", make_gruber_radix<GruberHistograms::local_memory_vector_loads>},
};

const Variant& find_variant(const std::string& name) {
  const std::string lookup = name == "bitonic-fused" ? "bitonic-fused-16" : name;
  for (const Variant& v : kVariants) {
    if (lookup == v.name) return v;
  }
  std::vector<std::string> known = sort_variants();
  known.emplace_back("bitonic-fused");
  throw unknown_variant("sort", name, known);
}

}  // namespace

const std::vector<std::string>& sort_variants() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const Variant& v : kVariants) list.emplace_back(v.name);
    return list;
  }();
  return names;
}

namespace {

// The variant `name` names, if it can run on `device` (else Error, as check_sort_variant says).
const Variant& variant_for(const std::string& name, const DeviceInfo& device) {
  const Variant& found = find_variant(name);
  if (std::string(found.name) == "onesweep" && !has_forward_progress(device)) {
    throw Error("sort: variant 'onesweep' needs forward progress between work-groups, which " +
                describe(device) + " does not guarantee; use 'radix' or 'default'");
  }
  return found;
}

}  // namespace

void check_sort_variant(const std::string& variant, const DeviceInfo& device) {
  variant_for(variant, device);
}

struct Sorter::Impl {
  std::string variant;
  std::string algorithm_name;
  std::unique_ptr<SortAlgorithm> algorithm;

  Impl(Runtime& runtime, const std::string& name, const SortConfig& config) : variant(name) {
    const Variant& found = variant_for(name, runtime.device());
    algorithm = found.make(runtime, config);
    algorithm_name = name == "default" ? algorithm->name() : found.name;
  }

  void check_size(std::size_t n, bool with_values) const {
    const std::size_t limit = algorithm->max_keys(with_values);
    if (n > limit) {
      throw Error("sort: " + std::to_string(n) + " keys is more than variant '" + variant +
                  "' can sort on " + algorithm->runtime().device_name() + " (at most " +
                  std::to_string(limit) + (with_values ? " with values)" : " keys only)"));
    }
  }

  void sort(BufferBase& keys, DeviceBuffer<cl_uint>* values, KeyKind kind, std::size_t n,
            KeyBits key_bits = {}) {
    if (values != nullptr && values->size() != n) {
      throw Error("sort: " + std::to_string(n) + " keys but " + std::to_string(values->size()) +
                  " values; key-value sorting needs one value per key");
    }
    if (key_bits.bits < 1 || key_bits.bits > 32) {
      throw Error("sort: KeyBits{" + std::to_string(key_bits.bits) +
                  "}: a sort orders keys by 1 to 32 of their low bits");
    }
    if (key_bits.bits < 32 && !algorithm->orders_by_low_bits()) {
      throw Error("sort: variant '" + variant + "' orders keys by all their bits; KeyBits{" +
                  std::to_string(key_bits.bits) +
                  "} needs a radix variant (default, radix, radix-tiles, radix-match, onesweep)");
    }
    check_size(n, values != nullptr);
    if (n <= 1) return;
    algorithm->sort(keys, values, kind, n, key_bits.bits);
  }
};

Sorter::Sorter(Runtime& runtime, const std::string& variant)
    : Sorter(runtime, variant, tuning_for(runtime.device()).sort) {}
Sorter::Sorter(Runtime& runtime, const std::string& variant, const SortConfig& config)
    : impl_(std::make_unique<Impl>(runtime, variant, config)) {}
Sorter::Sorter(const std::string& variant) : Sorter(Runtime::shared(), variant) {}
Sorter::~Sorter() = default;
Sorter::Sorter(Sorter&&) noexcept = default;
Sorter& Sorter::operator=(Sorter&&) noexcept = default;

const std::string& Sorter::variant() const { return impl_->variant; }
const std::string& Sorter::algorithm() const { return impl_->algorithm_name; }
std::size_t Sorter::max_keys(bool with_values) const {
  return impl_->algorithm->max_keys(with_values);
}
void Sorter::check_size(std::size_t n, bool with_values) const {
  impl_->check_size(n, with_values);
}
std::size_t Sorter::temporary_bytes() const { return impl_->algorithm->temporary_bytes(); }

void Sorter::sort(DeviceBuffer<cl_uint>& keys) {
  impl_->sort(keys, nullptr, KeyKind::uint32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_int>& keys) {
  impl_->sort(keys, nullptr, KeyKind::int32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_float>& keys) {
  impl_->sort(keys, nullptr, KeyKind::float32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_uint>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::uint32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_int>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::int32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_float>& keys, DeviceBuffer<cl_uint>& values) {
  impl_->sort(keys, &values, KeyKind::float32, keys.size());
}
void Sorter::sort(DeviceBuffer<cl_uint>& keys, KeyBits key_bits) {
  impl_->sort(keys, nullptr, KeyKind::uint32, keys.size(), key_bits);
}
void Sorter::sort(DeviceBuffer<cl_uint>& keys, DeviceBuffer<cl_uint>& values, KeyBits key_bits) {
  impl_->sort(keys, &values, KeyKind::uint32, keys.size(), key_bits);
}

template <typename K>
void sort(std::vector<K>& keys, const std::string& variant, Runtime& runtime) {
  Sorter sorter(runtime, variant);
  DeviceBuffer<K> device_keys(runtime, keys.size());
  device_keys.write(keys);
  sorter.sort(device_keys);
  keys = device_keys.read();
}

template <typename K>
void sort_by_key(std::vector<K>& keys, std::vector<cl_uint>& values, const std::string& variant,
                 Runtime& runtime) {
  Sorter sorter(runtime, variant);
  if (values.size() != keys.size()) {
    throw Error("sort_by_key: " + std::to_string(keys.size()) + " keys but " +
                std::to_string(values.size()) +
                " values; key-value sorting needs one value per key");
  }
  DeviceBuffer<K> device_keys(runtime, keys.size());
  DeviceBuffer<cl_uint> device_values(runtime, values.size());
  device_keys.write(keys);
  device_values.write(values);
  sorter.sort(device_keys, device_values);
  keys = device_keys.read();
  values = device_values.read();
}

template void sort<cl_uint>(std::vector<cl_uint>&, const std::string&, Runtime&);
template void sort<cl_int>(std::vector<cl_int>&, const std::string&, Runtime&);
template void sort<cl_float>(std::vector<cl_float>&, const std::string&, Runtime&);
template void sort_by_key<cl_uint>(std::vector<cl_uint>&, std::vector<cl_uint>&, const std::string&,
                                   Runtime&);
template void sort_by_key<cl_int>(std::vector<cl_int>&, std::vector<cl_uint>&, const std::string&,
                                  Runtime&);
template void sort_by_key<cl_float>(std::vector<cl_float>&, std::vector<cl_uint>&,
                                    const std::string&, Runtime&);

}  // namespace clf::primitives
