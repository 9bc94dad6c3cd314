#include "apps/raytracer/commands.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>

#include "apps/common/png_writer.hpp"
#include "apps/raytracer/animation.hpp"
#include "apps/raytracer/frame_stats.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "apps/raytracer/split_renderer.hpp"
#include "framework/error.hpp"
#include "framework/process_group.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

using nlohmann::json;

void parse_size(const std::string& text, int* width, int* height) {
  const std::size_t x = text.find('x');
  auto digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 5 && std::all_of(s.begin(), s.end(), ::isdigit);
  };
  if (x == std::string::npos || !digits(text.substr(0, x)) || !digits(text.substr(x + 1))) {
    throw clf::Error("--size: expected WIDTHxHEIGHT (e.g. 700x700), got '" + text + "'");
  }
  *width = std::stoi(text.substr(0, x));
  *height = std::stoi(text.substr(x + 1));
}

namespace {

// Renders with the CPU reference; adds its timing to stats.
std::vector<cl_uint> render_on_host(const RenderCommand& command, const Scene& scene,
                                    const RenderSettings& settings, json& stats) {
  std::cout << "renderer: CPU reference (" << (settings.use_bvh ? "host BVH" : "brute force")
            << ")\n";
  const auto start = std::chrono::steady_clock::now();
  std::vector<cl_uint> image = render_reference(scene, settings, 0, command.frames);
  const double ms = clf::milliseconds_since(start);
  std::cout << command.frames << (command.frames == 1 ? " frame: " : " frames: ") << fixed(ms)
            << " ms\n";
  stats["renderer"] = "reference";
  stats["frames"] = json::array({{{"total_ms", ms}}});
  return image;
}

// Renders command.frames frames on the device, printing each frame's timings and rays and their
// medians; adds them to stats.
std::vector<cl_uint> render_on_device(const RenderCommand& command, const Scene& scene,
                                      const RenderSettings& settings, clf::DeviceSet& devices,
                                      json& stats) {
  SplitRenderer renderer(devices);
  renderer.set_mesh_bvh_builder(parse_mesh_bvh_builder(command.mesh_bvh));
  renderer.set_scene(scene);
  if (renderer.instance_count() > 0) {
    std::cout << "meshes: " << renderer.stored_triangles() << " triangles stored, "
              << renderer.instance_count() << " instances; BVHs by "
              << mesh_bvh_builder_name(renderer.front().mesh_bvh_builder()) << " in "
              << fixed(renderer.mesh_build_ms()) << " ms\n";
  }
  const clf::Runtime& runtime = devices.front();
  const bool split = devices.size() > 1;
  std::cout << (split ? "devices: " + devices.description() + ", each frame split by rows"
                      : "device: " + runtime.device_name())
            << " (" << (settings.use_bvh ? "BVH" : "brute force") << ", times "
            << (runtime.profiling() ? "from device events" : "wall-clock") << ")\n";
  std::vector<FrameTimings> frames;
  json frame_list = json::array();
  for (int f = 0; f < command.frames; ++f) {
    if (command.rebuild_bvh) renderer.invalidate_bvh();
    const FrameTimings t = renderer.render(settings, true);
    frames.push_back(t);
    frame_list.push_back(timings_json(t));
    std::cout << "frame " << (f + 1) << ": bvh " << fixed(t.bvh_ms) << " ms, trace "
              << fixed(t.trace_ms) << " ms, copy " << fixed(t.copy_ms) << " ms, total "
              << fixed(t.total_ms) << " ms; " << describe_rays(t) << "\n";
    if (split) {
      std::cout << "  shares: " << describe_shares(renderer.shares(), settings.height) << "\n";
      frame_list.back()["shares"] = shares_json(renderer.shares());
    }
  }
  const FrameTimings m = summarise(frames);
  std::cout << "median"
            << (frames.size() > 1 ? " (frames 2.." + std::to_string(frames.size()) + ")" : "")
            << ": bvh " << fixed(m.bvh_ms) << " ms, trace " << fixed(m.trace_ms) << " ms, copy "
            << fixed(m.copy_ms) << " ms, total " << fixed(m.total_ms)
            << " ms = " << fixed(1000.0 / m.total_ms, 1) << " fps; " << describe_rays(m) << "\n";
  if (command.frames > 1) {
    std::cout << "image: " << command.frames << " frames accumulated ("
              << (settings.mode == RenderMode::path ? "paths of their own" : "jittered sub-samples")
              << ")\n";
  }
  stats["renderer"] = settings.use_bvh ? "device-bvh" : "device-brute";
  stats["device"] = split ? devices.description() : runtime.device_name();
  stats["frames"] = frame_list;
  stats["median"] = timings_json(m);
  stats["fps"] = 1000.0 / m.total_ms;
  return {renderer.image().begin(), renderer.image().end()};
}

}  // namespace

