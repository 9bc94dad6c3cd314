// The CPU reference renderer and host BVH build, over the shared code of
// shared/raytracer/raytracer.h.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

#include "apps/raytracer/host_scene.hpp"
#include "apps/raytracer/render_settings.hpp"
#include "framework/error.hpp"

namespace raytracer {

RenderMode parse_render_mode(const std::string& text) {
  if (text == "whitted") return RenderMode::whitted;
  if (text == "path") return RenderMode::path;
  throw clf::Error("--mode: expected whitted or path, got '" + text + "'");
}

MeshBvhBuilder parse_mesh_bvh_builder(const std::string& text) {
  if (text == "sah") return MeshBvhBuilder::host_sah;
  if (text == "lbvh") return MeshBvhBuilder::device_lbvh;
  if (text == "ploc") return MeshBvhBuilder::device_ploc;
  throw clf::Error("--mesh-bvh: expected sah, lbvh or ploc, got '" + text + "'");
}

const char* mesh_bvh_builder_name(MeshBvhBuilder builder) {
  switch (builder) {
    case MeshBvhBuilder::device_lbvh:
      return "device LBVH";
    case MeshBvhBuilder::device_ploc:
      return "device PLOC";
    case MeshBvhBuilder::host_sah:
      break;
  }
  return "host binned SAH";
}

const char* render_mode_name(RenderMode mode) {
  return mode == RenderMode::path ? "path" : "whitted";
}

int default_depth(RenderMode mode) { return mode == RenderMode::path ? 8 : 3; }

RenderSettings resolve_settings(const Scene& scene, RenderSettings settings) {
  if (settings.width == 0) settings.width = scene.width;
  if (settings.height == 0) settings.height = scene.height;
  if (settings.width < 1 || settings.height < 1 || settings.width > 16384 ||
      settings.height > 16384) {
    throw clf::Error("--size: width and height must be in [1, 16384], got " +
                     std::to_string(settings.width) + "x" + std::to_string(settings.height));
  }
  if (settings.depth < 0 || settings.depth > RT_MAX_DEPTH) {
    throw clf::Error("--depth: must be in [0, " + std::to_string(RT_MAX_DEPTH) + "], got " +
                     std::to_string(settings.depth));
  }
  if (settings.aa < 1 || settings.aa > RT_MAX_AA) {
    throw clf::Error("--aa: must be in [1, " + std::to_string(RT_MAX_AA) + "], got " +
                     std::to_string(settings.aa));
  }
  return settings;
}

cl_float4 frame_jitter(cl_uint frame_index) {
  // R2 sequence (Roberts 2018): fractional parts of k / g and k / g^2, g the plastic number.
  const double a1 = 0.7548776662466927;
  const double a2 = 0.5698402909980532;
  const double k = frame_index;
  cl_float4 j = rt_vec(static_cast<float>(std::fmod(0.5 + a1 * k, 1.0)),
                       static_cast<float>(std::fmod(0.5 + a2 * k, 1.0)), 0.0f);
  return j;
}

const EnvironmentImage* sky_image(const Scene& scene) {
  return scene.environment ? scene.environment->image.get() : nullptr;
}

RtFrameParams make_frame_params(const Scene& scene, const RenderSettings& settings,
                                cl_uint frame_index, cl_uint instance_count,
                                const EmitterList& emitters) {
  RtFrameParams p{};
  p.camera = make_camera(scene.camera, settings.width, settings.height);
  p.background = to_float4(scene.background);
  p.jitter = frame_jitter(frame_index);
  p.width = static_cast<cl_uint>(settings.width);
  p.height = static_cast<cl_uint>(settings.height);
  p.sphere_count = static_cast<cl_uint>(scene.spheres.size());
  p.plane_count = static_cast<cl_uint>(scene.planes.size());
  p.light_count = static_cast<cl_uint>(scene.lights.size());
  p.max_depth = static_cast<cl_uint>(settings.depth);
  p.aa = static_cast<cl_uint>(settings.aa);
  p.use_bvh = settings.use_bvh ? 1 : 0;
  p.shadows = settings.shadows ? 1 : 0;
  p.frame_index = frame_index;
  p.instance_count = instance_count;
  p.mode = settings.mode == RenderMode::path ? RT_MODE_PATH : RT_MODE_WHITTED;
  p.emitter_count = static_cast<cl_uint>(emitters.emitters.size());
  p.emitter_power = emitters.total_power;
  if (const EnvironmentImage* sky = sky_image(scene)) {
    p.sky_width = static_cast<cl_uint>(sky->width);
    p.sky_height = static_cast<cl_uint>(sky->height);
    p.sky_intensity = scene.environment->intensity;
    p.sky_turn = scene.environment->rotate_degrees / 360.0f;
    p.sky_sampled = sky->distribution.empty() ? 0 : 1;
  }
  return p;
}

void sphere_center_bounds(const std::vector<RtSphere>& spheres, cl_float4* lo, cl_float4* hi) {
  *lo = rt_vec(RT_INFINITY, RT_INFINITY, RT_INFINITY);
  *hi = rt_vec(-RT_INFINITY, -RT_INFINITY, -RT_INFINITY);
  for (const RtSphere& s : spheres) {
    const cl_float4 c = rt_vec(s.center_radius.x, s.center_radius.y, s.center_radius.z);
    *lo = rt_min3(*lo, c);
    *hi = rt_max3(*hi, c);
  }
}

std::vector<RtBvhNode> build_bvh_reference(const std::vector<RtSphere>& spheres) {
  const int n = static_cast<int>(spheres.size());
  if (n == 0) return {};
  cl_float4 lo, hi;
  sphere_center_bounds(spheres, &lo, &hi);
  const cl_float4 inverse_extent = rt_inverse_extent(lo, hi);
  std::vector<cl_uint> codes(n);
  for (int i = 0; i < n; ++i) {
    const cl_float4 c = spheres[i].center_radius;
    codes[i] = rt_morton_code(rt_vec(c.x, c.y, c.z), lo, inverse_extent);
  }
  // Stable by code, as the device's radix sort is.
  std::vector<cl_uint> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](cl_uint a, cl_uint b) { return codes[a] < codes[b]; });
  std::vector<cl_uint> sorted_codes(n);
  for (int i = 0; i < n; ++i) sorted_codes[i] = codes[order[i]];

  std::vector<RtBvhNode> nodes(2 * n - 1);
  for (int i = 0; i < n; ++i) {
    nodes[n - 1 + i] = rt_leaf_node(spheres[order[i]], static_cast<cl_int>(order[i]));
  }
  for (int i = 0; i < n - 1; ++i) {
    cl_int left, right;
    rt_karras_node(sorted_codes.data(), n, i, &left, &right);
    rt_link_internal_node(nodes.data(), i, left, right);
  }
  // Bounds bottom-up: children before parents by an explicit post-order walk.
  if (n > 1) {
    std::vector<std::pair<int, bool>> stack{{0, false}};
    while (!stack.empty()) {
      auto [node, children_done] = stack.back();
      stack.pop_back();
      if (nodes[node].left < 0) continue;
      if (children_done) {
        const RtBvhNode& l = nodes[nodes[node].left];
        const RtBvhNode& r = nodes[nodes[node].right];
        nodes[node].bounds_min = rt_min3(l.bounds_min, r.bounds_min);
        nodes[node].bounds_max = rt_max3(l.bounds_max, r.bounds_max);
      } else {
        stack.push_back({node, true});
        stack.push_back({nodes[node].left, false});
        stack.push_back({nodes[node].right, false});
      }
    }
  }
  return nodes;
}

