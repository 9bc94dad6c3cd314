// cl-raytracer bench: the scene suite on one device (or each frame split across several, by
// rows), medians per case; the triangle scene's image checked against the CPU reference on a
// grid of pixels.
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "apps/raytracer/commands.hpp"
#include "apps/raytracer/frame_stats.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "apps/raytracer/split_renderer.hpp"
#include "framework/error.hpp"

namespace raytracer {

namespace {

using nlohmann::json;

struct BenchCase {
  std::string scene;
  std::string size;  // empty: the scene's own
  int depth;
  bool brute;
  std::string label;  // in the table; empty: the scene
  RenderMode mode = RenderMode::whitted;
};

// A glTF sample from assimp-testmodels (setup.sh installs it): 121496 triangles placed.
const char* kSampleModel =
    "/usr/share/assimp/models/glTF2/2CylinderEngine-glTF-Binary/2CylinderEngine.glb";

std::vector<BenchCase> bench_cases(bool small) {
  std::vector<BenchCase> cases = {
      {"seed", "", 3, false, ""}, {"seed", "", 3, true, ""}, {"aalborg", "", 3, false, ""}};
  // random: one reflection, shadows, BVH rebuilt every frame (the scaling case). A CPU device
  // gets a smaller image and at most 10^5 spheres, so the suite ends within about a minute.
  const std::string size = small ? "480x270" : "1920x1080";
  for (const char* n : {"1000", "10000", "100000", "1000000"}) {
    if (small && std::string(n) == "1000000") continue;
    cases.push_back({std::string("random:") + n, size, 1, false, ""});
  }
  // Triangles: 4096 instances of two meshes, 6.7 million triangles placed, 3264 stored.
  cases.push_back({"instances:4096", size, 1, false, ""});
  const bool model = model_files_supported() && std::filesystem::is_regular_file(kSampleModel);
  if (model) {
    cases.push_back({kSampleModel, small ? "480x360" : "1920x1440", 1, false, "engine.glb"});
  }
  // Path tracing, one path per pixel and frame (up to 8 bounces, Russian roulette after 3).
  cases.push_back({"cornell", size, 8, false, "", RenderMode::path});
  cases.push_back({"instances:4096", size, 8, false, "", RenderMode::path});
  if (model) {
    cases.push_back(
        {kSampleModel, small ? "480x360" : "1920x1440", 8, false, "engine.glb", RenderMode::path});
  }
  return cases;
}

// Pixels on an 8 x 8 grid across the image, each channel compared with the CPU reference.
// Returns how many are within 8/255 (the bench builds its kernels with the device's default
// float contraction, so a pixel on an edge may differ).
int pixels_matching_reference(const Scene& scene, const RenderSettings& settings,
                              const Image& image, int* checked) {
  std::vector<std::pair<int, int>> pixels;
  for (int j = 0; j < 8; ++j) {
    for (int i = 0; i < 8; ++i) {
      pixels.push_back({(2 * i + 1) * settings.width / 16, (2 * j + 1) * settings.height / 16});
    }
  }
  const std::vector<cl_uint> reference = render_reference_pixels(scene, settings, pixels);
  int matching = 0;
  for (std::size_t k = 0; k < pixels.size(); ++k) {
    const cl_uint device = image[pixels[k].second * settings.width + pixels[k].first];
    int worst = 0;
    for (int c = 0; c < 3; ++c) {
      const int a = static_cast<int>((device >> (8 * c)) & 0xFF);
      const int b = static_cast<int>((reference[k] >> (8 * c)) & 0xFF);
      worst = std::max(worst, std::abs(a - b));
    }
    matching += worst <= 8;
  }
  *checked = static_cast<int>(pixels.size());
  return matching;
}

void print_header() {
  std::cout << std::left << std::setw(16) << "scene" << std::setw(8) << "mode" << std::setw(7)
            << "accel" << std::right << std::setw(11) << "size" << std::setw(9) << "spheres"
            << std::setw(11) << "triangles" << std::setw(7) << "depth" << std::setw(10) << "bvh ms"
            << std::setw(10) << "trace ms" << std::setw(9) << "copy ms" << std::setw(10)
            << "total ms" << std::setw(9) << "fps" << std::setw(10) << "Mrays/s"
            << "\n";
}

}  // namespace

int run_bench(const BenchCommand& command, clf::DeviceSet& devices) {
  const clf::Runtime& runtime = devices.front();
  const bool cpu = runtime.device().type != clf::DeviceType::gpu;
  const int frames = command.frames > 0 ? command.frames : (cpu ? 3 : 20);
  const bool split = devices.size() > 1;
  const std::string device_name = split ? devices.description() : runtime.device_name();
  std::cout << (split ? "devices (each frame split by rows): " : "device: ") << device_name << "; "
            << frames << " frames per case (median of all but the first); times "
            << (runtime.profiling() ? "from device events" : "wall-clock") << "\n\n";
  print_header();
  json records = json::array();
  bool verified = true;
  SplitRenderer renderer(devices);
  for (const BenchCase& c : bench_cases(cpu && !command.full)) {
    const Scene scene = open_scene(c.scene);
    RenderSettings settings;
    if (!c.size.empty()) parse_size(c.size, &settings.width, &settings.height);
    settings.mode = c.mode;
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
    const std::size_t triangles = placed_triangle_count(scene);
    const std::string size = std::to_string(settings.width) + "x" + std::to_string(settings.height);
    const std::string label = c.label.empty() ? c.scene : c.label;
    std::cout << std::left << std::setw(16) << label << std::setw(8) << render_mode_name(c.mode)
              << std::setw(7) << (c.brute ? "brute" : "bvh") << std::right << std::setw(11) << size
              << std::setw(9) << scene.spheres.size() << std::setw(11) << triangles << std::setw(7)
              << settings.depth << std::setw(10) << fixed(m.bvh_ms, 3) << std::setw(10)
              << fixed(m.trace_ms, 3) << std::setw(9) << fixed(m.copy_ms, 3) << std::setw(10)
              << fixed(m.total_ms, 3) << std::setw(9) << fixed(1000.0 / m.total_ms, 1)
              << std::setw(10) << fixed(rays_per_second(m) * 1e-6, 0) << std::endl;
    json record = timings_json(m);
    record["scene"] = label;
    record["mode"] = render_mode_name(c.mode);
    record["accel"] = c.brute ? "brute" : "bvh";
    record["width"] = settings.width;
    record["height"] = settings.height;
    record["spheres"] = scene.spheres.size();
    record["triangles"] = triangles;
    record["depth"] = settings.depth;
    record["fps"] = 1000.0 / m.total_ms;
    if (split) {
      std::cout << "  shares (last frame): " << describe_shares(renderer.shares(), settings.height)
                << std::endl;
      record["shares"] = shares_json(renderer.shares());
    }
    if (triangles > 0 || c.mode == RenderMode::path) {
      record["mesh_build_ms"] = renderer.mesh_build_ms();
      int checked = 0;
      const int matching = pixels_matching_reference(scene, settings, renderer.image(), &checked);
      record["reference_pixels_matching"] = matching;
      record["reference_pixels_checked"] = checked;
      std::cout << "  (mesh BVHs built on the host in " << fixed(renderer.mesh_build_ms())
                << " ms; " << matching << " of " << checked
                << " pixels within 8/255 of the CPU reference)" << std::endl;
      // At least 15 in 16; a path whose float rounding differs turns elsewhere and lands on
      // another colour, so path tracing (one path per pixel) needs 3 in 4.
      verified &= matching * 16 >= checked * (c.mode == RenderMode::path ? 12 : 15);
    }
    records.push_back(record);
  }
  if (cpu && !command.full) {
    std::cout << "\n(CPU device: random scenes capped at 10^5 spheres, 480x270; --full for all)\n";
  }
  if (!command.json.empty()) {
    write_json(command.json, {{"device", device_name}, {"frames", frames}, {"cases", records}});
    std::cout << "wrote " << command.json << "\n";
  }
  if (!verified) {
    std::cerr << "cl-raytracer bench: the device image differs from the CPU reference\n";
    return 1;
  }
  return 0;
}

}  // namespace raytracer
