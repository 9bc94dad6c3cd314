#include "apps/raytracer/embree_tracer.hpp"

#include <embree3/rtcore.h>

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

#include "apps/raytracer/parallel_chunks.hpp"
#include "framework/error.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

constexpr std::size_t kChunk = 1024;  // rays per task: 64 packets of 16, 16 tiles of 8x8

std::string version_text(ssize_t version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

// Embree reports errors through a callback; the first is kept and thrown after the call.
struct ErrorLog {
  std::mutex mutex;
  std::string first;
};

void record_error(void* user, RTCError, const char* message) {
  auto* log = static_cast<ErrorLog*>(user);
  std::lock_guard<std::mutex> lock(log->mutex);
  if (log->first.empty()) log->first = message != nullptr ? message : "unknown error";
}

// The mesh-to-world transform (Embree takes that and inverts it itself) from the instance's
// world_to_mesh rows.
Transform mesh_to_world(const RtInstance& instance) {
  Transform world_to_mesh;
  const cl_float4 rows[3] = {instance.world_to_mesh_x, instance.world_to_mesh_y,
                             instance.world_to_mesh_z};
  for (int r = 0; r < 3; ++r) {
    world_to_mesh.m[r][0] = rows[r].x;
    world_to_mesh.m[r][1] = rows[r].y;
    world_to_mesh.m[r][2] = rows[r].z;
    world_to_mesh.m[r][3] = rows[r].w;
  }
  return world_to_mesh.inverse();
}

// Packet types and calls by width, so one template fills and traces any of them.
template <int N>
struct Packet;
template <>
struct Packet<4> {
  using Ray = RTCRay4;
  using RayHit = RTCRayHit4;
  static void intersect(const int* v, RTCScene s, RTCIntersectContext* c, RayHit* r) {
    rtcIntersect4(v, s, c, r);
  }
  static void occluded(const int* v, RTCScene s, RTCIntersectContext* c, Ray* r) {
    rtcOccluded4(v, s, c, r);
  }
};
template <>
struct Packet<8> {
  using Ray = RTCRay8;
  using RayHit = RTCRayHit8;
  static void intersect(const int* v, RTCScene s, RTCIntersectContext* c, RayHit* r) {
    rtcIntersect8(v, s, c, r);
  }
  static void occluded(const int* v, RTCScene s, RTCIntersectContext* c, Ray* r) {
    rtcOccluded8(v, s, c, r);
  }
};
template <>
struct Packet<16> {
  using Ray = RTCRay16;
  using RayHit = RTCRayHit16;
  static void intersect(const int* v, RTCScene s, RTCIntersectContext* c, RayHit* r) {
    rtcIntersect16(v, s, c, r);
  }
  static void occluded(const int* v, RTCScene s, RTCIntersectContext* c, Ray* r) {
    rtcOccluded16(v, s, c, r);
  }
};

// Lane `lane` of a packet (or the one ray of RTCRay) set to o + t d, 0 <= t <= o.w.
template <typename Ray>
void set_lane(Ray& ray, int lane, cl_float4 o, cl_float4 d) {
  ray.org_x[lane] = o.x;
  ray.org_y[lane] = o.y;
  ray.org_z[lane] = o.z;
  ray.tnear[lane] = 0.0f;
  ray.dir_x[lane] = d.x;
  ray.dir_y[lane] = d.y;
  ray.dir_z[lane] = d.z;
  ray.time[lane] = 0.0f;
  ray.tfar[lane] = o.w;
  ray.mask[lane] = ~0u;
  ray.id[lane] = static_cast<unsigned>(lane);
  ray.flags[lane] = 0;
}

void set_ray(RTCRay& ray, cl_float4 o, cl_float4 d) {
  ray = {o.x, o.y, o.z, 0.0f, d.x, d.y, d.z, 0.0f, o.w, ~0u, 0, 0};
}

}  // namespace

struct EmbreeTracer::Impl {
  ErrorLog errors;
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
  std::vector<RTCScene> mesh_scenes;
  std::vector<cl_int> triangle_first;  // by instance (= Embree instance ID): its mesh's first
  unsigned sphere_geometry = RTC_INVALID_GEOMETRY_ID;
  std::vector<RtPlane> planes;
  unsigned threads = 1;
  double build_ms = 0;

