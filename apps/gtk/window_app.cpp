#include "apps/gtk/window_app.hpp"

#include <cerrno>
#include <iostream>

#include "apps/gtk/render_watch.hpp"

namespace clf::gtk {

bool open_display(const std::string& program, const std::string& without_display) {
  if (gtk_init_check()) return true;
  std::cerr << program << ": cannot open a display (" << without_display << ")\n";
  return false;
}

namespace {

struct ShellData {
  std::string title;
  int width, height;
  std::function<void(GtkApplication*, GtkWindow*)> build;
};

void shell_activate(GtkApplication* app, gpointer data) {
  auto* shell = static_cast<ShellData*>(data);
  GtkWidget* window = gtk_application_window_new(app);
  gtk_window_set_title(GTK_WINDOW(window), shell->title.c_str());
  gtk_window_set_default_size(GTK_WINDOW(window), shell->width, shell->height);
  RenderWatch::attach(GTK_WINDOW(window), program_invocation_short_name);
  shell->build(app, GTK_WINDOW(window));
  gtk_window_present(GTK_WINDOW(window));
}

gboolean run_posted(gpointer data) {
  auto* fn = static_cast<std::function<void()>*>(data);
  (*fn)();
  delete fn;
  return G_SOURCE_REMOVE;
}

}  // namespace

int run_application(const std::string& id, const std::string& title, int width, int height,
                    std::function<void(GtkApplication*, GtkWindow*)> build) {
  ShellData shell{title, width, height, std::move(build)};
  GtkApplication* app = gtk_application_new(id.c_str(), G_APPLICATION_NON_UNIQUE);
  g_signal_connect(app, "activate", G_CALLBACK(shell_activate), &shell);
  char name[] = "app";
  char* argv[] = {name, nullptr};
  const int status = g_application_run(G_APPLICATION(app), 1, argv);
  g_object_unref(app);
  return status;
}

void post_to_ui(std::function<void()> fn) {
  // G_PRIORITY_DEFAULT, above GTK's layout and paint (GDK_PRIORITY_REDRAW): at idle priority a
  // renderer that needs longer than a frame interval (software OpenGL) starves results forever.
  g_idle_add_full(G_PRIORITY_DEFAULT, run_posted, new std::function<void()>(std::move(fn)),
                  nullptr);
}

}  // namespace clf::gtk
