#include "apps/gtk/render_watch.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "framework/stopwatch.hpp"

namespace clf::gtk {

namespace {
constexpr const char* kKey = "clf-render-watch";
}

RenderWatch* RenderWatch::attach(GtkWindow* window, std::string program) {
  auto* watch = new RenderWatch(window, std::move(program));
  g_object_set_data_full(G_OBJECT(window), kKey, watch,
                         [](gpointer data) { delete static_cast<RenderWatch*>(data); });
  if (gtk_widget_get_realized(GTK_WIDGET(window)))
    on_realize(GTK_WIDGET(window), watch);
  else
    g_signal_connect(window, "realize", G_CALLBACK(on_realize), watch);
  return watch;
}

RenderWatch* RenderWatch::of(GtkWindow* window) {
  return static_cast<RenderWatch*>(g_object_get_data(G_OBJECT(window), kKey));
}

std::string RenderWatch::renderer() const {
  GskRenderer* renderer = gtk_native_get_renderer(GTK_NATIVE(window_));
  return renderer != nullptr ? G_OBJECT_TYPE_NAME(renderer) : "none";
}

void RenderWatch::on_realize(GtkWidget* widget, gpointer data) {
  GdkFrameClock* clock = gtk_widget_get_frame_clock(widget);
  if (clock == nullptr) return;
  g_signal_connect(clock, "before-paint", G_CALLBACK(on_before_paint), data);
  g_signal_connect(clock, "after-paint", G_CALLBACK(on_after_paint), data);
}

void RenderWatch::on_before_paint(GdkFrameClock*, gpointer data) {
  static_cast<RenderWatch*>(data)->paint_started_ = std::chrono::steady_clock::now();
}

void RenderWatch::on_after_paint(GdkFrameClock*, gpointer data) {
  auto* watch = static_cast<RenderWatch*>(data);
  watch->last_paint_ms_ = clf::milliseconds_since(watch->paint_started_);
  watch->recent_ms_[watch->frames_ % kFramesToJudge] = watch->last_paint_ms_;
  ++watch->frames_;
  if (!watch->judged_ && watch->frames_ >= 2 * kFramesToJudge) watch->judge();
}

void RenderWatch::judge() {
  judged_ = true;
  double sorted[kFramesToJudge];
  std::copy(std::begin(recent_ms_), std::end(recent_ms_), sorted);
  std::nth_element(sorted, sorted + kFramesToJudge / 2, sorted + kFramesToJudge);
  const double median = sorted[kFramesToJudge / 2];
  if (median <= kSlowPaintMs) return;
  slow_ = true;
  g_object_set(gtk_settings_get_default(), "gtk-enable-animations", FALSE, nullptr);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.0f", median);
  std::cerr << program_ << ": drawing the window takes " << ms << " ms a frame with " << renderer()
            << " (software OpenGL?); animations are off. GSK_RENDERER=cairo may be faster.\n";
}

}  // namespace clf::gtk
