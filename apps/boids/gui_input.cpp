// The boids window's input: the goal follows the mouse, dragging orbits the 3D camera, scrolling
// zooms, and keys for running, stepping, resetting and screenshots.
#include <algorithm>

#include "apps/boids/gui_window.hpp"
#include "apps/gtk/input.hpp"

namespace boids {

namespace {

gboolean on_tick(GtkWidget*, GdkFrameClock*, gpointer data) {
  gui_of(data)->tick();
  return G_SOURCE_CONTINUE;
}

void on_motion(GtkEventControllerMotion*, double x, double y, gpointer data) {
  gui_of(data)->move_goal(x, y);
}

void on_drag_begin(GtkGestureDrag*, double, double, gpointer data) {
  Gui* g = gui_of(data);
  if (g->frame_rules.dims != 3) return;
  g->dragging = true;
  g->drag_yaw = g->yaw;
  g->drag_pitch = g->pitch;
}

void on_drag_update(GtkGestureDrag*, double dx, double dy, gpointer data) {
  Gui* g = gui_of(data);
  if (!g->dragging) return;
  g->yaw = g->drag_yaw - static_cast<float>(dx) * 0.01f;
  g->pitch = std::clamp(g->drag_pitch + static_cast<float>(dy) * 0.01f, -1.5f, 1.5f);
  g->dirty = true;
}

void on_drag_end(GtkGestureDrag*, double, double, gpointer data) { gui_of(data)->dragging = false; }

gboolean on_scroll(GtkEventControllerScroll*, double, double dy, gpointer data) {
  Gui* g = gui_of(data);
  g->zoom = std::clamp(g->zoom * std::pow(0.9f, static_cast<float>(dy)), 0.2f, 20.0f);
  g->dirty = true;
  return TRUE;
}

gboolean on_key(GtkEventControllerKey*, guint key, guint, GdkModifierType, gpointer data) {
  Gui* g = gui_of(data);
  switch (key) {
    case GDK_KEY_space:
      g->set_running(!g->running);
      return TRUE;
    case GDK_KEY_s:
    case GDK_KEY_S:
      g->step_once();
      return TRUE;
    case GDK_KEY_r:
    case GDK_KEY_R:
      g->reset();
      return TRUE;
    case GDK_KEY_g:
    case GDK_KEY_G:
      gtk_check_button_set_active(GTK_CHECK_BUTTON(g->goal_toggle), !g->goal_on);
      return TRUE;
    case GDK_KEY_c:
    case GDK_KEY_C:
      g->screenshot();
      return TRUE;
    case GDK_KEY_q:
    case GDK_KEY_Q:
    case GDK_KEY_Escape:
      gtk_window_destroy(g->window);
      return TRUE;
    default:
      return FALSE;
  }
}

}  // namespace

void add_input_handlers(Gui* g, GtkWindow* window) {
  clf::gtk::PointerHandlers pointer;
  pointer.drag_begin = on_drag_begin;
  pointer.drag_update = on_drag_update;
  pointer.drag_end = on_drag_end;
  pointer.scroll = on_scroll;
  pointer.motion = on_motion;
  clf::gtk::add_pointer_handlers(g->view->widget(), pointer, g);
  // Capture phase: space and the letters reach the window even when a button has the focus.
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::capture);
  gtk_widget_add_tick_callback(g->view->widget(), on_tick, g, nullptr);
}

}  // namespace boids
