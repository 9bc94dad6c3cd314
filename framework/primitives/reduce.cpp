#include "framework/primitives/reduce.hpp"

#include <algorithm>

#include "framework/error.hpp"
#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

constexpr std::size_t kPreferredGroupSize = 256;
// Elements one work-item of the default variant takes per loop round (4 loads of 4).
constexpr std::size_t kDefaultElementsPerRound = 16;
// The two-pass baseline's grid: at most this many groups, whatever the device.
constexpr std::size_t kTwoPassMaxGroups = 1024;

template <typename T>
const char* type_define();
template <>
const char* type_define<cl_int>() {
  return "-DREDUCE_TYPE_INT";
}
template <>
const char* type_define<cl_uint>() {
  return "-DREDUCE_TYPE_UINT";
}
template <>
const char* type_define<cl_float>() {
  return "-DREDUCE_TYPE_FLOAT";
}

const char* op_define(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "-DREDUCE_OP_SUM";
    case ReduceOp::min:
      return "-DREDUCE_OP_MIN";
    case ReduceOp::max:
      return "-DREDUCE_OP_MAX";
    case ReduceOp::argmin:
      return "-DREDUCE_OP_ARGMIN";
    case ReduceOp::argmax:
      return "-DREDUCE_OP_ARGMAX";
  }
  throw Error("reduce: unknown op");
}

bool has_index(ReduceOp op) { return op == ReduceOp::argmin || op == ReduceOp::argmax; }

// The default: vector loads, a grid sized to fill the device, each work-item looping.
std::size_t default_groups(const DeviceInfo& device, std::size_t n, std::size_t group_size) {
  const std::size_t per_unit = device.type == DeviceType::gpu ? 8 : 4;
  const std::size_t device_groups = std::max<std::size_t>(1, device.compute_units) * per_unit;
  return std::min(device_groups, ceil_div(n, group_size * kDefaultElementsPerRound));
}

// The baseline: scalar loads, a fixed grid.
std::size_t two_pass_groups(const DeviceInfo&, std::size_t n, std::size_t group_size) {
  return std::min(kTwoPassMaxGroups, ceil_div(n, group_size));
}

// Kloosterman's pairwise tree: every work-item combines two elements.
std::size_t tree_groups(const DeviceInfo&, std::size_t n, std::size_t group_size) {
  return ceil_div(n, 2 * group_size);
}

// One variant: its kernel file and first-pass kernel, the grid of the first pass, how the
// partials are folded (a pairwise tree level per launch, or one group for all of them), and its
// work-group size (0: the preferred size, or less where the device allows less). A grid of
// nullptr is the config's chunks: one-item work-groups.
struct ReduceVariant {
  const char* name;
  const char* file;
  const char* kernel;
  std::size_t (*groups)(const DeviceInfo& device, std::size_t n, std::size_t group_size);
  bool tree_of_partials;
  std::size_t group_size;
};

const ReduceVariant kVariants[] = {
    {"default", "kernels/primitives/reduce/default.cl", "reduce_default", default_groups, false, 0},
    {"chunks", "kernels/primitives/reduce/chunks.cl", "reduce_chunks", nullptr, false, 1},
    {"two-pass", "kernels/primitives/reduce/two_pass.cl", "reduce_two_pass", two_pass_groups, false,
     0},
    {"tree", "kernels/primitives/reduce/tree.cl", "reduce_tree", tree_groups, true, 0},
};

const ReduceVariant& find_variant(const std::string& name) {
  for (const ReduceVariant& variant : kVariants) {
    if (name == variant.name) return variant;
  }
  throw unknown_variant("reduce", name, reduce_variants());
}

}  // namespace

const std::vector<std::string>& reduce_op_names() {
  static const std::vector<std::string> names = {"sum", "min", "max", "argmin", "argmax"};
  return names;
}

const char* to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "sum";
    case ReduceOp::min:
      return "min";
    case ReduceOp::max:
      return "max";
    case ReduceOp::argmin:
      return "argmin";
    case ReduceOp::argmax:
      return "argmax";
  }
  return "?";
}

ReduceOp parse_reduce_op(const std::string& name) {
  for (ReduceOp op :
       {ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::argmin, ReduceOp::argmax}) {
    if (name == to_string(op)) return op;
  }
  throw Error("reduce: unknown op '" + name + "' (known: " + join(reduce_op_names()) + ")");
}

