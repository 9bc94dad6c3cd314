#include "apps/raytracer/renderer.hpp"

#include <algorithm>
#include <chrono>

#include "apps/raytracer/centre_bounds.hpp"
#include "apps/raytracer/device_mesh_bvh.hpp"
#include "apps/raytracer/emitters.hpp"
#include "apps/raytracer/mesh_geometry.hpp"
#include "framework/error.hpp"
#include "framework/sources.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

clf::CLKernel kernel(clf::Runtime& runtime, const char* file, const char* name,
                     const std::string& options) {
  return clf::CLKernel(runtime, clf::kernel_source(file), name, options);
}

bool same_frame(const RenderSettings& a, const RenderSettings& b) {
  return a.mode == b.mode && a.width == b.width && a.height == b.height && a.depth == b.depth &&
         a.aa == b.aa && a.shadows == b.shadows && a.use_bvh == b.use_bvh;
}

}  // namespace

DeviceRenderer::DeviceRenderer(clf::Runtime& runtime, const std::string& build_options)
    : runtime_(runtime),
      whitted_kernel_(
          kernel(runtime, "kernels/raytracer/render.cl", "rt_render_whitted", build_options)),
      bounds_spheres_kernel_(kernel(runtime, "kernels/raytracer/bvh_bounds.cl",
                                    "rt_bvh_bounds_spheres", build_options)),
      bounds_boxes_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_bounds.cl", "rt_bvh_bounds_boxes", build_options)),
      morton_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_morton.cl", "rt_bvh_morton", build_options)),
      leaves_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_build.cl", "rt_bvh_leaves", build_options)),
      internal_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_build.cl", "rt_bvh_internal", build_options)),
      refit_kernel_(
          kernel(runtime, "kernels/raytracer/bvh_refit.cl", "rt_bvh_refit", build_options)),
      build_options_(build_options),
      sorter_(runtime),
      image_(clf::pinned_vector<cl_uint>(runtime)) {
  boxes_ = std::make_unique<clf::DeviceBuffer<cl_float4>>(runtime_, 2 * kCentreBoundsGroups);
  ray_counts_ = std::make_unique<clf::Buffer<cl_uint>>(runtime_, 6);
}

DeviceRenderer::~DeviceRenderer() = default;

template <typename T>
std::vector<T> DeviceRenderer::non_empty(const std::vector<T>& values) {
  // OpenCL has no empty buffers: an unused element stands in (the counts say it is unused).
  return values.empty() ? std::vector<T>(1) : values;
}

void DeviceRenderer::set_scene(const Scene& scene) {
  // The mesh BVHs first: a scene they reject (clf::Error) leaves the renderer as it was.
  MeshBvhBuild build_mesh_bvh;
  if (mesh_bvh_builder_ != MeshBvhBuilder::host_sah) {
    const DeviceBvhMethod method = mesh_bvh_builder_ == MeshBvhBuilder::device_ploc
                                       ? DeviceBvhMethod::ploc
                                       : DeviceBvhMethod::lbvh;
    // Its kernels compile here, before the build is timed.
    if (!device_mesh_bvh_ || device_mesh_bvh_->method() != method) {
      device_mesh_bvh_ = std::make_unique<DeviceMeshBvhBuilder>(runtime_, method);
    }
    build_mesh_bvh = [this](const std::vector<Box>& boxes) {
      return device_mesh_bvh_->build(boxes);
    };
  }
  const auto start = std::chrono::steady_clock::now();
  const MeshGeometry geometry = build_mesh_geometry(scene, build_mesh_bvh);
  const double build_ms = clf::milliseconds_since(start);
  set_scene(scene, geometry);
  mesh_build_ms_ = build_ms;
}

