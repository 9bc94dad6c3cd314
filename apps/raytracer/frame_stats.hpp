// Frame statistics the render and bench commands print and write and the window shows: medians,
// fixed-point numbers, JSON records, rays a second and samples per pixel.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "apps/raytracer/renderer.hpp"

namespace raytracer {

double median(std::vector<double> values);
std::string fixed(double v, int digits = 2);
nlohmann::json timings_json(const FrameTimings& t);
// The frame's rays of every kind, and their rate over the trace time (rays per second).
std::uint64_t total_rays(const FrameTimings& t);
double rays_per_second(const FrameTimings& t);
// "12.3 M primary + 45.6 M shadow + 7.8 M secondary = 65.7 M rays, 1234 Mrays/s".
std::string describe_rays(const FrameTimings& t);
// Written atomically (clf::write_file_atomically); throws clf::Error naming the file when it
// cannot be written.
void write_json(const std::string& path, const nlohmann::json& value);
// Medians over the frames after the first (which pays for the first BVH build and warm-up), or
// the only frame.
FrameTimings summarise(const std::vector<FrameTimings>& frames);

// Samples per pixel in an accumulated image: its frames times aa x aa.
std::uint64_t samples_per_pixel(const FrameTimings& t, int aa);
}  // namespace raytracer