int run_render(const RenderCommand& command, clf::DeviceSet* devices) {
  if (command.frames < 1)
    throw clf::Error("--frames: must be >= 1, got " + std::to_string(command.frames));
  if (command.animation < 0)
    throw clf::Error("--animation: must be >= 1 frames, got " + std::to_string(command.animation));
  parse_mesh_bvh_builder(command.mesh_bvh);  // a bad name fails before the scene loads
  Scene scene = open_scene(command.scene);
  if (!command.environment.empty()) {
    use_environment_file(scene, command.environment, command.environment_intensity,
                         "--environment");
  }
  RenderSettings settings;
  settings.mode = parse_render_mode(command.mode);
  if (!command.size.empty()) parse_size(command.size, &settings.width, &settings.height);
  settings.depth = command.depth == -1 ? default_depth(settings.mode) : command.depth;
  settings.aa = command.aa;
  settings.shadows = !command.no_shadows;
  settings.use_bvh = !command.brute;
  settings = resolve_settings(scene, settings);

  // An animation's ranks all open the scene; one says so.
  const bool quiet_rank = command.animation > 0 && !clf::ProcessGroup::world().is_root();
  if (!quiet_rank)
    std::cout << "scene " << scene.name << ": " << scene.spheres.size() << " spheres, "
              << scene.planes.size() << " planes, " << scene.instances.size() << " mesh instances, "
              << scene.lights.size() << " lights; " << render_mode_name(settings.mode) << ", "
              << settings.width << "x" << settings.height << ", depth " << settings.depth << ", aa "
              << settings.aa << "x" << settings.aa << (settings.shadows ? "" : ", no shadows")
              << "\n";
  if (!quiet_rank && sky_image(scene) != nullptr) {
    const EnvironmentImage& sky = *sky_image(scene);
    std::cout << "environment " << scene.environment->file << ": " << sky.width << "x" << sky.height
              << ", intensity " << scene.environment->intensity << ", turned "
              << scene.environment->rotate_degrees << " degrees\n";
  }
  json stats = {{"scene", scene.name},
                {"mode", render_mode_name(settings.mode)},
                {"width", settings.width},
                {"height", settings.height},
                {"spheres", scene.spheres.size()},
                {"depth", settings.depth},
                {"aa", settings.aa},
                {"shadows", settings.shadows}};
  if (!command.reference && devices == nullptr) throw clf::Error("render: no device");
  if (command.animation > 0) {
    if (command.reference) throw clf::Error("--animation: renders on the devices, not --reference");
    if (!command.json.empty()) throw clf::Error("--json: not written for an --animation");
    return run_animation(command, scene, settings, *devices);
  }
  const std::vector<cl_uint> image =
      command.reference ? render_on_host(command, scene, settings, stats)
                        : render_on_device(command, scene, settings, *devices, stats);
  app_common::write_png(command.out, settings.width, settings.height, image);
  std::cout << "wrote " << command.out << "\n";
  if (!command.json.empty()) {
    write_json(command.json, stats);
    std::cout << "wrote " << command.json << "\n";
  }
  return 0;
}

}  // namespace raytracer
