// The window's "perfect play" section: what the endgame databases cover, and where they are
// missing, a button that builds them on a thread of their own with a progress bar while the game
// goes on with alphabeta; once built, the AI becomes the perfect engine.
#include <memory>
#include <sstream>
#include <vector>

#include "apps/gtk/event_log.hpp"
#include "apps/gtk/window_app.hpp"
#include "apps/mankalah/endgame/database.hpp"
#include "apps/mankalah/gui_window.hpp"
#include "framework/device_set.hpp"
#include "framework/runtime.hpp"

namespace mankalah {

namespace {

// Levels a build goes up to: on a GPU a few seconds' work (24 stones, 1.2 GB), on the CPU the
// least the perfect engine asks for (16 stones, 32 MB).
constexpr int kGpuBuildStones = 24;

std::string database_dir_of(const Gui* g) {
  return g->options.db_dir.empty() ? endgame::default_database_dir().string() : g->options.db_dir;
}

int levels_found(const Gui* g) {
  int levels = 0;
  while (levels <= KALAH_ENDGAME_MAX_LEVEL &&
         std::filesystem::exists(endgame::level_path(database_dir_of(g), levels))) {
    ++levels;
  }
  return levels - 1;
}

void select_engine(Gui* g, const std::string& name) {
  const auto& names = engine_names();
  gtk_drop_down_set_selected(
      GTK_DROP_DOWN(g->engine_dropdown),
      static_cast<guint>(std::find(names.begin(), names.end(), name) - names.begin()));
  g->engine = name;
}

}  // namespace

GtkWidget* build_database_section(Gui* g) {
  GtkWidget* section = gtk_box_new(GTK_ORIENTATION_VERTICAL, 5);
  gtk_box_append(GTK_BOX(section), label("Perfect play", "heading", GTK_ALIGN_START));
  g->database_label = label("", nullptr, GTK_ALIGN_START);
  gtk_label_set_wrap(GTK_LABEL(g->database_label), TRUE);
  gtk_box_append(GTK_BOX(section), g->database_label);
  g->database_progress = gtk_progress_bar_new();
  gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(g->database_progress), TRUE);
  gtk_widget_set_visible(g->database_progress, FALSE);
  gtk_box_append(GTK_BOX(section), g->database_progress);
  g->database_button = button(
      "_Build the endgame databases",
      +[](GtkButton*, gpointer d) { gui_of(d)->start_database_build(); }, g);
  gtk_box_append(GTK_BOX(section), g->database_button);
  g->update_database_section();
  return section;
}

void Gui::update_database_section() {
  const int stones = levels_found(this);
  std::ostringstream text;
  if (database_building) {
    text << "Building the endgame databases; the game goes on meanwhile.";
  } else if (stones >= kPerfectDatabaseStones) {
    text << "Endgame databases: every position with up to " << stones
         << " stones in play. The perfect engine proves its moves.";
  } else {
    text << "No endgame databases yet. Build them and the AI plays perfectly.";
  }
  gtk_label_set_text(GTK_LABEL(database_label), text.str().c_str());
  gtk_widget_set_tooltip_text(database_label, ("Folder: " + database_dir_of(this)).c_str());
  gtk_widget_set_visible(database_button, !database_building && stones < kPerfectDatabaseStones);
  gtk_widget_set_visible(database_progress, database_building);
}

void Gui::start_database_build() {
  if (database_building) return;
  database_building = true;
  database_stop = std::make_shared<std::atomic<bool>>(false);
  gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(database_progress), 0);
  gtk_progress_bar_set_text(GTK_PROGRESS_BAR(database_progress), "starting");
  update_database_section();
  clf::gtk::log_event("database_build", {{"state", "started"}});
  if (database_thread.joinable()) database_thread.join();
  const std::shared_ptr<bool> open = window_open;
  database_thread = std::thread([this, open, stop = database_stop, request = options.request,
                                 chosen = device, dir = database_dir_of(this)] {
    endgame::DatabaseBuild build;
    build.dir = dir;
    build.stop = stop.get();
    build.builder = "cpu";
    build.max_stones = kPerfectDatabaseStones;
    std::unique_ptr<clf::DeviceSet> device;
    try {
      // The device picked in the panel (-1: the options' choice).
      auto runtime =
          chosen >= 0 ? std::make_unique<clf::Runtime>(clf::enumerate_devices().at(chosen), request)
                      : std::make_unique<clf::Runtime>(request);
      if (runtime->device().type == clf::DeviceType::gpu) {
        std::vector<std::unique_ptr<clf::Runtime>> one;
        one.push_back(std::move(runtime));
        device = std::make_unique<clf::DeviceSet>(std::move(one));
        build.builder = "gpu";
        build.max_stones = kGpuBuildStones;
        build.devices = [&device]() -> const clf::DeviceSet& { return *device; };
      }
    } catch (const std::exception&) {
      // No device: the CPU builder needs none.
    }
    std::string error;
    bool finished = false;
    std::ostringstream messages;
    try {
      finished = endgame::build_database(
          build,
          [this, open, &build](const endgame::LevelDone& done) {
            clf::gtk::post_to_ui([this, open, done, last = build.max_stones] {
              if (*open) on_database_level(done, last);
            });
          },
          messages);
    } catch (const std::exception& failure) {
      error = failure.what();
    }
    clf::gtk::post_to_ui([this, open, finished, error] {
      if (*open) database_finished(finished, error);
    });
  });
}

void Gui::on_database_level(const endgame::LevelDone& done, int last) {
  const double total = static_cast<double>(kalah_endgame_level_offset(last + 1));
  const double fraction = (total - static_cast<double>(done.positions_left)) / total;
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(0);
  text << "level " << done.level << " of " << last;
  if (!done.kept && done.seconds > 0) {
    text.precision(1);
    text << "  \u00b7  " << static_cast<double>(done.positions) / done.seconds / 1e6
         << " M positions/s";
    text.precision(0);
    if (const double left = endgame::seconds_left(done); left >= 0) {
      text << "  \u00b7  about " << left << " s left";
    }
  }
  gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(database_progress), fraction);
  gtk_progress_bar_set_text(GTK_PROGRESS_BAR(database_progress), text.str().c_str());
}

void Gui::database_finished(bool finished, const std::string& error) {
  database_building = false;
  clf::gtk::log_event("database_build",
                      {{"state", finished ? "done" : "stopped"}, {"error", error}});
  // Even a build stopped or failed may have written levels the perfect engine would read.
  ++databases_built;
  if (!error.empty()) {
    turn_lines = {"Building the endgame databases failed: " + error};
  } else if (finished && engine == "alphabeta") {
    select_engine(this, "perfect");
    turn_lines = {"The endgame databases are built: the AI now plays the perfect engine."};
  }
  update_database_section();
  refresh();
}

void Gui::stop_database_build() {
  if (database_stop) database_stop->store(true);
  if (database_thread.joinable()) database_thread.join();
}

}  // namespace mankalah
