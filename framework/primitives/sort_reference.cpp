#include "framework/primitives/sort_reference.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "framework/error.hpp"

namespace clf::primitives::reference {

cl_uint ordered_bits(cl_float key) {
  cl_uint bits;
  std::memcpy(&bits, &key, sizeof bits);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

namespace {

template <typename K>
int compare_keys(const void* a, const void* b) {
  const cl_uint x = ordered_bits(*static_cast<const K*>(a));
  const cl_uint y = ordered_bits(*static_cast<const K*>(b));
  return x < y ? -1 : (x > y ? 1 : 0);  // not x - y, which wraps for unsigned keys
}

// Two stable counting passes over 16-bit digits of the ordered bits; `values` may be null.
template <typename K>
void radix16(std::vector<K>& keys, std::vector<cl_uint>* values) {
  constexpr std::size_t kBuckets = std::size_t{1} << 16;
  const std::size_t n = keys.size();
  std::vector<K> key_buffer(n);
  std::vector<cl_uint> value_buffer(values != nullptr ? n : 0);
  K* src = keys.data();
  K* dst = key_buffer.data();
  cl_uint* values_src = values != nullptr ? values->data() : nullptr;
  cl_uint* values_dst = value_buffer.data();
  std::vector<std::size_t> histogram(kBuckets);
  for (unsigned shift = 0; shift < 32; shift += 16) {
    std::fill(histogram.begin(), histogram.end(), 0);
    for (std::size_t i = 0; i < n; ++i) ++histogram[(ordered_bits(src[i]) >> shift) & 0xffff];
    std::size_t sum = 0;
    for (std::size_t& bucket : histogram) {
      const std::size_t count = bucket;
      bucket = sum;
      sum += count;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = histogram[(ordered_bits(src[i]) >> shift) & 0xffff]++;
      dst[to] = src[i];
      if (values_src != nullptr) values_dst[to] = values_src[i];
    }
    // After the swap `src` holds this pass's output (Gruber's version copied `dst`, the stale
    // array).
    std::swap(src, dst);
    std::swap(values_src, values_dst);
  }
  if (src != keys.data()) {
    std::copy(src, src + n, keys.data());
    if (values != nullptr) std::copy(values_src, values_src + n, values->data());
  }
}

}  // namespace

template <typename K>
void qsort_keys(std::vector<K>& keys) {
  if (keys.empty()) return;  // qsort's base must not be null, even for no elements
  std::qsort(keys.data(), keys.size(), sizeof(K), compare_keys<K>);
}

template <typename K>
void std_sort(std::vector<K>& keys) {
  std::sort(keys.begin(), keys.end(), key_less<K>);
}

template <typename K>
void std_stable_sort(std::vector<K>& keys) {
  std::stable_sort(keys.begin(), keys.end(), key_less<K>);
}

template <typename K>
void radix_sort16(std::vector<K>& keys) {
  radix16<K>(keys, nullptr);
}

template <typename K>
void stable_sort_by_key(std::vector<K>& keys, std::vector<cl_uint>& values) {
  if (keys.size() != values.size()) throw Error("stable_sort_by_key: sizes differ");
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return key_less(keys[a], keys[b]); });
  std::vector<K> sorted_keys(keys.size());
  std::vector<cl_uint> sorted_values(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    sorted_keys[i] = keys[order[i]];
    sorted_values[i] = values[order[i]];
  }
  keys = std::move(sorted_keys);
  values = std::move(sorted_values);
}

template <typename K>
void radix_sort16_by_key(std::vector<K>& keys, std::vector<cl_uint>& values) {
  if (keys.size() != values.size()) throw Error("radix_sort16_by_key: sizes differ");
  radix16<K>(keys, &values);
}

#define CLF_SORT_REFERENCE_INSTANTIATE(K)                                      \
  template void qsort_keys<K>(std::vector<K>&);                                \
  template void std_sort<K>(std::vector<K>&);                                  \
  template void std_stable_sort<K>(std::vector<K>&);                           \
  template void radix_sort16<K>(std::vector<K>&);                              \
  template void stable_sort_by_key<K>(std::vector<K>&, std::vector<cl_uint>&); \
  template void radix_sort16_by_key<K>(std::vector<K>&, std::vector<cl_uint>&);
CLF_SORT_REFERENCE_INSTANTIATE(cl_uint)
CLF_SORT_REFERENCE_INSTANTIATE(cl_int)
CLF_SORT_REFERENCE_INSTANTIATE(cl_float)
#undef CLF_SORT_REFERENCE_INSTANTIATE

}  // namespace clf::primitives::reference
