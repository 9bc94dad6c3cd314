// The default camera and light for a model shown without a scene file.
#include <algorithm>
#include <cmath>

#include "apps/raytracer/model/loader_support.hpp"
#include "apps/raytracer/model/model.hpp"

namespace raytracer::model {

ModelView default_view(const Bounds& bounds, float fov_y) {
  const Bounds box = bounds.empty() ? Bounds{{-1, -1, -1}, {1, 1, 1}} : bounds;
  const Vec3 center = box.center();
  const Vec3 size = box.size();
  const float radius =
      std::max(0.5f * std::sqrt(size.x * size.x + size.y * size.y + size.z * size.z), 1e-6f);
  // Far enough that the bounding sphere fits the vertical field of view, with a margin; from
  // the front-right and above (+z towards the viewer, y up, as glTF defines its axes).
  const float distance = 1.1f * radius / std::sin(0.5f * fov_y);
  const Vec3 direction = normalized_or({0.5f, 0.4f, 1.0f}, {0, 0, 1});
  ModelView view;
  view.camera.position = {center.x + direction.x * distance, center.y + direction.y * distance,
                          center.z + direction.z * distance};
  view.camera.look_at = center;
  view.camera.up = {0, 1, 0};
  view.camera.fov_y = fov_y;
  // Above the camera and to its left, so the lit side faces the viewer and shadows fall visibly.
  view.light = make_light({center.x - radius, center.y + 2 * radius + direction.y * distance,
                           center.z + direction.z * distance},
                          {1, 1, 1}, 1.0f);
  return view;
}

}  // namespace raytracer::model
