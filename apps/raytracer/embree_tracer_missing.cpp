// EmbreeTracer where CMake found no Embree (libembree-dev): nothing can be traced with it, and
// cl-raytracer rays times the device alone.
#include "apps/raytracer/embree_tracer.hpp"
#include "framework/error.hpp"

namespace raytracer {

struct EmbreeTracer::Impl {};

bool embree_available() { return false; }

std::string embree_version() { return "not built in (install libembree-dev and reconfigure)"; }

EmbreeTracer::EmbreeTracer(const HostScene&, unsigned) {
  throw clf::Error("Embree: " + embree_version());
}

EmbreeTracer::~EmbreeTracer() = default;

double EmbreeTracer::build_ms() const { return 0; }

unsigned EmbreeTracer::threads() const { return 0; }

std::string EmbreeTracer::native_packets() const { return ""; }

double EmbreeTracer::trace(const RayBatch&, int, RayResults*) const {
  throw clf::Error("Embree: " + embree_version());
}

}  // namespace raytracer
