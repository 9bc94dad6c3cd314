// The raytracer window's files: opening a scene or model (file chooser, drop onto the window, or
// reload) or an environment image to surround it, saving the accumulated image as PNG and the
// scene as it is shown as a scene file.
// Opening happens on the worker thread (gui_render_state.cpp); a file that cannot be opened
// leaves the scene shown as it was and says why in the panel. Files are written atomically.
#include <filesystem>

#include "apps/common/png_writer.hpp"
#include "apps/gtk/event_log.hpp"
#include "apps/gtk/file_dialog.hpp"
#include "apps/raytracer/gui_window.hpp"
#include "apps/raytracer/scene_json_writer.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

const std::vector<clf::gtk::FileFilter> kSceneFilters = {
    {"Scenes, models and environment images",
     {"json", "gltf", "glb", "obj", "hdr", "png", "jpg", "jpeg"}},
    {"Scenes and models (.json, .gltf, .glb, .obj)", {"json", "gltf", "glb", "obj"}},
    {"Environment images (.hdr, .png, .jpg)", {"hdr", "png", "jpg", "jpeg"}},
    {"All files", {}}};

// Images open as the environment around the scene shown; anything else as a scene.
bool is_environment_image(const std::string& path) {
  const std::string extension = lower_case_extension(path);
  return extension == ".hdr" || extension == ".png" || extension == ".jpg" || extension == ".jpeg";
}

// Where a save dialog starts: beside the scene's file and named after it where it is a file, else
// "raytracer" in the working folder. A file is never offered to be overwritten by its own kind.
std::string suggested_path(const std::string& source, const std::string& extension) {
  const std::filesystem::path file(source);
  if (!std::filesystem::is_regular_file(file)) return "raytracer" + extension;
  const bool same_kind = lower_case_extension(source) == extension;
  return (file.parent_path() / (file.stem().string() + (same_kind ? "-saved" : "") + extension))
      .string();
}

}  // namespace

void Gui::open(const std::string& source) {
  if (is_environment_image(source)) {
    // The scene asked for last (shown, or still opening) with the image around it.
    reopen_wanted({wanted.source, next_generation++, source});
    show_message("Opening the environment image " + source + " ...", false);
    submit();
    return;
  }
  // The environment image chosen last stays around the scenes opened next.
  wanted = {source, next_generation++, wanted.environment};
  keep_view_on_open = false;
  show_message("Opening " + source + " ...", false);
  submit();
}

void Gui::reload() {
  reopen_wanted({wanted.source, next_generation++, wanted.environment});
  show_message("Reloading " + wanted.source + " ...", false);
  submit();
}

void Gui::reopen_wanted(SceneChoice choice) {
  // The camera and light stay where they are (the view now belongs to the new generation), unless
  // a scene not yet shown is opening: that one comes with its own view.
  const bool keep_view = keep_view_on_open || wanted.generation == shown.generation;
  wanted = std::move(choice);
  keep_view_on_open = keep_view;
  if (keep_view) view_generation = wanted.generation;
}

void Gui::save_image(const std::string& path) {
  try {
    if (image.empty()) throw clf::Error("no frame has been rendered yet");
    app_common::write_png(path, image_width, image_height, image);
    show_message("Saved the image to " + path, false);
    clf::gtk::log_event("saved", {{"kind", "image"}, {"path", path}});
  } catch (const std::exception& error) {
    show_message(std::string("Cannot save the image: ") + error.what(), true);
  }
}

Scene Gui::scene_as_shown() const {
  Scene shown_scene = scene_with_grid(*scene, grid);
  shown_scene.camera = camera.view();
  if (!shown_scene.lights.empty()) shown_scene.lights[0].position = to_float4(light);
  if (image_width > 0) {
    shown_scene.width = image_width;
    shown_scene.height = image_height;
  }
  return shown_scene;
}

void Gui::save_scene(const std::string& path) {
  try {
    save_scene_file(scene_as_shown(), path);
    show_message("Saved the scene to " + path, false);
    clf::gtk::log_event("saved", {{"kind", "scene"}, {"path", path}});
  } catch (const std::exception& error) {
    show_message(std::string("Cannot save the scene: ") + error.what(), true);
  }
}

void ask_to_open(Gui* g) {
  clf::gtk::choose_file_to_open(g->window, "Open a model, scene or environment image",
                                kSceneFilters, [g](const std::string& path) { g->open(path); });
}

void ask_to_save_image(Gui* g) {
  clf::gtk::choose_file_to_save(g->window, "Save the image",
                                suggested_path(g->shown.source, ".png"), {{"PNG images", {"png"}}},
                                [g](const std::string& path) { g->save_image(path); });
}

void ask_to_save_scene(Gui* g) {
  clf::gtk::choose_file_to_save(
      g->window, "Save the scene", suggested_path(g->shown.source, ".json"),
      {{"Scene files (.json)", {"json"}}}, [g](const std::string& path) { g->save_scene(path); });
}

void accept_dropped_scenes(Gui* g) {
  clf::gtk::accept_dropped_files(GTK_WIDGET(g->window),
                                 [g](const std::string& path) { g->open(path); });
}

}  // namespace raytracer
