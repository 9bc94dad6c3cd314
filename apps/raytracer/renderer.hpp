// The device renderer: the scene's arrays on the device, the BVH rebuilt there when the spheres
// change (bounds, Morton codes, radix sort, Karras tree, bottom-up bounds), and frames traced
// one work-item per pixel, accumulated while nothing changes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "apps/raytracer/render_settings.hpp"
#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/pinned_memory.hpp"
#include "framework/primitives/sort.hpp"
#include "framework/runtime.hpp"
#include "framework/work_split.hpp"

namespace raytracer {

struct MeshGeometry;
class DeviceMeshBvhBuilder;
struct RayBatch;
struct RayResults;

// Milliseconds of one frame: device time from events on a profiling runtime, else wall-clock
// around each stage (with the queue drained).
struct FrameTimings {
  double bvh_ms = 0;        // BVH build (0 when the BVH was current)
  double trace_ms = 0;      // the render kernel
  double copy_ms = 0;       // image back to the host
  double total_ms = 0;      // wall-clock of the whole frame
  cl_uint accumulated = 1;  // frames in the image now
  // Rays the frame traced, by kind: from the camera, towards lights (shadow rays, any hit) and
  // after a bounce (reflections, refractions, path continuations).
  std::uint64_t primary_rays = 0;
  std::uint64_t shadow_rays = 0;
  std::uint64_t secondary_rays = 0;
};

// Build options under which the device computes what the CPU reference computes, up to the last
// bits of pow(): no multiply-add contraction (the host compiles none) and correctly rounded
// division and sqrt (NVIDIA's defaults are a few ulp off, enough to turn a reflected ray in the
// dense seed scene onto another sphere). Tests that compare images use these.
inline constexpr const char* kReferenceBuildOptions =
    "-DRT_NO_CONTRACT -cl-fp32-correctly-rounded-divide-sqrt";

// An image's RGBA pixels (R in the low byte), row by row, in pinned memory: devices copy frames
// into it at the bus's speed.
using Image = clf::PinnedVector<cl_uint>;

class DeviceRenderer {
 public:
  // build_options go to every kernel (tests pass kReferenceBuildOptions).
  explicit DeviceRenderer(clf::Runtime& runtime, const std::string& build_options = "");
  ~DeviceRenderer();

  // Uploads the scene (spheres, planes, materials, lights, meshes) and marks the sphere BVH
  // stale. The mesh BVHs are built here (apps/raytracer/mesh_geometry.hpp) by the chosen
  // builder; a scene they reject throws clf::Error and leaves the renderer's scene as it was.
  void set_scene(const Scene& scene);
  // The same with the mesh geometry already built from `scene` (build_mesh_geometry, as the CPU
  // reference's HostScene holds it), so that a caller holding both builds it once.
  void set_scene(const Scene& scene, const MeshGeometry& geometry);
  // How the next set_scene builds the mesh BVHs (the host's binned SAH unless changed).
  void set_mesh_bvh_builder(MeshBvhBuilder builder) { mesh_bvh_builder_ = builder; }
  MeshBvhBuilder mesh_bvh_builder() const { return mesh_bvh_builder_; }
  // Milliseconds the last set_scene spent building the mesh and instance BVHs (wall-clock,
  // uploads and read-backs of a device build included).
  double mesh_build_ms() const { return mesh_build_ms_; }
  // Triangles the mesh BVHs hold (each mesh once) and instances placing them.
  std::size_t stored_triangles() const { return stored_triangles_; }
  std::size_t instance_count() const { return instance_count_; }
  // Lights and camera change without a BVH rebuild; both restart accumulation.
  void set_lights(const std::vector<RtLight>& lights);
  void set_camera(const CameraView& camera);
  void set_background(Vec3 background);
  // The next frame starts a new accumulation.
  void reset_accumulation() { frame_index_ = 0; }
  // Forces a rebuild on the next frame (benchmarks rebuild every frame).
  void invalidate_bvh() { bvh_current_ = false; }

  // Renders one frame. With accumulate, a frame with the same settings as the previous one is
  // averaged into it (jittered sub-samples); otherwise accumulation starts over.
  FrameTimings render(const RenderSettings& settings, bool accumulate = false);
  // Renders rows [rows.begin, rows.end) of the frame only (one device's band of a frame split
  // across devices, apps/raytracer/split_renderer.hpp) and reads them back into `image`, the
  // whole image's pixels, at their place. Pixels, random numbers and accumulation are those of
  // the whole frame, so the bands of several renderers make the one-device image. An empty band
  // renders nothing but still counts as a frame accumulated.
  FrameTimings render_rows(const RenderSettings& settings, bool accumulate, clf::WorkRange rows,
                           cl_uint* image);
  // Whether render(settings, accumulate) would add to the image so far rather than start over.
  bool continues_accumulation(const RenderSettings& settings, bool accumulate) const;
  // The running sums of the accumulated frames in rows [rows.begin, rows.end) copied into `sums`
  // (resized to width x rows), and back from it: a split that moves while a view accumulates
  // hands rows between devices, through pinned memory.
  void read_accumulation_rows(clf::WorkRange rows, clf::PinnedVector<cl_float4>& sums) const;
  void write_accumulation_rows(clf::WorkRange rows, const clf::PinnedVector<cl_float4>& sums);
  // The last frame's pixels, already on the host after render().
  const Image& image() const;
  // The accumulated frames' average before display (linear radiance), read back from the device.
  std::vector<cl_float4> radiance();

