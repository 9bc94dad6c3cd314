#include <algorithm>
#include <cmath>

#include "apps/mankalah/gpu_search.hpp"
#include "apps/mankalah/minimax_core.hpp"

namespace mankalah {

namespace {

// Positions in a timed search's first launch, before anything is measured: a subtree search
// gives each tens to hundreds of positions.
constexpr std::size_t kFirstSubtreeChunk = 4096;

}  // namespace

SubtreeSearch::SubtreeSearch(clf::Runtime& runtime, int split_plies)
    : runtime_(runtime),
      split_plies_(std::max(split_plies, 0)),
      kernel_(runtime, clf::kernel_source("kernels/mankalah/subtree_alphabeta.cl"),
              "subtree_alphabeta") {}

int SubtreeSearch::split_for(int plies) const {
  // At least one ply stays on the device.
  return std::max(0, std::min(split_plies_, plies - 1));
}

bool SubtreeSearch::evaluate(const std::vector<KalahBoard>& boards, int plies,
                             std::vector<int>* values, std::uint64_t* nodes, StopClock* clock) {
  plies = std::clamp(plies, 0, kMaxPlies);
  const int split = split_for(plies);
  return split > 0 ? evaluate_split(boards, plies, split, values, nodes, clock)
                   : evaluate_on_device(boards, plies, values, nodes, clock);
}

double SubtreeSearch::predict_seconds(std::size_t count, int plies) const {
  plies = std::clamp(plies, 0, kMaxPlies);
  const int split = split_for(plies);
  // About five legal moves per position.
  const auto on_device =
      static_cast<std::size_t>(static_cast<double>(count) * std::pow(5.0, split));
  const LaunchCost& cost = cost_[plies - split];
  return cost.measured() ? cost.predict(on_device) : 0.0;
}

bool SubtreeSearch::evaluate_split(const std::vector<KalahBoard>& boards, int plies, int split,
                                   std::vector<int>* values, std::uint64_t* nodes,
                                   StopClock* clock) {
  // One ply on the host: the children go to the device (or split further), each parent's value
  // is the best of its children's. Finished games are valued here.
  std::vector<KalahBoard> children;
  std::vector<std::size_t> first_child(boards.size() + 1);
  for (std::size_t i = 0; i < boards.size(); ++i) {
    first_child[i] = children.size();
    if (kalah_is_over(&boards[i])) continue;
    for (const Child& child : children_of(boards[i])) {
      children.push_back(child.board);
    }
  }
  first_child[boards.size()] = children.size();
  *nodes += boards.size();
  std::vector<int> child_values;
  const bool done =
      split > 1 ? evaluate_split(children, plies - 1, split - 1, &child_values, nodes, clock)
                : evaluate_on_device(children, plies - 1, &child_values, nodes, clock);
  if (!done) return false;
  values->assign(boards.size(), 0);
  for (std::size_t i = 0; i < boards.size(); ++i) {
    if (first_child[i] == first_child[i + 1]) {
      (*values)[i] = kalah_final_value(&boards[i]);
      continue;
    }
    BestValue best(boards[i].to_move);
    for (std::size_t c = first_child[i]; c < first_child[i + 1]; ++c) best.offer(child_values[c]);
    (*values)[i] = best.value();
  }
  return true;
}

bool SubtreeSearch::evaluate_on_device(const std::vector<KalahBoard>& boards, int plies,
                                       std::vector<int>* values, std::uint64_t* nodes,
                                       StopClock* clock) {
  const std::size_t group =
      std::min<std::size_t>(64, std::max<std::size_t>(1, kernel_.max_work_group_size()));
  return evaluate_in_chunks(
      runtime_, boards, clock, &cost_[plies], kFirstSubtreeChunk, values, nodes,
      [&](clf::Buffer<KalahBoard>& positions, std::size_t chunk, clf::Buffer<cl_int>& part_values,
          clf::Buffer<cl_uint>& part_nodes) {
        kernel_(clf::Range::linear(chunk, group), positions, cl_uint(chunk), cl_uint(plies),
                clf::write_only(part_values), clf::write_only(part_nodes));
      });
}

}  // namespace mankalah
