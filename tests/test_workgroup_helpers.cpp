// The work-group helpers of kernels/primitives/reduce/workgroup.cl, called from shim kernels (the
// seed's idiom: copy into __local memory, call, copy out) and checked against plain C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include "framework/clf.hpp"

namespace clf {
namespace {

// Each work-group g works on its own n values (and mask) at g * n and writes what every one of
// its work-items got, so the tests also check that all work-items receive the same answer.
const char* const kShims = R"CLC(
#include "kernels/primitives/reduce/workgroup.cl"

#define ARG_SHIM(TYPE)                                                                     \
__kernel void shim_arg_##TYPE(const __global TYPE* values, const __global int* mask, uint n, \
                              __global int* out, __local TYPE* local_values,             \
                              __local int* local_mask, __local TYPE* scratch_values,     \
                              __local int* scratch_indices) {                            \
  const uint g = get_group_id(0);                                                        \
  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) {                        \
    local_values[i] = values[g * n + i];                                                 \
    local_mask[i] = mask[g * n + i];                                                     \
  }                                                                                      \
  barrier(CLK_LOCAL_MEM_FENCE);                                                          \
  const uint at = 4 * get_global_id(0);                                                  \
  out[at] = wg_masked_argmax_##TYPE(local_values, local_mask, n, scratch_values, scratch_indices); \
  out[at + 1] = wg_masked_argmin_##TYPE(local_values, local_mask, n, scratch_values, scratch_indices); \
  out[at + 2] = wg_argmax_##TYPE(local_values, n, scratch_values, scratch_indices);      \
  out[at + 3] = wg_argmin_##TYPE(local_values, n, scratch_values, scratch_indices);      \
}
ARG_SHIM(float)
ARG_SHIM(int)

// The k largest of each group's values; out gets k indices then the count found.
__kernel void shim_max_n_indices(const __global float* values, const __global int* mask, uint n,
                                 uint k, __global int* out, __local float* local_values,
                                 __local int* local_mask, __local int* local_out,
                                 __local float* scratch_values, __local int* scratch_indices) {
  const uint g = get_group_id(0);
  for (uint i = get_local_id(0); i < n; i += get_local_size(0)) {
    local_values[i] = values[g * n + i];
    local_mask[i] = mask[g * n + i];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint found = wg_max_n_indices_float(local_values, local_mask, n, k, local_out,
                                            scratch_values, scratch_indices);
  if (get_local_id(0) == 0) {
    for (uint i = 0; i < k; ++i) out[g * (k + 1) + i] = local_out[i];
    out[g * (k + 1) + k] = (int)found;
  }
}

// Work-items whose local id is a multiple of `every` append 1000 * group + local id; out gets
// the items, then the size and the overflow flag, per group.
__kernel void shim_append(uint every, uint capacity, __global int* out, __local int* items) {
  __local uint count;
  wg_append_reset(&count);
  const uint lid = get_local_id(0);
  int slot = 0;
  if (lid % every == 0) slot = wg_append_int(&count, items, capacity, (int)(1000 * get_group_id(0) + lid));
  barrier(CLK_LOCAL_MEM_FENCE);
  const uint size = wg_append_size(&count, capacity);
  __global int* mine = out + get_group_id(0) * (capacity + 2);
  for (uint i = lid; i < size; i += get_local_size(0)) mine[i] = items[i];
  if (lid == 0) {
    mine[capacity] = (int)size;
    mine[capacity + 1] = wg_append_overflowed(&count, capacity);
  }
}

// wants[global id] says who is willing; out[2 * global id] gets the lowest willing local id and
// out[2 * global id + 1] the random pick for randoms[group].
__kernel void shim_choose(const __global int* wants, const __global uint* randoms,
                          __global int* out, __local int* flags) {
  __local uint scratch;
  const int want = wants[get_global_id(0)];
  out[2 * get_global_id(0)] = wg_choose_lowest(want, &scratch);
  out[2 * get_global_id(0) + 1] = wg_choose_random(want, randoms[get_group_id(0)], flags);
}
)CLC";

