#include "apps/mankalah/cpu_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "apps/mankalah/minimax_core.hpp"
#include "framework/stopwatch.hpp"

namespace mankalah {

StopClock::StopClock(const SearchLimits& limits)
    : start_(std::chrono::steady_clock::now()), time_ms_(limits.time_ms), stop_(limits.stop) {}

bool StopClock::check() {
  if (stop_ != nullptr && stop_->load(std::memory_order_relaxed)) stopped_ = true;
  if (time_ms_ > 0 && elapsed_ms() >= time_ms_) stopped_ = true;
  return stopped_;
}

double StopClock::elapsed_ms() const { return clf::milliseconds_since(start_); }

double StopClock::remaining_ms() const {
  if (time_ms_ <= 0) return std::numeric_limits<double>::infinity();
  return time_ms_ - elapsed_ms();
}

std::vector<int> legal_moves(const KalahBoard& board) {
  std::vector<int> moves;
  if (kalah_is_over(&board)) return moves;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] > 0) moves.push_back(pit);
  }
  return moves;
}

int bonzo_move(const KalahBoard& board) {
  if (kalah_is_over(&board)) return -1;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first + KALAH_PITS - 1; pit >= first; --pit) {
    KalahBoard after = board;
    if (board.cells[pit] > 0 && (kalah_play(&after, pit) & KALAH_RESULT_EXTRA_TURN)) return pit;
  }
  for (int pit = first + KALAH_PITS - 1; pit >= first; --pit) {
    if (board.cells[pit] > 0) return pit;
  }
  return -1;
}

namespace {

constexpr int kMaxPly = 128;

// Minimax with a triangular principal-variation table.
struct MinimaxSearcher {
  StopClock* clock = nullptr;
  std::uint64_t nodes = 0;
  bool aborted = false;
  int pv[kMaxPly][kMaxPly];
  int pv_length[kMaxPly];

  int run(const KalahBoard& board, int depth, int ply) {
    ++nodes;
    pv_length[ply] = ply;
    if (clock != nullptr && clock->should_stop()) {
      aborted = true;
      return 0;
    }
    if (kalah_is_over(&board)) return kalah_final_value(&board);
    if (depth == 0) return kalah_heuristic(&board);
    BestValue best(board.to_move);
    for (const Child& child : children_of(board)) {
      const int value = run(child.board, depth - 1, ply + 1);
      if (aborted) return 0;
      if (best.offer(value)) {
        pv[ply][ply] = child.pit;
        for (int i = ply + 1; i < pv_length[ply + 1]; ++i) pv[ply][i] = pv[ply + 1][i];
        pv_length[ply] = std::max(pv_length[ply + 1], ply + 1);
      }
    }
    return best.value();
  }
};

std::uint64_t perft_recursive(const KalahBoard& board, int depth) {
  if (depth == 0 || kalah_is_over(&board)) return 1;
  std::uint64_t leaves = 0;
  for (const Child& child : children_of(board)) {
    leaves += perft_recursive(child.board, depth - 1);
  }
  return leaves;
}

}  // namespace

MinimaxOutcome minimax(const KalahBoard& board, int depth, StopClock* clock) {
  auto searcher = std::make_unique<MinimaxSearcher>();
  searcher->clock = clock;
  depth = std::min(depth, kMaxPly - 1);
  MinimaxOutcome outcome;
  outcome.value = searcher->run(board, depth, 0);
  outcome.nodes = searcher->nodes;
  outcome.aborted = searcher->aborted;
  if (!outcome.aborted) {
    outcome.pv.assign(searcher->pv[0], searcher->pv[0] + searcher->pv_length[0]);
    if (!outcome.pv.empty()) outcome.move = outcome.pv[0];
  }
  return outcome;
}

std::uint64_t perft(const KalahBoard& board, int depth) { return perft_recursive(board, depth); }

