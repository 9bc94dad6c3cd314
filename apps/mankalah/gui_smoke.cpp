// The Mankalah window's tick (the status line's clock and how the UI keeps up while a search
// runs) and the smoke test it drives: the human plays bonzo's moves, every second AI search is
// cut short with "move now", then the window is photographed and judged.
#include <algorithm>
#include <sstream>

#include "apps/gtk/render_watch.hpp"
#include "apps/mankalah/gui_window.hpp"

namespace mankalah {

void Gui::tick() {
  const double gap = ms_since(last_tick);
  last_tick = Clock::now();
  const std::uint64_t frames = clf::gtk::RenderWatch::of(window)->frames();
  if (active_kind != SearchKind::none) {
    longest_stall_ms = std::max(longest_stall_ms, gap);
    frames_searching += frames - frames_at_last_tick;
    searching_ms += gap;
    if (ms_since(status_updated) >= kStatusClockMs) update_status();
  }
  frames_at_last_tick = frames;
  if (smoke.active()) smoke_step();
}

void Gui::smoke_step() {
  if (active_kind != SearchKind::none) {
    // Every second AI search is cut short with "move now"; the others run their whole time.
    if (!smoke_move_now_sent && ai_moves % 2 == 1 &&
        ms_since(search_started) > kSmokeMoveNowAfterMs) {
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
  if (session.human_to_move() || session.over()) smoke_screenshot();
}

// Lets the last move draw first; then the window must not be blank, the UI must never have
// stalled and "move now" must have answered within a second.
void Gui::smoke_screenshot() {
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
        const clf::gtk::RenderWatch* watch = clf::gtk::RenderWatch::of(window);
        const double frames_per_s = searching_ms > 0 ? 1000.0 * frames_searching / searching_ms : 0;
        std::ostringstream more;
        more.setf(std::ios::fixed);
        more.precision(0);
        more << ", longest UI stall while searching " << longest_stall_ms << " ms"
             << ", slowest timed answer " << slowest_timed_answer_ms << " ms of " << time_ms
             << ", move now answered within " << slowest_move_now_ms << " ms, " << frames_per_s
             << " frames/s and " << board_draws_searching
             << " board cells drawn while searching, renderer " << watch->renderer()
             << (watch->slow() ? " (slow)" : "");
        *detail += more.str();
        return colors > 50 && ai_moves > 1 && longest_stall_ms < 1000 && slowest_move_now_ms >= 0 &&
               slowest_move_now_ms < 1000 && slowest_timed_answer_ms >= 0 &&
               slowest_timed_answer_ms < time_ms + kAnswerMarginMs;
      });
}

}  // namespace mankalah