  ~Impl() {
    if (scene != nullptr) rtcReleaseScene(scene);
    for (RTCScene s : mesh_scenes) rtcReleaseScene(s);
    if (device != nullptr) rtcReleaseDevice(device);
  }

  void check(const char* what) {
    std::lock_guard<std::mutex> lock(errors.mutex);
    if (!errors.first.empty())
      throw clf::Error(std::string("Embree: ") + what + ": " + errors.first);
  }

  RTCScene new_scene() {
    RTCScene s = rtcNewScene(device);
    rtcSetSceneBuildQuality(s, RTC_BUILD_QUALITY_HIGH);
    return s;
  }
  RTCScene mesh_scene(const std::vector<RtTriangle>& triangles, cl_int first, cl_int count);
  void add_spheres(const std::vector<RtSphere>& spheres);
  void build(const HostScene& host);

  RtHit to_hit(float t, unsigned geometry, unsigned instance, unsigned primitive, float u, float v,
               float t_max) const;
  RtHit with_planes(RtHit hit, cl_float4 origin, cl_float4 direction) const;
  template <int N>
  void nearest(const RayBatch& batch, std::size_t begin, std::size_t end, RtHit* out) const;
  template <int N>
  void occluded(const RayBatch& batch, std::size_t begin, std::size_t end, cl_uint* out) const;
  void nearest_single(const RayBatch& batch, std::size_t begin, std::size_t end, RtHit* out) const;
  void occluded_single(const RayBatch& batch, std::size_t begin, std::size_t end,
                       cl_uint* out) const;
};

// One Embree scene of one triangle geometry: the mesh's triangles in the renderer's order (so
// Embree's primitive IDs are offsets from `first`), corners unshared, as the renderer has them.
RTCScene EmbreeTracer::Impl::mesh_scene(const std::vector<RtTriangle>& triangles, cl_int first,
                                        cl_int count) {
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* corners = static_cast<float*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 4 * sizeof(float), 3 * count));
  auto* indices = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), count));
  check("creating a triangle mesh");
  // Stride 16 (float4): the same bytes as RtTriangle, w included.
  std::memcpy(corners, &triangles[first], count * sizeof(RtTriangle));
  for (cl_int i = 0; i < 3 * count; ++i) indices[i] = static_cast<unsigned>(i);
  rtcCommitGeometry(geometry);
  RTCScene s = new_scene();
  rtcAttachGeometry(s, geometry);
  rtcReleaseGeometry(geometry);
  rtcCommitScene(s);
  check("building a mesh's BVH");
  return s;
}

void EmbreeTracer::Impl::add_spheres(const std::vector<RtSphere>& spheres) {
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_SPHERE_POINT);
  auto* points = static_cast<cl_float4*>(rtcSetNewGeometryBuffer(
      geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT4, sizeof(cl_float4), spheres.size()));
  check("creating the spheres");
  for (std::size_t i = 0; i < spheres.size(); ++i) points[i] = spheres[i].center_radius;
  rtcCommitGeometry(geometry);
  sphere_geometry = rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
}

void EmbreeTracer::Impl::build(const HostScene& host) {
  const MeshGeometry& geometry = host.geometry();
  scene = new_scene();
  std::map<cl_int, RTCScene> by_root;  // each mesh once, however many instances place it
  for (std::size_t i = 0; i < geometry.instances.size(); ++i) {
    const RtInstance& placed = geometry.instances[i];
    RTCScene& mesh = by_root[placed.root];
    if (mesh == nullptr) {
      mesh = mesh_scene(geometry.triangles, placed.triangle_first, placed.triangle_count);
      mesh_scenes.push_back(mesh);
    }
    const Transform transform = mesh_to_world(placed);
    RTCGeometry instance = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_INSTANCE);
    rtcSetGeometryInstancedScene(instance, mesh);
    rtcSetGeometryTransform(instance, 0, RTC_FORMAT_FLOAT3X4_ROW_MAJOR, &transform.m[0][0]);
    rtcCommitGeometry(instance);
    rtcAttachGeometryByID(scene, instance, static_cast<unsigned>(i));  // ID = our instance
    rtcReleaseGeometry(instance);
    triangle_first.push_back(placed.triangle_first);
  }
  if (!host.scene().spheres.empty()) add_spheres(host.scene().spheres);
  rtcCommitScene(scene);
  check("building the instance BVH");
  planes = host.scene().planes;
}

