// What the Mankalah window does: the AI searches on a worker thread (clf::gtk::LatestOnlyWorker)
// with a stop flag per search, so "move now", undo and new game never wait for it; moves played
// by clicks, keys and answers; hints, new games and Calvin's two-game match.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "apps/gtk/event_log.hpp"
#include "apps/mankalah/gui_window.hpp"

namespace mankalah {

void Gui::cancel_search() {
  if (active_stop) active_stop->store(true);
  active_stop.reset();
  active_serial = 0;
  active_kind = SearchKind::none;
  move_now_pressed = Clock::time_point{};  // "move now" was for the search cancelled
  if (ai_timer != 0) {
    g_source_remove(ai_timer);
    ai_timer = 0;
  }
}

void Gui::start_search(SearchKind kind) {
  cancel_search();
  SearchRequest request;
  request.serial = next_serial++;
  request.board = board();
  request.engine = engine;
  request.time_ms = time_ms;
  request.device = device;
  request.stop = std::make_shared<std::atomic<bool>>(false);
  request.all_margins = kind == SearchKind::hint;
  request.databases_built = databases_built;
  active_serial = request.serial;
  active_kind = kind;
  active_stop = request.stop;
  active_engine = engine;
  search_started = Clock::now();
  has_progress = false;
  smoke_move_now_sent = false;
  clf::gtk::log_event("search_start", {{"kind", kind == SearchKind::hint ? "hint" : "ai"},
                                       {"engine", engine},
                                       {"budget_ms", time_ms}});
  worker->submit(request);
  refresh();
}

void Gui::maybe_start_ai(int delay_ms) {
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

void Gui::play(int pit) {
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
  log_move(*move, ai);
  refresh();
  maybe_start_ai(ai ? kChainPauseMs : 0);
}

void Gui::human_play(int pit) {
  if (!session.human_may_play(pit) || active_kind == SearchKind::ai_move) return;
  cancel_search();  // a hint in progress
  play(pit);
}

void Gui::receive(SearchReply reply) {
  if (reply.serial != active_serial) return;  // cancelled by undo, new game or a click
  const SearchKind kind = active_kind;
  const bool stopped = move_now_pressed != Clock::time_point{};
  const double searched_ms = ms_since(search_started);
  active_stop.reset();
  active_serial = 0;
  active_kind = SearchKind::none;
  clf::gtk::log_event("search_end", {{"kind", kind == SearchKind::hint ? "hint" : "ai"},
                                     {"engine", reply.engine},
                                     {"ms", searched_ms},
                                     {"move", reply.result.move},
                                     {"stopped", stopped},
                                     {"error", reply.error}});
  if (stopped) {
    slowest_move_now_ms = std::max(slowest_move_now_ms, ms_since(move_now_pressed));
    move_now_pressed = Clock::time_point{};
  } else {
    slowest_timed_answer_ms = std::max(slowest_timed_answer_ms, ms_since(search_started));
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
  if (r.exact) {
    line << reply.engine << "  \u00b7  " << r.note << "  \u00b7  " << r.ms / 1000 << " s";
  } else {
    line << reply.engine << "  \u00b7  depth " << r.depth << "  \u00b7  "
         << (r.ms > 0 ? r.nodes / r.ms / 1000 : 0) << " M nodes/s  \u00b7  " << r.ms / 1000
         << " s  \u00b7  score " << r.score << " (TOP's view)";
    if (!r.note.empty()) line << "  \u00b7  " << r.note;
  }
  last_search = "AI: " + line.str();
  // A search stopped before it finished a depth still names a legal move; check anyway.
  int move = r.move;
  if (!kalah_is_legal(&board(), move)) {
    const std::vector<int> moves = legal_moves(board());
    move = moves.empty() ? -1 : moves.front();
  }
  if (kind == SearchKind::hint) {
    hint_pit = move;
    const int first = kalah_first_pit(board().to_move);
    if (!reply.margins.empty()) {
      // Every move's exact final margin for the side to move.
      std::ostringstream margins;
      margins << "hint: key " << move - first + 1 << "  \u00b7  exact final margins:";
      for (const auto& [cell, margin] : reply.margins) {
        margins << "  " << cell - first + 1 << ": " << (margin > 0 ? "+" : "") << margin;
      }
      last_search = margins.str();
      refresh();
      return;
    }
    last_search = "hint: c" + std::to_string(move) + " (key " + std::to_string(move - first + 1) +
                  ")  \u00b7  " + line.str();
    refresh();
    return;
  }
  if (move >= 0 && session.ai_to_move()) play(move);
  refresh();
}

void Gui::on_progress(std::uint64_t serial, const SearchResult& r) {
  if (serial != active_serial) return;
  progress = r;
  has_progress = true;
  update_status();
}

void Gui::press_move_now() {
  if (!active_stop) return;
  move_now_pressed = Clock::now();
  active_stop->store(true);
  // An engine that does not stop in time (a long device launch) must not hold the game up.
  struct Pending {
    Gui* gui;
    std::uint64_t serial;
  };
  g_timeout_add_full(
      G_PRIORITY_DEFAULT, kMoveNowGraceMs,
      +[](gpointer data) -> gboolean {
        const auto* pending = static_cast<const Pending*>(data);
        pending->gui->move_now_fallback(pending->serial);
        return G_SOURCE_REMOVE;
      },
      new Pending{this, active_serial}, [](gpointer data) { delete static_cast<Pending*>(data); });
}

void Gui::move_now_fallback(std::uint64_t serial) {
  if (serial == 0 || serial != active_serial) return;
  SearchReply reply;
  reply.serial = serial;
  reply.engine = active_engine;
  if (has_progress) reply.result = progress;
  reply.result.move = has_progress ? progress.move : -1;
  std::cerr << "cl-mankalah: " << active_engine << " did not stop within " << kMoveNowGraceMs
            << " ms of \"move now\"; playing its best move so far\n";
  receive(std::move(reply));
}

void Gui::new_game() {
  cancel_search();
  turn_lines.clear();
  previous_lines.clear();
  hint_pit = -1;
  session.new_game(next_settings);
  clf::gtk::log_event("new_game");
  refresh();
  maybe_start_ai(0);
}

void Gui::start_match() {
  cancel_search();
  turn_lines.clear();
  previous_lines.clear();
  hint_pit = -1;
  session.start_match(next_settings.human_side);
  refresh();
  maybe_start_ai(0);
}

void Gui::next_match_game() {
  cancel_search();
  if (!session.next_match_game()) return;
  turn_lines.clear();
  previous_lines.clear();
  hint_pit = -1;
  refresh();
  maybe_start_ai(0);
}

void Gui::take_back() {
  cancel_search();
  const bool undone = session.undo();
  if (undone) {
    turn_lines = {"Took back your last move."};
    previous_lines.clear();
  }
  clf::gtk::log_event("undo", {{"done", undone}});
  hint_pit = -1;
  refresh();
  // Nothing to take back while the AI thinks its first move: its search, cancelled above, starts
  // again (after an undo the human is to move, and this does nothing).
  maybe_start_ai(0);
}

void Gui::ask_hint() {
  if (session.human_to_move() && active_kind == SearchKind::none) start_search(SearchKind::hint);
}

void Gui::log_move(const MoveRecord& move, bool by_ai) const {
  if (!clf::gtk::events_enabled()) return;
  std::string cells = "[";
  for (int c = 0; c < KALAH_CELLS; ++c)
    cells += (c > 0 ? "," : "") + std::to_string(move.after.cells[c]);
  clf::gtk::log_event("move", {{"by", by_ai ? "ai" : "human"},
                               {"side", move.side},
                               {"pit", move.pit},
                               clf::gtk::EventField::raw("board", cells + "]"),
                               {"over", move.game_over}});
  if (move.game_over) {
    clf::gtk::log_event("game_over", {{"top", kalah_score(&move.after, KALAH_TOP)},
                                      {"bottom", kalah_score(&move.after, KALAH_BOTTOM)}});
  }
}

void Gui::log_settings() const {
  clf::gtk::log_event("settings", {{"engine", engine}, {"time_ms", time_ms}});
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

}  // namespace mankalah
