#include "apps/raytracer/camera_rig.hpp"

#include <algorithm>
#include <cmath>

namespace raytracer {

namespace {

constexpr float kMaxPitch = 1.5f;  // radians: short of straight up or down, where yaw is lost

Vec3 add_scaled(Vec3 a, Vec3 b, float k) { return {a.x + k * b.x, a.y + k * b.y, a.z + k * b.z}; }

float length(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

// From the target towards the camera.
Vec3 offset_direction(float yaw, float pitch) {
  return {std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
}

}  // namespace

CameraRig::CameraRig(const CameraView& view) : base_(view), target_(view.look_at) {
  const Vec3 p = view.position;
  const Vec3 d{p.x - target_.x, p.y - target_.y, p.z - target_.z};
  distance_ = std::max(length(d), 1e-6f);
  yaw_ = std::atan2(d.x, d.z);
  pitch_ = std::asin(std::clamp(d.y / distance_, -1.0f, 1.0f));
}

Vec3 CameraRig::position() const {
  return add_scaled(target_, offset_direction(yaw_, pitch_), distance_);
}

CameraView CameraRig::view() const {
  CameraView view = base_;
  view.look_at = target_;
  view.position = position();
  return view;
}

Vec3 CameraRig::forward() const {
  const Vec3 d = offset_direction(yaw_, pitch_);
  return {-d.x, -d.y, -d.z};
}

Vec3 CameraRig::right() const {
  // The renderer's own right vector (make_camera), so moves match the image.
  const cl_float4 r = rt_normalize(make_camera(view(), 1, 1).right);
  return {r.x, r.y, r.z};
}

void CameraRig::orbit(float right, float down) {
  // Lowering yaw moves a left-handed camera to the image's right; a right-handed image is the
  // mirror of it.
  yaw_ += base_.right_handed ? right : -right;
  pitch_ = std::clamp(pitch_ + down, -kMaxPitch, kMaxPitch);
}

void CameraRig::look(float right, float down) {
  const Vec3 eye = position();
  // Raising yaw turns a left-handed camera's view to the image's right.
  yaw_ += base_.right_handed ? -right : right;
  pitch_ = std::clamp(pitch_ + down, -kMaxPitch, kMaxPitch);
  target_ = add_scaled(eye, offset_direction(yaw_, pitch_), -distance_);
}

void CameraRig::move(float right, float up, float forward) {
  target_ = add_scaled(target_, this->right(), right);
  target_.y += up;
  target_ = add_scaled(target_, this->forward(), forward);
}

void CameraRig::zoom(float factor) { distance_ = std::clamp(distance_ * factor, 1e-4f, 1e6f); }

float fly_speed(const Box& bounds, const CameraView& camera) {
  float size = 0;
  if (bounds.min[0] <= bounds.max[0]) {
    size = length({bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1],
                   bounds.max[2] - bounds.min[2]});
  }
  if (!(size > 0)) {
    const Vec3 a = camera.look_at, b = camera.position;
    size = length({a.x - b.x, a.y - b.y, a.z - b.z});
  }
  return std::max(0.25f * size, 1e-4f);
}

}  // namespace raytracer