SearchResult iterative_deepening(const KalahBoard& board, const SearchLimits& limits,
                                 const std::function<MinimaxOutcome(int, StopClock*)>& one_depth,
                                 const ProgressCallback& progress) {
  StopClock clock(limits);
  SearchResult result;
  if (kalah_is_over(&board)) {
    result.score = kalah_final_value(&board);
    return result;
  }
  std::vector<int> moves = legal_moves(board);
  result.move = moves.front();  // a legal answer even if depth 1 cannot finish
  const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 2) : kMaxPly - 2;
  double previous_ms = 0;
  double growth = 4.0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    const double started = clock.elapsed_ms();
    if (depth > 1 && clock.timed()) {
      // Every search stops within milliseconds of the deadline, so a depth that might finish is
      // tried; one predicted to need several times the time left is not started.
      if (clock.check() || previous_ms * growth > 3 * clock.remaining_ms()) break;
    }
    // Depth 1 always completes, so there is always a searched move.
    const MinimaxOutcome outcome = one_depth(depth, depth == 1 ? nullptr : &clock);
    result.nodes += outcome.nodes;
    if (outcome.aborted) break;
    result.move = outcome.move;
    result.score = outcome.value;
    result.depth = depth;
    result.pv = outcome.pv;
    result.ms = clock.elapsed_ms();
    if (progress) progress(result);
    const double took = clock.elapsed_ms() - started;
    if (previous_ms > 0.05) growth = std::clamp(took / previous_ms, 1.5, 8.0);
    previous_ms = took;
    // Every line ends before this depth: deeper searches give the same answer.
    if (std::abs(result.score) >= KALAH_WIN_SCALE && depth >= 2 * KALAH_STONES) break;
  }
  result.ms = clock.elapsed_ms();
  return result;
}

SearchResult MinimaxEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  return iterative_deepening(
      board, limits, [&](int depth, StopClock* clock) { return minimax(board, depth, clock); },
      progress_);
}

SearchResult BonzoEngine::search(const KalahBoard& board, const SearchLimits&) {
  const auto start = std::chrono::steady_clock::now();
  SearchResult result;
  result.move = bonzo_move(board);
  result.nodes = 1;
  if (result.move >= 0) {
    KalahBoard after = board;
    kalah_play(&after, result.move);
    result.score = kalah_leaf_value(&after);
    result.pv = {result.move};
  } else {
    result.score = kalah_final_value(&board);
  }
  result.ms = clf::milliseconds_since(start);
  return result;
}

// ---- alpha-beta ----

namespace {

// A position's 16 bytes as two words (the transposition table's key), and their hash.
struct PositionKey {
  std::uint64_t key0, key1;
};

PositionKey position_key(const KalahBoard& board) {
  static_assert(sizeof(KalahBoard) == 16, "a position key is the board's 16 bytes");
  PositionKey key;
  std::memcpy(&key.key0, &board, 8);
  std::memcpy(&key.key1, reinterpret_cast<const char*>(&board) + 8, 8);
  return key;
}

std::uint64_t position_hash(const PositionKey& key) {
  std::uint64_t h = key.key0 * 0x9E3779B97F4A7C15ull ^ (key.key1 + 0x632BE59BD9B4E019ull);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 32;
  return h;
}

}  // namespace

AlphaBeta::AlphaBeta(std::size_t tt_megabytes) {
  // Checked before the shift: past 2^44 MB it overflows and the loop below may never end.
  if (tt_megabytes > kMaxMegabytes) {
    throw std::invalid_argument("alphabeta's transposition table: " + std::to_string(tt_megabytes) +
                                " MB is more than the most it takes, " +
                                std::to_string(kMaxMegabytes) + " MB (1 TiB)");
  }
  std::size_t entries = 1;
  while (entries * 2 * sizeof(Entry) <= std::max<std::size_t>(tt_megabytes, 1) << 20) {
    entries *= 2;
  }
  table_.resize(entries);
}

void AlphaBeta::clear() { std::fill(table_.begin(), table_.end(), Entry{}); }

AlphaBeta::Entry* AlphaBeta::probe(const KalahBoard& board, std::uint64_t* key0,
                                   std::uint64_t* key1) {
  KalahBoard keyed = board;
  keyed.mark = 0;
  const PositionKey key = position_key(keyed);
  *key0 = key.key0;
  *key1 = key.key1;
  return &table_[position_hash(key) & (table_.size() - 1)];
}

int AlphaBeta::order_moves(const KalahBoard& board, int tt_move, int* moves) const {
  const int first = kalah_first_pit(board.to_move);
  int n = 0;
  if (tt_move >= first && tt_move < first + KALAH_PITS && board.cells[tt_move] > 0) {
    moves[n++] = tt_move;
  }
  // Then go-again moves (nearest the store first: playing them keeps the others' counts), then
  // the rest by index.
  for (int slot = 0; slot < KALAH_ORDER_SLOTS; ++slot) {
    const int pit = kalah_ordered_pit(&board, slot);
    if (pit >= 0 && pit != tt_move) moves[n++] = pit;
  }
  return n;
}

