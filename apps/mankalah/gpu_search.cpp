#include "apps/mankalah/gpu_search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
// Positions in a timed search's first launch, before anything is measured: a layered search
// gives each thousands of leaves (a first launch of 4096 took 2 s on PoCL), a subtree search
// tens to hundreds of positions.
constexpr std::size_t kFirstLayeredChunk = 64;
constexpr std::size_t kFirstSubtreeChunk = 4096;
// Launches of at least this many positions show the cost per position; smaller ones mostly
// their fixed cost.
constexpr std::size_t kShowsPerItemCost = 1024;

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
  for (LaunchCost& cost : cost_) cost.guess_from_small = true;
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
// kChunkSeconds each (at least a few times a launch's fixed cost) by `cost` (measured here and
// updated), and returns false without launching more once `clock` has run out or the next chunk
// would not fit the time left.
bool launch_in_chunks(std::size_t total, StopClock* clock, LaunchCost* cost,
                      std::size_t first_chunk,
                      const std::function<void(std::size_t, std::size_t)>& launch) {
  std::size_t done = 0;
  while (done < total) {
    std::size_t chunk = total - done;
    if (clock != nullptr && clock->timed()) {
      if (clock->check()) return false;
      const double left = clock->remaining_ms() / 1000.0;
      if (!cost->measured()) {
        chunk = std::min(chunk, first_chunk);
      } else {
        if (cost->predict(1) > left) {
          // Not launched, so not measured again: forget part of the estimate, so that one slow
          // launch (a driver hiccup) cannot keep every later search from using the device.
          cost->fixed_s *= 0.5;
          return false;
        }
        const double budget = std::min(left, std::max(kChunkSeconds, 4 * cost->fixed_s));
        chunk = std::clamp<std::size_t>(cost->items_within(budget), 1, chunk);
      }
    }
    const auto start = std::chrono::steady_clock::now();
    launch(done, chunk);
    cost->record(chunk, seconds_since(start));
    done += chunk;
  }
  return true;
}

}  // namespace

void LaunchCost::record(std::size_t items, double seconds) {
  if (fixed_s <= 0 || seconds < fixed_s) fixed_s = seconds;
  if (items >= kShowsPerItemCost) {
    per_item_s = std::max(seconds - fixed_s, 0.0) / static_cast<double>(items);
  } else if (guess_from_small && per_item_s <= 0) {
    per_item_s = seconds / static_cast<double>(items);
  }
}

