#include "apps/raytracer/gui_render_state.hpp"

#include <cmath>

#include "apps/raytracer/camera_rig.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/scene_source.hpp"

namespace raytracer {

namespace {

bool same_point(const Vec3& a, const Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

bool same_camera(const CameraView& a, const CameraView& b) {
  return same_point(a.position, b.position) && same_point(a.look_at, b.look_at) &&
         same_point(a.up, b.up) && a.fov_y == b.fov_y && a.right_handed == b.right_handed;
}

}  // namespace

Scene scene_with_grid(const Scene& base, int grid) {
  if (base.name != "seed") return base;
  Scene scene = seed_scene(grid);
  scene.environment = base.environment;
  return scene;
}

RenderState::RenderState(std::shared_ptr<const Scene> initial, SceneChoice choice,
                         clf::DeviceRequest request)
    : base_(std::move(initial)), generation_(choice.generation), request_(std::move(request)) {}

void RenderState::use_device(int device) {
  if (renderer_ && device == device_) return;
  renderer_.reset();
  devices_.reset();
  if (device >= 0) {
    std::vector<std::unique_ptr<clf::Runtime>> one;
    one.push_back(std::make_unique<clf::Runtime>(clf::enumerate_devices().at(device), request_));
    devices_ = std::make_unique<clf::DeviceSet>(std::move(one));
  } else {
    devices_ = std::make_unique<clf::DeviceSet>(request_);
  }
  renderer_ = std::make_unique<SplitRenderer>(*devices_);
  device_ = device;
  scene_base_ = nullptr;  // the new device has no scene yet
}

void RenderState::open_requested_scene(const ViewRequest& r, ViewResult& result) {
  if (r.scene.generation == generation_ || r.scene.generation == failed_generation_) return;
  result.open_choice = r.scene;
  try {
    Scene opened_scene = open_scene(r.scene.source);
    if (!r.scene.environment.empty()) {
      use_environment_file(opened_scene, r.scene.environment, 1.0f, "environment image");
    }
    auto opened = std::make_shared<const Scene>(std::move(opened_scene));
    Scene shown = scene_with_grid(*opened, r.grid);
    // Meshes the renderer refuses are an error of the open: it keeps the scene it had.
    renderer_->set_scene(shown);
    scene_ = std::move(shown);
    scene_base_ = opened.get();
    grid_ = r.grid;
    result.fly_speed = fly_speed(scene_bounds(scene_), scene_.camera);
    base_ = opened;
    generation_ = r.scene.generation;
    result.opened = std::move(opened);
  } catch (const std::exception& error) {
    failed_generation_ = r.scene.generation;
    result.open_error = error.what();
  }
}

void RenderState::update_scene(const ViewRequest& r) {
  if (scene_base_ == base_.get() && r.grid == grid_) return;
  scene_ = scene_with_grid(*base_, r.grid);
  renderer_->set_scene(scene_);
  scene_base_ = base_.get();
  grid_ = r.grid;
}

void RenderState::update_view(const ViewRequest& r) {
  // A view set for another scene (the window has not seen this one yet) gives way to its own. A
  // view kept for a generation that failed to open (a reload, an environment image) is the
  // window's view of the scene still shown, unless a later scene has opened since.
  const bool own_view =
      r.view_generation == generation_ ||
      (r.view_generation == failed_generation_ && failed_generation_ > generation_);
  const CameraView& camera = own_view ? r.camera : scene_.camera;
  if (!same_camera(camera, renderer_->scene().camera)) renderer_->set_camera(camera);
  if (own_view && !scene_.lights.empty()) {
    const cl_float4 p = to_float4(r.light);
    RtLight light = renderer_->scene().lights[0];
    if (p.x != light.position.x || p.y != light.position.y || p.z != light.position.z) {
      std::vector<RtLight> lights = renderer_->scene().lights;
      lights[0].position = p;
      renderer_->set_lights(lights);
    }
  }
}

std::string RenderState::device_text() const {
  if (devices_->size() == 1) return devices_->front().device_name();
  // Several: each device with its share of the frame's rows ("A 52 % + B 48 %").
  std::string text;
  const std::vector<DeviceShare>& shares = renderer_->shares();
  std::size_t rows = 0;
  for (const DeviceShare& share : shares) rows += share.rows.size();
  for (std::size_t i = 0; i < shares.size(); ++i) {
    const double percent = rows == 0 ? 0 : 100.0 * shares[i].rows.size() / rows;
    text += (i == 0 ? "" : " + ") + devices_->at(i).device_name() + " " +
            std::to_string(static_cast<int>(std::lround(percent))) + " %";
  }
  return text;
}

ViewResult RenderState::render(const ViewRequest& r) {
  ViewResult result;
  result.serial = r.serial;
  try {
    use_device(r.device);
    open_requested_scene(r, result);
    update_scene(r);
    update_view(r);
    RenderSettings settings;
    settings.mode = r.mode;
    settings.width = r.width;
    settings.height = r.height;
    settings.depth = r.depth;
    settings.aa = r.aa;
    settings.shadows = r.shadows;
    if (!r.accumulate) renderer_->reset_accumulation();
    result.timings = renderer_->render(settings, r.accumulate);
    result.rgba.assign(renderer_->image().begin(), renderer_->image().end());
    result.width = r.width;
    result.height = r.height;
    result.generation = generation_;
    result.spheres = scene_.spheres.size();
    result.triangles = placed_triangle_count(scene_);
    result.device = device_text();
  } catch (const std::exception& error) {
    result.error = error.what();
  }
  return result;
}

}  // namespace raytracer
