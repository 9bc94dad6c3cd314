// The box around the centres of a BVH's primitives (spheres or triangles' boxes), which the
// Morton codes are taken in: both device BVH builds launch bvh_bounds.cl the same way.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"

namespace raytracer {

// Work-groups of the first pass at most: boxes buffers hold 2 * kCentreBoundsGroups float4.
inline constexpr std::size_t kCentreBoundsGroups = 64;

// Leaves the box around the centres of `count` primitives in boxes[0] (min) and boxes[1]
// (max): `per_group` (rt_bvh_bounds_spheres or rt_bvh_bounds_box_centres) reduces a strided
// share of `primitives` per work-group, then one work-group of `of_groups`
// (rt_bvh_bounds_boxes) reduces the groups' boxes.
template <typename Primitives>
void launch_centre_bounds(clf::CLKernel& per_group, clf::CLKernel& of_groups,
                          const Primitives& primitives, cl_uint count,
                          clf::DeviceBuffer<cl_float4>& boxes) {
  std::size_t group = std::min<std::size_t>(256, per_group.max_work_group_size());
  group = std::size_t{1} << static_cast<int>(std::log2(static_cast<double>(group)));  // power of 2
  const std::size_t groups =
      std::min<std::size_t>(kCentreBoundsGroups, (count + group - 1) / group);
  per_group(clf::Range::linear(groups * group, group), primitives, count, boxes,
            clf::Local<cl_float4>{group}, clf::Local<cl_float4>{group});
  of_groups(clf::Range::linear(group, group), boxes, static_cast<cl_uint>(groups),
            clf::Local<cl_float4>{group}, clf::Local<cl_float4>{group});
}

}  // namespace raytracer
