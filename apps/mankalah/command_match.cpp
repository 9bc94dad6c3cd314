// cl-mankalah match: two engines play each other from random openings, each opening once with
// each colour assignment, games spread over threads; prints the score and its Elo interval.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "apps/mankalah/command_support.hpp"
#include "apps/mankalah/commands.hpp"
#include "apps/mankalah/game.hpp"

namespace mankalah {

namespace {

double elo_of(double score) { return -400.0 * std::log10(1.0 / score - 1.0) + 0.0; }  // no -0.0

// One game's outcome: TOP's final margin, and the margin each side's engine proved it could
// force (for its own side) the first time it reported an exact value.
struct GameOutcome {
  int top_margin = 0;
  std::optional<int> proved[2];  // by side
  int proved_ply[2] = {0, 0};    // the ply of the first proof
};

GameOutcome play_game(KalahBoard board, Engine& top, Engine& bottom, const SearchLimits& top_limits,
                      const SearchLimits& bottom_limits) {
  GameOutcome outcome;
  for (int ply = 0; !kalah_is_over(&board); ++ply) {
    const int side = board.to_move;
    Engine& mover = side == KALAH_TOP ? top : bottom;
    const SearchResult result = mover.search(board, side == KALAH_TOP ? top_limits : bottom_limits);
    if (result.exact && !outcome.proved[side]) {
      const int top_margin = result.score / KALAH_WIN_SCALE;
      outcome.proved[side] = side == KALAH_TOP ? top_margin : -top_margin;
      outcome.proved_ply[side] = ply;
    }
    if (kalah_play(&board, result.move) == KALAH_ILLEGAL) {
      throw std::runtime_error("engine " + mover.name() + " chose an illegal move");
    }
  }
  outcome.top_margin = kalah_score(&board, KALAH_TOP) - kalah_score(&board, KALAH_BOTTOM);
  for (int side = 0; side < 2; ++side) {
    const int margin = side == KALAH_TOP ? outcome.top_margin : -outcome.top_margin;
    if (outcome.proved[side] && margin < *outcome.proved[side]) {
      Engine& engine = side == KALAH_TOP ? top : bottom;
      throw std::runtime_error("engine " + engine.name() + " proved it could end " +
                               std::to_string(*outcome.proved[side]) + " ahead as " +
                               side_name(side) + " but the game ended " + std::to_string(margin));
    }
  }
  return outcome;
}

// A random opening that leaves the game open (play_random_plies plays no move that ends it) per
// pair of games; drawn before any is played, so the games do not depend on --jobs.
std::vector<KalahBoard> draw_openings(const MatchOptions& options) {
  std::mt19937 rng(options.seed);
  std::vector<KalahBoard> openings;
  for (int game = 0; game < options.games; game += 2) {
    openings.push_back(play_random_plies(kalah_start(KALAH_BOTTOM), options.opening_plies, rng));
  }
  return openings;
}

// Games played at once share the cores: each perfect engine's solver gets its part of them.
EngineOptions shared_cores(EngineOptions options, int jobs) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.solver_threads = std::max(1, cores / jobs);
  return options;
}

// The games of a match, played by `jobs` threads, each with engines of its own (they keep
// tables between moves); engines on a device share its runtime.
class MatchPlayer {
 public:
  MatchPlayer(const MatchOptions& options, std::ostream& err) : options_(options), err_(err) {}
  // Makes the engines; the error message when one cannot be made.
  std::string make_engines(int jobs);
  // A's margin per game; throws the first game's failure.
  std::vector<int> play(const std::vector<KalahBoard>& openings);
  const Engine& a() const { return *engines_a_[0]; }
  const Engine& b() const { return *engines_b_[0]; }
  // Games where A proved a margin (and so, the match going on, kept it).
  int a_proved_games() const { return a_proved_games_; }

 private:
  void work(int job, const std::vector<KalahBoard>& openings);
  void report(int game, const Engine& a, bool a_is_top, int margin, const GameOutcome& outcome);

