#include "framework/primitives/reduce_reference.hpp"

#include <cmath>

#include "framework/error.hpp"

namespace clf::primitives {

namespace {

template <typename T>
bool is_nan(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

// True when `candidate` should replace `best` as the running min (wants_low) or max: NaN never
// wins over a number, and strict comparison keeps the earlier index among equals.
template <typename T>
bool replaces(T candidate, T best, bool wants_low) {
  if (is_nan(candidate)) return false;
  if (is_nan(best)) return true;
  return wants_low ? candidate < best : candidate > best;
}

}  // namespace

template <typename T>
ReduceResult<T> reduce_reference(const std::vector<T>& values, ReduceOp op) {
  ReduceResult<T> result;
  if (op == ReduceOp::sum) {
    if constexpr (std::is_floating_point_v<T>) {
      double sum = 0;
      for (T value : values) sum += value;
      result.sum = static_cast<T>(sum);
    } else {
      SumType<T> sum = 0;
      for (T value : values) sum += value;
      result.sum = sum;
    }
    return result;
  }
  if (values.empty()) {
    throw Error(std::string("reduce_reference ") + to_string(op) + ": the input is empty");
  }
  const bool wants_low = op == ReduceOp::min || op == ReduceOp::argmin;
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i) {
    if (replaces(values[i], values[best], wants_low)) best = i;
  }
  result.value = values[best];
  result.index = static_cast<cl_uint>(best);
  return result;
}

double sum_in_double(const std::vector<float>& values) {
  double sum = 0;
  for (float value : values) sum += value;
  return sum;
}

double sum_of_magnitudes(const std::vector<float>& values) {
  double sum = 0;
  for (float value : values) sum += std::fabs(value);
  return sum;
}

double float_sum_tolerance(const std::vector<float>& values) {
  return 1e-5 * sum_of_magnitudes(values) + 1e-6;
}

bool float_sum_is_exact(const std::vector<float>& values) {
  double magnitudes = 0;
  for (const float value : values) {
    if (value != std::nearbyint(value)) return false;  // NaN and infinities too
    magnitudes += std::fabs(value);
  }
  return magnitudes <= 16777216.0;
}

template ReduceResult<cl_int> reduce_reference(const std::vector<cl_int>&, ReduceOp);
template ReduceResult<cl_uint> reduce_reference(const std::vector<cl_uint>&, ReduceOp);
template ReduceResult<cl_float> reduce_reference(const std::vector<cl_float>&, ReduceOp);

}  // namespace clf::primitives
