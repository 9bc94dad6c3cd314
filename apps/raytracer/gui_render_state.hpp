// The raytracer window's worker side: what the window asks for (ViewRequest: the scene, the
// view, the settings) and what comes back (ViewResult: the frame and its timings, or the scene
// it opened, or why it could not). RenderState owns the device, the renderer and the scene on
// it and runs on the worker thread (clf::gtk::LatestOnlyWorker), so opening files, building
// BVHs and tracing never block the window. No GTK here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "apps/raytracer/render_settings.hpp"
#include "apps/raytracer/split_renderer.hpp"
#include "framework/device.hpp"
#include "framework/device_set.hpp"

namespace raytracer {

// Which scene to show: a built-in name or a file, and a generation that a new open (or a
// reload of the same file) raises, so the worker knows to open it again; with an environment
// image file, that image surrounds it instead of the scene's own.
struct SceneChoice {
  std::string source;
  std::uint64_t generation = 0;
  std::string environment;
};

struct ViewRequest {
  std::uint64_t serial = 0;
  SceneChoice scene;
  // The scene generation the camera and light below were set for: until the window has seen a
  // newly opened scene, its own camera and light are used.
  std::uint64_t view_generation = 0;
  int width = 0, height = 0;
  CameraView camera;
  Vec3 light;
  RenderMode mode = RenderMode::whitted;
  int depth = 3, aa = 1, grid = 10;
  bool shadows = true;
  bool accumulate = false;  // continue the image of the last frame if nothing changed
  int device = -1;  // index into enumerate_devices(), -1: the options' choice (all of --devices)
};

struct ViewResult {
  std::uint64_t serial = 0;
  std::uint64_t generation = 0;  // of the scene this frame shows
  // Set when this request opened a scene (the choice it opened), or tried and failed.
  std::shared_ptr<const Scene> opened;
  SceneChoice open_choice;
  float fly_speed = 0;     // scene units per second, for a scene just opened
  std::string open_error;  // why the scene asked for could not be opened (the old one stays)
  std::string error;       // no frame: rendering failed
  int width = 0, height = 0;
  std::vector<cl_uint> rgba;
  FrameTimings timings;
  std::size_t spheres = 0;
  std::size_t triangles = 0;  // placed in the world (instances count their mesh)
  std::string device;
};

// The scene the window shows for `base` with `grid` spheres per side (only "seed" has a grid).
Scene scene_with_grid(const Scene& base, int grid);

class RenderState {
 public:
  // `initial` was opened as `choice` (the window opens its first scene before it shows).
  RenderState(std::shared_ptr<const Scene> initial, SceneChoice choice, clf::DeviceRequest request);

  ViewResult render(const ViewRequest& request);

 private:
  void use_device(int device);
  void open_requested_scene(const ViewRequest& request, ViewResult& result);
  void update_scene(const ViewRequest& request);
  void update_view(const ViewRequest& request);
  // The device's name, or with several each one's share of the last frame's rows.
  std::string device_text() const;

  std::shared_ptr<const Scene> base_;
  std::uint64_t generation_ = 0;         // of base_
  std::uint64_t failed_generation_ = 0;  // the last generation that could not be opened
  Scene scene_;                          // base_ with the grid applied, as on the device
  const Scene* scene_base_ = nullptr;    // the base scene_ was made from
  int grid_ = -1;
  clf::DeviceRequest request_;
  std::unique_ptr<clf::DeviceSet> devices_;
  std::unique_ptr<SplitRenderer> renderer_;  // each frame split across devices_
  int device_ = -2;
};

}  // namespace raytracer