Source shims() { return inline_source("workgroup_shims.cl", kShims); }

// The CPU answer of the (masked) arg max/min: NaN and masked-out values never win, ties go to
// the lowest index, -1 when nothing is eligible.
template <typename T>
int expected_arg(const T* values, const int* mask, std::size_t n, bool want_max) {
  int best = -1;
  for (std::size_t i = 0; i < n; ++i) {
    if ((mask != nullptr && mask[i] == 0) || values[i] != values[i]) continue;
    if (best < 0 || (want_max ? values[i] > values[best] : values[i] < values[best])) {
      best = static_cast<int>(i);
    }
  }
  return best;
}

template <typename T>
void check_arg_helpers(const char* type, std::size_t local, std::size_t n, int value_range) {
  Runtime& runtime = Runtime::shared();
  CLKernel shim(runtime, shims(), std::string("shim_arg_") + type);
  const std::size_t groups = 3;
  std::mt19937 random(static_cast<std::uint32_t>(local * 7919 + n));
  std::vector<T> values(groups * n);
  std::vector<int> mask(groups * n);
  for (std::size_t i = 0; i < values.size(); ++i) {
    values[i] = static_cast<T>(static_cast<int>(random() % value_range) - value_range / 2);
    mask[i] = random() % 3 != 0;
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (n > 3) values[2] = std::numeric_limits<T>::quiet_NaN();
  }
  // Group 2 has nothing eligible.
  std::fill(mask.begin() + 2 * n, mask.end(), 0);
  Buffer<T> device_values(runtime, values);
  Buffer<int> device_mask(runtime, mask);
  Buffer<int> out(runtime, 4 * groups * local);
  shim(Range::linear(groups * local, local), device_values, device_mask, static_cast<cl_uint>(n),
       write_only(out), Local<T>{n}, Local<int>{n}, Local<T>{local}, Local<int>{local});
  for (std::size_t g = 0; g < groups; ++g) {
    const T* v = values.data() + g * n;
    const int* m = mask.data() + g * n;
    const int expected[4] = {expected_arg(v, m, n, true), expected_arg(v, m, n, false),
                             expected_arg<T>(v, nullptr, n, true),
                             expected_arg<T>(v, nullptr, n, false)};
    for (std::size_t item = 0; item < local; ++item) {
      for (int k = 0; k < 4; ++k) {
        ASSERT_EQ(out[4 * (g * local + item) + k], expected[k])
            << type << " helper " << k << " (masked max, masked min, max, min), local " << local
            << ", n " << n << ", group " << g << ", work-item " << item;
      }
    }
  }
}

TEST(WorkgroupHelpers, ArgMaxMinMatchTheCpu) {
  // Power-of-two and odd work-group sizes; n below, at and above the group size; many ties.
  for (std::size_t local : {std::size_t{1}, std::size_t{64}, std::size_t{100}, std::size_t{256}}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{256}, std::size_t{1000}}) {
      check_arg_helpers<float>("float", local, n, 1000);
      check_arg_helpers<int>("int", local, n, 9);
    }
  }
}

