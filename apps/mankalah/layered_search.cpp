#include <algorithm>

#include "apps/mankalah/gpu_search.hpp"
#include "apps/mankalah/minimax_core.hpp"

namespace mankalah {

namespace {

// Positions stored per work-group for `par` plies: levels 0 .. par-1 of the 6-ary tree.
std::size_t inner_nodes(int par) {
  std::size_t nodes = 0, level = 1;
  for (int l = 0; l < par; ++l, level *= KALAH_PITS) nodes += level;
  return nodes;
}

std::size_t local_bytes(int par) {
  return inner_nodes(par) * (sizeof(KalahBoard) + sizeof(cl_int)) + sizeof(cl_uint);
}

// Frontier batches stay under this many positions (6^8, 27 MB of boards at most).
constexpr int kMaxSeq = 8;
// Positions in a timed search's first launch, before anything is measured: a layered search
// gives each thousands of leaves (a first launch of 4096 took 2 s on PoCL).
constexpr std::size_t kFirstLayeredChunk = 64;

}  // namespace

LayeredSearch::LayeredSearch(clf::Runtime& runtime)
    : runtime_(runtime),
      kernel_(runtime, clf::kernel_source("kernels/mankalah/layered_minimax.cl"),
              "layered_minimax") {
  const std::uint64_t local = runtime.device().local_memory_bytes;
  max_par_ = 1;
  // Six plies would need 186 KB per group: no GPU has that, and on CPU devices the extra ply
  // only moves work from the host frontier to one slow group.
  while (max_par_ < 5 && local_bytes(max_par_ + 1) + 1024 <= local) ++max_par_;
}

std::size_t LayeredSearch::group_size(int /*par*/) const {
  // One size for every depth split: the last stored level of the deepest tree divided evenly,
  // and one local size per kernel means one specialisation on drivers that compile per size
  // (PoCL). Shallower trees leave work-items idle, but they are only the shallow depths.
  std::size_t last_level = 1;
  for (int l = 1; l < max_par_; ++l) last_level *= KALAH_PITS;
  const std::size_t limit = std::max<std::size_t>(kernel_.max_work_group_size(), 1);
  std::size_t best = 1;
  for (std::size_t d = 1; d <= std::min(last_level, limit); ++d) {
    if (last_level % d == 0) best = d;
  }
  return best;
}

LayerSplit LayeredSearch::choose_split(int depth, const LayerSplit& requested) const {
  LayerSplit split;
  const int cpu_at_least = depth >= 1 ? 1 : 0;  // the root's move is chosen on the host
  split.par = requested.par >= 0 ? std::min(requested.par, max_par_) : max_par_;
  split.par = std::max(0, std::min(split.par, depth - cpu_at_least));
  const int rest = depth - split.par;
  if (requested.seq >= 0) {
    split.seq = std::min(requested.seq, rest);
    split.pre = rest - split.seq;
  } else if (requested.pre >= 0) {
    split.pre = std::min(requested.pre, rest);
    split.seq = rest - split.pre;
  } else {
    split.seq = std::min(rest, kMaxSeq);
    split.pre = rest - split.seq;
  }
  // The root's move comes from whichever host stage holds the root.
  if (split.pre + split.seq == 0 && depth > 0) split.seq = 1;
  return split;
}

bool LayeredSearch::evaluate(const std::vector<KalahBoard>& boards, int plies,
                             std::vector<int>* values, std::uint64_t* leaves, StopClock* clock) {
  values->assign(boards.size(), 0);
  if (plies == 0) {
    for (std::size_t i = 0; i < boards.size(); ++i) (*values)[i] = kalah_leaf_value(&boards[i]);
    *leaves += boards.size();
    return true;
  }
  const std::size_t group = group_size(plies);
  const std::size_t inner = inner_nodes(plies);
  return evaluate_in_chunks(
      runtime_, boards, clock, &cost_[plies], kFirstLayeredChunk, values, leaves,
      [&](clf::Buffer<KalahBoard>& frontier, std::size_t chunk, clf::Buffer<cl_int>& part_values,
          clf::Buffer<cl_uint>& part_leaves) {
        kernel_(clf::Range::linear(chunk * group, group), frontier, cl_uint(chunk), cl_uint(plies),
                clf::write_only(part_values), clf::write_only(part_leaves),
                clf::Local<KalahBoard>{inner}, clf::Local<cl_int>{inner}, clf::Local<cl_uint>{1});
      });
}

void LayeredSearch::collect(const KalahBoard& board, int seq_left,
                            std::vector<KalahBoard>* frontier) {
  // A frontier of 6^8 positions takes tens of milliseconds to build: a timed search must be
  // able to stop in the middle of it, not only between device launches.
  if (aborted_ || (clock_ != nullptr && clock_->should_stop())) {
    aborted_ = true;
    return;
  }
  ++nodes_;
  if (kalah_is_over(&board)) return;
  if (seq_left == 0) {
    frontier->push_back(board);
    return;
  }
  for (const Child& child : children_of(board)) {
    collect(child.board, seq_left - 1, frontier);
  }
}

int LayeredSearch::reduce(const KalahBoard& board, int seq_left, const std::vector<int>& values,
                          std::size_t* next, int* move) {
  if (kalah_is_over(&board)) return kalah_final_value(&board);
  if (seq_left == 0) return values[(*next)++];
  return best_over_children(
      board,
      [&](const KalahBoard& child) { return reduce(child, seq_left - 1, values, next, nullptr); },
      [&](const Child& child) {
        if (move != nullptr) *move = child.pit;
      });
}

int LayeredSearch::pre_search(const KalahBoard& board, int pre_left, const LayerSplit& split,
                              int ply, int* move) {
  if (aborted_) return 0;
  if (kalah_is_over(&board)) {
    ++nodes_;
    return kalah_final_value(&board);
  }
  if (pre_left == 0) {
    std::vector<KalahBoard> frontier;
    collect(board, split.seq, &frontier);
    if (aborted_) return 0;
    std::vector<int> values;
    if (!evaluate(frontier, split.par, &values, &nodes_, clock_)) {
      aborted_ = true;
      return 0;
    }
    std::size_t next = 0;
    return reduce(board, split.seq, values, &next, move);
  }
  ++nodes_;
  return best_over_children(
      board,
      [&](const KalahBoard& child) {
        return pre_search(child, pre_left - 1, split, ply + 1, nullptr);
      },
      [&](const Child& child) {
        if (move != nullptr) *move = child.pit;
      },
      [&] { return aborted_; });
}

MinimaxOutcome LayeredSearch::search_depth(const KalahBoard& board, int depth,
                                           const LayerSplit& requested, StopClock* clock) {
  const LayerSplit split = choose_split(depth, requested);
  clock_ = clock;
  aborted_ = false;
  nodes_ = 0;
  MinimaxOutcome outcome;
  outcome.value = pre_search(board, split.pre, split, 0, &outcome.move);
  outcome.nodes = nodes_;
  outcome.aborted = aborted_;
  if (outcome.move >= 0) outcome.pv = {outcome.move};
  return outcome;
}

std::uint64_t LayeredSearch::perft(const KalahBoard& board, int depth, int par) {
  LayerSplit requested;
  requested.par = par;
  requested.seq = kMaxSeq;
  LayerSplit split = choose_split(depth, requested);
  if (depth == 0) return 1;
  // perft has no root move to choose, so the device may take every ply but the host frontier's.
  if (split.pre + split.seq + split.par < depth) split.pre = depth - split.seq - split.par;
  std::uint64_t leaves = 0;
  std::vector<KalahBoard> level = {board};
  for (int ply = 0; ply < split.pre + split.seq; ++ply) {
    std::vector<KalahBoard> next;
    for (const KalahBoard& b : level) {
      if (kalah_is_over(&b)) {
        ++leaves;
        continue;
      }
      for (const Child& child : children_of(b)) {
        next.push_back(child.board);
      }
    }
    level.swap(next);
  }
  std::vector<int> values;
  evaluate(level, split.par, &values, &leaves, nullptr);
  return leaves;
}

SearchResult GpuLayeredEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  return iterative_deepening(
      board, limits,
      [&](int depth, StopClock* clock) {
        return search_.search_depth(board, depth, split_, clock);
      },
      progress_);
}

}  // namespace mankalah
