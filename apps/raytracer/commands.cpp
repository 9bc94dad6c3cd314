#include "apps/raytracer/commands.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "apps/common/png_writer.hpp"
#include "apps/raytracer/renderer.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

using nlohmann::json;

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string fixed(double v, int digits = 2) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << v;
  return out.str();
}

json timings_json(const FrameTimings& t) {
  return {{"bvh_ms", t.bvh_ms},
          {"trace_ms", t.trace_ms},
          {"copy_ms", t.copy_ms},
          {"total_ms", t.total_ms}};
}

void write_json(const std::string& path, const json& value) {
  std::ofstream out(path);
  out << value.dump(2) << "\n";
  if (!out) throw clf::Error(path + ": cannot write the statistics");
}

// Medians over the frames after the first (which pays for the first BVH build and warm-up), or
// the only frame.
FrameTimings summarise(const std::vector<FrameTimings>& frames) {
  const std::size_t skip = frames.size() > 1 ? 1 : 0;
  std::vector<double> bvh, trace, copy, total;
  for (std::size_t i = skip; i < frames.size(); ++i) {
    bvh.push_back(frames[i].bvh_ms);
    trace.push_back(frames[i].trace_ms);
    copy.push_back(frames[i].copy_ms);
    total.push_back(frames[i].total_ms);
  }
  FrameTimings m;
  m.bvh_ms = median(bvh);
  m.trace_ms = median(trace);
  m.copy_ms = median(copy);
  m.total_ms = median(total);
  return m;
}

}  // namespace

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

int run_render(const RenderCommand& command, clf::Runtime* runtime) {
  if (command.frames < 1)
    throw clf::Error("--frames: must be >= 1, got " + std::to_string(command.frames));
  const Scene scene = open_scene(command.scene);
  RenderSettings settings;
  if (!command.size.empty()) parse_size(command.size, &settings.width, &settings.height);
  settings.depth = command.depth;
  settings.aa = command.aa;
  settings.shadows = !command.no_shadows;
  settings.use_bvh = !command.brute;
  settings = resolve_settings(scene, settings);

  std::cout << "scene " << scene.name << ": " << scene.spheres.size() << " spheres, "
            << scene.planes.size() << " planes, " << scene.instances.size() << " mesh instances, "
            << scene.lights.size() << " lights; " << settings.width << "x" << settings.height
            << ", depth " << settings.depth << ", aa " << settings.aa << "x" << settings.aa
            << (settings.shadows ? "" : ", no shadows") << "\n";
  json stats = {{"scene", scene.name},        {"width", settings.width},
                {"height", settings.height},  {"spheres", scene.spheres.size()},
                {"depth", settings.depth},    {"aa", settings.aa},
                {"shadows", settings.shadows}};
  std::vector<cl_uint> image;
  if (command.reference) {
    std::cout << "renderer: CPU reference (" << (settings.use_bvh ? "host BVH" : "brute force")
              << ")\n";
    const auto start = std::chrono::steady_clock::now();
    image = render_reference(scene, settings);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::cout << "frame 1: " << fixed(ms) << " ms (" << fixed(1000.0 / ms) << " fps)\n";
    stats["renderer"] = "reference";
    stats["frames"] = json::array({{{"total_ms", ms}}});
  } else {
    if (runtime == nullptr) throw clf::Error("render: no device");
    DeviceRenderer renderer(*runtime);
    renderer.set_scene(scene);
    if (renderer.instance_count() > 0) {
      std::cout << "meshes: " << renderer.stored_triangles() << " triangles stored, "
                << renderer.instance_count() << " instances; BVHs built on the host in "
                << fixed(renderer.mesh_build_ms()) << " ms\n";
    }
    std::cout << "device: " << runtime->device_name() << " ("
              << (settings.use_bvh ? "BVH" : "brute force") << ", times "
              << (runtime->profiling() ? "from device events" : "wall-clock") << ")\n";
    std::vector<FrameTimings> frames;
    json frame_list = json::array();
    for (int f = 0; f < command.frames; ++f) {
      if (command.rebuild_bvh) renderer.invalidate_bvh();
      const FrameTimings t = renderer.render(settings, true);
      frames.push_back(t);
      frame_list.push_back(timings_json(t));
      std::cout << "frame " << (f + 1) << ": bvh " << fixed(t.bvh_ms) << " ms, trace "
                << fixed(t.trace_ms) << " ms, copy " << fixed(t.copy_ms) << " ms, total "
                << fixed(t.total_ms) << " ms\n";
    }
    const FrameTimings m = summarise(frames);
    std::cout << "median"
              << (frames.size() > 1 ? " (frames 2.." + std::to_string(frames.size()) + ")" : "")
              << ": bvh " << fixed(m.bvh_ms) << " ms, trace " << fixed(m.trace_ms) << " ms, copy "
              << fixed(m.copy_ms) << " ms, total " << fixed(m.total_ms)
              << " ms = " << fixed(1000.0 / m.total_ms, 1) << " fps\n";
    if (command.frames > 1) {
      std::cout << "image: " << command.frames << " frames accumulated (jittered sub-samples)\n";
    }
    image = renderer.image();
    stats["renderer"] = settings.use_bvh ? "device-bvh" : "device-brute";
    stats["device"] = runtime->device_name();
    stats["frames"] = frame_list;
    stats["median"] = timings_json(m);
    stats["fps"] = 1000.0 / m.total_ms;
  }
  app_common::write_png(command.out, settings.width, settings.height, image);
  std::cout << "wrote " << command.out << "\n";
  if (!command.json.empty()) {
    write_json(command.json, stats);
    std::cout << "wrote " << command.json << "\n";
  }
  return 0;
}

