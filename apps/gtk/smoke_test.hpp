// The GUI smoke tests' shared steps (ctest runs each app's window under Xvfb): a deadline, a
// screenshot of the window checked not to be blank, one verdict line that ctest matches
// ("not blank"), the exit status, and quitting the application. Each app decides when its
// window has done enough to be photographed. clf_add_gui_smoke_test() in apps/gtk/CMakeLists.txt
// registers the test.
#pragma once

#include <gtk/gtk.h>

#include <cstddef>
#include <functional>
#include <string>

namespace clf::gtk {

class SmokeTest {
 public:
  // Judges a saved screenshot from its count of distinct colours; may add to *detail.
  using Judge = std::function<bool(std::size_t colors, std::string* detail)>;

  // Inactive (every call a no-op) while `path` is empty. Fails the test after timeout_s.
  void start(GtkApplication* app, GtkWindow* window, std::string path, int timeout_s = 120);
  bool active() const { return !path_.empty() && !done_; }
  // True once screenshot_after() was called (the shot may still be pending).
  bool scheduled() const { return scheduled_; }
  const std::string& path() const { return path_; }

  // After delay_ms (so that the last frame is drawn) saves the window to the PNG and finishes
  // with judge's verdict; `detail` (what the window did) starts the verdict line. At most once.
  void screenshot_after(int delay_ms, std::function<std::string()> detail, Judge judge);
  // Prints "screenshot PATH after DETAIL: not blank" (or ": FAILED"), sets the exit status, runs
  // the on_finish hook (e.g. to stop a search) and quits the application. At most once.
  void finish(bool ok, const std::string& detail);
  // 0 unless the test failed.
  int exit_status() const { return exit_status_; }
  void set_on_finish(std::function<void()> hook) { on_finish_ = std::move(hook); }

 private:
  void take_screenshot();
  void retry_after_next_paint();

  static constexpr int kAttempts = 20;

  GtkApplication* app_ = nullptr;
  GtkWindow* window_ = nullptr;
  std::string path_;
  bool scheduled_ = false;
  bool done_ = false;
  int attempts_ = 0;
  GdkFrameClock* paint_clock_ = nullptr;  // where after_paint_ is connected, while it is
  gulong after_paint_ = 0;
  int exit_status_ = 0;
  std::function<std::string()> detail_;
  Judge judge_;
  std::function<void()> on_finish_;
};

// The usual judge: more than min_colors distinct colours (a blank window has a handful).
SmokeTest::Judge more_colors_than(std::size_t min_colors);

}  // namespace clf::gtk