  const MatchOptions& options_;
  std::ostream& err_;
  std::vector<std::unique_ptr<Engine>> engines_a_, engines_b_;
  std::vector<int> margins_;
  std::atomic<int> next_game_{0};
  std::atomic<int> a_proved_games_{0};
  std::mutex report_mutex_;
  int reported_ = 0;
  std::string failure_;
};

std::string MatchPlayer::make_engines(int jobs) {
  try {
    for (int job = 0; job < jobs; ++job) {
      engines_a_.push_back(
          make_engine(options_.a.engine, shared_cores(options_.a.options(), jobs)));
      engines_b_.push_back(
          make_engine(options_.b.engine, shared_cores(options_.b.options(), jobs)));
    }
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

std::vector<int> MatchPlayer::play(const std::vector<KalahBoard>& openings) {
  margins_.assign(options_.games, 0);
  std::vector<std::thread> workers;
  for (int job = 1; job < static_cast<int>(engines_a_.size()); ++job) {
    workers.emplace_back([this, job, &openings] { work(job, openings); });
  }
  work(0, openings);
  for (std::thread& worker : workers) worker.join();
  if (!failure_.empty()) throw std::runtime_error(failure_);
  return margins_;
}

void MatchPlayer::work(int job, const std::vector<KalahBoard>& openings) {
  Engine& a = *engines_a_[job];
  Engine& b = *engines_b_[job];
  for (int game = next_game_++; game < options_.games; game = next_game_++) {
    const KalahBoard& opening = openings[game / 2];
    const bool a_is_top = game % 2 == 0;
    int margin = 0;
    const SearchLimits a_limits = options_.a.limits(), b_limits = options_.b.limits();
    GameOutcome outcome;
    try {
      outcome = a_is_top ? play_game(opening, a, b, a_limits, b_limits)
                         : play_game(opening, b, a, b_limits, a_limits);
      margin = a_is_top ? outcome.top_margin : -outcome.top_margin;
      const std::optional<int>& proved = outcome.proved[a_is_top ? KALAH_TOP : KALAH_BOTTOM];
      if (proved) ++a_proved_games_;
    } catch (const std::exception& error) {
      std::lock_guard<std::mutex> lock(report_mutex_);
      failure_ = error.what();
      next_game_ = options_.games;
      return;
    }
    margins_[game] = margin;
    report(game, a, a_is_top, margin, outcome);
  }
}

void MatchPlayer::report(int game, const Engine& a, bool a_is_top, int margin,
                         const GameOutcome& outcome) {
  std::lock_guard<std::mutex> lock(report_mutex_);
  err_ << "game " << ++reported_ << "/" << options_.games << " (#" << game + 1 << "): " << a.name()
       << " (" << (a_is_top ? "TOP" : "BOTTOM") << ") "
       << (margin > 0    ? "wins"
           : margin == 0 ? "draws"
                         : "loses")
       << " by " << std::abs(margin);
  const int side = a_is_top ? KALAH_TOP : KALAH_BOTTOM;
  if (outcome.proved[side]) {
    err_ << " (proved " << std::showpos << *outcome.proved[side] << std::noshowpos << " at ply "
         << outcome.proved_ply[side] << ")";
  }
  err_ << "\n";
}

// The result table: A's wins, draws and losses, its score and the Elo difference with a 95%
// interval from the scores' standard error.
void print_result(const MatchOptions& options, const std::string& a, const std::string& b,
                  const std::vector<int>& margins, std::ostream& out) {
  int wins = 0, draws = 0, losses = 0;
  std::vector<double> scores;
  for (const int margin : margins) {
    (margin > 0 ? wins : margin == 0 ? draws : losses) += 1;
    scores.push_back(margin > 0 ? 1.0 : margin == 0 ? 0.5 : 0.0);
  }
  const double n = static_cast<double>(scores.size());
  double mean = 0, square = 0;
  for (double s : scores) {
    mean += s / n;
    square += s * s / n;
  }
  const double se = std::sqrt(std::max(0.0, square - mean * mean) / n);
  const double floor = 0.5 / n;  // keeps an all-win or all-loss record finite
  auto clamp_score = [&](double s) { return std::clamp(s, floor, 1.0 - floor); };
  out << "match: " << a << " vs " << b << ", " << scores.size() << " games, "
      << options.b.limits().time_ms << " ms/move";
  if (options.a.limits().time_ms != options.b.limits().time_ms) {
    out << " (" << a << ": " << options.a.limits().time_ms << " ms/move)";
  }
  out << ", seed " << options.seed << "\n";
  out << "| engine | wins | draws | losses | score | Elo | 95% interval "
         "|\n|---|---|---|---|---|---|---|\n";
  out << std::fixed << std::setprecision(1) << "| " << a << " | " << wins << " | " << draws << " | "
      << losses << " | " << 100.0 * mean << "% | " << std::showpos << elo_of(clamp_score(mean))
      << " | " << elo_of(clamp_score(mean - 1.96 * se)) << " .. "
      << elo_of(clamp_score(mean + 1.96 * se)) << std::noshowpos << " |\n";
}

}  // namespace

int run_match(const MatchOptions& options, std::ostream& out, std::ostream& err) {
  if (options.games < 1) {
    err << "match: --games must be at least 1\n";
    return 2;
  }
  if (options.jobs < 1) {
    err << "match: --jobs must be at least 1\n";
    return 2;
  }
  MatchPlayer player(options, err);
  const std::string engine_error = player.make_engines(std::min(options.jobs, options.games));
  if (!engine_error.empty()) {
    err << "match: " << engine_error << "\n";
    return 2;
  }
  std::vector<int> margins;
  try {
    margins = player.play(draw_openings(options));
  } catch (const std::exception& error) {
    err << "match: " << error.what() << "\n";
    return 1;
  }
  print_result(options, player.a().name(), player.b().name(), margins, out);
  if (player.a_proved_games() > 0) {
    out << player.a().name() << " proved its margin in " << player.a_proved_games() << " of "
        << options.games << " games and ended every one of them at least that far ahead\n";
  }
  return 0;
}

}  // namespace mankalah
