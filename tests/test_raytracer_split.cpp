// A frame split across devices by rows (apps/raytracer/split_renderer.hpp): two runtimes on the
// test device stand in for two devices; their image must be the one-device image byte for byte,
// in both modes and while the split moves between accumulated frames. And the animation's
// frame names and orbit (apps/raytracer/animation.hpp).
#include <gtest/gtest.h>

#include <cmath>

#include "apps/raytracer/animation.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "apps/raytracer/split_renderer.hpp"
#include "raytracer_test_support.hpp"

namespace {

using raytracer::RenderMode;
using raytracer::RenderSettings;

// Two runtimes on the test device, as a two-device set.
const clf::DeviceSet& two_devices() {
  static const clf::DeviceSet* set = [] {
    clf::DeviceRequest request;
    request.profiling = true;
    request.quiet = true;
    std::vector<std::unique_ptr<clf::Runtime>> runtimes;
    for (int i = 0; i < 2; ++i) {
      runtimes.push_back(std::make_unique<clf::Runtime>(clf_test::runtime().device(), request));
    }
    return new clf::DeviceSet(std::move(runtimes));
  }();
  return *set;
}

RenderSettings small_settings(RenderMode mode) {
  return raytracer_test::mode_settings(mode, 40, 64);
}

// Makes the balancer's next split give the devices rows in the ratio share0 : share1.
void force_speeds(raytracer::SplitRenderer& split, double share0, double share1) {
  for (int i = 0; i < 40; ++i) {  // each record moves halfway: 40 leave nothing of the old
    split.balancer().record(0, static_cast<std::size_t>(share0 * 1e6), 1.0);
    split.balancer().record(1, static_cast<std::size_t>(share1 * 1e6), 1.0);
  }
}

// `frames` accumulated frames on one device and split across two (the split moved before each
// frame); every frame's image must be the same bytes.
void expect_split_matches_one_device(const std::string& scene_name, RenderMode mode) {
  const raytracer::Scene scene = raytracer::open_scene(scene_name);
  const RenderSettings settings = small_settings(mode);
  raytracer::DeviceRenderer& one = raytracer_test::renderer();
  one.set_scene(scene);
  raytracer::SplitRenderer split(two_devices(), raytracer::kReferenceBuildOptions);
  split.set_scene(scene);
  const double shares[][2] = {{1, 1}, {1, 3}, {3, 1}, {1, 1.5}};
  std::vector<std::size_t> first_rows;
  for (int f = 0; f < 4; ++f) {
    force_speeds(split, shares[f][0], shares[f][1]);
    const raytracer::FrameTimings a = one.render(settings, f > 0);
    const raytracer::FrameTimings b = split.render(settings, f > 0);
    EXPECT_EQ(b.accumulated, a.accumulated);
    EXPECT_EQ(b.primary_rays, a.primary_rays);
    EXPECT_EQ(b.shadow_rays, a.shadow_rays);
    EXPECT_EQ(b.secondary_rays, a.secondary_rays);
    ASSERT_EQ(split.shares().size(), 2u);
    EXPECT_EQ(split.shares()[0].rows.begin, 0u);
    EXPECT_EQ(split.shares()[0].rows.end, split.shares()[1].rows.begin);
    EXPECT_EQ(split.shares()[1].rows.end, 64u);
    first_rows.push_back(split.shares()[1].rows.begin);
    const auto& expected = one.image();
    const auto& image = split.image();
    ASSERT_EQ(image.size(), expected.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < image.size(); ++i) differing += image[i] != expected[i];
    EXPECT_EQ(differing, 0u) << scene_name << ", frame " << f << ": pixels differ";
  }
  // The split did move: 32, 16, 48, 24 rows (multiples of 8) for device 0.
  EXPECT_EQ(first_rows, (std::vector<std::size_t>{32, 16, 48, 24}));
}

TEST(RaytracerSplit, WhittedImageIsTheOneDeviceImageWhileTheSplitMoves) {
  expect_split_matches_one_device("seed", RenderMode::whitted);
}

TEST(RaytracerSplit, PathImageIsTheOneDeviceImageWhileTheSplitMoves) {
  expect_split_matches_one_device("cornell", RenderMode::path);
}

// While a still view accumulates, a split that moves each share by at most 1/8 of its rows waits
// (its accumulation would be copied between devices); a larger one moves, and a new view follows
// the balancer at once.
TEST(RaytracerSplit, SmallMovesWaitWhileAccumulating) {
  raytracer::SplitRenderer split(two_devices(), raytracer::kReferenceBuildOptions);
  split.set_scene(raytracer::open_scene("seed"));
  RenderSettings settings = small_settings(RenderMode::whitted);
  settings.height = 256;
  const auto first_of_device_1 = [&](double share0, double share1, bool accumulate) {
    force_speeds(split, share0, share1);
    split.render(settings, accumulate);
    return split.shares()[1].rows.begin;
  };
  EXPECT_EQ(first_of_device_1(1, 1, false), 128u);
  EXPECT_EQ(first_of_device_1(17, 15, true), 128u);  // 136 would move 8 of 128 rows
  EXPECT_EQ(first_of_device_1(3, 1, true), 192u);
  EXPECT_EQ(first_of_device_1(1, 1, false), 128u);  // not accumulating: follows at once
  EXPECT_EQ(first_of_device_1(17, 15, false), 136u);
}

// A new size with the same number of pixels keeps the renderer's buffers; rows handed between
// devices afterwards must be rows of the new width.
TEST(RaytracerSplit, HandsOverRowsOfTheNewWidthAfterASizeOfAsManyPixels) {
  const raytracer::Scene scene = raytracer::open_scene("seed");
  raytracer::DeviceRenderer& one = raytracer_test::renderer();
  one.set_scene(scene);
  raytracer::SplitRenderer split(two_devices(), raytracer::kReferenceBuildOptions);
  split.set_scene(scene);
  const RenderSettings tall = raytracer_test::mode_settings(RenderMode::whitted, 40, 64);
  const RenderSettings wide = raytracer_test::mode_settings(RenderMode::whitted, 64, 40);
  force_speeds(split, 1, 1);
  split.render(tall);
  split.render(wide);
  one.render(wide);
  force_speeds(split, 1, 3);  // rows move from device 0 to device 1, with their sums
  split.render(wide, true);
  one.render(wide, true);
  ASSERT_EQ(split.image().size(), one.image().size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < one.image().size(); ++i) {
    differing += split.image()[i] != one.image()[i];
  }
  EXPECT_EQ(differing, 0u) << "pixels differ";
  clf::PinnedVector<cl_float4> sums = clf::pinned_vector<cl_float4>(one.runtime());
  one.read_accumulation_rows({0, 1}, sums);
  EXPECT_EQ(sums.size(), 64u);  // one row of the new width
}

TEST(RaytracerSplit, OneDeviceIsTheDeviceRenderer) {
  const raytracer::Scene scene = raytracer::open_scene("seed");
  std::vector<std::unique_ptr<clf::Runtime>> runtimes;
  clf::DeviceRequest request;
  request.quiet = true;
  runtimes.push_back(std::make_unique<clf::Runtime>(clf_test::runtime().device(), request));
  const clf::DeviceSet one_device(std::move(runtimes));
  raytracer::SplitRenderer split(one_device, raytracer::kReferenceBuildOptions);
  split.set_scene(scene);
  const RenderSettings settings = small_settings(RenderMode::whitted);
  split.render(settings);
  raytracer_test::renderer().set_scene(scene);
  raytracer_test::renderer().render(settings);
  EXPECT_EQ(split.image(), raytracer_test::renderer().image());
  ASSERT_EQ(split.shares().size(), 1u);
  EXPECT_EQ(split.shares()[0].rows.size(), 64u);
}

TEST(RaytracerAnimation, FramePatternsNumberTheFiles) {
  EXPECT_EQ(raytracer::animation_frame_path("out/frame_%04d.png", 7), "out/frame_0007.png");
  EXPECT_EQ(raytracer::animation_frame_path("f%d.png", 12), "f12.png");
  EXPECT_EQ(raytracer::animation_frame_path("100%%_%3d.png", 5), "100%_  5.png");
  for (const char* bad : {"frame.png", "%d_%d.png", "%s.png", "%00d.png", "frame_%", "%x.png"}) {
    try {
      raytracer::animation_frame_path(bad, 1);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const clf::Error& error) {
      EXPECT_NE(std::string(error.what()).find("--out: with --animation"), std::string::npos)
          << error.what();
      EXPECT_NE(std::string(error.what()).find(bad), std::string::npos) << error.what();
    }
  }
}

TEST(RaytracerAnimation, OrbitCirclesTheTargetAtTheSameDistanceAndHeight) {
  raytracer::CameraView start;
  start.position = {0, 2, -10};
  start.look_at = {1, 1, 0};
  const auto distance = [&](const raytracer::CameraView& v) {
    const float dx = v.position.x - v.look_at.x, dz = v.position.z - v.look_at.z;
    return std::sqrt(dx * dx + dz * dz);
  };
  const raytracer::CameraView first = raytracer::orbit_view(start, 0, 8);
  EXPECT_EQ(first.position.z, start.position.z);
  const raytracer::CameraView half = raytracer::orbit_view(start, 4, 8);
  EXPECT_NEAR(half.position.x, 2.0f, 1e-3);  // across the target: 1 - (0 - 1)
  EXPECT_NEAR(half.position.z, 10.0f, 1e-3);
  EXPECT_NEAR(half.position.y, 2.0f, 1e-3);
  const raytracer::CameraView quarter = raytracer::orbit_view(start, 2, 8);
  EXPECT_NEAR(distance(quarter), distance(start), 1e-3);
  EXPECT_NEAR(quarter.position.y, 2.0f, 1e-3);
  EXPECT_GT(std::abs(quarter.position.x - start.position.x), 5.0f);  // it did swing
  EXPECT_NEAR(quarter.look_at.x, 1.0f, 1e-4);
}

}  // namespace