int AlphaBeta::search(const KalahBoard& board, int depth, int alpha, int beta, int ply) {
  ++nodes_;
  pv_length_[ply] = ply;
  if (clock_ != nullptr && clock_->should_stop()) {
    aborted_ = true;
    return 0;
  }
  if (kalah_is_over(&board)) return kalah_final_value(&board);
  if (int exact = 0; ply > 0 && exact_ && exact_(board, &exact)) return exact;
  if (depth == 0) return kalah_heuristic(&board);
  std::uint64_t key0 = 0, key1 = 0;
  Entry* entry = probe(board, &key0, &key1);
  int tt_move = -1;
  if (entry->key0 == key0 && entry->key1 == key1) {
    tt_move = entry->move;
    // Only values of the same remaining depth: deeper ones would differ from fixed-depth minimax.
    if (ply > 0 && entry->depth == depth) {
      if (entry->bound == Bound::exact) return entry->value;
      if (entry->bound == Bound::lower && entry->value >= beta) return entry->value;
      if (entry->bound == Bound::upper && entry->value <= alpha) return entry->value;
    }
  }
  int moves[KALAH_PITS];
  const int count = order_moves(board, tt_move, moves);
  BestValue best(board.to_move);
  const bool maximizing = best.maximizing();
  const int alpha_in = alpha, beta_in = beta;
  int best_move = -1;
  for (int i = 0; i < count; ++i) {
    const int pit = moves[i];
    KalahBoard child = board;
    kalah_sow(&child, pit);
    // At the root a lower-index move must win ties, so its window admits the current best.
    const bool admit_tie = ply == 0 && best_move >= 0 && pit < best_move;
    int value;
    if (ply > 0 && i > 0 && beta - alpha > 1) {
      // Principal variation search: later moves are first only tested against the bound the
      // first one set (a null window), and searched in full only when they beat it.
      value = maximizing ? search(child, depth - 1, alpha, alpha + 1, ply + 1)
                         : search(child, depth - 1, beta - 1, beta, ply + 1);
      if (!aborted_ && value > alpha && value < beta) {
        value = search(child, depth - 1, alpha, beta, ply + 1);
      }
    } else {
      value = search(child, depth - 1, admit_tie && maximizing ? alpha - 1 : alpha,
                     admit_tie && !maximizing ? beta + 1 : beta, ply + 1);
    }
    if (aborted_) return 0;
    if (best.offer(value, admit_tie)) {
      best_move = pit;
      pv_[ply][ply] = pit;
      for (int j = ply + 1; j < pv_length_[ply + 1]; ++j) pv_[ply][j] = pv_[ply + 1][j];
      pv_length_[ply] = std::max(pv_length_[ply + 1], ply + 1);
    }
    if (maximizing) {
      alpha = std::max(alpha, best.value());
    } else {
      beta = std::min(beta, best.value());
    }
    if (alpha >= beta) break;
  }
  entry->key0 = key0;
  entry->key1 = key1;
  entry->value = best.value();
  entry->depth = static_cast<std::int8_t>(depth);
  entry->bound = best.value() <= alpha_in  ? Bound::upper
                 : best.value() >= beta_in ? Bound::lower
                                           : Bound::exact;
  entry->move = static_cast<std::int8_t>(best_move);
  return best.value();
}

MinimaxOutcome AlphaBeta::search_depth(const KalahBoard& board, int depth, StopClock* clock) {
  clock_ = clock;
  nodes_ = 0;
  aborted_ = false;
  MinimaxOutcome outcome;
  depth = std::min(depth, kMaxPly - 2);
  outcome.value = search(board, depth, -KALAH_INFINITY, KALAH_INFINITY, 0);
  outcome.nodes = nodes_;
  outcome.aborted = aborted_;
  if (!aborted_) {
    outcome.pv.assign(pv_[0], pv_[0] + pv_length_[0]);
    if (!outcome.pv.empty()) outcome.move = outcome.pv[0];
  }
  return outcome;
}

SearchResult AlphaBetaEngine::search(const KalahBoard& board, const SearchLimits& limits) {
  return iterative_deepening(
      board, limits,
      [&](int depth, StopClock* clock) { return search_.search_depth(board, depth, clock); },
      progress_);
}

}  // namespace mankalah
