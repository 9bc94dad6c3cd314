// The cl-mankalah window: the board with the game's messages on the left, the panel on the right,
// keys for the whole window and the 100 ms tick; the AI runs on a worker thread
// (clf::gtk::run_window).
#include "apps/mankalah/gui.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>

#include "apps/gtk/event_log.hpp"
#include "apps/gtk/input.hpp"
#include "apps/gtk/window_app.hpp"
#include "apps/mankalah/engine.hpp"
#include "apps/mankalah/gui_engine_host.hpp"
#include "apps/mankalah/gui_window.hpp"

namespace mankalah {

namespace {

// For tests that drive the window from outside: what it offers and where its controls are.
void log_layout(Gui* g) {
  if (!clf::gtk::events_enabled()) return;
  std::string engines = "[", times = "[";
  for (const std::string& name : engine_names())
    engines += (engines.size() > 1 ? ",\"" : "\"") + name + "\"";
  for (int ms : g->time_choices) times += (times.size() > 1 ? "," : "") + std::to_string(ms);
  clf::gtk::log_event("ready", {clf::gtk::EventField::raw("engines", engines + "]"),
                                clf::gtk::EventField::raw("times_ms", times + "]"),
                                {"engine", g->engine},
                                {"time_ms", g->time_ms}});
  for (int c = 0; c < KALAH_CELLS; ++c) {
    if (c != KALAH_TOP_STORE && c != KALAH_BOTTOM_STORE)
      clf::gtk::log_widget_bounds(("pit" + std::to_string(c)).c_str(), g->cells[c]);
  }
  clf::gtk::log_widget_bounds("undo", g->undo);
  clf::gtk::log_widget_bounds("hint", g->hint);
  clf::gtk::log_widget_bounds("move_now", g->move_now);
  clf::gtk::log_widget_bounds("engine", g->engine_dropdown);
  clf::gtk::log_widget_bounds("time", g->time_dropdown);
  clf::gtk::log_widget_bounds("first_move", g->first_move_dropdown);
  clf::gtk::log_widget_bounds("build_databases", g->database_button);
}

void build_window(Gui* g, GtkApplication* app, GtkWindow* window) {
  g->app = app;
  g->window = window;
  g_object_set(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", TRUE, nullptr);
  load_board_css();

  GtkWidget* root = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 14);
  gtk_widget_add_css_class(root, "mankalah-root");
  GtkWidget* left = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start(left, 16);
  gtk_widget_set_margin_top(left, 12);
  gtk_widget_set_margin_bottom(left, 10);
  gtk_widget_set_hexpand(left, TRUE);
  gtk_box_append(GTK_BOX(left), label("Mankalah", "title"));
  g->top_side = label("", "side");
  gtk_box_append(GTK_BOX(left), g->top_side);
  gtk_box_append(GTK_BOX(left), build_board(g));
  g->bottom_side = label("", "side");
  gtk_box_append(GTK_BOX(left), g->bottom_side);
  g->message = label("", "message");
  gtk_widget_set_size_request(g->message, -1, 84);  // four lines: the board stays put
  gtk_widget_set_valign(g->message, GTK_ALIGN_START);
  gtk_label_set_justify(GTK_LABEL(g->message), GTK_JUSTIFY_CENTER);
  gtk_box_append(GTK_BOX(left), g->message);
  g->result = label("", "result");
  gtk_label_set_justify(GTK_LABEL(g->result), GTK_JUSTIFY_CENTER);
  gtk_box_append(GTK_BOX(left), g->result);
  g->next_game = button(
      "Play game _2 (the AI starts)", +[](GtkButton*, gpointer d) { gui_of(d)->next_match_game(); },
      g);
  gtk_widget_set_halign(g->next_game, GTK_ALIGN_CENTER);
  gtk_box_append(GTK_BOX(left), g->next_game);

  gtk_box_append(GTK_BOX(left), build_status_bar(g));

  gtk_box_append(GTK_BOX(root), left);
  GtkWidget* panel = build_panel(g);
  gtk_widget_set_margin_top(panel, 12);
  gtk_widget_set_margin_bottom(panel, 12);
  gtk_widget_set_margin_end(panel, 12);
  gtk_box_append(GTK_BOX(root), panel);
  gtk_window_set_child(window, root);

  // Capture phase: digits and letters reach the game even when a button has the focus.
  clf::gtk::add_window_keys(window, on_key, g, clf::gtk::KeyPhase::capture);
  g_timeout_add(
      100,
      +[](gpointer data) -> gboolean {
        if (!*gui_of(data)->window_open) return G_SOURCE_REMOVE;  // the window is gone
        gui_of(data)->tick();
        return G_SOURCE_CONTINUE;
      },
      g);
  g->smoke.set_on_finish([g] { g->cancel_search(); });
  // A search's progress or answer that arrives after the window closed must not touch it.
  g_signal_connect(window, "destroy", G_CALLBACK(+[](GtkWidget*, gpointer data) {
                     Gui* g = gui_of(data);
                     g->cancel_search();
                     *g->window_open = false;
                     if (g->database_stop) g->database_stop->store(true);
                   }),
                   g);
  g->smoke.start(app, window, g->options.screenshot);
  log_layout(g);
  if (g->options.match)
    g->start_match();
  else
    g->new_game();
}

}  // namespace

int run_gui(const GuiOptions& options) {
  const std::optional<int> side = parse_side(options.side);
  if (!side)
    throw std::invalid_argument("--side: expected top or bottom, got '" + options.side + "'");
  if (options.first != "human" && options.first != "ai")
    throw std::invalid_argument("--first: expected human or ai, got '" + options.first + "'");
  if (!options.engine.empty() && std::find(engine_names().begin(), engine_names().end(),
                                           options.engine) == engine_names().end()) {
    make_engine(options.engine, EngineOptions{});  // throws, naming the engines there are
  }
  if (options.time_ms <= 0)
    throw std::invalid_argument("--time-ms: expected a positive time, got " +
                                std::to_string(options.time_ms));
  if (!clf::gtk::open_display("cl-mankalah", "use `cl-mankalah play` in the terminal")) return 1;
  Gui gui;
  gui.options = options;
  gui.engine = options.engine.empty() ? default_engine(options.db_dir) : options.engine;
  gui.time_ms = options.time_ms;
  gui.next_settings = SessionSettings{*side, options.first == "human"};
  auto host = std::make_shared<EngineHost>(options.request, options.db_dir);
  Gui* g = &gui;
  const int status = clf::gtk::run_window<SearchRequest, SearchReply>(
      {"org.opencl_apps.mankalah", "Mankalah", 1120, 640}, gui.worker,
      [host, g](const SearchRequest& r) {
        const std::uint64_t serial = r.serial;
        return host->search(r, [g, serial](const SearchResult& progress) {
          clf::gtk::post_to_ui([g, serial, progress] { g->on_progress(serial, progress); });
        });
      },
      [g](SearchReply reply) { g->receive(std::move(reply)); },
      [g](GtkApplication* app, GtkWindow* window) { build_window(g, app, window); }, gui.smoke,
      [g] { g->cancel_search(); });  // a search still running ends within milliseconds
  gui.stop_database_build();
  return status;
}

}  // namespace mankalah
