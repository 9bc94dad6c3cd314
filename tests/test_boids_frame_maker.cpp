// The boids window's worker side (apps/boids/gui_frame_maker.hpp), without a display: frames from
// requests, and a device switch that fails, then one back; and its sliders' scales.
#include <gtest/gtest.h>

#include "apps/boids/gui_frame_maker.hpp"
#include "apps/boids/gui_slider.hpp"
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

// A slider takes the command line's value as it is: its range widens to hold it and it shows
// enough digits (gui --rc 30 --dt 2 ran and showed 20 and 1.00).
TEST(BoidsSliders, AStartingValueOutsideTheScaleWidensIt) {
  const boids::SliderScale radius{0.0, 20.0, 0.1, 1};
  boids::SliderScale fitted = boids::fit_slider_scale(radius, 30.0f);
  EXPECT_EQ(fitted.low, 0.0);
  EXPECT_EQ(fitted.high, 30.0);
  EXPECT_EQ(fitted.digits, 1);
  fitted = boids::fit_slider_scale({0.01, 1.0, 0.01, 2}, 2.0f);
  EXPECT_EQ(fitted.high, 2.0);
  EXPECT_EQ(fitted.digits, 2);
  fitted = boids::fit_slider_scale({0.0, 0.1, 0.001, 3}, 0.0005f);
  EXPECT_EQ(fitted.digits, 4);
  fitted = boids::fit_slider_scale({0.0, 0.1, 0.001, 3}, -0.25f);
  EXPECT_EQ(fitted.low, -0.25);
  fitted = boids::fit_slider_scale(radius, 5.0f);  // inside: unchanged
  EXPECT_EQ(fitted.low, 0.0);
  EXPECT_EQ(fitted.high, 20.0);
  EXPECT_EQ(fitted.digits, 1);
}

}  // namespace
