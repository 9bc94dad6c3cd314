// The start-up every window shares: check for a display, run the GtkApplication with a worker
// thread whose results reach the UI thread, and shut down in the one safe order (the worker is
// joined before the state it posts to goes away; results posted after the window closed are
// never dispatched, since nothing runs the main context any more).
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
  worker = std::make_unique<LatestOnlyWorker<Request, Result>>(
      std::move(work), [receive = std::move(receive)](Result result) {
        auto shared = std::make_shared<Result>(std::move(result));
        post_to_ui([receive, shared] { receive(std::move(*shared)); });
      });
  const int status =
      run_application(spec.id, spec.title, spec.width, spec.height, std::move(build));
  if (before_join) before_join();
  worker.reset();
  return status != 0 ? status : smoke.exit_status();
}

}  // namespace clf::gtk
