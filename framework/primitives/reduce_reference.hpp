// CPU references for framework/primitives/reduce.hpp: sequential loops that define the results
// (exact 64-bit integer sums, NaN-ignoring float min/max, lowest index among ties).
#pragma once

#include <vector>

#include "framework/primitives/reduce.hpp"

namespace clf::primitives {

// The reduction of `values` by `op`. Float sums are accumulated in double and rounded once.
// Throws Error for min/max/argmin/argmax of an empty vector.
template <typename T>
ReduceResult<T> reduce_reference(const std::vector<T>& values, ReduceOp op);

// The double-precision sum of `values` and the sum of their magnitudes.
double sum_in_double(const std::vector<float>& values);
double sum_of_magnitudes(const std::vector<float>& values);

// How far a float sum from the device may be from sum_in_double(values): a relative 1e-5 of the
// sum of magnitudes (float rounding in a tree of partial sums stays far below it for the sizes
// tested; integer-valued inputs are summed exactly and are tested exactly).
double float_sum_tolerance(const std::vector<float>& values);
// True when `values` are integers whose magnitudes add up to at most 2^24: then every partial
// sum, over any subset in any order, is an integer a float holds exactly, so a float sum of them
// must equal sum_in_double(values) exactly.
bool float_sum_is_exact(const std::vector<float>& values);

}  // namespace clf::primitives
