// The same triangles, spheres and planes traced by Intel Embree 3 on the host's cores, for
// cl-raytracer rays: each mesh one Embree scene (built once), placed by instance geometries with
// the same transforms, as the renderer's two-level BVH stores them; spheres as Embree sphere
// points; planes tested after Embree's traversal, as the renderer's rt_trace does.
// Where the build found no Embree, embree_tracer_missing.cpp stands in: embree_available()
// says so and constructing a tracer throws.
#pragma once

#include <memory>
#include <string>

#include "apps/raytracer/ray_batch.hpp"

namespace raytracer {

// Whether this build has Embree, and its version ("3.13.5") or why not.
bool embree_available();
std::string embree_version();

class EmbreeTracer {
 public:
  // Builds the Embree scenes from the scene's mesh geometry (so triangle and instance indices
  // are the renderer's) with RTC_BUILD_QUALITY_HIGH. threads: for the build and every trace
  // (0: every hardware thread). Throws clf::Error with Embree's message if it fails.
  EmbreeTracer(const HostScene& scene, unsigned threads);
  ~EmbreeTracer();
  EmbreeTracer(const EmbreeTracer&) = delete;
  EmbreeTracer& operator=(const EmbreeTracer&) = delete;

  double build_ms() const;
  unsigned threads() const;
  // The packet sizes this CPU's Embree traces natively (e.g. "4 8 16").
  std::string native_packets() const;

  // Traces the batch on threads() threads in chunks, `packet` rays per Embree call (1:
  // rtcIntersect1/rtcOccluded1; 4, 8, 16: rtcIntersect4/8/16, ...), and returns the wall-clock
  // milliseconds; the answers go to *results (in the form of ray_batch.hpp, indices the
  // renderer's). Primary rays are marked coherent, the others incoherent.
  double trace(const RayBatch& batch, int packet, RayResults* results) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace raytracer
