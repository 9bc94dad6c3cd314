// The libraries cl-bench compares the primitives with on the same device (cl-bench --peers):
// Boost.Compute (inclusive scan, reduce, min/max_element, copy_if, sort, sort_by_key) and CLBlast
// (SGEMM), run on the runtime's own context and queue with the cases' own inputs. Each call is
// bracketed by markers passed to Runtime::record, so the harness times the peer's commands the
// way it times ours. Found by CMake; where a library is missing its rows are left out with a note.
#pragma once

#include <cstdint>
#include <string>

#include "framework/buffer.hpp"
#include "framework/primitives/reduce.hpp"
#include "framework/runtime.hpp"

namespace bench::peers {

inline constexpr const char* kBoostCompute = "boost.compute";
inline constexpr const char* kClblast = "clblast";

bool have_boost_compute();
bool have_clblast();
// Whether `variant` names a peer rather than one of ours.
bool is_peer(const std::string& variant);
// The note --peers prints for each missing library; empty when both are there.
std::string missing_note();

// boost::compute::inclusive_scan.
template <typename T>
void inclusive_scan(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                    clf::DeviceBuffer<T>& out);
// boost::compute::reduce with plus (in T: integer sums wrap modulo 2^32), or min_element /
// max_element; returns the sum, or the value and index found.
template <typename T>
clf::primitives::ReduceResult<T> reduce(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                                        clf::primitives::ReduceOp op);
// boost::compute::copy_if of the values greater than 0; returns how many.
template <typename T>
std::size_t copy_if_positive(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                             clf::DeviceBuffer<T>& out);
// boost::compute::sort and sort_by_key, in place.
template <typename K>
void sort(clf::Runtime& runtime, clf::DeviceBuffer<K>& keys);
template <typename K>
void sort_by_key(clf::Runtime& runtime, clf::DeviceBuffer<K>& keys,
                 clf::DeviceBuffer<cl_uint>& values);
// clblast::Gemm: C = A B, row-major n x n floats.
void sgemm(clf::Runtime& runtime, const clf::DeviceBuffer<float>& a,
           const clf::DeviceBuffer<float>& b, clf::DeviceBuffer<float>& c, std::size_t n);

}  // namespace bench::peers
