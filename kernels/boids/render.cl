// Draws boids into an RGBA frame: one point (a small square) per boid, coloured by heading.
// Overlapping boids are resolved with atomic_max on a packed (nearness, colour) word, so frames are
// deterministic and in 3D the nearest boid wins; a second launch unpacks the words into RGBA bytes.
#include "shared/boids/boids.h"

__kernel void boids_clear_frame(uint pixels, __global uint* packed) {
  const uint i = get_global_id(0);
  if (i < pixels) packed[i] = 0;
}

// Hue from the heading in the xy plane; 3D tilts toward white when climbing, dark when diving.
inline uint boids_heading_rgb(float4 v, int dims) {
  const float hue = (atan2(v.y, v.x) + M_PI_F) / (2.0f * M_PI_F) * 6.0f;
  const float f = hue - floor(hue);
  float r, g, b;
  switch (((int)hue) % 6) {
    case 0:
      r = 1.0f;
      g = f;
      b = 0.0f;
      break;
    case 1:
      r = 1.0f - f;
      g = 1.0f;
      b = 0.0f;
      break;
    case 2:
      r = 0.0f;
      g = 1.0f;
      b = f;
      break;
    case 3:
      r = 0.0f;
      g = 1.0f - f;
      b = 1.0f;
      break;
    case 4:
      r = f;
      g = 0.0f;
      b = 1.0f;
      break;
    default:
      r = 1.0f;
      g = 0.0f;
      b = 1.0f - f;
      break;
  }
  if (dims == 3) {
    const float speed = length(v.xyz);
    const float climb = speed > 0.0f ? v.z / speed : 0.0f;  // -1 .. 1
    const float mix_to = climb > 0.0f ? 1.0f : 0.0f;
    const float amount = 0.5f * fabs(climb);
    r = r + (mix_to - r) * amount;
    g = g + (mix_to - g) * amount;
    b = b + (mix_to - b) * amount;
  }
  return ((uint)(r * 255.0f) << 16) | ((uint)(g * 255.0f) << 8) | (uint)(b * 255.0f);
}

__kernel void boids_draw(__global const float4* position, __global const float4* velocity,
                         BoidsRules rules, BoidsView view, uint n, __global uint* packed) {
  const uint i = get_global_id(0);
  if (i >= n) return;
  const float4 p = position[i];
  float sx, sy;
  uint nearness = 255;
  if (rules.dims == 2) {
    sx = (p.x + rules.half_width) / (2.0f * rules.half_width) * (float)view.width;
    sy = (rules.half_width - p.y) / (2.0f * rules.half_width) * (float)view.height;
  } else {
    const float cx = dot(p.xyz, view.right.xyz);
    const float cy = dot(p.xyz, view.up.xyz);
    const float depth = view.distance + dot(p.xyz, view.forward.xyz);
    if (depth <= 0.0f) return;
    sx = 0.5f * (float)view.width + view.focal * cx / depth;
    sy = 0.5f * (float)view.height - view.focal * cy / depth;
    // Nearer boids get a larger nearness (and so win atomic_max) and a brighter colour.
    const float near_to_far = clamp(
        (depth - view.distance + 2.0f * rules.half_width) / (4.0f * rules.half_width), 0.0f, 1.0f);
    nearness = 255 - (uint)(near_to_far * 254.0f);
  }
  if (!(sx >= 0.0f && sy >= 0.0f && sx < (float)view.width && sy < (float)view.height)) return;
  uint rgb = boids_heading_rgb(velocity[i], rules.dims);
  if (rules.dims == 3) {
    const float shade = 0.35f + 0.65f * (float)nearness / 255.0f;
    rgb = ((uint)((float)((rgb >> 16) & 255) * shade) << 16) |
          ((uint)((float)((rgb >> 8) & 255) * shade) << 8) | (uint)((float)(rgb & 255) * shade);
  }
  const int cx = (int)sx, cy = (int)sy, r = view.point_radius;
  for (int y = max(cy - r, 0); y <= min(cy + r, view.height - 1); ++y) {
    for (int x = max(cx - r, 0); x <= min(cx + r, view.width - 1); ++x) {
      atomic_max(&packed[(uint)y * (uint)view.width + (uint)x], (nearness << 24) | rgb);
    }
  }
}

// Packed words to RGBA bytes (r, g, b, a in memory order); empty pixels get the background.
__kernel void boids_unpack_frame(__global const uint* packed, uint pixels, __global uchar4* rgba) {
  const uint i = get_global_id(0);
  if (i >= pixels) return;
  const uint word = packed[i];
  if (word == 0) {
    rgba[i] = (uchar4)(12, 14, 22, 255);
  } else {
    rgba[i] = (uchar4)((word >> 16) & 255, (word >> 8) & 255, word & 255, 255);
  }
}