TEST(WorkgroupHelpers, MaxNIndicesMatchTheCpu) {
  Runtime& runtime = Runtime::shared();
  CLKernel shim(runtime, shims(), "shim_max_n_indices");
  const std::size_t local = 64, n = 300, k = 7, groups = 2;
  std::mt19937 random(3);
  std::vector<float> values(groups * n);
  std::vector<int> mask(groups * n, 1);
  for (float& v : values) v = static_cast<float>(random() % 50);  // ties
  // Group 1: only 4 eligible, so 3 slots stay -1.
  std::fill(mask.begin() + n, mask.end(), 0);
  for (std::size_t i : {5, 77, 78, 299}) mask[n + i] = 1;
  Buffer<float> device_values(runtime, values);
  Buffer<int> device_mask(runtime, mask);
  Buffer<int> out(runtime, groups * (k + 1));
  shim(Range::linear(groups * local, local), device_values, device_mask, cl_uint(n), cl_uint(k),
       write_only(out), Local<float>{n}, Local<int>{n}, Local<int>{k}, Local<float>{local},
       Local<int>{local});
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<int> eligible;
    for (std::size_t i = 0; i < n; ++i) {
      if (mask[g * n + i] != 0) eligible.push_back(static_cast<int>(i));
    }
    // Largest first, ties by lowest index: a stable sort by descending value.
    std::stable_sort(eligible.begin(), eligible.end(),
                     [&](int a, int b) { return values[g * n + a] > values[g * n + b]; });
    const std::size_t found = std::min(k, eligible.size());
    for (std::size_t i = 0; i < k; ++i) {
      EXPECT_EQ(out[g * (k + 1) + i], i < found ? eligible[i] : -1)
          << "group " << g << " slot " << i;
    }
    EXPECT_EQ(out[g * (k + 1) + k], static_cast<int>(found)) << "group " << g;
  }
}

TEST(WorkgroupHelpers, AppendArrayHoldsEveryValueOrReportsOverflow) {
  Runtime& runtime = Runtime::shared();
  CLKernel shim(runtime, shims(), "shim_append");
  const std::size_t local = 128, groups = 3, every = 3;
  const std::size_t appended = (local + every - 1) / every;  // 43
  for (std::size_t capacity : {std::size_t{64}, appended, std::size_t{10}}) {
    Buffer<int> out(runtime, groups * (capacity + 2));
    shim(Range::linear(groups * local, local), cl_uint(every), cl_uint(capacity), write_only(out),
         Local<int>{capacity});
    for (std::size_t g = 0; g < groups; ++g) {
      const int* mine = out.host().data() + g * (capacity + 2);
      const std::size_t size = std::min(capacity, appended);
      ASSERT_EQ(mine[capacity], static_cast<int>(size)) << "capacity " << capacity;
      EXPECT_EQ(mine[capacity + 1], appended > capacity ? 1 : 0) << "capacity " << capacity;
      std::set<int> got(mine, mine + size);
      EXPECT_EQ(got.size(), size) << "duplicates, capacity " << capacity;
      for (int value : got) {
        const int lid = value - static_cast<int>(1000 * g);
        EXPECT_TRUE(lid >= 0 && lid < static_cast<int>(local) && lid % every == 0)
            << value << " was never appended by group " << g;
      }
    }
  }
}

TEST(WorkgroupHelpers, ChoosingAWorkItem) {
  Runtime& runtime = Runtime::shared();
  CLKernel shim(runtime, shims(), "shim_choose");
  const std::size_t local = 96, groups = 4;
  std::vector<int> wants(groups * local, 0);
  for (std::size_t i = 0; i < local; ++i) {
    wants[i] = i % 10 == 7;             // group 0: 7, 17, ..., 87
    wants[local + i] = i == local - 1;  // group 1: only the last
    wants[3 * local + i] = 1;           // group 3: everyone; group 2: nobody
  }
  const std::vector<cl_uint> randoms = {12345, 99, 5, 0xFFFFFFFFu};
  Buffer<int> device_wants(runtime, wants);
  Buffer<cl_uint> device_randoms(runtime, randoms);
  Buffer<int> out(runtime, 2 * groups * local);
  shim(Range::linear(groups * local, local), device_wants, device_randoms, write_only(out),
       Local<int>{local});
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<int> willing;
    for (std::size_t i = 0; i < local; ++i) {
      if (wants[g * local + i] != 0) willing.push_back(static_cast<int>(i));
    }
    const int lowest = willing.empty() ? -1 : willing.front();
    const int picked = willing.empty() ? -1 : willing[randoms[g] % willing.size()];
    for (std::size_t item = 0; item < local; ++item) {
      ASSERT_EQ(out[2 * (g * local + item)], lowest) << "group " << g << " item " << item;
      ASSERT_EQ(out[2 * (g * local + item) + 1], picked) << "group " << g << " item " << item;
    }
  }
}

}  // namespace
}  // namespace clf
