// cl-raytracer rays: rays per second of the device's tracer against Intel Embree's, on the same
// triangles and the same rays (ray_batch.hpp), every answer verified before any figure is shown.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "apps/raytracer/commands.hpp"
#include "apps/raytracer/embree_tracer.hpp"
#include "apps/raytracer/frame_stats.hpp"
#include "apps/raytracer/ray_compare.hpp"
#include "apps/raytracer/renderer.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "framework/error.hpp"
#include "framework/stopwatch.hpp"

namespace raytracer {

namespace {

using nlohmann::json;

constexpr std::size_t kReferenceSample = 4096;   // rays of each kind the CPU reference traces
constexpr int kEmbreePackets[] = {1, 4, 8, 16};  // each timed; the fastest is Embree's figure

// One kind of ray: the medians and the checks.
struct KindRun {
  RayKind kind = RayKind::primary;
  std::size_t rays = 0;
  double ours_ms = 0;
  std::vector<std::pair<int, double>> embree_ms;  // by rays per Embree call
  int embree_packet = 0;                          // the fastest; 0: Embree not run
  double embree_best_ms = 0;
  Agreement ours_embree;       // every ray (the worst over packet sizes)
  Agreement ours_reference;    // the sample
  Agreement embree_reference;  // the sample (the worst over packet sizes)
};

double mrays_per_s(std::size_t rays, double ms) {
  return ms > 0 ? static_cast<double>(rays) / ms * 1e-3 : 0.0;
}

// The agreement with more disagreements (a: none yet when it counts no rays).
const Agreement& worse(const Agreement& a, const Agreement& b) {
  return a.rays == 0 || b.disagreements > a.disagreements ? b : a;
}

void embree_runs(const RayBatch& batch, int repeat, const EmbreeTracer& embree,
                 const RayResults& ours, const std::vector<std::size_t>& sample,
                 const RayResults& reference, KindRun& run) {
  for (const int packet : kEmbreePackets) {
    RayResults answers;
    std::vector<double> ms;
    for (int r = 0; r <= repeat; ++r) {
      const double t = embree.trace(batch, packet, &answers);
      if (r > 0) ms.push_back(t);  // run 0 warms caches and pages up
    }
    const double m = median(ms);
    run.embree_ms.push_back({packet, m});
    if (run.embree_packet == 0 || m < run.embree_best_ms) {
      run.embree_packet = packet;
      run.embree_best_ms = m;
    }
    run.ours_embree = worse(run.ours_embree, compare_results(ours, answers));
    run.embree_reference =
        worse(run.embree_reference, compare_results(select_results(answers, sample), reference));
  }
}

KindRun measure_kind(const RayBatch& batch, int repeat, const HostScene& host,
                     DeviceRenderer& renderer, const EmbreeTracer* embree) {
  KindRun run;
  run.kind = batch.kind;
  run.rays = batch.size();
  if (batch.size() == 0) return run;
  const std::vector<std::size_t> sample = spread_indices(batch.size(), kReferenceSample);
  const RayResults reference = trace_reference(host, batch, sample);
  RayResults ours;
  std::vector<double> ms = renderer.trace_rays(batch, repeat + 1, &ours);
  ms.erase(ms.begin());  // the warm-up
  run.ours_ms = median(ms);
  run.ours_reference = compare_results(select_results(ours, sample), reference);
  if (embree != nullptr) embree_runs(batch, repeat, *embree, ours, sample, reference, run);
  return run;
}

// Prints each kind's checks; false if any pair of tracers disagrees on too many rays.
bool report_agreement(const std::vector<KindRun>& runs) {
  bool ok = true;
  for (const KindRun& run : runs) {
    std::cout << std::left << std::setw(10) << ray_kind_name(run.kind) << std::right;
    if (run.rays == 0) {
      std::cout << "no rays (the scene has no light, or no primary ray hits)\n";
      continue;
    }
    if (run.embree_packet != 0) {
      std::cout << "ours vs Embree: " << describe(run.ours_embree) << "; ";
      ok &= run.ours_embree.acceptable() && run.embree_reference.acceptable();
    }
    std::cout << "vs the CPU reference: ours " << describe(run.ours_reference);
    if (run.embree_packet != 0) std::cout << ", Embree " << describe(run.embree_reference);
    std::cout << "\n";
    ok &= run.ours_reference.acceptable();
  }
  return ok;
}

std::string embree_packets_text(const KindRun& run) {
  std::string text;
  for (const auto& [packet, ms] : run.embree_ms) {
    text += (text.empty() ? "" : ", ") + std::to_string(packet) + ": " +
            fixed(mrays_per_s(run.rays, ms));
  }
  return text;
}

void print_table(const std::vector<KindRun>& runs, unsigned threads) {
  const std::string embree_column =
      "Embree Mrays/s" + (threads > 0 ? " (" + std::to_string(threads) + " threads)" : "");
  std::cout << "\n"
            << std::left << std::setw(10) << "kind" << std::right << std::setw(10) << "rays"
            << std::setw(15) << "ours Mrays/s" << std::setw(30) << embree_column << std::setw(13)
            << "ours/Embree" << std::setw(12) << "agreement"
            << "\n";
  for (const KindRun& run : runs) {
    if (run.rays == 0) continue;
    const double ours = mrays_per_s(run.rays, run.ours_ms);
    const bool embree = run.embree_packet != 0;
    const double theirs = mrays_per_s(run.rays, run.embree_best_ms);
    const std::string embree_text =
        embree ? fixed(theirs) + " (" + std::to_string(run.embree_packet) + "-ray calls)" : "-";
    std::cout << std::left << std::setw(10) << ray_kind_name(run.kind) << std::right
              << std::setw(10) << run.rays << std::setw(15) << fixed(ours) << std::setw(30)
              << embree_text << std::setw(13) << (embree ? fixed(ours / theirs) : "-")
              << std::setw(12)
              << (embree ? fixed(100.0 * (1.0 - run.ours_embree.disagreeing_share()), 3) + " %"
                         : "-")
              << "\n";
  }
  for (const KindRun& run : runs) {
    if (run.embree_packet == 0 || run.rays == 0) continue;
    std::cout << "  Embree " << ray_kind_name(run.kind)
              << " Mrays/s by rays per call: " << embree_packets_text(run) << "\n";
  }
}

json agreement_json(const Agreement& a) {
  return {{"rays", a.rays}, {"disagreements", a.disagreements}, {"hits", a.hits}};
}

json kind_json(const KindRun& run) {
  json record = {{"kind", ray_kind_name(run.kind)},
                 {"rays", run.rays},
                 {"ours_ms", run.ours_ms},
                 {"ours_mrays_per_s", mrays_per_s(run.rays, run.ours_ms)},
                 {"ours_vs_reference", agreement_json(run.ours_reference)}};
  if (run.embree_packet != 0) {
    json by_packet = json::object();
    for (const auto& [packet, ms] : run.embree_ms) by_packet[std::to_string(packet)] = ms;
    record["embree_ms"] = run.embree_best_ms;
    record["embree_mrays_per_s"] = mrays_per_s(run.rays, run.embree_best_ms);
    record["embree_rays_per_call"] = run.embree_packet;
    record["embree_ms_by_rays_per_call"] = by_packet;
    record["ours_over_embree"] = run.embree_best_ms / run.ours_ms;
    record["ours_vs_embree"] = agreement_json(run.ours_embree);
    record["embree_vs_reference"] = agreement_json(run.embree_reference);
  }
  return record;
}

void check_options(const RaysCommand& command, int* width, int* height) {
  parse_size(command.size, width, height);
  if (*width < 1 || *height < 1 || *width > 16384 || *height > 16384) {
    throw clf::Error("--size: width and height must be in [1, 16384], got " + command.size);
  }
  if (command.repeat < 1) {
    throw clf::Error("--repeat: must be >= 1, got " + std::to_string(command.repeat));
  }
}

}  // namespace

int run_rays(const RaysCommand& command, clf::Runtime& runtime) {
  int width = 0, height = 0;
  check_options(command, &width, &height);
  const Scene scene = open_scene(command.scene);
  auto start = std::chrono::steady_clock::now();
  const HostScene host(scene);
  const double host_build_ms = clf::milliseconds_since(start);
  std::cout << "scene " << scene.name << ": " << placed_triangle_count(scene)
            << " triangles placed (" << host.geometry().triangles.size() << " stored, "
            << host.geometry().instances.size() << " instances), " << scene.spheres.size()
            << " spheres, " << scene.planes.size() << " planes; " << width << "x" << height << "\n";
  start = std::chrono::steady_clock::now();
  const RayBatches batches = make_ray_batches(host, width, height);
  std::cout << "rays generated on the host in " << fixed(clf::milliseconds_since(start), 0)
            << " ms (primary hits by the CPU reference)\n";

  DeviceRenderer renderer(runtime);
  renderer.set_mesh_bvh_builder(parse_mesh_bvh_builder(command.mesh_bvh));
  // The host's SAH BVHs are the reference's own: built once, uploaded as they are.
  const bool host_sah = renderer.mesh_bvh_builder() == MeshBvhBuilder::host_sah;
  if (host_sah) {
    renderer.set_scene(scene, host.geometry());
  } else {
    renderer.set_scene(scene);
  }
  const double bvh_build_ms = host_sah ? host_build_ms : renderer.mesh_build_ms();
  std::cout << "ours: " << runtime.device_name() << ", mesh BVHs by "
            << mesh_bvh_builder_name(renderer.mesh_bvh_builder()) << " in " << fixed(bvh_build_ms)
            << (host_sah ? " ms (the CPU reference's, with its sphere BVH)" : " ms")
            << "; kernel times from " << (runtime.profiling() ? "device events" : "the wall clock")
            << "\n";
  std::unique_ptr<EmbreeTracer> embree;
  if (command.no_embree || !embree_available()) {
    std::cout << "Embree: " << (command.no_embree ? "left out (--no-embree)" : embree_version())
              << "; ours is checked against the CPU reference only\n";
  } else {
    embree = std::make_unique<EmbreeTracer>(host, command.threads);
    std::cout << "Embree " << embree_version() << ": " << embree->threads()
              << " threads, native packets " << embree->native_packets()
              << ", BVHs built (quality high) in " << fixed(embree->build_ms())
              << " ms; times from the wall clock\n";
  }
  std::cout << "median of " << command.repeat << " runs after a warm-up\n\nverification:\n";
  std::vector<KindRun> runs;
  for (const RayKind kind : {RayKind::primary, RayKind::shadow, RayKind::secondary}) {
    runs.push_back(measure_kind(batches.of(kind), command.repeat, host, renderer, embree.get()));
  }
  if (!report_agreement(runs)) {
    std::cerr << "cl-raytracer rays: the tracers disagree on more than "
              << fixed(100 * kAllowedDisagreement, 2)
              << " % of some kind's rays (above): no figures\n";
    return 1;
  }
  print_table(runs, embree ? embree->threads() : 0);

  if (!command.json.empty()) {
    json kinds = json::array();
    for (const KindRun& run : runs) kinds.push_back(kind_json(run));
    json record = {{"scene", scene.name},
                   {"width", width},
                   {"height", height},
                   {"triangles_placed", placed_triangle_count(scene)},
                   {"triangles_stored", host.geometry().triangles.size()},
                   {"instances", host.geometry().instances.size()},
                   {"spheres", scene.spheres.size()},
                   {"planes", scene.planes.size()},
                   {"device", runtime.device_name()},
                   {"ours_bvh_build_ms", bvh_build_ms},
                   {"ours_mesh_bvh", command.mesh_bvh},
                   {"repeat", command.repeat},
                   {"embree_version", embree ? json(embree_version()) : json(nullptr)},
                   {"threads", embree ? embree->threads() : 0},
                   {"embree_native_packets", embree ? embree->native_packets() : ""},
                   {"embree_build_ms", embree ? embree->build_ms() : 0.0},
                   {"kinds", kinds}};
    write_json(command.json, record);
    std::cout << "wrote " << command.json << "\n";
  }
  return 0;
}

}  // namespace raytracer
