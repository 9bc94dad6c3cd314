#include "gpu_search.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>

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
// Launch chunks are sized to take about this long, so a timed search can stop between them.
constexpr double kChunkSeconds = 0.01;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

namespace {

// Runs `launch(offset, count)` over `total` items in chunks that should take about
// kChunkSeconds each at `*seconds_per_item` (measured here and updated), and returns false
// without launching more once `clock` has run out or the next item would not fit the time left.
bool launch_in_chunks(std::size_t total, StopClock* clock, double* seconds_per_item,
                      const std::function<void(std::size_t, std::size_t)>& launch) {
  std::size_t done = 0;
  while (done < total) {
    std::size_t chunk = total - done;
    if (clock != nullptr && clock->timed()) {
      if (clock->check()) return false;
      const double left = clock->remaining_ms() / 1000.0;
      if (*seconds_per_item > 0) {
        if (*seconds_per_item > left) return false;
        const double budget = std::min(kChunkSeconds, left / 2);
        chunk = std::min(chunk, std::max<std::size_t>(1, budget / *seconds_per_item));
      } else {
        chunk = std::min<std::size_t>(chunk, 64);  // a first measurement
      }
    }
    const auto start = std::chrono::steady_clock::now();
    launch(done, chunk);
    *seconds_per_item = seconds_since(start) / static_cast<double>(chunk);
    done += chunk;
  }
  return true;
}

}  // namespace

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
  return launch_in_chunks(
      boards.size(), clock, &seconds_per_board_[plies], [&](std::size_t offset, std::size_t chunk) {
        std::vector<KalahBoard> part(boards.begin() + offset, boards.begin() + offset + chunk);
        clf::Buffer<KalahBoard> frontier(runtime_, part);
        clf::Buffer<cl_int> part_values(runtime_, chunk);
        clf::Buffer<cl_uint> part_leaves(runtime_, chunk);
        kernel_(clf::Range::linear(chunk * group, group), frontier, cl_uint(chunk), cl_uint(plies),
                clf::write_only(part_values), clf::write_only(part_leaves),
                clf::Local<KalahBoard>{inner}, clf::Local<cl_int>{inner}, clf::Local<cl_uint>{1});
        const std::vector<cl_int>& got = part_values.host();
        const std::vector<cl_uint>& got_leaves = part_leaves.host();
        for (std::size_t i = 0; i < chunk; ++i) {
          (*values)[offset + i] = got[i];
          *leaves += got_leaves[i];
        }
      });
}

SubtreeSearch::SubtreeSearch(clf::Runtime& runtime)
    : runtime_(runtime),
      kernel_(runtime, clf::kernel_source("kernels/mankalah/subtree_alphabeta.cl"),
              "subtree_alphabeta") {}

bool SubtreeSearch::evaluate(const std::vector<KalahBoard>& boards, int plies,
                             std::vector<int>* values, std::uint64_t* nodes, StopClock* clock) {
  plies = std::clamp(plies, 0, kMaxPlies);
  values->assign(boards.size(), 0);
  const std::size_t group =
      std::min<std::size_t>(64, std::max<std::size_t>(1, kernel_.max_work_group_size()));
  return launch_in_chunks(
      boards.size(), clock, &seconds_per_board_[plies], [&](std::size_t offset, std::size_t chunk) {
        std::vector<KalahBoard> part(boards.begin() + offset, boards.begin() + offset + chunk);
        clf::Buffer<KalahBoard> positions(runtime_, part);
        clf::Buffer<cl_int> part_values(runtime_, chunk);
        clf::Buffer<cl_uint> part_nodes(runtime_, chunk);
        kernel_(clf::Range::linear(chunk, group), positions, cl_uint(chunk), cl_uint(plies),
                clf::write_only(part_values), clf::write_only(part_nodes));
        const std::vector<cl_int>& got = part_values.host();
        const std::vector<cl_uint>& got_nodes = part_nodes.host();
        for (std::size_t i = 0; i < chunk; ++i) {
          (*values)[offset + i] = got[i];
          *nodes += got_nodes[i];
        }
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
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, pit);
    collect(child, seq_left - 1, frontier);
  }
}

