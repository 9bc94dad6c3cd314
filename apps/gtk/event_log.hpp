// What a window did, as JSON lines, for tests that drive the window from outside (tests/gui/,
// with xdotool) and must know when the AI moved or a frame arrived. Off unless the environment
// names a file: CLF_GUI_EVENTS=PATH. Each line is {"t": ms since start, "event": NAME, ...}.
// Use from the UI thread.
#pragma once

#include <gtk/gtk.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace clf::gtk {

// One field of an event: a name and its value already written as JSON.
struct EventField {
  EventField(const char* name, const std::string& text);  // a JSON string
  EventField(const char* name, const char* text);
  EventField(const char* name, double number);
  EventField(const char* name, int number) : EventField(name, static_cast<double>(number)) {}
  EventField(const char* name, bool flag);
  std::string name;
  std::string json;
  static EventField raw(const char* name, std::string json) {
    EventField field(name, 0);
    field.json = std::move(json);
    return field;
  }
};

bool events_enabled();
void log_event(const char* event, std::initializer_list<EventField> fields = {});
// Logs where `widget` is in its window (x, y, width, height in the X window's coordinates) under
// `name` once it is laid out, and again whenever that changes, so a test can click it.
void log_widget_bounds(const char* name, GtkWidget* widget);

}  // namespace clf::gtk
