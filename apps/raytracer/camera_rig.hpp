// The window's camera as the mouse and keys move it: orbiting its target (drag), turning in place
// (mouse look), flying (moves in the camera's frame) and zooming (distance to the target). Moves
// are named as the screen shows them, so "right" is the image's right whether the scene is left-
// or right-handed (CameraView::right_handed: glTF and OBJ models are right-handed and would fly
// mirrored otherwise). No GTK: unit-tested.
#pragma once

#include "apps/raytracer/sah_bvh.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer {

class CameraRig {
 public:
  CameraRig() : CameraRig(CameraView{}) {}
  // Starts from `view` (its up, field of view and handedness are kept throughout).
  explicit CameraRig(const CameraView& view);

  CameraView view() const;
  Vec3 position() const;
  Vec3 target() const { return target_; }
  float distance() const { return distance_; }
  // Unit vectors: where the camera looks, and the image's right as the renderer draws it.
  Vec3 forward() const;
  Vec3 right() const;

  // Swings the camera about its target, as a drag by (right, down) radians: the camera goes to
  // the image's right and up over the target; elevation stays within about +-86 degrees.
  void orbit(float right, float down);
  // Turns the view in place by (right, down) radians (mouse look).
  void look(float right, float down);
  // Moves camera and target together: along the image's right, the world's up (+y) and the view
  // direction, in scene units.
  void move(float right, float up, float forward);
  // Distance to the target times `factor` (kept within [1e-4, 1e6]).
  void zoom(float factor);

 private:
  CameraView base_;
  Vec3 target_;
  float yaw_ = 0, pitch_ = 0, distance_ = 1;  // the camera at target + distance (yaw, pitch)
};

// Flying speed in scene units per second: a quarter of the scene's size (the diagonal of
// `bounds`, or the camera's distance to what it looks at where the bounds are empty), so that a
// model of a millimetre and a city both cross the window in a few seconds.
float fly_speed(const Box& bounds, const CameraView& camera);

}  // namespace raytracer