RtHit EmbreeTracer::Impl::to_hit(float t, unsigned geometry, unsigned instance, unsigned primitive,
                                 float u, float v, float t_max) const {
  RtHit hit = rt_no_hit(t_max);
  if (instance != RTC_INVALID_GEOMETRY_ID) {
    hit.t = t;
    hit.kind = RT_HIT_TRIANGLE;
    hit.index = triangle_first[instance] + static_cast<cl_int>(primitive);
    hit.instance = static_cast<cl_int>(instance);
    hit.u = u;
    hit.v = v;
  } else if (geometry != RTC_INVALID_GEOMETRY_ID && geometry == sphere_geometry) {
    hit.t = t;
    hit.kind = RT_HIT_SPHERE;
    hit.index = static_cast<cl_int>(primitive);
  }
  return hit;
}

// Planes are outside every BVH, in the renderer as here: tested after the traversal, up to the
// nearest hit so far.
RtHit EmbreeTracer::Impl::with_planes(RtHit hit, cl_float4 origin, cl_float4 direction) const {
  origin.w = 0.0f;
  for (std::size_t i = 0; i < planes.size(); ++i) {
    const float t = rt_intersect_plane(planes[i], origin, direction, hit.t);
    if (t < hit.t) {
      hit = rt_no_hit(t);
      hit.kind = RT_HIT_PLANE;
      hit.index = static_cast<cl_int>(i);
    }
  }
  return hit;
}

template <int N>
void EmbreeTracer::Impl::nearest(const RayBatch& batch, std::size_t begin, std::size_t end,
                                 RtHit* out) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  if (batch.kind == RayKind::primary) context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT;
  for (std::size_t first = begin; first < end; first += N) {
    typename Packet<N>::RayHit packet;
    int valid[N];
    for (int lane = 0; lane < N; ++lane) {
      const std::size_t i = std::min(first + lane, end - 1);  // idle lanes repeat the last ray
      valid[lane] = first + lane < end ? -1 : 0;
      set_lane(packet.ray, lane, batch.origins[i], batch.directions[i]);
      packet.hit.geomID[lane] = RTC_INVALID_GEOMETRY_ID;
      packet.hit.instID[0][lane] = RTC_INVALID_GEOMETRY_ID;
    }
    Packet<N>::intersect(valid, scene, &context, &packet);
    for (int lane = 0; lane < N && first + lane < end; ++lane) {
      const std::size_t i = first + lane;
      const RtHit hit = to_hit(packet.ray.tfar[lane], packet.hit.geomID[lane],
                               packet.hit.instID[0][lane], packet.hit.primID[lane],
                               packet.hit.u[lane], packet.hit.v[lane], batch.origins[i].w);
      out[i] = with_planes(hit, batch.origins[i], batch.directions[i]);
    }
  }
}

template <int N>
void EmbreeTracer::Impl::occluded(const RayBatch& batch, std::size_t begin, std::size_t end,
                                  cl_uint* out) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  for (std::size_t first = begin; first < end; first += N) {
    typename Packet<N>::Ray packet;
    int valid[N];
    for (int lane = 0; lane < N; ++lane) {
      const std::size_t i = std::min(first + lane, end - 1);
      valid[lane] = first + lane < end ? -1 : 0;
      set_lane(packet, lane, batch.origins[i], batch.directions[i]);
    }
    Packet<N>::occluded(valid, scene, &context, &packet);
    for (int lane = 0; lane < N && first + lane < end; ++lane) {
      const std::size_t i = first + lane;
      // Embree sets tfar to -inf for a blocked ray.
      const bool blocked =
          packet.tfar[lane] < 0.0f ||
          with_planes(rt_no_hit(batch.origins[i].w), batch.origins[i], batch.directions[i]).kind !=
              RT_HIT_NONE;
      out[i] = blocked ? 1 : 0;
    }
  }
}

void EmbreeTracer::Impl::nearest_single(const RayBatch& batch, std::size_t begin, std::size_t end,
                                        RtHit* out) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  for (std::size_t i = begin; i < end; ++i) {
    RTCRayHit ray;
    set_ray(ray.ray, batch.origins[i], batch.directions[i]);
    ray.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    ray.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &context, &ray);
    const RtHit hit = to_hit(ray.ray.tfar, ray.hit.geomID, ray.hit.instID[0], ray.hit.primID,
                             ray.hit.u, ray.hit.v, batch.origins[i].w);
    out[i] = with_planes(hit, batch.origins[i], batch.directions[i]);
  }
}

