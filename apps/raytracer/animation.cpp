#include "apps/raytracer/animation.hpp"

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "apps/common/png_writer.hpp"
#include "apps/raytracer/camera_rig.hpp"
#include "apps/raytracer/frame_stats.hpp"
#include "apps/raytracer/split_renderer.hpp"
#include "framework/error.hpp"
#include "framework/process_group.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

constexpr double kPi = 3.14159265358979323846;

clf::Error bad_pattern(const std::string& pattern, const std::string& why) {
  return clf::Error(
      "--out: with --animation, expected a file name pattern with one %d or %04d "
      "for the frame number (e.g. frames/frame_%04d.png); '" +
      pattern + "' " + why);
}

// Renders the animation frame `frame` and writes it.
void render_animation_frame(SplitRenderer& renderer, const RenderCommand& command,
                            const Scene& scene, const RenderSettings& settings, int frame) {
  renderer.set_camera(orbit_view(scene.camera, frame, command.animation));
  for (int f = 0; f < command.frames; ++f) renderer.render(settings, f > 0);
  const Image& image = renderer.image();
  app_common::write_png(animation_frame_path(command.out, frame), settings.width, settings.height,
                        image.data(), image.size());
}

// "animation: 12 of 48 frames (2 ranks), 3.1 frames/s, 11.6 s left", on stderr.
void print_progress(std::uint64_t done, int total, int ranks, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  std::cerr << "animation: " << done << " of " << total << " frames"
            << (ranks > 1 ? " (" + std::to_string(ranks) + " ranks)" : "") << ", " << fixed(rate)
            << " frames/s";
  if (rate > 0)
    std::cerr << ", " << fixed((total - static_cast<double>(done)) / rate, 1) << " s left";
  std::cerr << std::endl;
}

// The frames of this rank, in rounds in which every rank renders one: after each round the
// ranks count what is done, so rank 0 can tell the progress of all.
void render_rank_frames(const RenderCommand& command, const Scene& scene,
                        const RenderSettings& settings, clf::DeviceSet& devices) {
  const clf::ProcessGroup& group = clf::ProcessGroup::world();
  SplitRenderer renderer(devices);
  renderer.set_mesh_bvh_builder(parse_mesh_bvh_builder(command.mesh_bvh));
  renderer.set_scene(scene);
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t done = 0;
  for (int first = 0; first < command.animation; first += group.size()) {
    const int frame = first + group.rank();
    if (frame < command.animation) {
      render_animation_frame(renderer, command, scene, settings, frame);
      std::cout << "frame " << frame << ": wrote " << animation_frame_path(command.out, frame)
                << (group.size() > 1 ? " (" + group.describe() + ")" : "") << std::endl;
    }
    done += group.sum(frame < command.animation ? 1 : 0);
    if (group.is_root()) {
      print_progress(done, command.animation, group.size(), clf::seconds_since(start));
    }
  }
}

}  // namespace

std::string animation_frame_path(const std::string& pattern, int frame) {
  std::string path;
  int conversions = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      path += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      path += '%';
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    const bool zero = end < pattern.size() && pattern[end] == '0';
    if (zero) ++end;
    int width = 0;
    if (end < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[end]))) {
      width = pattern[end++] - '0';
    }
    if (end >= pattern.size() || pattern[end] != 'd' || (zero && width == 0)) {
      throw bad_pattern(pattern, "has a % that is not %d, %0Nd (N = 1..9) or %%");
    }
    char number[32];
    std::snprintf(number, sizeof number, zero ? "%0*d" : "%*d", width, frame);
    path += number;
    ++conversions;
    i = end;
  }
  if (conversions != 1) {
    throw bad_pattern(pattern, conversions == 0 ? "has none" : "has more than one");
  }
  return path;
}

CameraView orbit_view(const CameraView& start, int frame, int frames) {
  if (frame % frames == 0) return start;
  CameraRig rig(start);
  rig.orbit(static_cast<float>(2 * kPi * (frame % frames) / frames), 0.0f);
  return rig.view();
}

int run_animation(const RenderCommand& command, const Scene& scene, const RenderSettings& settings,
                  clf::DeviceSet& devices) {
  animation_frame_path(command.out, 0);  // a bad pattern fails before any rendering
  const clf::ProcessGroup& group = clf::ProcessGroup::world();
  if (group.is_root()) {
    std::cout << "animation: " << command.animation << " frames orbiting the camera's target, "
              << command.frames << (command.frames == 1 ? " frame" : " frames")
              << " accumulated each, on " << group.size()
              << (group.size() == 1 ? " process" : " MPI ranks") << "\n";
  }
  render_rank_frames(command, scene, settings, devices);
  return 0;
}

}  // namespace raytracer