void DeviceRenderer::set_scene(const Scene& scene, const MeshGeometry& geometry) {
  mesh_build_ms_ = 0;
  emitter_list_ = build_emitters(scene);
  emitters_ = std::make_unique<clf::Buffer<RtEmitter>>(runtime_, non_empty(emitter_list_.emitters));
  scene_ = scene;
  spheres_ = std::make_unique<clf::Buffer<RtSphere>>(runtime_, non_empty(scene.spheres));
  planes_ = std::make_unique<clf::Buffer<RtPlane>>(runtime_, non_empty(scene.planes));
  materials_ = std::make_unique<clf::Buffer<RtMaterial>>(runtime_, non_empty(scene.materials));
  lights_ = std::make_unique<clf::Buffer<RtLight>>(runtime_, non_empty(scene.lights));
  const EnvironmentImage* sky = sky_image(scene);
  sky_ = std::make_unique<clf::Buffer<cl_float4>>(
      runtime_, non_empty(sky ? sky->radiance : std::vector<cl_float4>{}));
  sky_cdf_ = std::make_unique<clf::Buffer<cl_float>>(
      runtime_, non_empty(sky ? sky->distribution : std::vector<cl_float>{}));
  set_meshes(geometry);
  const std::size_t n = std::max<std::size_t>(scene.spheres.size(), 1);
  if (!nodes_ || nodes_->size() != 2 * n - 1) {
    nodes_ = std::make_unique<clf::DeviceBuffer<RtBvhNode>>(runtime_, 2 * n - 1);
    codes_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(runtime_, n);
    indices_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(runtime_, n);
    ready_ =
        std::make_unique<clf::DeviceBuffer<cl_uint>>(runtime_, std::max<std::size_t>(n - 1, 1));
  }
  bvh_current_ = false;
  frame_index_ = 0;
}

void DeviceRenderer::set_meshes(const MeshGeometry& geometry) {
  mesh_nodes_ = std::make_unique<clf::Buffer<RtMeshNode>>(runtime_, non_empty(geometry.nodes));
  instances_ = std::make_unique<clf::Buffer<RtInstance>>(runtime_, non_empty(geometry.instances));
  triangles_ = std::make_unique<clf::Buffer<RtTriangle>>(runtime_, non_empty(geometry.triangles));
  triangle_shading_ =
      std::make_unique<clf::Buffer<RtTriangleShading>>(runtime_, non_empty(geometry.shading));
  textures_ = std::make_unique<clf::Buffer<RtTexture>>(runtime_, non_empty(geometry.textures));
  texels_ = std::make_unique<clf::Buffer<cl_uint>>(runtime_, non_empty(geometry.texels));
  instance_count_ = geometry.instances.size();
  stored_triangles_ = geometry.triangles.size();
}

void DeviceRenderer::set_lights(const std::vector<RtLight>& lights) {
  scene_.lights = lights;
  lights_ = std::make_unique<clf::Buffer<RtLight>>(runtime_, non_empty(lights));
  frame_index_ = 0;
}

void DeviceRenderer::set_camera(const CameraView& camera) {
  scene_.camera = camera;
  frame_index_ = 0;
}

void DeviceRenderer::set_background(Vec3 background) {
  scene_.background = background;
  frame_index_ = 0;
}

double DeviceRenderer::build_bvh() {
  if (bvh_current_ || !spheres_) return 0;
  const cl_uint n = static_cast<cl_uint>(scene_.spheres.size());
  if (n == 0) {
    bvh_current_ = true;
    return 0;
  }
  const auto start = std::chrono::steady_clock::now();
  runtime_.start_recording();
  launch_centre_bounds(bounds_spheres_kernel_, bounds_boxes_kernel_, clf::read_only(*spheres_), n,
                       *boxes_);
  morton_kernel_(clf::Range::linear(n, 256), clf::read_only(*spheres_), n, *boxes_, *codes_,
                 *indices_);
  sorter_.sort(*codes_, *indices_);
  leaves_kernel_(clf::Range::linear(n, 256), clf::read_only(*spheres_), *indices_, n, *nodes_,
                 *ready_);
  if (n > 1) {
    internal_kernel_(clf::Range::linear(n - 1, 256), *codes_, n, *nodes_);
    refit_kernel_(clf::Range::linear(n, 256), n, *nodes_, *ready_);
  }
  runtime_.finish();
  const std::vector<clf::Event> events = runtime_.stop_recording();
  bvh_current_ = true;
  return runtime_.span_ms(events, clf::milliseconds_since(start));
}

