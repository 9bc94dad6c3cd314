// The cl-mankalah window: the board in Calvin's orientation (TOP's pits 12..7 above, BOTTOM's
// 0..5 below, TOP's store on the left, BOTTOM's on the right) with the stones drawn and counted;
// click a pit or press 1-6; the AI searches on a worker thread (clf::gtk::LatestOnlyWorker) with
// a stop flag per search, so "move now", undo and new game never wait for it; a status line with
// depth and nodes/s; hint; settings (engine, time per move, device, side, who starts); the end
// score; Calvin's two-game match. The game itself is Session (GTK-free, unit-tested).
#include "apps/mankalah/gui.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "apps/gtk/frame_view.hpp"
#include "apps/gtk/input.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"
#include "apps/mankalah/engine.hpp"
#include "apps/mankalah/session.hpp"
#include "framework/runtime.hpp"

namespace mankalah {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

const int kTimeChoicesMs[] = {100, 250, 500, 1000, 2000, 5000, 10000};
// A chained AI turn (extra moves) is shown move by move, this far apart.
constexpr int kChainPauseMs = 450;
// The smoke test ends every AI search that runs longer than this with "move now".
constexpr double kSmokeMoveNowAfterMs = 300;

const char* kCss = R"css(
.mankalah-root { background: #231a13; }
.board {
  background: linear-gradient(180deg, #a86d33, #8a5524 55%, #6f431b);
  border-radius: 36px; padding: 14px 18px;
  box-shadow: 0 8px 24px rgba(0,0,0,0.55), inset 0 2px 0 rgba(255,230,190,0.35);
}
button.pit, .store {
  background: radial-gradient(circle, #4a2b10, #5d3915 70%, #6d4419);
  border: 2px solid rgba(30,15,5,0.35); border-radius: 999px;
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65);
  padding: 4px; min-width: 78px;
}
button.pit { min-height: 92px; transition: box-shadow 150ms; }
button.pit:hover { background: radial-gradient(circle, #56341a, #674020 70%, #774c20); }
button.pit:disabled { background: radial-gradient(circle, #4a2b10, #5d3915 70%, #6d4419); }
button.pit.playable { border-color: #f1c75b; }
button.pit.last-move, .store.last-move {
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 3px #5ec8f2;
}
button.pit.captured {
  box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 3px #ff6b5e;
}
button.pit.hint { box-shadow: inset 0 5px 12px rgba(0,0,0,0.65), 0 0 0 4px #8be36a; }
.store { min-width: 92px; }
label.count { color: #fff1d6; font-weight: bold; font-size: 15pt; text-shadow: 0 1px 2px black; }
button.pit:disabled label.count { color: #e9d5b5; }
label.caption { color: #f4dfbd; font-size: 9pt; }
label.side { color: #e8d8c0; font-size: 12pt; }
label.side.to-move { color: #ffd866; font-weight: bold; }
label.message { color: #f0e6d8; font-size: 11pt; }
label.result { color: #ffd866; font-size: 20pt; font-weight: bold; }
label.status { color: #cdbda8; font-family: monospace; font-size: 10pt; }
label.title { color: #ffd866; font-size: 22pt; font-weight: bold; }
label.heading { font-weight: bold; margin-top: 8px; }
.panel { background: #2e241b; border-radius: 12px; padding: 10px; }
)css";

struct SearchRequest {
  std::uint64_t serial = 0;
  KalahBoard board{};
  std::string engine;
  int time_ms = 1000;
  int device = -1;  // index into clf::enumerate_devices(), -1: the request's choice
  std::shared_ptr<std::atomic<bool>> stop;
};

struct SearchReply {
  std::uint64_t serial = 0;
  SearchResult result;
  std::string engine;
  std::string error;
};

// Owned by the worker thread: the engines, made on first use, and the device the GPU engines
// use, made when one of them first needs it.
class EngineHost {
 public:
  explicit EngineHost(clf::DeviceRequest request) : request_(std::move(request)) {}

  SearchReply search(const SearchRequest& r, const ProgressCallback& progress) {
    SearchReply reply;
    reply.serial = r.serial;
    reply.engine = r.engine;
    try {
      if (r.device != device_) {
        engines_.clear();  // they hold the old runtime
        runtime_.reset();
        device_ = r.device;
      }
      std::unique_ptr<Engine>& engine = engines_[r.engine];
      if (!engine) {
        EngineOptions options;
        options.runtime = [this]() -> clf::Runtime& { return runtime(); };
        engine = make_engine(r.engine, options);
      }
      engine->set_progress(progress);
      SearchLimits limits;
      limits.time_ms = r.time_ms;
      limits.stop = r.stop.get();
      reply.result = engine->search(r.board, limits);
    } catch (const std::exception& error) {
      engines_.erase(r.engine);
      reply.error = error.what();
    }
    return reply;
  }

 private:
  clf::Runtime& runtime() {
    if (!runtime_) {
      runtime_ = device_ >= 0 ? std::make_unique<clf::Runtime>(clf::enumerate_devices().at(device_),
                                                               request_)
                              : std::make_unique<clf::Runtime>(request_);
    }
    return *runtime_;
  }

  clf::DeviceRequest request_;
  int device_ = -1;
  std::unique_ptr<clf::Runtime> runtime_;  // before engines_: they go first
  std::map<std::string, std::unique_ptr<Engine>> engines_;
};

enum class SearchKind { none, ai_move, hint };

struct Gui;

struct CellRef {
  Gui* gui = nullptr;
  int cell = 0;
};

struct Gui {
  GuiOptions options;
  Session session;
  SessionSettings next_settings;  // the settings panel's side and first mover
  std::string engine;
  int time_ms = 1000;
  int device = -1;

  GtkApplication* app = nullptr;
  GtkWindow* window = nullptr;
  CellRef refs[KALAH_CELLS];
  GtkWidget* cells[KALAH_CELLS] = {};  // pit buttons; boxes for the stores
  GtkWidget* areas[KALAH_CELLS] = {};
  GtkWidget* counts[KALAH_CELLS] = {};
  GtkWidget* captions[KALAH_CELLS] = {};
  GtkWidget* top_side = nullptr;
  GtkWidget* bottom_side = nullptr;
  GtkWidget* message = nullptr;
  GtkWidget* result = nullptr;
  GtkWidget* next_game = nullptr;
  GtkWidget* spinner = nullptr;
  GtkWidget* status = nullptr;
  GtkWidget* move_now = nullptr;
  GtkWidget* undo = nullptr;
  GtkWidget* hint = nullptr;
  GtkWidget* match_label = nullptr;
  GtkWidget* engine_dropdown = nullptr;
  std::vector<int> time_choices;

  std::unique_ptr<clf::gtk::LatestOnlyWorker<SearchRequest, SearchReply>> worker;
  std::uint64_t next_serial = 1;
  std::uint64_t active_serial = 0;  // the search whose answer is wanted; 0: none
  SearchKind active_kind = SearchKind::none;
  std::shared_ptr<std::atomic<bool>> active_stop;
  Clock::time_point search_started;
  std::string active_engine;
  SearchResult progress;  // the active search's last completed depth
  bool has_progress = false;
  std::string last_search;  // the status line of the last finished search
  guint ai_timer = 0;       // a pending delayed AI search
  int hint_pit = -1;
  std::vector<std::string> turn_lines;      // what the last turn did
  std::vector<std::string> previous_lines;  // and the turn before (the other side's)

  // Smoke test.
  int smoke_human_moves = 0;
  bool smoke_move_now_sent = false;
  clf::gtk::SmokeTest smoke;
  int ai_moves = 0;
  Clock::time_point last_tick = Clock::now();
  double longest_stall_ms = 0;  // between UI ticks while a search ran
  Clock::time_point move_now_pressed;
  double slowest_move_now_ms = -1;

  const KalahBoard& board() const { return session.board(); }

  std::string side_title(int side) const {
    const bool human = side == session.human_side();
    std::string text = std::string(side_name(side)) + "  \u00b7  " +
                       (human ? std::string("you") : "AI (" + engine + ")") + "  \u00b7  score " +
                       std::to_string(kalah_score(&board(), side));
    if (!session.over() && board().to_move == side) text = "\u25b6 " + text + "  \u00b7  to move";
    return text;
  }

  // Captions: the cell, and for the human's row the key that plays it.
  std::string caption(int cell) const {
    if (cell == KALAH_TOP_STORE || cell == KALAH_BOTTOM_STORE)
      return std::string(side_name(cell == KALAH_TOP_STORE ? KALAH_TOP : KALAH_BOTTOM)) + " store";
    const int side = cell < KALAH_BOTTOM_STORE ? KALAH_BOTTOM : KALAH_TOP;
    std::string text = "c" + std::to_string(cell);
    if (side == session.human_side())
      text += "  \u00b7  key " + std::to_string(cell - kalah_first_pit(side) + 1);
    return text;
  }

  void set_class(GtkWidget* widget, const char* name, bool on) {
    if (on)
      gtk_widget_add_css_class(widget, name);
    else
      gtk_widget_remove_css_class(widget, name);
  }

  void refresh() {
    const TurnMarks marks = session.last_turn();
    const bool searching_move = active_kind == SearchKind::ai_move;
    for (int c = 0; c < KALAH_CELLS; ++c) {
      gtk_label_set_text(GTK_LABEL(counts[c]), std::to_string(board().cells[c]).c_str());
      gtk_label_set_text(GTK_LABEL(captions[c]), caption(c).c_str());
      gtk_widget_queue_draw(areas[c]);
      const bool played =
          std::find(marks.played.begin(), marks.played.end(), c) != marks.played.end();
      const bool captured =
          std::find(marks.captured.begin(), marks.captured.end(), c) != marks.captured.end();
      set_class(cells[c], "last-move", played && !captured);
      if (c == KALAH_TOP_STORE || c == KALAH_BOTTOM_STORE) continue;
      const bool playable = !searching_move && session.human_may_play(c);
      gtk_widget_set_sensitive(cells[c], playable);
      set_class(cells[c], "playable", playable);
      set_class(cells[c], "captured", captured);
      set_class(cells[c], "hint", c == hint_pit);
    }
    // A capture also fills the store: mark it with the played pits.
    set_class(cells[KALAH_TOP_STORE], "last-move",
              marks.side == KALAH_TOP && marks.captured_stones > 0);
    set_class(cells[KALAH_BOTTOM_STORE], "last-move",
              marks.side == KALAH_BOTTOM && marks.captured_stones > 0);
    gtk_label_set_text(GTK_LABEL(top_side), side_title(KALAH_TOP).c_str());
    gtk_label_set_text(GTK_LABEL(bottom_side), side_title(KALAH_BOTTOM).c_str());
    set_class(top_side, "to-move", !session.over() && board().to_move == KALAH_TOP);
    set_class(bottom_side, "to-move", !session.over() && board().to_move == KALAH_BOTTOM);

    // The last two turns, at most four lines (chains can be long).
    std::vector<std::string> lines = previous_lines;
    lines.insert(lines.end(), turn_lines.begin(), turn_lines.end());
    std::string text;
    for (std::size_t i = lines.size() > 4 ? lines.size() - 4 : 0; i < lines.size(); ++i)
      text += (text.empty() ? "" : "\n") + lines[i];
    if (text.empty()) text = session.human_to_move() ? "Your move: click a pit or press 1-6." : "";
    gtk_label_set_text(GTK_LABEL(message), text.c_str());

    std::string outcome = session.outcome();
    if (!outcome.empty()) {
      if (session.in_match()) outcome += "\n" + session.match_summary();
      gtk_label_set_text(GTK_LABEL(result), outcome.c_str());
    }
    gtk_widget_set_visible(result, !outcome.empty());
    gtk_widget_set_visible(next_game,
                           session.in_match() && session.match_game() == 0 && session.over());

    gtk_widget_set_sensitive(undo, session.can_undo());
    gtk_widget_set_sensitive(hint, session.human_to_move() && active_kind == SearchKind::none);
    gtk_widget_set_sensitive(move_now, active_kind != SearchKind::none);
    update_status();
    update_match_label();
  }

  void update_status() {
    std::ostringstream line;
    line.setf(std::ios::fixed);
    if (active_kind != SearchKind::none) {
      line.precision(1);
      line << (active_kind == SearchKind::hint ? "hint: " : "AI: ") << active_engine << " thinking "
           << ms_since(search_started) / 1000 << " s";
      if (has_progress) {
        line.precision(2);
        line << "  \u00b7  depth " << progress.depth << "  \u00b7  "
             << (progress.ms > 0 ? progress.nodes / progress.ms / 1000 : 0) << " M nodes/s"
             << "  \u00b7  best c" << progress.move;
      }
      gtk_spinner_start(GTK_SPINNER(spinner));
    } else {
      line << last_search;
      gtk_spinner_stop(GTK_SPINNER(spinner));
    }
    gtk_label_set_text(GTK_LABEL(status), line.str().c_str());
  }

  void update_match_label() {
    if (!session.in_match()) {
      gtk_label_set_text(GTK_LABEL(match_label),
                         "Two games, each side starts once;\nthe stones of both are added.");
      return;
    }
    std::string text;
    const std::vector<MatchGame> games = session.match();
    for (std::size_t i = 0; i < games.size(); ++i) {
      text += "Game " + std::to_string(i + 1) +
              (games[i].human_first ? " (you start): " : " (AI starts): ");
      if (games[i].finished) {
        text +=
            "you " + std::to_string(games[i].human) + " \u2013 AI " + std::to_string(games[i].ai);
      } else {
        text += static_cast<int>(i) == session.match_game() ? "playing" : "\u2014";
      }
      text += "\n";
    }
    text += session.match_summary();
    gtk_label_set_text(GTK_LABEL(match_label), text.c_str());
  }

  // Stops the search in progress (its answer will be ignored) and any pending AI start.
  void cancel_search() {
    if (active_stop) active_stop->store(true);
    active_stop.reset();
    active_serial = 0;
    active_kind = SearchKind::none;
    if (ai_timer != 0) {
      g_source_remove(ai_timer);
      ai_timer = 0;
    }
  }

  void start_search(SearchKind kind) {
    cancel_search();
    SearchRequest request;
    request.serial = next_serial++;
    request.board = board();
    request.engine = engine;
    request.time_ms = time_ms;
    request.device = device;
    request.stop = std::make_shared<std::atomic<bool>>(false);
    active_serial = request.serial;
    active_kind = kind;
    active_stop = request.stop;
    active_engine = engine;
    search_started = Clock::now();
    has_progress = false;
    smoke_move_now_sent = false;
    worker->submit(request);
    refresh();
  }

  // Starts the AI's search if it is to move, after `delay_ms` (chained moves are shown one by
  // one).
  void maybe_start_ai(int delay_ms) {
    if (!session.ai_to_move() || active_kind == SearchKind::ai_move || ai_timer != 0) return;
    if (delay_ms <= 0) {
      start_search(SearchKind::ai_move);
      return;
    }
    ai_timer = g_timeout_add(
        delay_ms,
        +[](gpointer data) -> gboolean {
          Gui* g = static_cast<Gui*>(data);
          g->ai_timer = 0;
          g->maybe_start_ai(0);
          return G_SOURCE_REMOVE;
        },
        this);
  }

  void play(int pit) {
    const bool ai = session.ai_to_move();
    const TurnMarks before = session.last_turn();
    const std::optional<MoveRecord> move = session.play(pit);
    if (!move) return;
    // A new turn starts a new message; a chained move adds to it.
    if (before.side != move->side) {
      previous_lines.swap(turn_lines);
      turn_lines.clear();
    }
    turn_lines.push_back(describe_move(*move, session.human_side()));
    hint_pit = -1;
    if (ai) ++ai_moves;
    refresh();
    maybe_start_ai(ai ? kChainPauseMs : 0);
  }

  void human_play(int pit) {
    if (!session.human_may_play(pit) || active_kind == SearchKind::ai_move) return;
    cancel_search();  // a hint in progress
    play(pit);
  }

  void receive(SearchReply reply) {
    if (reply.serial != active_serial) return;  // cancelled by undo, new game or a click
    const SearchKind kind = active_kind;
    active_stop.reset();
    active_serial = 0;
    active_kind = SearchKind::none;
    if (move_now_pressed != Clock::time_point{}) {
      slowest_move_now_ms = std::max(slowest_move_now_ms, ms_since(move_now_pressed));
      move_now_pressed = Clock::time_point{};
    }
    if (!reply.error.empty()) {
      std::cerr << "cl-mankalah: " << reply.engine << ": " << reply.error << "\n";
      turn_lines = {"The " + reply.engine + " engine failed (" + reply.error +
                    "); the AI uses alphabeta."};
      // Selecting alphabeta sets `engine` (on_engine_changed).
      const auto& names = engine_names();
      gtk_drop_down_set_selected(
          GTK_DROP_DOWN(engine_dropdown),
          static_cast<guint>(std::find(names.begin(), names.end(), "alphabeta") - names.begin()));
      engine = "alphabeta";
      refresh();
      if (kind == SearchKind::ai_move) maybe_start_ai(0);
      return;
    }
    const SearchResult& r = reply.result;
    std::ostringstream line;
    line.setf(std::ios::fixed);
    line.precision(2);
    line << reply.engine << "  \u00b7  depth " << r.depth << "  \u00b7  "
         << (r.ms > 0 ? r.nodes / r.ms / 1000 : 0) << " M nodes/s  \u00b7  " << r.ms / 1000
         << " s  \u00b7  score " << r.score << " (TOP's view)";
    last_search = "AI: " + line.str();
    // A search stopped before it finished a depth still names a legal move; check anyway.
    int move = r.move;
    if (!kalah_is_legal(&board(), move)) {
      const std::vector<int> moves = legal_moves(board());
      move = moves.empty() ? -1 : moves.front();
    }
    if (kind == SearchKind::hint) {
      hint_pit = move;
      last_search = "hint: c" + std::to_string(move) + " (key " +
                    std::to_string(move - kalah_first_pit(board().to_move) + 1) + ")  \u00b7  " +
                    line.str();
      refresh();
      return;
    }
    if (move >= 0 && session.ai_to_move()) play(move);
    refresh();
  }

  void on_progress(std::uint64_t serial, const SearchResult& r) {
    if (serial != active_serial) return;
    progress = r;
    has_progress = true;
    update_status();
  }

  void press_move_now() {
    if (!active_stop) return;
    move_now_pressed = Clock::now();
    active_stop->store(true);
  }

  void new_game() {
    cancel_search();
    turn_lines.clear();
    previous_lines.clear();
    hint_pit = -1;
    session.new_game(next_settings);
    refresh();
    maybe_start_ai(0);
  }

  void start_match() {
    cancel_search();
    turn_lines.clear();
    previous_lines.clear();
    hint_pit = -1;
    session.start_match(next_settings.human_side);
    refresh();
    maybe_start_ai(0);
  }

  void next_match_game() {
    cancel_search();
    if (!session.next_match_game()) return;
    turn_lines.clear();
    previous_lines.clear();
    hint_pit = -1;
    refresh();
    maybe_start_ai(0);
  }

  void take_back() {
    cancel_search();
    if (session.undo()) {
      turn_lines = {"Took back your last move."};
      previous_lines.clear();
    }
    hint_pit = -1;
    refresh();
  }

  void ask_hint() {
    if (session.human_to_move() && active_kind == SearchKind::none) start_search(SearchKind::hint);
  }

  // Every 100 ms: the status line's clock, how long the UI went without a tick while a search
  // ran, and the smoke test's steps.
  void tick() {
    const double gap = ms_since(last_tick);
    last_tick = Clock::now();
    if (active_kind != SearchKind::none) {
      longest_stall_ms = std::max(longest_stall_ms, gap);
      update_status();
    }
    if (!smoke.active()) return;
    if (active_kind != SearchKind::none) {
      if (!smoke_move_now_sent && ms_since(search_started) > kSmokeMoveNowAfterMs) {
        smoke_move_now_sent = true;
        g_signal_emit_by_name(move_now, "clicked");  // as if the button were pressed
      }
      return;
    }
    if (ai_timer != 0 || smoke.scheduled()) return;
    if (session.human_to_move() && smoke_human_moves < options.smoke_moves) {
      ++smoke_human_moves;
      human_play(bonzo_move(board()));
      return;
    }
    if (session.human_to_move() || session.over()) {
      // Let the last move draw first; then the window must not be blank, the UI must never
      // have stalled and "move now" must have answered within a second.
      smoke.screenshot_after(
          400,
          [this] {
            std::ostringstream detail;
            detail.setf(std::ios::fixed);
            detail.precision(0);
            detail << smoke_human_moves << " human and " << ai_moves << " AI moves";
            return detail.str();
          },
          [this](std::size_t colors, std::string* detail) {
            std::ostringstream more;
            more.setf(std::ios::fixed);
            more.precision(0);
            more << ", longest UI stall while searching " << longest_stall_ms << " ms";
            if (slowest_move_now_ms >= 0)
              more << ", move now answered within " << slowest_move_now_ms << " ms";
            *detail += more.str();
            return colors > 50 && ai_moves > 0 && longest_stall_ms < 1000 &&
                   slowest_move_now_ms < 1000;
          });
    }
  }
};

Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

// Stones drawn as glass marbles, placed on a sunflower spiral that fills the pit (an ellipse
// for the stores); colours and a little jitter come from a hash of the cell and stone, so a
// pit looks the same from one frame to the next.
void draw_stone(cairo_t* cr, double x, double y, double r, const double rgb[3]) {
  cairo_arc(cr, x + 0.12 * r, y + 0.22 * r, r, 0, 2 * M_PI);
  cairo_set_source_rgba(cr, 0, 0, 0, 0.35);
  cairo_fill(cr);
  cairo_pattern_t* body = cairo_pattern_create_radial(x - 0.35 * r, y - 0.4 * r, 0.1 * r, x, y, r);
  cairo_pattern_add_color_stop_rgb(body, 0, 0.55 + 0.45 * rgb[0], 0.55 + 0.45 * rgb[1],
                                   0.55 + 0.45 * rgb[2]);
  cairo_pattern_add_color_stop_rgb(body, 0.55, rgb[0], rgb[1], rgb[2]);
  cairo_pattern_add_color_stop_rgb(body, 1, 0.45 * rgb[0], 0.45 * rgb[1], 0.45 * rgb[2]);
  cairo_arc(cr, x, y, r, 0, 2 * M_PI);
  cairo_set_source(cr, body);
  cairo_fill(cr);
  cairo_pattern_destroy(body);
  cairo_arc(cr, x - 0.35 * r, y - 0.4 * r, 0.22 * r, 0, 2 * M_PI);
  cairo_set_source_rgba(cr, 1, 1, 1, 0.55);
  cairo_fill(cr);
}

std::uint32_t mix(std::uint32_t a, std::uint32_t b) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u + (a << 6) + (a >> 2));
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return h;
}

void draw_cell(GtkDrawingArea*, cairo_t* cr, int width, int height, gpointer data) {
  static const double palette[][3] = {{0.20, 0.58, 0.88}, {0.90, 0.32, 0.26}, {0.22, 0.78, 0.47},
                                      {0.96, 0.76, 0.14}, {0.62, 0.38, 0.76}, {0.90, 0.88, 0.82}};
  const CellRef* ref = static_cast<const CellRef*>(data);
  const int n = ref->gui->board().cells[ref->cell];
  if (n == 0 || width < 8 || height < 8) return;
  const double rx = width / 2.0 - 2, ry = height / 2.0 - 2;
  const double radius = std::min(rx, ry);
  const double stone =
      std::clamp(radius / (1.05 * std::sqrt(n) + 0.45), radius * 0.12, radius * 0.34);
  double spacing = 1.1 * stone;
  const double outer = spacing * std::sqrt(n - 0.5);
  if (outer + stone > radius) spacing *= (radius - stone) / outer;  // a heap: stones overlap
  for (int i = n - 1; i >= 0; --i) {
    const std::uint32_t h =
        mix(static_cast<std::uint32_t>(ref->cell), static_cast<std::uint32_t>(i));
    const double r = spacing * std::sqrt(i + 0.5);
    const double theta = i * 2.399963 + ref->cell;
    const double jitter = ((h >> 8) & 255) / 255.0 - 0.5;
    const double x = width / 2.0 + (r * std::cos(theta) + 0.15 * stone * jitter) * rx / radius;
    const double y = height / 2.0 + (r * std::sin(theta) - 0.15 * stone * jitter) * ry / radius;
    draw_stone(cr, x, y, stone, palette[h % 6]);
  }
}

void on_pit_clicked(GtkButton*, gpointer data) {
  const CellRef* ref = static_cast<const CellRef*>(data);
  ref->gui->human_play(ref->cell);
}

gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType state, gpointer data) {
  Gui* g = gui_of(data);
  if ((state & GDK_CONTROL_MASK) != 0) {
    if (key == GDK_KEY_q) gtk_window_destroy(g->window);
    if (key == GDK_KEY_z) g->take_back();
    return key == GDK_KEY_q || key == GDK_KEY_z;
  }
  if (key >= GDK_KEY_1 && key <= GDK_KEY_6) {
    if (g->session.human_to_move()) {
      const ParsedMove move =
          parse_move(g->board(), std::string(1, static_cast<char>('1' + key - GDK_KEY_1)));
      if (move.error.empty()) g->human_play(move.pit);
    }
    return TRUE;
  }
  switch (key) {
    case GDK_KEY_n:
      g->new_game();
      return TRUE;
    case GDK_KEY_u:
      g->take_back();
      return TRUE;
    case GDK_KEY_h:
      g->ask_hint();
      return TRUE;
    case GDK_KEY_m:
      g->press_move_now();
      return TRUE;
    default:
      return FALSE;
  }
}

GtkWidget* label(const char* text, const char* css_class, GtkAlign align = GTK_ALIGN_CENTER) {
  GtkWidget* l = gtk_label_new(text);
  if (css_class != nullptr) gtk_widget_add_css_class(l, css_class);
  gtk_widget_set_halign(l, align);
  return l;
}

GtkWidget* button(const char* text, void (*clicked)(GtkButton*, gpointer), Gui* g) {
  GtkWidget* b = gtk_button_new_with_mnemonic(text);
  g_signal_connect(b, "clicked", G_CALLBACK(clicked), g);
  return b;
}

// A pit (button) or a store (box): the stones above their count.
GtkWidget* make_cell(Gui* g, int cell) {
  const bool store = cell == KALAH_TOP_STORE || cell == KALAH_BOTTOM_STORE;
  g->refs[cell] = CellRef{g, cell};
  GtkWidget* content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
  g->areas[cell] = gtk_drawing_area_new();
  gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(g->areas[cell]), store ? 80 : 66);
  gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(g->areas[cell]), store ? 170 : 62);
  gtk_widget_set_vexpand(g->areas[cell], TRUE);
  gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(g->areas[cell]), draw_cell, &g->refs[cell],
                                 nullptr);
  gtk_box_append(GTK_BOX(content), g->areas[cell]);
  g->counts[cell] = label("0", "count");
  gtk_box_append(GTK_BOX(content), g->counts[cell]);
  if (store) {
    gtk_widget_add_css_class(content, "store");
    g->cells[cell] = content;
  } else {
    g->cells[cell] = gtk_button_new();
    gtk_widget_add_css_class(g->cells[cell], "pit");
    gtk_button_set_child(GTK_BUTTON(g->cells[cell]), content);
    gtk_widget_set_focus_on_click(g->cells[cell], FALSE);
    g_signal_connect(g->cells[cell], "clicked", G_CALLBACK(on_pit_clicked), &g->refs[cell]);
  }
  g->captions[cell] = label("", "caption");
  return g->cells[cell];
}

GtkWidget* build_board(Gui* g) {
  GtkWidget* grid = gtk_grid_new();
  gtk_widget_add_css_class(grid, "board");
  gtk_grid_set_column_spacing(GTK_GRID(grid), 10);
  gtk_grid_set_row_spacing(GTK_GRID(grid), 8);
  gtk_widget_set_halign(grid, GTK_ALIGN_CENTER);
  // Calvin's orientation: TOP's pits 12..7 left to right above, BOTTOM's 0..5 below, TOP's
  // store on the left, BOTTOM's on the right (sowing runs counter-clockwise).
  for (int i = 0; i < KALAH_PITS; ++i) {
    const int top = 12 - i, bottom = i;
    gtk_grid_attach(GTK_GRID(grid), make_cell(g, top), i + 1, 1, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), g->captions[top], i + 1, 0, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), make_cell(g, bottom), i + 1, 2, 1, 1);
    gtk_grid_attach(GTK_GRID(grid), g->captions[bottom], i + 1, 3, 1, 1);
  }
  gtk_grid_attach(GTK_GRID(grid), make_cell(g, KALAH_TOP_STORE), 0, 1, 1, 2);
  gtk_grid_attach(GTK_GRID(grid), g->captions[KALAH_TOP_STORE], 0, 3, 1, 1);
  gtk_grid_attach(GTK_GRID(grid), make_cell(g, KALAH_BOTTOM_STORE), 7, 1, 1, 2);
  gtk_grid_attach(GTK_GRID(grid), g->captions[KALAH_BOTTOM_STORE], 7, 0, 1, 1);
  return grid;
}

GtkWidget* dropdown(GtkWidget* panel, const char* title, const std::vector<std::string>& items,
                    int selected, void (*changed)(GObject*, GParamSpec*, gpointer), Gui* g) {
  std::vector<const char*> strings;
  for (const std::string& s : items) strings.push_back(s.c_str());
  strings.push_back(nullptr);
  GtkWidget* d = gtk_drop_down_new_from_strings(strings.data());
  gtk_drop_down_set_selected(GTK_DROP_DOWN(d), static_cast<guint>(std::max(selected, 0)));
  g_signal_connect(d, "notify::selected", G_CALLBACK(changed), g);
  gtk_box_append(GTK_BOX(panel), label(title, nullptr, GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel), d);
  return d;
}

guint selected(GObject* object) { return gtk_drop_down_get_selected(GTK_DROP_DOWN(object)); }

GtkWidget* build_panel(Gui* g) {
  GtkWidget* panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 5);
  gtk_widget_add_css_class(panel, "panel");
  gtk_widget_set_size_request(panel, 230, -1);

  gtk_box_append(GTK_BOX(panel), label("Game", "heading", GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel),
                 button(
                     "_New game (N)", +[](GtkButton*, gpointer d) { gui_of(d)->new_game(); }, g));
  g->undo = button(
      "_Undo (U)", +[](GtkButton*, gpointer d) { gui_of(d)->take_back(); }, g);
  gtk_box_append(GTK_BOX(panel), g->undo);
  g->hint = button(
      "_Hint (H)", +[](GtkButton*, gpointer d) { gui_of(d)->ask_hint(); }, g);
  gtk_box_append(GTK_BOX(panel), g->hint);

  gtk_box_append(GTK_BOX(panel), label("Settings", "heading", GTK_ALIGN_START));
  const std::vector<std::string>& names = engine_names();
  g->engine_dropdown = dropdown(
      panel, "Engine", names,
      static_cast<int>(std::find(names.begin(), names.end(), g->engine) - names.begin()),
      +[](GObject* o, GParamSpec*, gpointer d) {
        if (selected(o) < engine_names().size()) gui_of(d)->engine = engine_names()[selected(o)];
        gui_of(d)->refresh();
      },
      g);
  g->time_choices.assign(std::begin(kTimeChoicesMs), std::end(kTimeChoicesMs));
  if (std::find(g->time_choices.begin(), g->time_choices.end(), g->time_ms) ==
      g->time_choices.end()) {
    g->time_choices.push_back(g->time_ms);
    std::sort(g->time_choices.begin(), g->time_choices.end());
  }
  std::vector<std::string> times;
  for (int ms : g->time_choices) {
    char text[32];
    if (ms < 1000)
      std::snprintf(text, sizeof text, "%d ms", ms);
    else
      std::snprintf(text, sizeof text, ms % 1000 == 0 ? "%.0f s" : "%.1f s", ms / 1000.0);
    times.push_back(text);
  }
  dropdown(
      panel, "Time per AI move", times,
      static_cast<int>(std::find(g->time_choices.begin(), g->time_choices.end(), g->time_ms) -
                       g->time_choices.begin()),
      +[](GObject* o, GParamSpec*, gpointer d) {
        if (selected(o) < gui_of(d)->time_choices.size())
          gui_of(d)->time_ms = gui_of(d)->time_choices[selected(o)];
      },
      g);
  // The device the GPU engines use (the choice --device and friends made, preselected).
  int default_device = 0;
  try {
    const std::vector<clf::DeviceInfo> devices = clf::enumerate_devices();
    default_device = static_cast<int>(clf::select_device(devices, g->options.request).position);
  } catch (const std::exception&) {
  }
  gtk_box_append(GTK_BOX(panel), label("Device (gpu-layered, hybrid)", nullptr, GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel),
                 clf::gtk::device_picker(default_device, [g](int index) { g->device = index; }));
  dropdown(
      panel, "You play (next game)", {"BOTTOM (pits 0-5)", "TOP (pits 7-12)"},
      g->next_settings.human_side == KALAH_TOP ? 1 : 0,
      +[](GObject* o, GParamSpec*, gpointer d) {
        gui_of(d)->next_settings.human_side = selected(o) == 1 ? KALAH_TOP : KALAH_BOTTOM;
      },
      g);
  dropdown(
      panel, "First move (next game)", {"You", "The AI"}, g->next_settings.human_first ? 0 : 1,
      +[](GObject* o, GParamSpec*, gpointer d) {
        gui_of(d)->next_settings.human_first = selected(o) == 0;
      },
      g);

  gtk_box_append(GTK_BOX(panel), label("Calvin's match", "heading", GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel), button(
                                     "Start a two-game _match",
                                     +[](GtkButton*, gpointer d) { gui_of(d)->start_match(); }, g));
  g->match_label = label("", nullptr, GTK_ALIGN_START);
  gtk_label_set_wrap(GTK_LABEL(g->match_label), TRUE);
  gtk_box_append(GTK_BOX(panel), g->match_label);

  GtkWidget* keys = label(
      "Keys: 1-6 play \u00b7 N new \u00b7 U undo\nH hint \u00b7 M move now \u00b7 Ctrl+Q quit",
      "caption", GTK_ALIGN_START);
  gtk_widget_set_valign(keys, GTK_ALIGN_END);
  gtk_widget_set_vexpand(keys, TRUE);
  gtk_box_append(GTK_BOX(panel), keys);
  return panel;
}

void build_window(Gui* g, GtkApplication* app, GtkWindow* window) {
  g->app = app;
  g->window = window;
  g_object_set(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", TRUE, nullptr);
  GtkCssProvider* css = gtk_css_provider_new();
  gtk_css_provider_load_from_data(css, kCss, -1);
  gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_unref(css);

  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 14);
  gtk_widget_add_css_class(root, "mankalah-root");
  GtkWidget* left = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
  for (GtkWidget* w : {left}) {
    gtk_widget_set_margin_start(w, 16);
    gtk_widget_set_margin_top(w, 12);
    gtk_widget_set_margin_bottom(w, 10);
  }
  gtk_widget_set_hexpand(left, TRUE);
  gtk_box_append(GTK_BOX(left), label("Mankalah", "title"));
  g->top_side = label("", "side");
  gtk_box_append(GTK_BOX(left), g->top_side);
  gtk_box_append(GTK_BOX(left), build_board(g));
  g->bottom_side = label("", "side");
  gtk_box_append(GTK_BOX(left), g->bottom_side);
  g->message = label("", "message");
  gtk_widget_set_size_request(g->message, -1, 84);  // four lines: the board stays put
  gtk_widget_set_valign(g->message, GTK_ALIGN_START);
  gtk_label_set_justify(GTK_LABEL(g->message), GTK_JUSTIFY_CENTER);
  gtk_box_append(GTK_BOX(left), g->message);
  g->result = label("", "result");
  gtk_label_set_justify(GTK_LABEL(g->result), GTK_JUSTIFY_CENTER);
  gtk_box_append(GTK_BOX(left), g->result);
  g->next_game = button(
      "Play game _2 (the AI starts)", +[](GtkButton*, gpointer d) { gui_of(d)->next_match_game(); },
      g);
  gtk_widget_set_halign(g->next_game, GTK_ALIGN_CENTER);
  gtk_box_append(GTK_BOX(left), g->next_game);

  GtkWidget* status_bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_valign(status_bar, GTK_ALIGN_END);
  gtk_widget_set_vexpand(status_bar, TRUE);
  g->spinner = gtk_spinner_new();
  gtk_box_append(GTK_BOX(status_bar), g->spinner);
  g->status = label("", "status", GTK_ALIGN_START);
  gtk_widget_set_hexpand(g->status, TRUE);
  gtk_label_set_ellipsize(GTK_LABEL(g->status), PANGO_ELLIPSIZE_END);
  gtk_box_append(GTK_BOX(status_bar), g->status);
  g->move_now = button(
      "Move _now (M)", +[](GtkButton*, gpointer d) { gui_of(d)->press_move_now(); }, g);
  gtk_box_append(GTK_BOX(status_bar), g->move_now);
  gtk_box_append(GTK_BOX(left), status_bar);

  gtk_box_append(GTK_BOX(root), left);
  GtkWidget* panel = build_panel(g);
  gtk_widget_set_margin_top(panel, 12);
  gtk_widget_set_margin_bottom(panel, 12);
  gtk_widget_set_margin_end(panel, 12);
  gtk_box_append(GTK_BOX(root), panel);
  gtk_window_set_child(window, root);

  // Capture phase: digits and letters reach the game even when a button has the focus.
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::capture);
  g_timeout_add(
      100,
      +[](gpointer data) -> gboolean {
        gui_of(data)->tick();
        return G_SOURCE_CONTINUE;
      },
      g);
  g->smoke.set_on_finish([g] { g->cancel_search(); });
  g->smoke.start(app, window, g->options.screenshot);
  if (g->options.match)
    g->start_match();
  else
    g->new_game();
}

}  // namespace

int run_gui(const GuiOptions& options) {
  const std::optional<int> side = parse_side(options.side);
  if (!side)
    throw std::invalid_argument("--side: expected top or bottom, got '" + options.side + "'");
  if (options.first != "human" && options.first != "ai")
    throw std::invalid_argument("--first: expected human or ai, got '" + options.first + "'");
  if (std::find(engine_names().begin(), engine_names().end(), options.engine) ==
      engine_names().end()) {
    make_engine(options.engine, EngineOptions{});  // throws, naming the engines there are
  }
  if (options.time_ms <= 0)
    throw std::invalid_argument("--time-ms: expected a positive time, got " +
                                std::to_string(options.time_ms));
  if (!gtk_init_check()) {
    std::cerr << "cl-mankalah: cannot open a display (use `cl-mankalah play` in the terminal)\n";
    return 1;
  }
  Gui gui;
  gui.options = options;
  gui.engine = options.engine;
  gui.time_ms = options.time_ms;
  gui.next_settings = SessionSettings{*side, options.first == "human"};
  auto host = std::make_shared<EngineHost>(options.request);
  Gui* g = &gui;
  gui.worker = std::make_unique<clf::gtk::LatestOnlyWorker<SearchRequest, SearchReply>>(
      [host, g](const SearchRequest& r) {
        const std::uint64_t serial = r.serial;
        return host->search(r, [g, serial](const SearchResult& progress) {
          clf::gtk::post_to_ui([g, serial, progress] { g->on_progress(serial, progress); });
        });
      },
      [g](SearchReply reply) {
        auto shared = std::make_shared<SearchReply>(std::move(reply));
        clf::gtk::post_to_ui([g, shared] { g->receive(std::move(*shared)); });
      });
  const int status = clf::gtk::run_application(
      "org.opencl_apps.mankalah", "Mankalah", 1120, 640,
      [g](GtkApplication* app, GtkWindow* window) { build_window(g, app, window); });
  gui.cancel_search();  // a search still running ends within milliseconds
  gui.worker.reset();   // joins the worker before the Gui it posts to goes away
  return status != 0 ? status : gui.smoke.exit_status();
}

}  // namespace mankalah
