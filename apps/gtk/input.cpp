#include "apps/gtk/input.hpp"

namespace clf::gtk {

void add_pointer_handlers(GtkWidget* view, const PointerHandlers& handlers, gpointer data) {
  if (handlers.drag_begin || handlers.drag_update || handlers.drag_end) {
    GtkGesture* drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), handlers.drag_button);
    if (handlers.drag_begin) {
      g_signal_connect(drag, "drag-begin", G_CALLBACK(handlers.drag_begin), data);
    }
    if (handlers.drag_update) {
      g_signal_connect(drag, "drag-update", G_CALLBACK(handlers.drag_update), data);
    }
    if (handlers.drag_end) g_signal_connect(drag, "drag-end", G_CALLBACK(handlers.drag_end), data);
    gtk_widget_add_controller(view, GTK_EVENT_CONTROLLER(drag));
  }
  if (handlers.scroll) {
    GtkEventController* scroll =
        gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    g_signal_connect(scroll, "scroll", G_CALLBACK(handlers.scroll), data);
    gtk_widget_add_controller(view, scroll);
  }
  if (handlers.motion) {
    GtkEventController* motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(handlers.motion), data);
    gtk_widget_add_controller(view, motion);
  }
}

void add_window_keys(GtkWindow* window, KeyHandler on_key, gpointer data, KeyPhase phase,
                     KeyReleaseHandler on_release) {
  GtkEventController* keys = gtk_event_controller_key_new();
  if (phase == KeyPhase::capture) {
    gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE);
  }
  g_signal_connect(keys, "key-pressed", G_CALLBACK(on_key), data);
  if (on_release) g_signal_connect(keys, "key-released", G_CALLBACK(on_release), data);
  gtk_widget_add_controller(GTK_WIDGET(window), keys);
}

}  // namespace clf::gtk