std::vector<RtBvhNode> DeviceRenderer::read_bvh() {
  build_bvh();
  if (scene_.spheres.empty()) return {};
  return nodes_->read();
}

FrameTimings DeviceRenderer::render(const RenderSettings& requested, bool accumulate) {
  if (!spheres_) throw clf::Error("DeviceRenderer::render: no scene set");
  const RenderSettings settings = resolve_settings(scene_, requested);
  image_.resize(static_cast<std::size_t>(settings.width) * settings.height);
  return render_rows(settings, accumulate, {0, static_cast<std::size_t>(settings.height)},
                     image_.data());
}

bool DeviceRenderer::continues_accumulation(const RenderSettings& requested,
                                            bool accumulate) const {
  if (!accumulate || frame_index_ == 0 || !rgba_) return false;
  const RenderSettings settings = resolve_settings(scene_, requested);
  return same_frame(settings, last_settings_) &&
         rgba_->size() == static_cast<std::size_t>(settings.width) * settings.height;
}

FrameTimings DeviceRenderer::render_rows(const RenderSettings& requested, bool accumulate,
                                         clf::WorkRange rows, cl_uint* image) {
  if (!spheres_) throw clf::Error("DeviceRenderer::render: no scene set");
  const RenderSettings settings = resolve_settings(scene_, requested);
  if (rows.end > static_cast<std::size_t>(settings.height) || rows.begin > rows.end) {
    throw clf::Error("DeviceRenderer::render_rows: rows " + std::to_string(rows.begin) + ".." +
                     std::to_string(rows.end) + " outside an image of " +
                     std::to_string(settings.height) + " rows");
  }
  const auto frame_start = std::chrono::steady_clock::now();
  FrameTimings timings;
  if (settings.use_bvh && !rows.empty()) timings.bvh_ms = build_bvh();

  const std::size_t pixels = static_cast<std::size_t>(settings.width) * settings.height;
  if (!continues_accumulation(settings, accumulate)) frame_index_ = 0;
  if (!rgba_ || rgba_->size() != pixels) {
    rgba_ = std::make_unique<clf::DeviceBuffer<cl_uint>>(runtime_, pixels);
    accumulation_ = std::make_unique<clf::DeviceBuffer<cl_float4>>(runtime_, pixels);
  }
  // The rows' stride, also where a size of as many pixels keeps the buffers.
  image_width_ = settings.width;
  last_settings_ = settings;
  if (!rows.empty()) trace_rows(settings, rows, image, timings);
  timings.total_ms = clf::milliseconds_since(frame_start);
  timings.accumulated = ++frame_index_;
  return timings;
}

void DeviceRenderer::trace_rows(const RenderSettings& settings, clf::WorkRange rows, cl_uint* image,
                                FrameTimings& timings) {
  const RtFrameParams params = make_frame_params(
      scene_, settings, frame_index_, static_cast<cl_uint>(instance_count_), emitter_list_);
  ray_counts_->assign(std::vector<cl_uint>(6, 0));

  // 16 x 8 work-groups (rows of pixels share cache lines); smaller where the kernel allows less.
  clf::CLKernel& render_kernel = this->render_kernel(settings.mode);
  std::size_t local_x = 16, local_y = 8;
  while (local_x * local_y > render_kernel.max_work_group_size() && local_y > 1) local_y /= 2;
  const auto trace_start = std::chrono::steady_clock::now();
  const clf::Event event = render_kernel(
      clf::Range::grid(settings.width, rows.size(), local_x, local_y), params,
      static_cast<cl_uint>(rows.begin), static_cast<cl_uint>(rows.end), clf::read_only(*spheres_),
      clf::read_only(*planes_), clf::read_only(*materials_), clf::read_only(*lights_), *nodes_,
      clf::read_only(*mesh_nodes_), clf::read_only(*instances_), clf::read_only(*triangles_),
      clf::read_only(*triangle_shading_), clf::read_only(*textures_), clf::read_only(*texels_),
      clf::read_only(*emitters_), clf::read_only(*sky_), clf::read_only(*sky_cdf_), *accumulation_,
      *rgba_, *ray_counts_, clf::Local<cl_uint>{3});
  event.wait();
  timings.trace_ms =
      runtime_.profiling() ? event.duration_ms() : clf::milliseconds_since(trace_start);

  const auto copy_start = std::chrono::steady_clock::now();
  const std::size_t first = rows.begin * settings.width;
  rgba_->read_range(first, image + first, rows.size() * settings.width);
  timings.copy_ms = clf::milliseconds_since(copy_start);
  const std::vector<cl_uint>& counts = ray_counts_->host();
  auto counter = [&](int k) {
    return counts[2 * k] | (static_cast<std::uint64_t>(counts[2 * k + 1]) << 32);
  };
  timings.primary_rays = counter(0);
  timings.shadow_rays = counter(1);
  timings.secondary_rays = counter(2);
}