namespace {

// Frames of a scene drawn on the host.
class ReferenceTracer {
 public:
  ReferenceTracer(const Scene& scene, const RenderSettings& settings)
      : settings_(settings), host_(scene, settings.use_bvh) {}

  RtFrameParams frame(cl_uint frame_index) const {
    return make_frame_params(host_.scene(), settings_, frame_index,
                             static_cast<cl_uint>(host_.geometry().instances.size()),
                             host_.emitters());
  }

  // Pixel (x, y) averaged over the frames, summed in the device's order.
  cl_float4 radiance(const std::vector<RtFrameParams>& frames, int x, int y) const {
    cl_float4 sum = rt_vec(0, 0, 0);
    for (const RtFrameParams& params : frames) {
      RtRayCounts counts{};
      const cl_float4 color = host_.pixel(params, x, y, &counts);
      sum = &params == &frames.front() ? color : rt_add(sum, color);
    }
    return rt_scale(sum, 1.0f / static_cast<cl_float>(frames.size()));
  }

 private:
  const RenderSettings settings_;
  const HostScene host_;
};

std::vector<RtFrameParams> frame_list(const ReferenceTracer& tracer, int first, int frames) {
  if (frames < 1) throw clf::Error("reference: frames must be >= 1, got " + std::to_string(frames));
  std::vector<RtFrameParams> list;
  for (int f = first; f < first + frames; ++f)
    list.push_back(tracer.frame(static_cast<cl_uint>(f)));
  return list;
}

// Calls work(i) for i in [0, count) on `threads` threads (0: all cores), interleaved.
template <typename Work>
void in_parallel(std::size_t count, unsigned threads, const Work& work) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> workers;
  for (unsigned t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      for (std::size_t i = t; i < count; i += threads) work(i);
    });
  }
  for (std::thread& w : workers) w.join();
}

}  // namespace

