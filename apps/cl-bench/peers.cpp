#include "apps/cl-bench/peers.hpp"

#include "framework/error.hpp"

#if CLF_HAVE_BOOST_COMPUTE
#include <boost/compute/algorithm/copy_if.hpp>
#include <boost/compute/algorithm/inclusive_scan.hpp>
#include <boost/compute/algorithm/max_element.hpp>
#include <boost/compute/algorithm/min_element.hpp>
#include <boost/compute/algorithm/reduce.hpp>
#include <boost/compute/algorithm/sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>
#include <boost/compute/lambda.hpp>
#endif
#if CLF_HAVE_CLBLAST
#include <clblast.h>
#endif

namespace bench::peers {

bool have_boost_compute() { return CLF_HAVE_BOOST_COMPUTE != 0; }
bool have_clblast() { return CLF_HAVE_CLBLAST != 0; }

bool is_peer(const std::string& variant) { return variant == kBoostCompute || variant == kClblast; }

std::string missing_note() {
  std::string note;
  if (!have_boost_compute()) {
    note +=
        "Boost.Compute (libboost-dev) was not found when cl-bench was configured: its rows "
        "(scan, reduce, compact, sort) are left out.\n";
  }
  if (!have_clblast()) {
    note +=
        "CLBlast (libclblast-dev) was not found when cl-bench was configured: its matmul rows "
        "are left out.\n";
  }
  return note;
}

namespace {

[[noreturn, maybe_unused]] void missing(const char* library) {
  throw clf::Error(std::string(library) + " was not found when cl-bench was configured");
}

// A marker on the runtime's queue, recorded: two of them bracket a peer's commands.
[[maybe_unused]] void record_marker(clf::Runtime& runtime) {
  cl_event event = nullptr;
  clf::check(clEnqueueMarkerWithWaitList(runtime.queue()(), 0, nullptr, &event),
             "clEnqueueMarkerWithWaitList", {"", runtime.device_name(), ""});
  runtime.record(clf::Event(cl::Event(event)));
}

#if CLF_HAVE_BOOST_COMPUTE
namespace compute = boost::compute;

compute::command_queue queue_of(clf::Runtime& runtime) {
  return compute::command_queue(runtime.queue()(), true);
}

template <typename T>
compute::buffer buffer_of(const clf::DeviceBuffer<T>& buffer) {
  return compute::buffer(buffer.mem()(), true);
}

template <typename T>
compute::buffer_iterator<T> at(const compute::buffer& buffer, std::size_t index) {
  return compute::make_buffer_iterator<T>(buffer, index);
}
#endif

}  // namespace

template <typename T>
void inclusive_scan(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                    clf::DeviceBuffer<T>& out) {
#if CLF_HAVE_BOOST_COMPUTE
  compute::command_queue queue = queue_of(runtime);
  const compute::buffer input = buffer_of(in);
  const compute::buffer output = buffer_of(out);
  record_marker(runtime);
  compute::inclusive_scan(at<T>(input, 0), at<T>(input, in.size()), at<T>(output, 0), queue);
  record_marker(runtime);
#else
  (void)runtime, (void)in, (void)out;
  missing("Boost.Compute");
#endif
}

template <typename T>
clf::primitives::ReduceResult<T> reduce(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                                        clf::primitives::ReduceOp op) {
  clf::primitives::ReduceResult<T> result;
#if CLF_HAVE_BOOST_COMPUTE
  using clf::primitives::ReduceOp;
  compute::command_queue queue = queue_of(runtime);
  const compute::buffer input = buffer_of(in);
  const auto first = at<T>(input, 0);
  const auto last = at<T>(input, in.size());
  // The sum goes to a device buffer, as ours does: to a host variable, Boost.Compute's reduce
  // would time a blocking read that ours leaves out.
  const compute::buffer sum_buffer(queue.get_context(), sizeof(T));
  record_marker(runtime);
  if (op == ReduceOp::sum) {
    compute::reduce(first, last, at<T>(sum_buffer, 0), compute::plus<T>(), queue);
  } else {
    const bool low = op == ReduceOp::min || op == ReduceOp::argmin;
    const auto found =
        low ? compute::min_element(first, last, queue) : compute::max_element(first, last, queue);
    result.index = static_cast<cl_uint>(found.get_index());
  }
  record_marker(runtime);
  // After the timing:
  if (op == ReduceOp::sum) {
    queue.enqueue_read_buffer(sum_buffer, 0, sizeof(T), &result.sum);
  } else {
    result.value = in.read()[result.index];
  }
#else
  (void)runtime, (void)in, (void)op;
  missing("Boost.Compute");
#endif
  return result;
}

template <typename T>
std::size_t copy_if_positive(clf::Runtime& runtime, const clf::DeviceBuffer<T>& in,
                             clf::DeviceBuffer<T>& out) {
#if CLF_HAVE_BOOST_COMPUTE
  using compute::lambda::_1;
  compute::command_queue queue = queue_of(runtime);
  const compute::buffer input = buffer_of(in);
  const compute::buffer output = buffer_of(out);
  record_marker(runtime);
  const auto end = compute::copy_if(at<T>(input, 0), at<T>(input, in.size()), at<T>(output, 0),
                                    _1 > T(0), queue);
  record_marker(runtime);
  return end.get_index();
#else
  (void)runtime, (void)in, (void)out;
  missing("Boost.Compute");
#endif
}

template <typename K>
void sort(clf::Runtime& runtime, clf::DeviceBuffer<K>& keys) {
#if CLF_HAVE_BOOST_COMPUTE
  compute::command_queue queue = queue_of(runtime);
  const compute::buffer buffer = buffer_of(keys);
  record_marker(runtime);
  compute::sort(at<K>(buffer, 0), at<K>(buffer, keys.size()), queue);
  record_marker(runtime);
#else
  (void)runtime, (void)keys;
  missing("Boost.Compute");
#endif
}

template <typename K>
void sort_by_key(clf::Runtime& runtime, clf::DeviceBuffer<K>& keys,
                 clf::DeviceBuffer<cl_uint>& values) {
#if CLF_HAVE_BOOST_COMPUTE
  compute::command_queue queue = queue_of(runtime);
  const compute::buffer key_buffer = buffer_of(keys);
  const compute::buffer value_buffer = buffer_of(values);
  record_marker(runtime);
  compute::sort_by_key(at<K>(key_buffer, 0), at<K>(key_buffer, keys.size()),
                       at<cl_uint>(value_buffer, 0), queue);
  record_marker(runtime);
#else
  (void)runtime, (void)keys, (void)values;
  missing("Boost.Compute");
#endif
}

void sgemm(clf::Runtime& runtime, const clf::DeviceBuffer<float>& a,
           const clf::DeviceBuffer<float>& b, clf::DeviceBuffer<float>& c, std::size_t n) {
#if CLF_HAVE_CLBLAST
  // Markers, not Gemm's event: that is the last of the kernels Gemm may enqueue (copies and
  // transposes come before the product at sizes its tiles do not divide).
  cl_command_queue queue = runtime.queue()();
  record_marker(runtime);
  const clblast::StatusCode status = clblast::Gemm<float>(
      clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, n, n, n, 1.0f,
      a.mem()(), 0, n, b.mem()(), 0, n, 0.0f, c.mem()(), 0, n, &queue, nullptr);
  if (status != clblast::StatusCode::kSuccess) {
    throw clf::Error("clblast::Gemm failed with status " +
                     std::to_string(static_cast<int>(status)));
  }
  record_marker(runtime);
#else
  (void)runtime, (void)a, (void)b, (void)c, (void)n;
  missing("CLBlast");
#endif
}

#define CLF_PEER_TYPES(T)                                                                         \
  template void inclusive_scan<T>(clf::Runtime&, const clf::DeviceBuffer<T>&,                     \
                                  clf::DeviceBuffer<T>&);                                         \
  template clf::primitives::ReduceResult<T> reduce<T>(clf::Runtime&, const clf::DeviceBuffer<T>&, \
                                                      clf::primitives::ReduceOp);                 \
  template std::size_t copy_if_positive<T>(clf::Runtime&, const clf::DeviceBuffer<T>&,            \
                                           clf::DeviceBuffer<T>&);                                \
  template void sort<T>(clf::Runtime&, clf::DeviceBuffer<T>&);                                    \
  template void sort_by_key<T>(clf::Runtime&, clf::DeviceBuffer<T>&, clf::DeviceBuffer<cl_uint>&);
CLF_PEER_TYPES(cl_int)
CLF_PEER_TYPES(cl_uint)
CLF_PEER_TYPES(cl_float)
#undef CLF_PEER_TYPES

}  // namespace bench::peers