void DeviceRenderer::read_accumulation_rows(clf::WorkRange rows,
                                            clf::PinnedVector<cl_float4>& sums) const {
  if (!accumulation_) {
    throw clf::Error("DeviceRenderer::read_accumulation_rows: nothing rendered yet");
  }
  sums.resize(rows.size() * image_width_);
  accumulation_->read_range(rows.begin * image_width_, sums.data(), sums.size());
}

void DeviceRenderer::write_accumulation_rows(clf::WorkRange rows,
                                             const clf::PinnedVector<cl_float4>& sums) {
  if (!accumulation_ || sums.size() != rows.size() * image_width_) {
    throw clf::Error("DeviceRenderer::write_accumulation_rows: " + std::to_string(sums.size()) +
                     " sums for " + std::to_string(rows.size()) + " rows");
  }
  accumulation_->write_range(rows.begin * image_width_, sums.data(), sums.size());
}

clf::CLKernel& DeviceRenderer::render_kernel(RenderMode mode) {
  if (mode == RenderMode::whitted) return whitted_kernel_;
  if (!path_kernel_) {
    path_kernel_ = std::make_unique<clf::CLKernel>(
        kernel(runtime_, "kernels/raytracer/render.cl", "rt_render_path", build_options_));
  }
  return *path_kernel_;
}

const Image& DeviceRenderer::image() const {
  if (image_.empty()) throw clf::Error("DeviceRenderer::image: nothing rendered yet");
  return image_;
}

std::vector<cl_float4> DeviceRenderer::radiance() {
  if (!accumulation_ || frame_index_ == 0) {
    throw clf::Error("DeviceRenderer::radiance: nothing rendered yet");
  }
  std::vector<cl_float4> sums = accumulation_->read();
  const float scale = 1.0f / static_cast<float>(frame_index_);
  for (cl_float4& s : sums) s = rt_scale(s, scale);
  return sums;
}

std::vector<RtHit> DeviceRenderer::query(const std::vector<cl_float4>& origins,
                                         const std::vector<cl_float4>& directions, bool use_bvh) {
  if (origins.size() != directions.size() || origins.empty()) {
    throw clf::Error("DeviceRenderer::query: need as many directions as origins, at least one");
  }
  if (use_bvh) build_bvh();
  if (!query_kernel_) {
    query_kernel_ = std::make_unique<clf::CLKernel>(
        runtime_, clf::kernel_source("kernels/raytracer/bvh_query.cl"), "rt_bvh_query",
        build_options_);
  }
  clf::Buffer<cl_float4> o(runtime_, origins);
  clf::Buffer<cl_float4> d(runtime_, directions);
  clf::Buffer<RtHit> hits(runtime_, origins.size());
  const cl_uint count = static_cast<cl_uint>(origins.size());
  (*query_kernel_)(clf::Range::linear(count, 64), *nodes_, clf::read_only(*spheres_),
                   static_cast<cl_uint>(scene_.spheres.size()), o, d, count,
                   static_cast<cl_uint>(use_bvh ? 1 : 0), clf::write_only(hits));
  return hits.host();
}

}  // namespace raytracer