std::vector<cl_float4> render_reference_radiance(const Scene& scene,
                                                 const RenderSettings& requested, int frames,
                                                 int first_frame, unsigned threads) {
  const RenderSettings settings = resolve_settings(scene, requested);
  const ReferenceTracer tracer(scene, settings);
  const std::vector<RtFrameParams> params = frame_list(tracer, first_frame, frames);
  std::vector<cl_float4> image(static_cast<std::size_t>(settings.width) * settings.height);
  in_parallel(static_cast<std::size_t>(settings.height), threads, [&](std::size_t y) {
    for (int x = 0; x < settings.width; ++x) {
      image[y * settings.width + x] = tracer.radiance(params, x, static_cast<int>(y));
    }
  });
  return image;
}

std::vector<cl_uint> render_reference(const Scene& scene, const RenderSettings& settings,
                                      unsigned threads, int frames) {
  const std::vector<cl_float4> radiance =
      render_reference_radiance(scene, settings, frames, 0, threads);
  const cl_uint mode = settings.mode == RenderMode::path ? RT_MODE_PATH : RT_MODE_WHITTED;
  std::vector<cl_uint> image(radiance.size());
  for (std::size_t i = 0; i < image.size(); ++i) image[i] = rt_display(radiance[i], mode);
  return image;
}

std::vector<cl_uint> render_reference_pixels(const Scene& scene, const RenderSettings& requested,
                                             const std::vector<std::pair<int, int>>& pixels,
                                             unsigned threads) {
  const RenderSettings settings = resolve_settings(scene, requested);
  const ReferenceTracer tracer(scene, settings);
  const std::vector<RtFrameParams> params = frame_list(tracer, 0, 1);
  const cl_uint mode = settings.mode == RenderMode::path ? RT_MODE_PATH : RT_MODE_WHITTED;
  std::vector<cl_uint> colors(pixels.size());
  in_parallel(pixels.size(), threads, [&](std::size_t i) {
    colors[i] = rt_display(tracer.radiance(params, pixels[i].first, pixels[i].second), mode);
  });
  return colors;
}

}  // namespace raytracer