int run_bench(const BenchCommand& command, clf::Runtime& runtime) {
  const bool cpu = runtime.device().type != clf::DeviceType::gpu;
  const int frames = command.frames > 0 ? command.frames : (cpu ? 3 : 20);
  struct Case {
    std::string scene;
    std::string size;  // empty: the scene's own
    int depth;
    bool brute;
  };
  std::vector<Case> cases = {
      {"seed", "", 3, false}, {"seed", "", 3, true}, {"aalborg", "", 3, false}};
  // random: one reflection, shadows, BVH rebuilt every frame (the scaling case). A CPU device
  // gets a smaller image and at most 10^5 spheres, so the suite ends within about a minute.
  const std::vector<int> exponents =
      cpu && !command.full ? std::vector<int>{3, 4, 5} : std::vector<int>{3, 4, 5, 6};
  for (int e : exponents) {
    std::string n = "1";
    for (int i = 0; i < e; ++i) n += "0";
    cases.push_back({"random:" + n, cpu && !command.full ? "480x270" : "1920x1080", 1, false});
  }
  std::cout << "device: " << runtime.device_name() << "; " << frames
            << " frames per case (median of all "
            << "but the first); times "
            << (runtime.profiling() ? "from device events" : "wall-clock") << "\n\n";
  std::cout << std::left << std::setw(16) << "scene" << std::setw(7) << "path" << std::right
            << std::setw(11) << "size" << std::setw(9) << "spheres" << std::setw(7) << "depth"
            << std::setw(10) << "bvh ms" << std::setw(10) << "trace ms" << std::setw(9) << "copy ms"
            << std::setw(10) << "total ms" << std::setw(9) << "fps"
            << "\n";
  json records = json::array();
  DeviceRenderer renderer(runtime);
  for (const Case& c : cases) {
    const Scene scene = open_scene(c.scene);
    RenderSettings settings;
    if (!c.size.empty()) parse_size(c.size, &settings.width, &settings.height);
    settings.depth = c.depth;
    settings.use_bvh = !c.brute;
    settings = resolve_settings(scene, settings);
    renderer.set_scene(scene);
    std::vector<FrameTimings> timings;
    for (int f = 0; f < frames + 1; ++f) {
      renderer.invalidate_bvh();
      timings.push_back(renderer.render(settings, false));
    }
    const FrameTimings m = summarise(timings);
    const std::string size = std::to_string(settings.width) + "x" + std::to_string(settings.height);
    std::cout << std::left << std::setw(16) << c.scene << std::setw(7)
              << (c.brute ? "brute" : "bvh") << std::right << std::setw(11) << size << std::setw(9)
              << scene.spheres.size() << std::setw(7) << settings.depth << std::setw(10)
              << fixed(m.bvh_ms, 3) << std::setw(10) << fixed(m.trace_ms, 3) << std::setw(9)
              << fixed(m.copy_ms, 3) << std::setw(10) << fixed(m.total_ms, 3) << std::setw(9)
              << fixed(1000.0 / m.total_ms, 1) << std::endl;
    json record = timings_json(m);
    record["scene"] = c.scene;
    record["path"] = c.brute ? "brute" : "bvh";
    record["width"] = settings.width;
    record["height"] = settings.height;
    record["spheres"] = scene.spheres.size();
    record["depth"] = settings.depth;
    record["fps"] = 1000.0 / m.total_ms;
    records.push_back(record);
  }
  if (cpu && !command.full)
    std::cout
        << "\n(CPU device: random scenes capped at 10^5 spheres and 480x270; --full for all)\n";
  if (!command.json.empty()) {
    write_json(command.json,
               {{"device", runtime.device_name()}, {"frames", frames}, {"cases", records}});
    std::cout << "wrote " << command.json << "\n";
  }
  return 0;
}

}  // namespace raytracer
