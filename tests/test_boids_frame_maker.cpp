// The boids window's worker side (apps/boids/gui_frame_maker.hpp), without a display: frames from
// requests, and a device switch that fails, then one back.
#include <gtest/gtest.h>

#include "apps/boids/gui_frame_maker.hpp"
#include "framework/clf.hpp"
#include "test_support.hpp"

namespace {

boids::FrameRequest small_request(int device) {
  boids::FrameRequest r;
  r.rules = boids::default_rules(2);
  r.count = 500;
  r.device = device;
  r.steps = 1;
  r.width = 64;
  r.height = 64;
  return r;
}

// A device that cannot be used is an error of that frame; the next frame on a good device draws.
TEST(BoidsFrameMaker, ASwitchThatFailsIsAnErrorAndTheNextOneWorks) {
  clf::DeviceRequest request;
  request.quiet = true;
  boids::FrameMaker maker(request);
  const int device = clf_test::runtime().device().index;
  const boids::FrameResult first = maker.make(small_request(device));
  ASSERT_EQ(first.error, "");
  EXPECT_EQ(first.rgba.size(), 64u * 64u);
  const boids::FrameResult failed = maker.make(small_request(999));
  EXPECT_NE(failed.error, "");
  const boids::FrameResult back = maker.make(small_request(device));
  EXPECT_EQ(back.error, "");
  EXPECT_EQ(back.rgba.size(), 64u * 64u);
}

}  // namespace
