// A frame split across the devices of a clf::DeviceSet by rows: each device renders a band of
// rows with its own DeviceRenderer (scene, BVH and accumulation on every device), the bands
// sized from the previous frames' timings (clf::SpeedBalancer), so a faster device takes more
// rows. The image is the one-device image: pixels, random streams and accumulated frames are
// those of the whole frame, and when the split moves while a view accumulates, the running sums
// of the rows that change hands go with them. With one device it is a DeviceRenderer.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/raytracer/renderer.hpp"
#include "framework/device_set.hpp"
#include "framework/work_split.hpp"

namespace raytracer {

// One device's part of the last frame.
struct DeviceShare {
  std::string device;  // clf::device_label
  clf::WorkRange rows;
  FrameTimings timings;
};

class SplitRenderer {
 public:
  // One DeviceRenderer per device of `devices` (which must outlive this).
  explicit SplitRenderer(const clf::DeviceSet& devices, const std::string& build_options = "");

  // As DeviceRenderer's, on every device.
  void set_mesh_bvh_builder(MeshBvhBuilder builder);
  void set_scene(const Scene& scene);
  void set_lights(const std::vector<RtLight>& lights);
  void set_camera(const CameraView& camera);
  void set_background(Vec3 background);
  void reset_accumulation();
  void invalidate_bvh();

  // Renders one frame on all devices. The timings combine the devices': the frame's wall-clock
  // (the slowest device and the hand-over of rows), the slowest device's stages, the rays of all.
  FrameTimings render(const RenderSettings& settings, bool accumulate = false);
  const Image& image() const;
  // Each device's rows and timings in the last frame (one entry with one device).
  const std::vector<DeviceShare>& shares() const { return shares_; }

  // The device speeds the next split follows (tests record timings to move it).
  clf::SpeedBalancer& balancer() { return balancer_; }
  std::size_t device_count() const { return renderers_.size(); }
  DeviceRenderer& front() { return *renderers_.front(); }
  const Scene& scene() const { return renderers_.front()->scene(); }
  double mesh_build_ms() const { return renderers_.front()->mesh_build_ms(); }
  std::size_t stored_triangles() const { return renderers_.front()->stored_triangles(); }
  std::size_t instance_count() const { return renderers_.front()->instance_count(); }

 private:
  void for_each_renderer(const std::function<void(DeviceRenderer&)>& body);
  // Moves the running sums of rows whose device changes from `old_split` to `new_split`.
  void hand_over_rows(const std::vector<clf::WorkRange>& old_split,
                      const std::vector<clf::WorkRange>& new_split);
  FrameTimings render_split(const RenderSettings& settings, bool accumulate);

  const clf::DeviceSet& devices_;
  std::vector<std::unique_ptr<DeviceRenderer>> renderers_;
  clf::SpeedBalancer balancer_;
  std::vector<clf::WorkRange> split_;         // the last frame's rows per device
  Image image_;                               // the split frames' image
  clf::PinnedVector<cl_float4> handed_rows_;  // accumulation on its way between devices
  std::vector<DeviceShare> shares_;
};

// "device 0 (NAME) rows 0..540 (50.0 %), trace 12.34 ms; device 1 ...": the shares of a frame.
std::string describe_shares(const std::vector<DeviceShare>& shares, int height);
// [{"device", "first_row", "rows", timings_json...}] for the JSON statistics.
nlohmann::json shares_json(const std::vector<DeviceShare>& shares);

}  // namespace raytracer
