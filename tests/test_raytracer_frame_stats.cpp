// The numbers the window's status line shows of a frame: samples per pixel of the accumulated
// image and rays a second (0 where the renderer did not count rays).
#include <gtest/gtest.h>

#include "apps/raytracer/frame_stats.hpp"

namespace {

using namespace raytracer;

TEST(RaytracerFrameStats, SamplesPerPixelAreFramesTimesAaSquared) {
  FrameTimings t;
  t.accumulated = 7;
  EXPECT_EQ(samples_per_pixel(t, 1), 7u);
  EXPECT_EQ(samples_per_pixel(t, 3), 63u);
}

TEST(RaytracerFrameStats, RaysPerSecondSumEveryKindOverTheTraceTime) {
  FrameTimings t;
  t.trace_ms = 20;
  EXPECT_EQ(rays_per_second(t), 0.0) << "no rays counted (the window then shows none)";
  t.primary_rays = 1000000;
  t.shadow_rays = 600000;
  t.secondary_rays = 400000;
  EXPECT_DOUBLE_EQ(rays_per_second(t), 100e6) << "2 million rays in 20 ms";
  t.trace_ms = 0;
  EXPECT_EQ(rays_per_second(t), 0.0) << "no time measured";
}

}  // namespace
