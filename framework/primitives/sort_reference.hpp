// CPU sorts, the references the sort tests and cl-bench compare with (Gruber 5.1). All order
// keys as the device sorts do: by ordered_bits(), which for floats is IEEE 754 totalOrder
// (-NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN).
#pragma once

#include <cstdint>
#include <vector>

#include "framework/opencl.hpp"

namespace clf::primitives::reference {

// The order-preserving map to uint32 that kernels/primitives/sort/common.cl uses.
inline cl_uint ordered_bits(cl_uint key) { return key; }
inline cl_uint ordered_bits(cl_int key) { return static_cast<cl_uint>(key) ^ 0x80000000u; }
cl_uint ordered_bits(cl_float key);

template <typename K>
bool key_less(K a, K b) {
  return ordered_bits(a) < ordered_bits(b);
}

// K: cl_uint, cl_int, cl_float.
template <typename K>
void qsort_keys(std::vector<K>& keys);  // C qsort with a comparison callback
template <typename K>
void std_sort(std::vector<K>& keys);
template <typename K>
void std_stable_sort(std::vector<K>& keys);
// LSD radix sort with two 16-bit digits (Gruber listing 23, without its bug: after an even
// number of passes the result is back in the caller's array, which is what this checks).
template <typename K>
void radix_sort16(std::vector<K>& keys);

// Stable key-value sorts: equal keys keep their values' order.
template <typename K>
void stable_sort_by_key(std::vector<K>& keys, std::vector<cl_uint>& values);
template <typename K>
void radix_sort16_by_key(std::vector<K>& keys, std::vector<cl_uint>& values);

}  // namespace clf::primitives::reference