std::size_t LaunchCost::items_within(double seconds) const {
  if (per_item_s <= 0) return seconds > fixed_s ? SIZE_MAX : 1;
  return static_cast<std::size_t>(std::max(seconds - fixed_s, 0.0) / per_item_s);
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
  return launch_in_chunks(
      boards.size(), clock, &cost_[plies], kFirstLayeredChunk,
      [&](std::size_t offset, std::size_t chunk) {
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
    const bool maximizing = boards[i].to_move == KALAH_TOP;
    int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
    for (std::size_t c = first_child[i]; c < first_child[i + 1]; ++c) {
      best = maximizing ? std::max(best, child_values[c]) : std::min(best, child_values[c]);
    }
    (*values)[i] = best;
  }
  return true;
}

bool SubtreeSearch::evaluate_on_device(const std::vector<KalahBoard>& boards, int plies,
                                       std::vector<int>* values, std::uint64_t* nodes,
                                       StopClock* clock) {
  values->assign(boards.size(), 0);
  const std::size_t group =
      std::min<std::size_t>(64, std::max<std::size_t>(1, kernel_.max_work_group_size()));
  return launch_in_chunks(
      boards.size(), clock, &cost_[plies], kFirstSubtreeChunk,
      [&](std::size_t offset, std::size_t chunk) {
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
  for (const Child& child : children_of(board)) {
    collect(child.board, seq_left - 1, frontier);
  }
}

int LayeredSearch::reduce(const KalahBoard& board, int seq_left, const std::vector<int>& values,
                          std::size_t* next, int* move) {
  if (kalah_is_over(&board)) return kalah_final_value(&board);
  if (seq_left == 0) return values[(*next)++];
  const bool maximizing = board.to_move == KALAH_TOP;
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  for (const Child& child : children_of(board)) {
    const int value = reduce(child.board, seq_left - 1, values, next, nullptr);
    if (maximizing ? value > best : value < best) {  // strict: the lowest index wins ties
      best = value;
      if (move != nullptr) *move = child.pit;
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
  for (const Child& child : children_of(board)) {
    const int value = pre_search(child.board, pre_left - 1, split, ply + 1, nullptr);
    if (aborted_) return 0;
    if (maximizing ? value > best : value < best) {
      best = value;
      if (move != nullptr) *move = child.pit;
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

// ---- hybrid ----

namespace {

// A cheap full-width value, the provisional stand-in for a queued horizon position.
int shallow_value(const KalahBoard& board, int depth) {
  if (depth == 0 || kalah_is_over(&board)) return kalah_leaf_value(&board);
  const bool maximizing = board.to_move == KALAH_TOP;
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  for (const Child& child : children_of(board)) {
    const int value = shallow_value(child.board, depth - 1);
    best = maximizing ? std::max(best, value) : std::min(best, value);
  }
  return best;
}

// Plies of that stand-in. Measured on the H200 (docs/mankalah.md): 0, 1 and 2 plies need about
// as many passes; one ply is the cheapest on the host.
constexpr int kProvisionalPlies = 1;
// Iterative deepening stays on the CPU until a depth takes this long: shallow depths take
// less time there than one device round trip per pass.
constexpr double kCpuOnlyDepthMs = 15;
// The table of known device values is dropped when it holds this many positions (96 MB), and a
// pass queues at most kMaxQueued.
constexpr std::size_t kMaxKnown = std::size_t{1} << 21;
constexpr std::size_t kMaxQueued = std::size_t{1} << 20;

}  // namespace

HybridEngine::HybridEngine(clf::Runtime& runtime, std::size_t tt_megabytes, int gpu_plies,
                           int split_plies)
    : gpu_(runtime, split_plies >= 0 ? split_plies
                                     : (runtime.device().type == clf::DeviceType::gpu ? 1 : 0)),
      top_(tt_megabytes),
      cpu_(std::max<std::size_t>(tt_megabytes / 8, 1)),
      gpu_plies_(gpu_plies),
      known_(kMaxKnown),
      queued_(kMaxQueued) {
  // Tuned on the H200 (docs/mankalah.md): 6 device plies, the first split on the host. CPU
  // devices run work-items no faster than the host, so they get short subtrees.
  if (gpu_plies_ < 0) gpu_plies_ = runtime.device().type == clf::DeviceType::gpu ? 6 : 3;
  gpu_plies_ = std::min(gpu_plies_, SubtreeSearch::kMaxPlies);
}

KalahBoard HybridEngine::keyed(const KalahBoard& board, int gpu_plies) {
  KalahBoard keyed = board;
  keyed.mark = static_cast<cl_uchar>(gpu_plies);
  return keyed;
}

void HybridEngine::queue_unknown(const KalahBoard& board, int gpu_plies) {
  // A full queue table queues no more this pass: the positions left out stay provisional and
  // the next pass meets them again.
  if (queued_.full()) return;
  if (queued_.insert(keyed(board, gpu_plies), 0)) queue_.push_back(board);
}

bool HybridEngine::evaluate_queue(int gpu_plies, StopClock* clock, Stats* stats) {
  std::vector<int> values(queue_.size());
  const auto start = std::chrono::steady_clock::now();
  // A few positions cost less on the host than one device round trip.
  const double device_s = gpu_.predict_seconds(queue_.size(), gpu_plies);
  const bool on_host = cpu_seconds_per_position_ > 0
                           ? cpu_seconds_per_position_ * queue_.size() < device_s
                           : queue_.size() <= 4;
  if (on_host) {
    for (std::size_t i = 0; i < queue_.size(); ++i) {
      const MinimaxOutcome outcome = cpu_.search_depth(queue_[i], gpu_plies, clock);
      if (outcome.aborted) return false;
      values[i] = outcome.value;
      stats->horizon_nodes += outcome.nodes;
    }
    const double seconds = seconds_since(start);
    cpu_seconds_per_position_ = seconds / queue_.size();
    stats->host_valued += queue_.size();
    stats->host_valued_ms += seconds * 1e3;
  } else {
    if (!gpu_.evaluate(queue_, gpu_plies, &values, &stats->horizon_nodes, clock)) return false;
    stats->device_valued += queue_.size();
    stats->device_ms += seconds_since(start) * 1e3;
  }
  for (std::size_t i = 0; i < queue_.size(); ++i) {
    if (known_.full()) known_.clear();
    known_.insert(keyed(queue_[i], gpu_plies), values[i]);
  }
  queue_.clear();
  queued_.clear();
  return true;
}

MinimaxOutcome HybridEngine::search_depth(const KalahBoard& board, int depth, StopClock* clock) {
  const int gpu_plies = std::max(0, std::min(gpu_plies_, depth - 1));
  // Stored values are exact values of (remaining + gpu_plies) plies: they stay valid from one
  // depth, pass and move to the next as long as gpu_plies does.
  if (gpu_plies != table_gpu_plies_) {
    top_.new_generation();
    table_gpu_plies_ = gpu_plies;
  }
  Stats stats;
  const auto start = std::chrono::steady_clock::now();
  queue_.clear();
  queued_.clear();
  top_.set_leaf_evaluator([&](const KalahBoard& leaf, bool* provisional) {
    if (const int* known = known_.find(keyed(leaf, gpu_plies))) return *known;
    queue_unknown(leaf, gpu_plies);
    *provisional = true;  // this pass will be repeated
    return shallow_value(leaf, std::min(kProvisionalPlies, gpu_plies));
  });
  MinimaxOutcome outcome;
  for (;;) {
    const auto pass_start = std::chrono::steady_clock::now();
    outcome = top_.search_depth(board, depth - gpu_plies, clock);
    stats.search_ms += seconds_since(pass_start) * 1e3;
    ++stats.passes;
    stats.search_nodes += outcome.nodes;
    if (outcome.aborted || queue_.empty()) break;
    if (!evaluate_queue(gpu_plies, clock, &stats)) {
      outcome.aborted = true;
      break;
    }
  }
  top_.set_leaf_evaluator(nullptr);
  if (std::getenv("MANKALAH_TRACE") != nullptr) {
    std::fprintf(
        stderr,
        "hybrid depth %d = %d host + %d device plies: %d passes, %zu positions valued "
        "on the device (%.1f ms), %zu on the host (%.1f ms); the passes' host search %.1f ms "
        "(%.2f M positions); %.1f ms%s\n",
        depth, depth - gpu_plies, gpu_plies, stats.passes, stats.device_valued, stats.device_ms,
        stats.host_valued, stats.host_valued_ms, stats.search_ms,
        static_cast<double>(stats.search_nodes) * 1e-6, seconds_since(start) * 1e3,
        outcome.aborted ? ", aborted" : "");
  }
  outcome.nodes = stats.search_nodes + stats.horizon_nodes;
  return outcome;
}

SearchResult HybridEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  // The shallow depths run on the host with the same table (heuristic leaves: its values mean
  // something else, so they are forgotten when the device takes over, its moves are kept and
  // order the device passes).
  top_.new_generation();
  table_gpu_plies_ = -1;
  bool host_only = true;
  return iterative_deepening(
      board, limits,
      [&](int depth, StopClock* clock) {
        if (!host_only) return search_depth(board, depth, clock);
        const auto start = std::chrono::steady_clock::now();
        MinimaxOutcome outcome = top_.search_depth(board, depth, clock);
        host_only = seconds_since(start) * 1e3 < kCpuOnlyDepthMs;
        return outcome;
      },
      progress_);
}

}  // namespace mankalah
