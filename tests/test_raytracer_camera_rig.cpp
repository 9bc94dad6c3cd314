// The window's camera (apps/raytracer/camera_rig): orbiting keeps the target, mouse look keeps
// the position, flying moves along the image's own axes in left- and right-handed scenes alike,
// and the flying speed follows the scene's size.
#include <gtest/gtest.h>

#include <cmath>

#include "apps/raytracer/camera_rig.hpp"
#include "apps/raytracer/mesh_geometry.hpp"

namespace {

using namespace raytracer;

constexpr float kEps = 1e-4f;

float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 minus(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
float length(Vec3 v) { return std::sqrt(dot(v, v)); }

void expect_near(Vec3 a, Vec3 b, const char* what) {
  EXPECT_NEAR(a.x, b.x, kEps) << what;
  EXPECT_NEAR(a.y, b.y, kEps) << what;
  EXPECT_NEAR(a.z, b.z, kEps) << what;
}

// Looking from (0, 0, -10) at the origin: along +z.
CameraView view_along_z(bool right_handed) {
  CameraView view;
  view.position = {0, 0, -10};
  view.look_at = {0, 0, 0};
  view.right_handed = right_handed;
  return view;
}

// Where a world point lands across the image: > 0 right of centre (the renderer's own camera).
float image_x(const CameraView& view, Vec3 point) {
  const RtCamera camera = make_camera(view, 100, 100);
  const cl_float4 d = to_float4(minus(point, view.position));
  return rt_dot(d, camera.right) / rt_dot(d, camera.forward);
}

TEST(RaytracerCameraRig, StartsAtTheSceneCamera) {
  CameraView view;
  view.position = {3, 9, -19};
  view.look_at = {0, 4.5f, 0};
  view.fov_y = 0.8f;
  const CameraView again = CameraRig(view).view();
  expect_near(again.position, view.position, "position");
  expect_near(again.look_at, view.look_at, "look_at");
  EXPECT_EQ(again.fov_y, 0.8f);
}

TEST(RaytracerCameraRig, RightIsTheImagesRightWhateverTheHandedness) {
  for (const bool right_handed : {false, true}) {
    const CameraRig rig(view_along_z(right_handed));
    // A point on the rig's right lands right of the image centre.
    const Vec3 r = rig.right();
    EXPECT_GT(image_x(rig.view(), {r.x, r.y, r.z}), 0.01f) << "right_handed " << right_handed;
    expect_near(rig.forward(), {0, 0, 1}, "forward");
  }
  // Looking along +z, +x is right in a left-handed scene and left in a right-handed one.
  EXPECT_NEAR(CameraRig(view_along_z(false)).right().x, 1, kEps);
  EXPECT_NEAR(CameraRig(view_along_z(true)).right().x, -1, kEps);
}

// An up along the view gives no right by their cross product: the camera still spans an image
// (every primary ray was the same one where the view ran along z with up along z).
TEST(RaytracerCameraRig, UpAlongTheViewStillSpansTheImage) {
  for (const Vec3 up : {Vec3{0, 0, 1}, Vec3{0, 0, -1}, Vec3{0, 1, 0}}) {
    CameraView view = view_along_z(false);
    if (up.y != 0) view.look_at = {0, 5, -10};  // the view along y
    view.up = up;
    const RtCamera camera = make_camera(view, 100, 100);
    const cl_float4 right = camera.right, image_up = camera.up;
    EXPECT_GT(rt_dot(right, right), 0.01f) << up.z;
    EXPECT_GT(rt_dot(image_up, image_up), 0.01f) << up.z;
    EXPECT_NEAR(rt_dot(right, camera.forward), 0.0f, 1e-5f);
    EXPECT_NEAR(rt_dot(image_up, camera.forward), 0.0f, 1e-5f);
  }
}

TEST(RaytracerCameraRig, FlyingMovesCameraAndTargetAlongTheImagesAxes) {
  for (const bool right_handed : {false, true}) {
    CameraRig rig(view_along_z(right_handed));
    const Vec3 marker = {0, 0, 0};
    rig.move(0, 0, 4);  // W
    expect_near(rig.position(), {0, 0, -6}, "forward");
    EXPECT_NEAR(rig.distance(), 10, kEps) << "the target flies along";
    rig.move(2, 0, 0);  // D: the scene's origin slides left in the image
    EXPECT_LT(image_x(rig.view(), marker), -0.05f) << "right_handed " << right_handed;
    rig.move(0, 1.5f, 0);  // up
    EXPECT_NEAR(rig.position().y, 1.5f, kEps);
  }
}

TEST(RaytracerCameraRig, LookTurnsInPlaceTowardsTheImagesRight) {
  for (const bool right_handed : {false, true}) {
    CameraRig rig(view_along_z(right_handed));
    const Vec3 right_before = rig.right();
    rig.look(0.2f, 0);
    expect_near(rig.position(), {0, 0, -10}, "look keeps the position");
    EXPECT_GT(dot(rig.forward(), right_before), 0.15f) << "right_handed " << right_handed;
    rig.look(0, 0.3f);
    EXPECT_LT(rig.forward().y, -0.2f) << "down";
    rig.look(0, 10);
    EXPECT_GT(rig.forward().y, -1.0f) << "never straight down";
  }
}

TEST(RaytracerCameraRig, OrbitKeepsTheTargetAndDistance) {
  for (const bool right_handed : {false, true}) {
    CameraRig rig(view_along_z(right_handed));
    const Vec3 right_before = rig.right();
    rig.orbit(0.3f, 0);
    expect_near(rig.target(), {0, 0, 0}, "target");
    EXPECT_NEAR(length(rig.position()), 10, kEps);
    EXPECT_GT(dot(minus(rig.position(), {0, 0, -10}), right_before), 0.5f)
        << "the camera swings to the image's right; right_handed " << right_handed;
    rig.orbit(0, 0.4f);
    EXPECT_GT(rig.position().y, 1) << "dragging down lifts the camera over the target";
    rig.zoom(0.5f);
    EXPECT_NEAR(length(minus(rig.position(), rig.target())), 5, kEps);
  }
}

TEST(RaytracerCameraRig, FlyingSpeedFollowsTheScenesSize) {
  const CameraView camera = view_along_z(false);
  Scene small = builtin_scene("seed");
  const float seed_speed = fly_speed(scene_bounds(small), camera);
  for (RtSphere& s : small.spheres) {
    s.center_radius.x *= 0.001f;
    s.center_radius.y *= 0.001f;
    s.center_radius.z *= 0.001f;
    s.center_radius.w *= 0.001f;
  }
  EXPECT_NEAR(fly_speed(scene_bounds(small), camera) / seed_speed, 0.001f, 1e-5f);
  EXPECT_GT(seed_speed, 2.0f);
  EXPECT_LT(seed_speed, 10.0f) << "the seed's 10-unit grid crosses in a few seconds";
  EXPECT_NEAR(fly_speed(Box{}, camera), 2.5f, kEps) << "planes only: the camera's distance";
}

}  // namespace
