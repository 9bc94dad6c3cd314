// Mouse and keyboard wiring the windows share: the orbit camera's drag and scroll on a frame view
// (raytracer, boids) and keys for the whole window (every app). Handlers are plain GTK signal
// callbacks with the same user data.
#pragma once

#include <gtk/gtk.h>

namespace clf::gtk {

struct PointerHandlers {
  // The mouse button that drags (GDK_BUTTON_PRIMARY, ...; 0: any, the handlers can ask
  // gtk_gesture_single_get_current_button which).
  guint drag_button = GDK_BUTTON_PRIMARY;
  void (*drag_begin)(GtkGestureDrag*, double x, double y, gpointer data) = nullptr;
  void (*drag_update)(GtkGestureDrag*, double dx, double dy, gpointer data) = nullptr;
  void (*drag_end)(GtkGestureDrag*, double dx, double dy, gpointer data) = nullptr;
  gboolean (*scroll)(GtkEventControllerScroll*, double dx, double dy, gpointer data) = nullptr;
  void (*motion)(GtkEventControllerMotion*, double x, double y, gpointer data) = nullptr;
};

// Adds a drag gesture, a vertical scroll controller and a motion controller to `view` for the
// handlers that are set.
void add_pointer_handlers(GtkWidget* view, const PointerHandlers& handlers, gpointer data);

using KeyHandler = gboolean (*)(GtkEventControllerKey*, guint key, guint code,
                                GdkModifierType state, gpointer data);

enum class KeyPhase {
  bubble,   // keys a focused widget does not use (typing into an entry stays there)
  capture,  // every key, before a focused button can swallow it
};

using KeyReleaseHandler = void (*)(GtkEventControllerKey*, guint key, guint code,
                                   GdkModifierType state, gpointer data);

// Calls `on_key` for the keys pressed in `window`, and `on_release` (where given) for those let
// go (keys held down, e.g. to fly).
void add_window_keys(GtkWindow* window, KeyHandler on_key, gpointer data, KeyPhase phase,
                     KeyReleaseHandler on_release = nullptr);

}  // namespace clf::gtk
