// The path tracer's choice of an area light (apps/raytracer/emitters.cpp, rt_pick_emitter in
// shared/raytracer/emitters.h): every emitter in proportion to its power, to a precision that
// holds for scenes of many emitters, where a float cdf's rounding did not.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "apps/raytracer/emitters.hpp"
#include "raytracer_test_support.hpp"

namespace {

using namespace raytracer;

// `count` glowing spheres whose radii (so powers, r^2) spread over two decades, two materials.
Scene glowing_spheres(std::size_t count) {
  Scene scene = raytracer_test::empty_scene();
  for (const float radiance : {1.0f, 7.0f}) {
    RtMaterial glow = raytracer_test::lambert_material({0, 0, 0});
    glow.emission = rt_vec(radiance, radiance, radiance);
    scene.materials.push_back(glow);
  }
  for (std::size_t i = 0; i < count; ++i) {
    const float radius = 0.01f * (1.0f + static_cast<float>((i * 7919) % 1000) / 100.0f);
    scene.spheres.push_back(
        make_sphere({static_cast<float>(i), 0, 10}, radius, static_cast<cl_uint>(i % 2)));
  }
  return scene;
}

std::vector<double> shares_of_power(const Scene& scene) {
  std::vector<double> shares;
  double total = 0;
  for (const RtSphere& sphere : scene.spheres) {
    const double r = sphere.center_radius.w;
    shares.push_back(rt_luminance(scene.materials[sphere.material].emission) * r * r);
    total += shares.back();
  }
  for (double& share : shares) share /= total;
  return shares;
}

// The chance the table gives each emitter: a slot's keep to its own, the rest to its alias.
std::vector<double> chances_in_table(const std::vector<RtEmitter>& emitters) {
  std::vector<double> chances(emitters.size(), 0.0);
  const double slot = 1.0 / static_cast<double>(emitters.size());
  for (std::size_t i = 0; i < emitters.size(); ++i) {
    EXPECT_GE(emitters[i].keep, 0.0f);
    EXPECT_LE(emitters[i].keep, 1.0f);
    EXPECT_LT(emitters[i].alias, emitters.size());
    chances[i] += slot * emitters[i].keep;
    chances[emitters[i].alias] += slot * (1.0 - emitters[i].keep);
  }
  return chances;
}

// 200003 emitters with shares from 3e-8 to 2e-5: a float cdf (each bound rounded to 2^-24 near
// the end) drew the worst of them 111 % off its share; the alias table's float keeps give every
// one within 1e-6 of its share.
TEST(RaytracerEmitters, EveryEmitterIsDrawnInProportionToItsPower) {
  const Scene scene = glowing_spheres(200003);
  const EmitterList list = build_emitters(scene);
  ASSERT_EQ(list.emitters.size(), scene.spheres.size());
  const std::vector<double> expected = shares_of_power(scene);
  const std::vector<double> chances = chances_in_table(list.emitters);
  double worst = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    worst = std::max(worst, std::fabs(chances[i] - expected[i]) / expected[i]);
  }
  EXPECT_LT(worst, 1e-6) << "the worst emitter's chance, relative to its share of the power";
}

// rt_pick_emitter over evenly spread random bits draws each emitter as often as its share.
TEST(RaytracerEmitters, PicksFollowTheTable) {
  const Scene scene = glowing_spheres(37);
  const EmitterList list = build_emitters(scene);
  const std::vector<double> expected = shares_of_power(scene);
  std::vector<double> drawn(expected.size(), 0.0);
  const cl_uint draws = 1u << 22;
  for (cl_uint k = 0; k < draws; ++k) {
    const cl_uint bits = k << 10 | (k * 2654435761u) >> 22;  // every 2^-22 of the range once
    const cl_uint e = rt_pick_emitter(list.emitters.data(), 37, bits);
    ASSERT_LT(e, 37u);
    drawn[e] += 1.0 / draws;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(drawn[i], expected[i], 1e-4 * expected[i] + 2e-6) << "emitter " << i;
  }
}

TEST(RaytracerEmitters, OneEmitterAndEqualPowersAlwaysKeepTheirSlot) {
  for (const std::size_t count : {std::size_t{1}, std::size_t{64}}) {
    Scene scene = glowing_spheres(count);
    for (RtSphere& sphere : scene.spheres) {
      sphere.center_radius.w = 0.5f;
      sphere.material = 0;
    }
    const EmitterList list = build_emitters(scene);
    for (std::size_t i = 0; i < count; ++i) {
      EXPECT_EQ(list.emitters[i].keep, 1.0f);
      EXPECT_EQ(rt_pick_emitter(list.emitters.data(), static_cast<cl_uint>(count),
                                static_cast<cl_uint>((std::uint64_t{i} << 32) / count)),
                i);
    }
  }
}

}  // namespace
