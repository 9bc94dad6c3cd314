// The Mankalah window's state (Gui), shared by its parts: the board view (gui_board_view.cpp),
// the side panel and status bar (gui_panel.cpp), the controller that runs searches and plays
// moves (gui_controller.cpp), the tick with the smoke test (gui_smoke.cpp) and the wiring
// (gui.cpp). The game itself is Session (GTK-free, unit-tested).
#pragma once

#include <gtk/gtk.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apps/gtk/controls.hpp"
#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"
#include "apps/mankalah/endgame/database_builder.hpp"
#include "apps/mankalah/gui.hpp"
#include "apps/mankalah/gui_engine_host.hpp"
#include "apps/mankalah/session.hpp"
#include "framework/stopwatch.hpp"

namespace mankalah {

using Clock = std::chrono::steady_clock;

inline double ms_since(Clock::time_point start) { return clf::milliseconds_since(start); }

inline const int kTimeChoicesMs[] = {100, 250, 500, 1000, 2000, 5000, 10000};
// A chained AI turn (extra moves) is shown move by move, this far apart.
inline constexpr int kChainPauseMs = 450;
// The smoke test ends every second AI search with "move now" after this long.
inline constexpr double kSmokeMoveNowAfterMs = 300;
// An AI search must answer within its time plus this margin (the smoke test checks it).
inline constexpr double kAnswerMarginMs = 1000;
// "Move now" plays the best move found so far itself if the search has not answered by then.
inline constexpr int kMoveNowGraceMs = 500;
// The status line's clock is redrawn this often while the AI thinks (each redraw repaints the
// window, which costs tens of milliseconds on a software renderer).
inline constexpr double kStatusClockMs = 250;

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
  GtkWidget* time_dropdown = nullptr;
  GtkWidget* first_move_dropdown = nullptr;
  std::vector<int> time_choices;
  GtkWidget* database_label = nullptr;
  GtkWidget* database_progress = nullptr;
  GtkWidget* database_button = nullptr;

  // The endgame database build (gui_database.cpp): its thread posts to the window while it is
  // open.
  std::shared_ptr<bool> window_open = std::make_shared<bool>(true);
  bool database_building = false;
  std::uint64_t databases_built = 0;  // builds ended (done, stopped or failed): the worker
                                      // remakes its engines
  std::shared_ptr<std::atomic<bool>> database_stop;
  std::thread database_thread;

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
  double slowest_timed_answer_ms = -1;      // AI searches that ran their whole budget
  std::uint64_t board_draws_searching = 0;  // pits and stores drawn while a search ran
  std::uint64_t frames_searching = 0;       // window frames painted while a search ran
  double searching_ms = 0;
  int shown_counts[KALAH_CELLS] = {};  // the stones each cell's label shows (it starts at "0")
  std::uint64_t frames_at_last_tick = 0;
  Clock::time_point status_updated;

  const KalahBoard& board() const { return session.board(); }

  std::string side_title(int side) const;

  // Captions: the cell, and for the human's row the key that plays it.
  std::string caption(int cell) const;

  void refresh();

  void update_status();

  void update_match_label();

  // Stops the search in progress (its answer will be ignored) and any pending AI start.
  void cancel_search();

  void start_search(SearchKind kind);

  // Starts the AI's search if it is to move, after `delay_ms` (chained moves are shown one by
  // one).
  void maybe_start_ai(int delay_ms);

  void play(int pit);

  void human_play(int pit);

  void receive(SearchReply reply);

  void on_progress(std::uint64_t serial, const SearchResult& r);

  void press_move_now();

  // The search `serial` was told to stop and has not answered: answer with its last completed
  // depth's move (or the first legal one) as if the search had returned it.
  void move_now_fallback(std::uint64_t serial);

  void new_game();

  void start_match();

  void next_match_game();

  void take_back();

  void ask_hint();

  void update_database_section();
  void start_database_build();
  void on_database_level(const endgame::LevelDone& done, int last);
  void database_finished(bool finished, const std::string& error);
  // Asks the build to stop and waits for it (it stops between levels).
  void stop_database_build();
  // For tests that drive the window from outside (clf::gtk::log_event; off unless asked for).
  void log_move(const MoveRecord& move, bool by_ai) const;
  void log_settings() const;

  // Every 100 ms: the status line's clock, how long the UI went without a tick while a search
  // ran, and the smoke test's steps.
  void tick();
  void smoke_step();
  void smoke_screenshot();
};

inline Gui* gui_of(gpointer data) { return static_cast<Gui*>(data); }

using clf::gtk::button;
using clf::gtk::label;

// The window's style sheet, for the whole display.
void load_board_css();
// The board: both rows of pits, the stores and their captions (gui_board_view.cpp).
GtkWidget* build_board(Gui* g);
// The side panel: game buttons, settings and the match (gui_panel.cpp).
GtkWidget* build_panel(Gui* g);
// What the endgame databases cover, and the button and progress bar that build them
// (gui_database.cpp).
GtkWidget* build_database_section(Gui* g);
// The status line with its spinner and "move now" (gui_panel.cpp).
GtkWidget* build_status_bar(Gui* g);
// The window's keys: 1-6, N, U, H, M, Ctrl+Z, Ctrl+Q (gui_controller.cpp).
gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType state, gpointer data);

}  // namespace mankalah