int LayeredSearch::reduce(const KalahBoard& board, int seq_left, const std::vector<int>& values,
                          std::size_t* next, int* move) {
  if (kalah_is_over(&board)) return kalah_final_value(&board);
  if (seq_left == 0) return values[(*next)++];
  const bool maximizing = board.to_move == KALAH_TOP;
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, pit);
    const int value = reduce(child, seq_left - 1, values, next, nullptr);
    if (maximizing ? value > best : value < best) {  // strict: the lowest index wins ties
      best = value;
      if (move != nullptr) *move = pit;
    }
  }
  return best;
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
  const bool maximizing = board.to_move == KALAH_TOP;
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, pit);
    const int value = pre_search(child, pre_left - 1, split, ply + 1, nullptr);
    if (aborted_) return 0;
    if (maximizing ? value > best : value < best) {
      best = value;
      if (move != nullptr) *move = pit;
    }
  }
  return best;
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
      const int first = kalah_first_pit(b.to_move);
      for (int pit = first; pit < first + KALAH_PITS; ++pit) {
        if (b.cells[pit] == 0) continue;
        KalahBoard child = b;
        kalah_sow(&child, pit);
        next.push_back(child);
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

// ---- hybrid ----

namespace {

// A cheap full-width value, the provisional stand-in for a queued horizon position.
int shallow_value(const KalahBoard& board, int depth) {
  if (depth == 0 || kalah_is_over(&board)) return kalah_leaf_value(&board);
  const bool maximizing = board.to_move == KALAH_TOP;
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, pit);
    const int value = shallow_value(child, depth - 1);
    best = maximizing ? std::max(best, value) : std::min(best, value);
  }
  return best;
}

// Plies of that stand-in: the heuristic alone misleads the passes (about twice as many of them
// on PoCL), two plies cost ~36 positions each.
constexpr int kProvisionalPlies = 2;

}  // namespace

HybridEngine::HybridEngine(clf::Runtime& runtime, std::size_t tt_megabytes, int gpu_plies)
    : gpu_(runtime), top_(tt_megabytes), gpu_plies_(gpu_plies) {
  // A first guess, to be tuned on the GPU machine: deep enough that each work-item has a few
  // thousand positions to search, shallow on CPU devices where work-items are not cheap.
  if (gpu_plies_ < 0) gpu_plies_ = runtime.device().type == clf::DeviceType::gpu ? 7 : 3;
  gpu_plies_ = std::min(gpu_plies_, SubtreeSearch::kMaxPlies);
}

HybridEngine::Key HybridEngine::key_of(const KalahBoard& board) {
  Key key;
  std::memcpy(&key.first, &board, 8);
  std::memcpy(&key.second, reinterpret_cast<const char*>(&board) + 8, 8);
  return key;
}

MinimaxOutcome HybridEngine::search_depth(const KalahBoard& board, int depth, StopClock* clock) {
  const int gpu_plies = std::max(0, std::min(gpu_plies_, depth - 1));
  if (known_.size() > (1u << 22)) known_.clear();
  gpu_leaves_ = 0;
  top_.set_leaf_evaluator([&](const KalahBoard& leaf) {
    KalahBoard keyed = leaf;
    keyed.mark = static_cast<cl_uchar>(gpu_plies);  // values of different depths never mix
    const Key key = key_of(keyed);
    const auto found = known_.find(key);
    if (found != known_.end()) return found->second;
    if (queued_.emplace(key, queue_.size()).second) queue_.push_back(leaf);
    // Provisional: this pass will be repeated.
    return shallow_value(leaf, std::min(kProvisionalPlies, gpu_plies));
  });
  MinimaxOutcome outcome;
  std::uint64_t nodes = 0;
  for (;;) {
    top_.new_generation();
    queue_.clear();
    queued_.clear();
    outcome = top_.search_depth(board, depth - gpu_plies, clock);
    nodes += outcome.nodes;
    if (outcome.aborted || queue_.empty()) break;
    std::vector<int> values;
    if (!gpu_.evaluate(queue_, gpu_plies, &values, &gpu_leaves_, clock)) {
      outcome.aborted = true;
      break;
    }
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      KalahBoard keyed = queue_[i];
      keyed.mark = static_cast<cl_uchar>(gpu_plies);
      known_[key_of(keyed)] = values[i];
    }
  }
  top_.set_leaf_evaluator(nullptr);
  outcome.nodes = nodes + gpu_leaves_;
  return outcome;
}

SearchResult HybridEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  return iterative_deepening(
      board, limits, [&](int depth, StopClock* clock) { return search_depth(board, depth, clock); },
      progress_);
}

}  // namespace mankalah