  // Builds the BVH now (if stale) and returns its build time in ms.
  double build_bvh();
  // The device BVH's nodes, read back (tests compare them with build_bvh_reference).
  std::vector<RtBvhNode> read_bvh();
  // The nearest sphere along each ray, by the BVH or by testing every sphere (tests).
  std::vector<RtHit> query(const std::vector<cl_float4>& origins,
                           const std::vector<cl_float4>& directions, bool use_bvh);
  // Traces a ray batch (apps/raytracer/ray_batch.hpp) `repeat` times with the frames' rt_trace
  // through the BVHs and returns each launch's milliseconds (device events on a profiling
  // runtime); the last launch's answers go to *results. In renderer_rays.cpp.
  std::vector<double> trace_rays(const RayBatch& batch, int repeat, RayResults* results);

  const Scene& scene() const { return scene_; }
  clf::Runtime& runtime() { return runtime_; }

 private:
  template <typename T>
  static std::vector<T> non_empty(const std::vector<T>& values);
  // The render kernel over `rows`, the rows read back into `image`, the rays counted.
  void trace_rows(const RenderSettings& settings, clf::WorkRange rows, cl_uint* image,
                  FrameTimings& timings);
  void set_meshes(const MeshGeometry& geometry);
  clf::CLKernel& render_kernel(RenderMode mode);

  clf::Runtime& runtime_;
  Scene scene_;
  clf::CLKernel whitted_kernel_;
  std::unique_ptr<clf::CLKernel> path_kernel_;  // built on first use
  clf::CLKernel bounds_spheres_kernel_;
  clf::CLKernel bounds_boxes_kernel_;
  clf::CLKernel morton_kernel_;
  clf::CLKernel leaves_kernel_;
  clf::CLKernel internal_kernel_;
  clf::CLKernel refit_kernel_;
  std::string build_options_;
  std::unique_ptr<clf::CLKernel> query_kernel_;  // built on first use (tests only)
  // trace_rays's kernels, built on first use.
  std::unique_ptr<clf::CLKernel> nearest_rays_kernel_;
  std::unique_ptr<clf::CLKernel> occluded_rays_kernel_;
  clf::primitives::Sorter sorter_;

  std::unique_ptr<clf::Buffer<RtSphere>> spheres_;
  std::unique_ptr<clf::Buffer<RtPlane>> planes_;
  std::unique_ptr<clf::Buffer<RtMaterial>> materials_;
  std::unique_ptr<clf::Buffer<RtLight>> lights_;
  std::unique_ptr<clf::DeviceBuffer<RtBvhNode>> nodes_;
  std::unique_ptr<clf::Buffer<RtMeshNode>> mesh_nodes_;
  std::unique_ptr<clf::Buffer<RtInstance>> instances_;
  std::unique_ptr<clf::Buffer<RtTriangle>> triangles_;
  std::unique_ptr<clf::Buffer<RtTriangleShading>> triangle_shading_;
  std::unique_ptr<clf::Buffer<RtTexture>> textures_;
  std::unique_ptr<clf::Buffer<cl_uint>> texels_;
  std::unique_ptr<clf::Buffer<RtEmitter>> emitters_;
  std::unique_ptr<clf::Buffer<cl_float4>> sky_;     // the environment image's texels
  std::unique_ptr<clf::Buffer<cl_float>> sky_cdf_;  // and its sampling tables
  EmitterList emitter_list_;
  std::unique_ptr<clf::Buffer<cl_uint>> ray_counts_;  // 3 x (low, high) words
  std::size_t instance_count_ = 0;
  std::size_t stored_triangles_ = 0;
  double mesh_build_ms_ = 0;
  MeshBvhBuilder mesh_bvh_builder_ = MeshBvhBuilder::host_sah;
  std::unique_ptr<DeviceMeshBvhBuilder> device_mesh_bvh_;  // made on first use
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> codes_;
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> indices_;
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> ready_;
  std::unique_ptr<clf::DeviceBuffer<cl_float4>> boxes_;
  std::unique_ptr<clf::DeviceBuffer<cl_float4>> accumulation_;
  std::unique_ptr<clf::DeviceBuffer<cl_uint>> rgba_;
  Image image_;          // render()'s image on the host
  int image_width_ = 0;  // of rgba_ and accumulation_
  bool bvh_current_ = false;

  RenderSettings last_settings_;
  cl_uint frame_index_ = 0;
};

}  // namespace raytracer