const std::vector<std::string>& reduce_variants() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const ReduceVariant& variant : kVariants) list.emplace_back(variant.name);
    return list;
  }();
  return names;
}

// Partials and the result in the op's accumulator type, grown on demand: slots 0 and 1 hold
// the partials of alternate passes, slot 2 the result.
template <typename Acc>
struct ReduceStorage {
  std::unique_ptr<DeviceBuffer<Acc>> values[3];
  std::unique_ptr<DeviceBuffer<cl_uint>> indices[3];

  void ensure(Runtime& runtime, int slot, std::size_t count, bool with_index) {
    count = std::max<std::size_t>(count, 1);
    if (!values[slot] || values[slot]->size() < count) {
      values[slot] = std::make_unique<DeviceBuffer<Acc>>(runtime, count);
    }
    const std::size_t index_count = with_index ? count : 1;  // unused without an index
    if (!indices[slot] || indices[slot]->size() < index_count) {
      indices[slot] = std::make_unique<DeviceBuffer<cl_uint>>(runtime, index_count);
    }
  }
};

template <typename T>
struct Reducer<T>::Impl {
  const ReduceVariant* variant = nullptr;
  ChunkShape chunks;
  std::size_t group_size = kPreferredGroupSize;
  std::unique_ptr<CLKernel> first_pass;
  std::unique_ptr<CLKernel> partials;
  ReduceStorage<SumType<T>> sums;
  ReduceStorage<T> values;
  bool has_result = false;
};

template <typename T>
Reducer<T>::Reducer(Runtime& runtime, ReduceOp op, const std::string& variant)
    : Reducer(runtime, op, variant, tuning_for(runtime.device()).reduce) {}

template <typename T>
Reducer<T>::Reducer(Runtime& runtime, ReduceOp op, const std::string& variant,
                    const ReduceConfig& config)
    : runtime_(&runtime), op_(op), variant_(variant), impl_(std::make_unique<Impl>()) {
  // "default" runs the config's layout: the first entry (tiles) or the chunks.
  const bool chunks = variant == "default" && config.layout == Layout::chunks;
  const std::string name = chunks ? "chunks" : variant;
  const ReduceVariant& kernels = find_variant(name);
  impl_->variant = &kernels;
  impl_->chunks = config.chunks;
  if (kernels.group_size != 0) impl_->group_size = kernels.group_size;
  while (impl_->group_size > runtime.device().max_work_group_size) impl_->group_size /= 2;
  const std::string options = std::string(type_define<T>()) + " " + op_define(op) +
                              " -DREDUCE_GROUP_SIZE=" + std::to_string(impl_->group_size);
  const Source source = kernel_source(kernels.file);
  impl_->first_pass = std::make_unique<CLKernel>(runtime, source, kernels.kernel, options);
  impl_->partials = std::make_unique<CLKernel>(runtime, source, "reduce_partials", options);
}

template <typename T>
Reducer<T>::~Reducer() = default;

namespace {

// Runs the passes of one reduction into storage slot 2.
template <typename T, typename Acc>
void run_passes(Runtime& runtime, const ReduceVariant& variant, const ChunkShape& chunks,
                ReduceOp op, std::size_t group_size, CLKernel& first_pass, CLKernel& partials,
                ReduceStorage<Acc>& storage, const DeviceBuffer<T>& input) {
  const std::size_t n = input.size();
  const bool with_index = has_index(op);
  const std::size_t groups =
      std::max<std::size_t>(variant.groups ? variant.groups(runtime.device(), n, group_size)
                                           : chunks.chunks(runtime.device(), n),
                            1);

  constexpr int kResult = 2;
  storage.ensure(runtime, kResult, 1, with_index);
  int target = groups == 1 ? kResult : 0;
  storage.ensure(runtime, target, groups, with_index);
  first_pass(Range::linear(groups * group_size, group_size), input, static_cast<cl_uint>(n),
             *storage.values[target], *storage.indices[target]);

  // Partials to one: a single group for the two-pass variants, a pairwise tree level per
  // launch for the tree.
  std::size_t remaining = groups;
  while (remaining > 1) {
    const int source = target;
    const std::size_t next =
        variant.tree_of_partials ? ceil_div(remaining, 2 * group_size) : std::size_t{1};
    target = next == 1 ? kResult : 1 - source;
    storage.ensure(runtime, target, next, with_index);
    partials(Range::linear(next * group_size, group_size), *storage.values[source],
             *storage.indices[source], static_cast<cl_uint>(remaining), *storage.values[target],
             *storage.indices[target]);
    remaining = next;
  }
}

}  // namespace

