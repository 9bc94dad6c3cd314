// The start-up every window shares: check for a display, run the GtkApplication with a worker
// thread whose results reach the UI thread, and shut down in the one safe order (the worker is
// joined before the state it posts to goes away; results that arrive after the window closed
// are dropped).
#pragma once

#include <gtk/gtk.h>

#include <functional>
#include <memory>
#include <string>
#include <utility>

#include "apps/gtk/latest_worker.hpp"
#include "apps/gtk/smoke_test.hpp"

namespace clf::gtk {

// True when GTK can open a display; otherwise tells the user on stderr, e.g.
// "cl-boids: cannot open a display (use `cl-boids run` headless)".
bool open_display(const std::string& program, const std::string& without_display);

// Runs a GtkApplication whose activate handler calls build(app, window) with a new window of
// the given title and size, its paint times watched (RenderWatch). Returns the exit status. The
// application sees no command-line arguments (the app parsed them).
int run_application(const std::string& id, const std::string& title, int width, int height,
                    std::function<void(GtkApplication*, GtkWindow*)> build);

// Calls fn on the UI thread, from any thread, before the next layout and paint.
void post_to_ui(std::function<void()> fn);

struct WindowSpec {
  std::string id;     // the GtkApplication id
  std::string title;  // and the window's title and default size
  int width = 0;
  int height = 0;
};

// Runs the window with `worker` (a slot in the window's state, which must outlive this call)
// doing `work` on its own thread and `receive` getting each result on the UI thread.
// `before_join` runs after the window closed and before the worker is joined (e.g. to stop a
// long search). Returns the application's status, else the smoke test's.
template <typename Request, typename Result>
int run_window(const WindowSpec& spec, std::unique_ptr<LatestOnlyWorker<Request, Result>>& worker,
               typename LatestOnlyWorker<Request, Result>::Work work,
               std::function<void(Result)> receive,
               std::function<void(GtkApplication*, GtkWindow*)> build, const SmokeTest& smoke,
               const std::function<void()>& before_join = nullptr) {
  // Set while the window exists: a result that reaches the UI thread after the window was
  // destroyed (it closes a few main-loop iterations before the loop ends) is dropped.
  auto window_open = std::make_shared<bool>(false);
  worker = std::make_unique<LatestOnlyWorker<Request, Result>>(
      std::move(work), [receive = std::move(receive), window_open](Result result) {
        auto shared = std::make_shared<Result>(std::move(result));
        post_to_ui([receive, shared, window_open] {
          if (*window_open) receive(std::move(*shared));
        });
      });
  const int status = run_application(
      spec.id, spec.title, spec.width, spec.height,
      [build = std::move(build), window_open](GtkApplication* app, GtkWindow* window) {
        *window_open = true;
        g_signal_connect(window, "destroy", G_CALLBACK(+[](GtkWidget*, gpointer open) {
                           *static_cast<bool*>(open) = false;
                         }),
                         window_open.get());
        build(app, window);
      });
  if (before_join) before_join();
  worker.reset();
  return status != 0 ? status : smoke.exit_status();
}

}  // namespace clf::gtk
