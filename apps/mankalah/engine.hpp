// The engines' common interface: a search from a position under a depth and/or time limit that
// a caller (the terminal game, the window's search thread) can cancel.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "shared/mankalah/kalah.h"

namespace clf {
class Runtime;
}

namespace mankalah {

struct SearchLimits {
  int depth = 0;    // plies; 0: no depth limit (then time_ms must be set)
  int time_ms = 0;  // wall-clock budget for the whole search; 0: none (then depth must be set)
  const std::atomic<bool>* stop = nullptr;  // set by another thread to end the search early
};

struct SearchResult {
  int move = -1;  // cell index, -1 when the game is over
  int score = 0;  // TOP's point of view
  int depth = 0;  // the deepest fully searched depth the move comes from
  std::uint64_t nodes = 0;
  double ms = 0;
  std::vector<int> pv;  // as far as the engine knows it (gpu-layered: the root move only)
  bool exact = false;   // `score` is the game's proved margin (x 1000) with perfect play
  std::string note;     // what the engine knows, for status lines ("" when nothing to add)
};

// Called after each completed iteration of iterative deepening (for status lines).
using ProgressCallback = std::function<void(const SearchResult&)>;

class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Thread-compatible: one search at a time per engine object; run it off the UI thread.
  virtual SearchResult search(const KalahBoard& board, const SearchLimits& limits) = 0;
  void set_progress(ProgressCallback progress) { progress_ = std::move(progress); }

 protected:
  ProgressCallback progress_;
};

// A deadline and a cancel flag, checked cheaply and often by the searches.
class StopClock {
 public:
  explicit StopClock(const SearchLimits& limits);
  // True once the budget is spent or the caller asked to stop (checks the clock every 1024 calls).
  bool should_stop() {
    if (stopped_) return true;
    if ((++calls_ & 1023) != 0) return false;
    return check();
  }
  bool check();
  double elapsed_ms() const;
  double remaining_ms() const;  // infinity without a time limit
  bool timed() const { return time_ms_ > 0; }
  bool stopped() const { return stopped_; }

 private:
  std::chrono::steady_clock::time_point start_;
  int time_ms_;
  const std::atomic<bool>* stop_;
  std::uint32_t calls_ = 0;
  bool stopped_ = false;
};

// What engines need from outside: a lazily created OpenCL runtime for the GPU ones, and how
// the GPU search is split.
struct EngineOptions {
  std::function<clf::Runtime&()> runtime;
  // gpu-layered's LayerSplit (--pre, --seq, --par); -1: chosen from the device and depth.
  int layered_pre = -1;
  int layered_seq = -1;
  int layered_par = -1;
  std::size_t tt_megabytes = 64;  // alphabeta's transposition table
  // perfect: the endgame database folder ("": the default), the solver's threads (0: one per
  // core) and table.
  std::string database_dir;
  int solver_threads = 0;
  std::size_t solver_megabytes = 256;
};

// The databases the perfect engine needs before the game's default engine becomes it: levels
// 0..this many stones in play (a folder with fewer gives the solver too little to finish).
constexpr int kPerfectDatabaseStones = 16;
// "perfect" when `database_dir` ("" : the default folder) holds levels 0..kPerfectDatabaseStones,
// else "alphabeta": the engine `play` and the window use unless told otherwise.
std::string default_engine(const std::string& database_dir);

// The engine names --engine accepts.
const std::vector<std::string>& engine_names();
// Throws std::invalid_argument naming the engines there are when `name` is not one of them.
std::unique_ptr<Engine> make_engine(const std::string& name, const EngineOptions& options);

// The baseline: a go-again pit if any, else the first non-empty pit from the store end.
int bonzo_move(const KalahBoard& board);

// Legal moves of the side to move, lowest cell index first.
std::vector<int> legal_moves(const KalahBoard& board);

// A legal move and the position it leads to.
struct Child {
  int pit;
  KalahBoard board;
};

// The children of a position (none when the game is over), lowest cell first: what every
// full-width search loops over.
class Children {
 public:
  const Child* begin() const { return children_; }
  const Child* end() const { return children_ + count_; }
  int size() const { return count_; }

 private:
  friend Children children_of(const KalahBoard& board);
  Child children_[KALAH_PITS];
  int count_ = 0;
};

inline Children children_of(const KalahBoard& board) {
  Children children;
  const int first = kalah_first_pit(board.to_move);
  for (int pit = first; pit < first + KALAH_PITS; ++pit) {
    if (board.cells[pit] == 0) continue;
    Child& child = children.children_[children.count_++];
    child.pit = pit;
    child.board = board;
    kalah_sow(&child.board, pit);
  }
  return children;
}

}  // namespace mankalah
