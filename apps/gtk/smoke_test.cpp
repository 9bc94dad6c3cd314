#include "apps/gtk/smoke_test.hpp"

#include <iostream>

#include "apps/gtk/frame_view.hpp"

namespace clf::gtk {

void SmokeTest::start(GtkApplication* app, GtkWindow* window, std::string path, int timeout_s) {
  app_ = app;
  window_ = window;
  path_ = std::move(path);
  if (path_.empty()) return;
  g_timeout_add_seconds(
      timeout_s,
      +[](gpointer data) -> gboolean {
        static_cast<SmokeTest*>(data)->finish(false, "timed out");
        return G_SOURCE_REMOVE;
      },
      this);
}

void SmokeTest::screenshot_after(int delay_ms, std::function<std::string()> detail, Judge judge) {
  if (!active() || scheduled_) return;
  scheduled_ = true;
  detail_ = std::move(detail);
  judge_ = std::move(judge);
  g_timeout_add(
      delay_ms,
      +[](gpointer data) -> gboolean {
        static_cast<SmokeTest*>(data)->take_screenshot();
        return G_SOURCE_REMOVE;
      },
      this);
}

void SmokeTest::take_screenshot() {
  if (!active()) return;
  std::string error;
  if (!save_widget_png(gtk_window_get_child(window_), path_, &error)) {
    // A window that is being laid out again (an overlay's text just changed) snapshots to
    // nothing. A timer may keep landing between a change and its layout while frames arrive
    // (the boids overlay changes with every frame), so retry right after the next paint, when
    // the layout is done.
    if (++attempts_ < kAttempts) {
      retry_after_next_paint();
      return;
    }
    finish(false, error + " (" + std::to_string(attempts_) + " attempts)");
    return;
  }
  const std::size_t colors = png_distinct_colors(path_);
  std::string detail = detail_ ? detail_() : std::string();
  detail += (detail.empty() ? "" : ", ") + std::to_string(colors) + " colours";
  const bool ok = judge_(colors, &detail);
  finish(ok, detail);
}

void SmokeTest::retry_after_next_paint() {
  GdkFrameClock* clock = gtk_widget_get_frame_clock(GTK_WIDGET(window_));
  if (clock == nullptr) {
    g_timeout_add(
        100,
        +[](gpointer data) -> gboolean {
          static_cast<SmokeTest*>(data)->take_screenshot();
          return G_SOURCE_REMOVE;
        },
        this);
    return;
  }
  paint_clock_ = clock;
  after_paint_ = g_signal_connect_swapped(clock, "after-paint", G_CALLBACK(+[](SmokeTest* self) {
                                            g_signal_handler_disconnect(self->paint_clock_,
                                                                        self->after_paint_);
                                            self->after_paint_ = 0;
                                            self->take_screenshot();
                                          }),
                                          this);
  gtk_widget_queue_draw(GTK_WIDGET(window_));
}

void SmokeTest::finish(bool ok, const std::string& detail) {
  if (!active()) return;
  done_ = true;
  if (after_paint_ != 0) {  // a retry still waiting for a paint (the deadline came first)
    g_signal_handler_disconnect(paint_clock_, after_paint_);
    after_paint_ = 0;
  }
  std::cout << "screenshot " << path_ << " after " << detail << (ok ? ": not blank" : ": FAILED")
            << std::endl;
  exit_status_ = ok ? 0 : 1;
  if (on_finish_) on_finish_();
  g_application_quit(G_APPLICATION(app_));
}

SmokeTest::Judge more_colors_than(std::size_t min_colors) {
  return [min_colors](std::size_t colors, std::string*) { return colors > min_colors; };
}

}  // namespace clf::gtk
