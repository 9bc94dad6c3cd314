// The Mankalah window's side panel (new game, undo, hint; engine, time per move, device, side
// and first mover; Calvin's match) and its status bar (the AI's progress and "move now").
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "apps/gtk/controls.hpp"
#include "apps/gtk/frame_view.hpp"
#include "apps/mankalah/gui_window.hpp"
#include "framework/device.hpp"

namespace mankalah {

namespace {

GtkWidget* dropdown(GtkWidget* panel, const char* title, const std::vector<std::string>& items,
                    int selected, void (*changed)(GObject*, GParamSpec*, gpointer), Gui* g) {
  GtkWidget* d = clf::gtk::string_dropdown(items, selected);
  g_signal_connect(d, "notify::selected", G_CALLBACK(changed), g);
  return clf::gtk::append_labelled(panel, title, d);
}

guint selected(GObject* object) { return gtk_drop_down_get_selected(GTK_DROP_DOWN(object)); }

// Engine, time per move, device, and the next game's side and first mover.
void append_settings(GtkWidget* panel, Gui* g) {
  gtk_box_append(GTK_BOX(panel), label("Settings", "heading", GTK_ALIGN_START));
  const std::vector<std::string>& names = engine_names();
  g->engine_dropdown = dropdown(
      panel, "Engine", names,
      static_cast<int>(std::find(names.begin(), names.end(), g->engine) - names.begin()),
      +[](GObject* o, GParamSpec*, gpointer d) {
        if (selected(o) < engine_names().size()) gui_of(d)->engine = engine_names()[selected(o)];
        gui_of(d)->log_settings();
        gui_of(d)->refresh();
      },
      g);
  g->time_choices.assign(std::begin(kTimeChoicesMs), std::end(kTimeChoicesMs));
  if (std::find(g->time_choices.begin(), g->time_choices.end(), g->time_ms) ==
      g->time_choices.end()) {
    g->time_choices.push_back(g->time_ms);
    std::sort(g->time_choices.begin(), g->time_choices.end());
  }
  std::vector<std::string> times;
  for (int ms : g->time_choices) {
    char text[32];
    if (ms < 1000)
      std::snprintf(text, sizeof text, "%d ms", ms);
    else
      std::snprintf(text, sizeof text, ms % 1000 == 0 ? "%.0f s" : "%.1f s", ms / 1000.0);
    times.push_back(text);
  }
  g->time_dropdown = dropdown(
      panel, "Time per AI move", times,
      static_cast<int>(std::find(g->time_choices.begin(), g->time_choices.end(), g->time_ms) -
                       g->time_choices.begin()),
      +[](GObject* o, GParamSpec*, gpointer d) {
        if (selected(o) < gui_of(d)->time_choices.size())
          gui_of(d)->time_ms = gui_of(d)->time_choices[selected(o)];
        gui_of(d)->log_settings();
      },
      g);
  // The device the GPU engines use (the choice --device and friends made, preselected).
  int default_device = 0;
  try {
    const std::vector<clf::DeviceInfo> devices = clf::enumerate_devices();
    default_device = static_cast<int>(clf::select_device(devices, g->options.request).position);
  } catch (const std::exception&) {
  }
  gtk_box_append(GTK_BOX(panel),
                 label("Device (GPU engines, database build)", nullptr, GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel),
                 clf::gtk::device_picker(default_device, [g](int index) { g->device = index; }));
  dropdown(
      panel, "You play (next game)", {"BOTTOM (pits 0-5)", "TOP (pits 7-12)"},
      g->next_settings.human_side == KALAH_TOP ? 1 : 0,
      +[](GObject* o, GParamSpec*, gpointer d) {
        gui_of(d)->next_settings.human_side = selected(o) == 1 ? KALAH_TOP : KALAH_BOTTOM;
      },
      g);
  g->first_move_dropdown = dropdown(
      panel, "First move (next game)", {"You", "The AI"}, g->next_settings.human_first ? 0 : 1,
      +[](GObject* o, GParamSpec*, gpointer d) {
        gui_of(d)->next_settings.human_first = selected(o) == 0;
      },
      g);
}

}  // namespace

GtkWidget* build_panel(Gui* g) {
  GtkWidget* panel = gtk_box_new(GTK_ORIENTATION_VERTICAL, 5);
  gtk_widget_add_css_class(panel, "panel");
  gtk_widget_set_size_request(panel, 230, -1);

  gtk_box_append(GTK_BOX(panel), label("Game", "heading", GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel),
                 button(
                     "_New game (N)", +[](GtkButton*, gpointer d) { gui_of(d)->new_game(); }, g));
  g->undo = button(
      "_Undo (U)", +[](GtkButton*, gpointer d) { gui_of(d)->take_back(); }, g);
  gtk_box_append(GTK_BOX(panel), g->undo);
  g->hint = button(
      "_Hint (H)", +[](GtkButton*, gpointer d) { gui_of(d)->ask_hint(); }, g);
  gtk_box_append(GTK_BOX(panel), g->hint);

  append_settings(panel, g);
  gtk_box_append(GTK_BOX(panel), build_database_section(g));

  gtk_box_append(GTK_BOX(panel), label("Calvin's match", "heading", GTK_ALIGN_START));
  gtk_box_append(GTK_BOX(panel), button(
                                     "Start a two-game _match",
                                     +[](GtkButton*, gpointer d) { gui_of(d)->start_match(); }, g));
  g->match_label = label("", nullptr, GTK_ALIGN_START);
  gtk_label_set_wrap(GTK_LABEL(g->match_label), TRUE);
  gtk_box_append(GTK_BOX(panel), g->match_label);

  GtkWidget* keys = label(
      "Keys: 1-6 play \u00b7 N new \u00b7 U undo\nH hint \u00b7 M move now \u00b7 Ctrl+Q quit",
      "caption", GTK_ALIGN_START);
  gtk_widget_set_valign(keys, GTK_ALIGN_END);
  gtk_widget_set_vexpand(keys, TRUE);
  gtk_box_append(GTK_BOX(panel), keys);
  return panel;
}

GtkWidget* build_status_bar(Gui* g) {
  GtkWidget* status_bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_valign(status_bar, GTK_ALIGN_END);
  gtk_widget_set_vexpand(status_bar, TRUE);
  g->spinner = gtk_spinner_new();
  gtk_box_append(GTK_BOX(status_bar), g->spinner);
  g->status = label("", "status", GTK_ALIGN_START);
  gtk_widget_set_hexpand(g->status, TRUE);
  gtk_label_set_ellipsize(GTK_LABEL(g->status), PANGO_ELLIPSIZE_END);
  gtk_box_append(GTK_BOX(status_bar), g->status);
  g->move_now = button(
      "Move _now (M)", +[](GtkButton*, gpointer d) { gui_of(d)->press_move_now(); }, g);
  gtk_box_append(GTK_BOX(status_bar), g->move_now);
  return status_bar;
}

void Gui::update_status() {
  status_updated = Clock::now();
  std::ostringstream line;
  line.setf(std::ios::fixed);
  if (active_kind != SearchKind::none) {
    line.precision(1);
    line << (active_kind == SearchKind::hint ? "hint: " : "AI: ") << active_engine << " thinking "
         << ms_since(search_started) / 1000 << " s";
    if (has_progress) {
      line.precision(2);
      line << "  \u00b7  depth " << progress.depth << "  \u00b7  "
           << (progress.ms > 0 ? progress.nodes / progress.ms / 1000 : 0) << " M nodes/s"
           << "  \u00b7  best c" << progress.move;
    }
    gtk_spinner_start(GTK_SPINNER(spinner));
  } else {
    line << last_search;
    gtk_spinner_stop(GTK_SPINNER(spinner));
  }
  gtk_label_set_text(GTK_LABEL(status), line.str().c_str());
}

void Gui::update_match_label() {
  if (!session.in_match()) {
    gtk_label_set_text(GTK_LABEL(match_label),
                       "Two games, each side starts once;\nthe stones of both are added.");
    return;
  }
  std::string text;
  const std::vector<MatchGame> games = session.match();
  for (std::size_t i = 0; i < games.size(); ++i) {
    text += "Game " + std::to_string(i + 1) +
            (games[i].human_first ? " (you start): " : " (AI starts): ");
    if (games[i].finished) {
      text += "you " + std::to_string(games[i].human) + " \u2013 AI " + std::to_string(games[i].ai);
    } else {
      text += static_cast<int>(i) == session.match_game() ? "playing" : "\u2014";
    }
    text += "\n";
  }
  text += session.match_summary();
  gtk_label_set_text(GTK_LABEL(match_label), text.c_str());
}

}  // namespace mankalah