template <typename T>
void Reducer<T>::enqueue(const DeviceBuffer<T>& input) {
  const std::string what = std::string("reduce ") + to_string(op_) + " (" + variant_ + ")";
  if (&input.runtime() != runtime_) {
    throw Error(what + ": the input buffer belongs to another runtime (" +
                input.runtime().device_name() + ")");
  }
  if (input.size() == 0 && op_ != ReduceOp::sum) {
    throw Error(what + ": the input is empty; min, max, argmin and argmax need an element");
  }
  if (input.size() > kReduceMaxElements) {
    throw Error(what + ": " + std::to_string(input.size()) +
                " elements is more than the limit of 2^31");
  }
  impl_->has_result = false;
  if (op_ == ReduceOp::sum) {
    run_passes(*runtime_, *impl_->variant, impl_->chunks, op_, impl_->group_size,
               *impl_->first_pass, *impl_->partials, impl_->sums, input);
  } else {
    run_passes(*runtime_, *impl_->variant, impl_->chunks, op_, impl_->group_size,
               *impl_->first_pass, *impl_->partials, impl_->values, input);
  }
  impl_->has_result = true;
}

template <typename T>
ReduceResult<T> Reducer<T>::result() const {
  if (!impl_->has_result) {
    throw Error(std::string("reduce ") + to_string(op_) + ": result() before any enqueue()");
  }
  ReduceResult<T> result;
  if (op_ == ReduceOp::sum) {
    result.sum = impl_->sums.values[2]->read()[0];
  } else {
    result.value = impl_->values.values[2]->read()[0];
    if (has_index(op_)) result.index = impl_->values.indices[2]->read()[0];
  }
  return result;
}

template <typename T>
SumType<T> reduce_sum(const DeviceBuffer<T>& input, const std::string& variant) {
  return Reducer<T>(input.runtime(), ReduceOp::sum, variant)(input).sum;
}
template <typename T>
T reduce_min(const DeviceBuffer<T>& input, const std::string& variant) {
  return Reducer<T>(input.runtime(), ReduceOp::min, variant)(input).value;
}
template <typename T>
T reduce_max(const DeviceBuffer<T>& input, const std::string& variant) {
  return Reducer<T>(input.runtime(), ReduceOp::max, variant)(input).value;
}
template <typename T>
Extremum<T> reduce_argmin(const DeviceBuffer<T>& input, const std::string& variant) {
  const ReduceResult<T> r = Reducer<T>(input.runtime(), ReduceOp::argmin, variant)(input);
  return {r.value, r.index};
}
template <typename T>
Extremum<T> reduce_argmax(const DeviceBuffer<T>& input, const std::string& variant) {
  const ReduceResult<T> r = Reducer<T>(input.runtime(), ReduceOp::argmax, variant)(input);
  return {r.value, r.index};
}

#define CLF_INSTANTIATE_REDUCE(T)                                                    \
  template class Reducer<T>;                                                         \
  template SumType<T> reduce_sum<T>(const DeviceBuffer<T>&, const std::string&);     \
  template T reduce_min<T>(const DeviceBuffer<T>&, const std::string&);              \
  template T reduce_max<T>(const DeviceBuffer<T>&, const std::string&);              \
  template Extremum<T> reduce_argmin<T>(const DeviceBuffer<T>&, const std::string&); \
  template Extremum<T> reduce_argmax<T>(const DeviceBuffer<T>&, const std::string&);
CLF_INSTANTIATE_REDUCE(cl_int)
CLF_INSTANTIATE_REDUCE(cl_uint)
CLF_INSTANTIATE_REDUCE(cl_float)
#undef CLF_INSTANTIATE_REDUCE

}  // namespace clf::primitives
