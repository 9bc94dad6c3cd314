#include "apps/gtk/event_log.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "framework/stopwatch.hpp"

namespace clf::gtk {

namespace {

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

struct EventFile {
  std::ofstream out;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

EventFile* event_file() {
  static const std::unique_ptr<EventFile> file = []() -> std::unique_ptr<EventFile> {
    const char* path = std::getenv("CLF_GUI_EVENTS");
    if (path == nullptr || *path == '\0') return nullptr;
    auto opened = std::make_unique<EventFile>();
    opened->out.open(path, std::ios::trunc);
    return opened->out ? std::move(opened) : nullptr;
  }();
  return file.get();
}

}  // namespace

EventField::EventField(const char* field, const std::string& text)
    : name(field), json(json_string(text)) {}
EventField::EventField(const char* field, const char* text)
    : EventField(field, std::string(text)) {}
EventField::EventField(const char* field, double number) : name(field) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", number);
  json = text;
}
EventField::EventField(const char* field, bool flag) : name(field), json(flag ? "true" : "false") {}

bool events_enabled() { return event_file() != nullptr; }

void log_event(const char* event, std::initializer_list<EventField> fields) {
  EventFile* file = event_file();
  if (file == nullptr) return;
  const double ms = clf::milliseconds_since(file->start);
  std::string line = "{\"t\":" + EventField("t", ms).json + ",\"event\":" + json_string(event);
  for (const EventField& field : fields) line += "," + json_string(field.name) + ":" + field.json;
  file->out << line << "}\n" << std::flush;
}

void log_widget_bounds(const char* name, GtkWidget* widget) {
  if (!events_enabled()) return;
  struct Watched {
    std::string name;
    GtkWidget* widget;  // referenced while watched
    graphene_rect_t logged;
  };
  // Polled for as long as the window runs: bounds exist only after the first layout, and change
  // when the window is resized; each change is logged (a test uses the latest).
  g_timeout_add_full(
      G_PRIORITY_DEFAULT, 200,
      +[](gpointer data) -> gboolean {
        auto* watched = static_cast<Watched*>(data);
        GtkNative* native = gtk_widget_get_native(watched->widget);
        graphene_rect_t bounds;
        if (native == nullptr || gtk_widget_get_width(watched->widget) == 0 ||
            !gtk_widget_compute_bounds(watched->widget, GTK_WIDGET(native), &bounds)) {
          return G_SOURCE_CONTINUE;  // not laid out yet
        }
        // In the surface's coordinates, which are the X window's (client-side decorations
        // shift the widget tree inside the surface).
        double surface_x = 0, surface_y = 0;
        gtk_native_get_surface_transform(native, &surface_x, &surface_y);
        bounds.origin.x += static_cast<float>(surface_x);
        bounds.origin.y += static_cast<float>(surface_y);
        if (graphene_rect_equal(&bounds, &watched->logged)) return G_SOURCE_CONTINUE;
        watched->logged = bounds;
        log_event("widget", {{"name", watched->name},
                             {"x", bounds.origin.x},
                             {"y", bounds.origin.y},
                             {"width", bounds.size.width},
                             {"height", bounds.size.height}});
        return G_SOURCE_CONTINUE;
      },
      new Watched{name, GTK_WIDGET(g_object_ref(widget)), graphene_rect_t{}},
      [](gpointer data) {
        auto* watched = static_cast<Watched*>(data);
        g_object_unref(watched->widget);
        delete watched;
      });
}

}  // namespace clf::gtk