void EmbreeTracer::Impl::occluded_single(const RayBatch& batch, std::size_t begin, std::size_t end,
                                         cl_uint* out) const {
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  for (std::size_t i = begin; i < end; ++i) {
    RTCRay ray;
    set_ray(ray, batch.origins[i], batch.directions[i]);
    rtcOccluded1(scene, &context, &ray);
    const bool blocked =
        ray.tfar < 0.0f ||
        with_planes(rt_no_hit(batch.origins[i].w), batch.origins[i], batch.directions[i]).kind !=
            RT_HIT_NONE;
    out[i] = blocked ? 1 : 0;
  }
}

bool embree_available() { return true; }

std::string embree_version() {
  RTCDevice device = rtcNewDevice("verbose=0");
  if (device == nullptr) return "unavailable (rtcNewDevice failed)";
  const std::string version =
      version_text(rtcGetDeviceProperty(device, RTC_DEVICE_PROPERTY_VERSION));
  rtcReleaseDevice(device);
  return version;
}

EmbreeTracer::EmbreeTracer(const HostScene& scene, unsigned threads)
    : impl_(std::make_unique<Impl>()) {
  impl_->threads = host_thread_count(threads);
  const std::string config = "verbose=0,threads=" + std::to_string(impl_->threads);
  impl_->device = rtcNewDevice(config.c_str());
  if (impl_->device == nullptr) throw clf::Error("Embree: rtcNewDevice(\"" + config + "\") failed");
  rtcSetDeviceErrorFunction(impl_->device, record_error, &impl_->errors);
  const auto start = std::chrono::steady_clock::now();
  impl_->build(scene);
  impl_->build_ms = clf::milliseconds_since(start);
}

EmbreeTracer::~EmbreeTracer() = default;

double EmbreeTracer::build_ms() const { return impl_->build_ms; }

unsigned EmbreeTracer::threads() const { return impl_->threads; }

std::string EmbreeTracer::native_packets() const {
  std::string sizes;
  const std::pair<RTCDeviceProperty, const char*> widths[] = {
      {RTC_DEVICE_PROPERTY_NATIVE_RAY4_SUPPORTED, "4"},
      {RTC_DEVICE_PROPERTY_NATIVE_RAY8_SUPPORTED, "8"},
      {RTC_DEVICE_PROPERTY_NATIVE_RAY16_SUPPORTED, "16"}};
  for (const auto& [property, name] : widths) {
    if (rtcGetDeviceProperty(impl_->device, property) != 0) {
      sizes += (sizes.empty() ? "" : " ") + std::string(name);
    }
  }
  return sizes.empty() ? "none" : sizes;
}

double EmbreeTracer::trace(const RayBatch& batch, int packet, RayResults* results) const {
  if (packet != 1 && packet != 4 && packet != 8 && packet != 16) {
    throw clf::Error("Embree: packets of 1, 4, 8 or 16 rays, not " + std::to_string(packet));
  }
  const bool occlusion = is_occlusion(batch.kind);
  // The answers' memory is allocated and touched before the clock starts, as the device's is.
  results->hits.assign(occlusion ? 0 : batch.size(), RtHit{});
  results->occluded.assign(occlusion ? batch.size() : 0, 0);
  RtHit* hits = results->hits.data();
  cl_uint* blocked = results->occluded.data();
  const Impl& impl = *impl_;
  const auto start = std::chrono::steady_clock::now();
  for_each_chunk(batch.size(), kChunk, impl.threads, [&](std::size_t begin, std::size_t end) {
    if (occlusion) {
      if (packet == 1) impl.occluded_single(batch, begin, end, blocked);
      if (packet == 4) impl.occluded<4>(batch, begin, end, blocked);
      if (packet == 8) impl.occluded<8>(batch, begin, end, blocked);
      if (packet == 16) impl.occluded<16>(batch, begin, end, blocked);
    } else {
      if (packet == 1) impl.nearest_single(batch, begin, end, hits);
      if (packet == 4) impl.nearest<4>(batch, begin, end, hits);
      if (packet == 8) impl.nearest<8>(batch, begin, end, hits);
      if (packet == 16) impl.nearest<16>(batch, begin, end, hits);
    }
  });
  return clf::milliseconds_since(start);
}

}  // namespace raytracer
