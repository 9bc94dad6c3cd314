// Watches how long a window takes to paint its frames. GTK's default renderer is OpenGL, and on a
// machine without a GPU (a VM, a remote desktop, Xvfb) that is Mesa's software rasteriser, where
// one frame of a full window can take longer than the frame interval. Then the watch says so once
// on stderr and turns GTK's animations off (a spinner would otherwise keep the renderer busy
// every frame); the windows stay usable on any renderer.
#pragma once

#include <gtk/gtk.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

namespace clf::gtk {

class RenderWatch {
 public:
  // Median paint time above which rendering counts as slow: slower than 30 frames a second.
  static constexpr double kSlowPaintMs = 33;
  // Frames measured before judging (the first frames include loading fonts and shaders).
  static constexpr int kFramesToJudge = 12;

  // Starts watching `window`'s frame clock; `program` names the notice's sender. The watch is
  // owned by the window (freed with it); RenderWatch::of(window) finds it.
  static RenderWatch* attach(GtkWindow* window, std::string program);
  static RenderWatch* of(GtkWindow* window);

  std::uint64_t frames() const { return frames_; }
  double last_paint_ms() const { return last_paint_ms_; }
  // True once paints were found slow (animations are then off).
  bool slow() const { return slow_; }
  // The renderer GTK picked (GskGLRenderer, GskCairoRenderer, ...), once the window is shown.
  std::string renderer() const;

 private:
  RenderWatch(GtkWindow* window, std::string program)
      : window_(window), program_(std::move(program)) {}
  static void on_realize(GtkWidget* widget, gpointer data);
  static void on_before_paint(GdkFrameClock*, gpointer data);
  static void on_after_paint(GdkFrameClock*, gpointer data);
  void judge();

  GtkWindow* window_;
  std::string program_;
  std::chrono::steady_clock::time_point paint_started_;
  std::uint64_t frames_ = 0;
  double last_paint_ms_ = 0;
  double recent_ms_[kFramesToJudge] = {};
  bool slow_ = false;
  bool judged_ = false;
};

}  // namespace clf::gtk
