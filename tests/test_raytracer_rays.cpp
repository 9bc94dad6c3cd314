// cl-raytracer rays: the ray batches, the device's answers for them against the CPU reference and
// Embree (where built), and the command's checks and output.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

#include "apps/raytracer/commands.hpp"
#include "apps/raytracer/embree_tracer.hpp"
#include "apps/raytracer/ray_compare.hpp"
#include "raytracer_test_support.hpp"

namespace {

using raytracer::RayBatch;
using raytracer::RayKind;
using raytracer::RayResults;

// Small enough for PoCL on two cores: 16 instances (54 thousand triangles placed) at 64x48.
constexpr int kWidth = 64;
constexpr int kHeight = 48;

RayResults reference_answers(const raytracer::HostScene& host, const RayBatch& batch) {
  std::vector<std::size_t> all(batch.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  return raytracer::trace_reference(host, batch, all);
}

std::size_t count_kind(const RayResults& results, int kind) {
  std::size_t n = 0;
  for (const RtHit& hit : results.hits) n += hit.kind == kind;
  return n;
}

// The device's and (where built) Embree's answers for every kind of ray of `scene` agree with
// the CPU reference's; returns the reference's answers by kind for further checks.
std::vector<RayResults> expect_tracers_agree(const raytracer::Scene& scene) {
  const raytracer::HostScene host(scene);
  const raytracer::RayBatches batches = raytracer::make_ray_batches(host, kWidth, kHeight);
  raytracer_test::renderer().set_scene(scene);
  std::unique_ptr<raytracer::EmbreeTracer> embree;
  if (raytracer::embree_available()) embree = std::make_unique<raytracer::EmbreeTracer>(host, 2);
  std::vector<RayResults> references;
  for (const RayKind kind : {RayKind::primary, RayKind::shadow, RayKind::secondary}) {
    const RayBatch& batch = batches.of(kind);
    SCOPED_TRACE(std::string(scene.name) + " " + raytracer::ray_kind_name(kind));
    EXPECT_GT(batch.size(), kWidth * kHeight / 4u);
    const RayResults reference = reference_answers(host, batch);
    RayResults ours;
    EXPECT_EQ(raytracer_test::renderer().trace_rays(batch, 2, &ours).size(), 2u);
    const raytracer::Agreement ours_vs_reference = raytracer::compare_results(ours, reference);
    EXPECT_TRUE(ours_vs_reference.acceptable()) << describe(ours_vs_reference);
    if (embree) {
      for (const int packet : {1, 4, 8, 16}) {
        RayResults theirs;
        EXPECT_GE(embree->trace(batch, packet, &theirs), 0.0);
        const raytracer::Agreement agreement = raytracer::compare_results(ours, theirs);
        EXPECT_TRUE(agreement.acceptable()) << packet << "-ray calls: " << describe(agreement);
        // The same surfaces, not only the same distances: hit kinds agree where both hit.
        std::size_t same_kind = 0;
        for (std::size_t i = 0; i < ours.hits.size(); ++i) {
          same_kind += ours.hits[i].kind == theirs.hits[i].kind;
        }
        EXPECT_GE(same_kind + agreement.disagreements, ours.hits.size());
      }
    }
    references.push_back(reference);
  }
  return references;
}

TEST(RaytracerRays, DeviceEmbreeAndReferenceAgreeOnInstances) {
  const std::vector<RayResults> reference =
      expect_tracers_agree(raytracer::builtin_scene("instances:16"));
  // The batches mean something: primary rays see triangles and the floor, some shadow rays are
  // blocked and some not, secondary rays hit triangles and escape.
  EXPECT_GT(count_kind(reference[0], RT_HIT_TRIANGLE), kWidth * kHeight / 10u);
  EXPECT_GT(count_kind(reference[0], RT_HIT_PLANE), kWidth * kHeight / 10u);
  const std::size_t blocked =
      std::accumulate(reference[1].occluded.begin(), reference[1].occluded.end(), std::size_t{0});
  EXPECT_GT(blocked, reference[1].occluded.size() / 20);
  EXPECT_LT(blocked, reference[1].occluded.size() * 19 / 20);
  EXPECT_GT(count_kind(reference[2], RT_HIT_TRIANGLE), 0u);
  EXPECT_GT(count_kind(reference[2], RT_HIT_NONE), 0u);
}

TEST(RaytracerRays, DeviceEmbreeAndReferenceAgreeOnSpheres) {
  const std::vector<RayResults> reference =
      expect_tracers_agree(raytracer::builtin_scene("random:300"));
  EXPECT_GT(count_kind(reference[0], RT_HIT_SPHERE), kWidth * kHeight / 20u);
}

TEST(RaytracerRays, DeviceBuiltMeshBvhsAgreeWithTheReference) {
  const raytracer::Scene scene = raytracer::builtin_scene("instances:16");
  const raytracer::HostScene host(scene);
  const raytracer::RayBatches batches = raytracer::make_ray_batches(host, kWidth, kHeight);
  raytracer::DeviceRenderer renderer(clf_test::runtime());
  for (const auto builder :
       {raytracer::MeshBvhBuilder::device_lbvh, raytracer::MeshBvhBuilder::device_ploc}) {
    SCOPED_TRACE(raytracer::mesh_bvh_builder_name(builder));
    renderer.set_mesh_bvh_builder(builder);
    renderer.set_scene(scene);
    for (const RayKind kind : {RayKind::primary, RayKind::shadow, RayKind::secondary}) {
      SCOPED_TRACE(raytracer::ray_kind_name(kind));
      RayResults ours;
      renderer.trace_rays(batches.of(kind), 1, &ours);
      const raytracer::Agreement agreement =
          raytracer::compare_results(ours, reference_answers(host, batches.of(kind)));
      EXPECT_TRUE(agreement.acceptable()) << describe(agreement);
    }
  }
  EXPECT_EQ(raytracer::parse_mesh_bvh_builder("ploc"), raytracer::MeshBvhBuilder::device_ploc);
}

TEST(RaytracerRays, AgreementCountsMissesAgainstHitsAndDistantHits) {
  RtHit near = rt_no_hit(RT_INFINITY);
  near.kind = RT_HIT_TRIANGLE;
  near.t = 10.0f;
  RtHit rounded = near;
  rounded.t = 10.0f * (1 + raytracer::kDistanceTolerance / 2);
  RtHit further = near;
  further.t = 10.0f * (1 + 2 * raytracer::kDistanceTolerance);
  const RtHit miss = rt_no_hit(RT_INFINITY);
  RayResults a, b;
  a.hits = {near, near, near, miss, miss};
  b.hits = {rounded, further, miss, near, miss};
  const raytracer::Agreement agreement = raytracer::compare_results(a, b);
  EXPECT_EQ(agreement.rays, 5u);
  EXPECT_EQ(agreement.disagreements, 3u);
  EXPECT_EQ(agreement.hits, 3u);
  RayResults blocked_a, blocked_b;
  blocked_a.occluded = {1, 0, 1, 0};
  blocked_b.occluded = {1, 1, 0, 0};
  EXPECT_EQ(raytracer::compare_results(blocked_a, blocked_b).disagreements, 2u);
  EXPECT_FALSE(raytracer::compare_results(blocked_a, blocked_b).acceptable());
  EXPECT_CLF_ERROR(raytracer::compare_results(a, blocked_b), "different numbers of rays");
}

TEST(RaytracerRays, PrimaryRaysCoverEveryPixelOnceInTiles) {
  const auto order = raytracer::tiled_pixel_order(13, 7);
  ASSERT_EQ(order.size(), 13u * 7u);
  const std::set<std::pair<int, int>> distinct(order.begin(), order.end());
  EXPECT_EQ(distinct.size(), order.size());
  // The first 16 rays of a full tile are a 4x4 square.
  const auto tiled = raytracer::tiled_pixel_order(16, 16);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(tiled[i], (std::pair<int, int>{i % 4, i / 4}));
  }
}

TEST(RaytracerRays, BatchesAreReproducibleAndWellFormed) {
  const raytracer::Scene scene = raytracer::builtin_scene("instances:16");
  const raytracer::HostScene host(scene);
  const raytracer::RayBatches a = raytracer::make_ray_batches(host, 32, 24, 7);
  const raytracer::RayBatches b = raytracer::make_ray_batches(host, 32, 24, 7);
  EXPECT_EQ(a.primary.size(), 32u * 24u);
  for (const RayKind kind : {RayKind::primary, RayKind::shadow, RayKind::secondary}) {
    const RayBatch& batch = a.of(kind);
    ASSERT_EQ(batch.size(), b.of(kind).size());
    EXPECT_EQ(0, std::memcmp(batch.directions.data(), b.of(kind).directions.data(),
                             batch.size() * sizeof(cl_float4)));
    for (std::size_t i = 0; i < batch.size(); ++i) {
      EXPECT_NEAR(rt_dot(batch.directions[i], batch.directions[i]), 1.0f, 1e-5f);
      EXPECT_GT(batch.origins[i].w, 0.0f);
    }
  }
  // Each secondary ray starts just off its primary hit, on the side of the normal it leaves by.
  std::size_t k = 0;
  for (std::size_t i = 0; i < a.primary.size(); ++i) {
    cl_float4 origin = a.primary.origins[i];
    origin.w = 0;
    const cl_float4 direction = a.primary.directions[i];
    const RtHit hit = host.trace(origin, direction, RT_INFINITY, false);
    if (hit.kind == RT_HIT_NONE) continue;
    ASSERT_LT(k, a.secondary.size());
    const cl_float4 normal = host.normal(hit, origin, direction);
    const cl_float4 point = rt_add_scaled(origin, direction, hit.t);
    const cl_float4 offset = rt_sub(a.secondary.origins[k], point);
    const float expected = rt_surface_offset(point, hit.t);
    EXPECT_NEAR(rt_dot(offset, normal), expected, 0.01f * expected);
    EXPECT_GT(expected, 0.0f);
    EXPECT_GT(rt_dot(a.secondary.directions[k], normal), 0.0f);
    ++k;
  }
  EXPECT_EQ(k, a.secondary.size());
}

TEST(RaytracerRays, CommandRejectsBadOptions) {
  raytracer::RaysCommand command;
  command.size = "12by4";
  EXPECT_CLF_ERROR(raytracer::run_rays(command, clf_test::runtime()),
                   "--size: expected WIDTHxHEIGHT", "12by4");
  command.size = "0x10";
  EXPECT_CLF_ERROR(raytracer::run_rays(command, clf_test::runtime()), "--size", "[1, 16384]");
  command.size = "64x48";
  command.repeat = 0;
  EXPECT_CLF_ERROR(raytracer::run_rays(command, clf_test::runtime()), "--repeat", "0");
  command.repeat = 1;
  command.mesh_bvh = "octree";
  EXPECT_CLF_ERROR(raytracer::run_rays(command, clf_test::runtime()), "--mesh-bvh", "octree");
}

nlohmann::json run_command(bool no_embree) {
  const std::filesystem::path json =
      std::filesystem::path(testing::TempDir()) / (no_embree ? "rays_alone.json" : "rays.json");
  raytracer::RaysCommand command;
  command.scene = "instances:16";
  command.size = "64x48";
  command.repeat = 1;
  command.threads = 2;
  command.no_embree = no_embree;
  command.json = json.string();
  EXPECT_EQ(raytracer::run_rays(command, clf_test::runtime()), 0);
  return nlohmann::json::parse(std::ifstream(json));
}

TEST(RaytracerRays, CommandWritesEveryKindWithEmbreeWhereBuilt) {
  const nlohmann::json result = run_command(false);
  ASSERT_EQ(result["kinds"].size(), 3u);
  EXPECT_EQ(result["kinds"][0]["rays"], kWidth * kHeight);
  for (const auto& kind : result["kinds"]) {
    EXPECT_GT(kind["ours_mrays_per_s"].get<double>(), 0.0);
    EXPECT_EQ(kind.contains("embree_mrays_per_s"), raytracer::embree_available());
  }
  EXPECT_EQ(result["embree_version"].is_null(), !raytracer::embree_available());
}

TEST(RaytracerRays, CommandWithoutEmbreeTimesTheDeviceAlone) {
  const nlohmann::json result = run_command(true);
  EXPECT_TRUE(result["embree_version"].is_null());
  for (const auto& kind : result["kinds"]) {
    EXPECT_FALSE(kind.contains("embree_mrays_per_s"));
    EXPECT_LE(kind["ours_vs_reference"]["disagreements"].get<int>(),
              kind["ours_vs_reference"]["rays"].get<int>() / 1000);
  }
}

}  // namespace
