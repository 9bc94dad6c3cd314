// Affine transforms of mesh instances.
#include "apps/raytracer/scene_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "framework/error.hpp"

namespace raytracer {

namespace {

// The linear part of `t` in double, with the first row's cofactors and the determinant; singular
// where the determinant is not finite or vanishes against the entries' scale (a zero scale).
struct LinearPart {
  double a[3][3];
  double cof0[3];
  double det;
  bool singular;
};

LinearPart linear_part(const Transform& t) {
  LinearPart p{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) p.a[r][c] = t.m[r][c];
  const auto& a = p.a;
  p.cof0[0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  p.cof0[1] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  p.cof0[2] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  p.det = a[0][0] * p.cof0[0] + a[0][1] * p.cof0[1] + a[0][2] * p.cof0[2];
  double scale = 0;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) scale = std::max(scale, std::fabs(a[r][c]));
  p.singular =
      !std::isfinite(p.det) || std::fabs(p.det) <= 1e-12 * scale * scale * scale || scale == 0;
  return p;
}

}  // namespace

Transform Transform::translation(float x, float y, float z) {
  Transform t;
  t.m[0][3] = x;
  t.m[1][3] = y;
  t.m[2][3] = z;
  return t;
}

Transform Transform::scale(float x, float y, float z) {
  Transform t;
  t.m[0][0] = x;
  t.m[1][1] = y;
  t.m[2][2] = z;
  return t;
}

Transform Transform::rotation(int axis, float radians) {
  // Counter-clockwise looking down the axis: the other two axes in cyclic order (y, z for x).
  const int i = (axis + 1) % 3, j = (axis + 2) % 3;
  const float c = std::cos(radians), s = std::sin(radians);
  Transform t;
  t.m[i][i] = c;
  t.m[i][j] = -s;
  t.m[j][i] = s;
  t.m[j][j] = c;
  return t;
}

Transform Transform::operator*(const Transform& b) const {
  Transform r;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 4; ++col) {
      float sum = col == 3 ? m[row][3] : 0.0f;
      for (int k = 0; k < 3; ++k) sum += m[row][k] * b.m[k][col];
      r.m[row][col] = sum;
    }
  }
  return r;
}

cl_float4 Transform::apply_point(cl_float4 p) const {
  return rt_vec(m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3],
                m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3],
                m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + m[2][3]);
}

bool Transform::invertible() const { return !linear_part(*this).singular; }

Transform Transform::inverse() const {
  // The linear part by cofactors (in double), then the translation taken back through it.
  const LinearPart p = linear_part(*this);
  if (p.singular) {
    throw clf::Error("the transform is singular (determinant " + std::to_string(p.det) + ")");
  }
  const auto& a = p.a;
  const double det = p.det;
  double inv[3][3];
  inv[0][0] = p.cof0[0] / det;
  inv[1][0] = p.cof0[1] / det;
  inv[2][0] = p.cof0[2] / det;
  inv[0][1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
  inv[1][1] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
  inv[2][1] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
  inv[0][2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
  inv[1][2] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
  inv[2][2] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
  Transform r;
  for (int row = 0; row < 3; ++row) {
    double t = 0;
    for (int k = 0; k < 3; ++k) {
      r.m[row][k] = static_cast<float>(inv[row][k]);
      t -= inv[row][k] * m[k][3];
    }
    r.m[row][3] = static_cast<float>(t);
  }
  return r;
}

Transform MeshPlacement::transform() const {
  const float radians = 3.14159265f / 180.0f;
  const Transform rotate = Transform::rotation(2, rotate_degrees[2] * radians) *
                           Transform::rotation(1, rotate_degrees[1] * radians) *
                           Transform::rotation(0, rotate_degrees[0] * radians);
  return Transform::translation(translate[0], translate[1], translate[2]) * rotate *
         Transform::scale(scale[0], scale[1], scale[2]);
}

}  // namespace raytracer
