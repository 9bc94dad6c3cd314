// cl-raytracer render --animation N: N frames of an orbit about the scene camera's target (one
// full turn, frame 0 the scene's own view), written as numbered PNGs from a pattern such as
// frames/frame_%04d.png. Under mpirun the frames are spread across the ranks (frame i on rank
// i % ranks), each rank rendering on its devices; rank 0 prints the progress of all.
#pragma once

#include <string>

#include "apps/raytracer/commands.hpp"
#include "apps/raytracer/scene.hpp"

namespace raytracer {

// The file of frame `frame` from `pattern`, which holds exactly one %d, or %0Nd (N up to 9), for
// the frame number ("%%" is a literal %). Throws clf::Error naming --out otherwise.
std::string animation_frame_path(const std::string& pattern, int frame);

// The camera of frame `frame` of `frames`: `start` swung about its target by frame/frames of a
// turn (to the image's right), at the same distance and height.
CameraView orbit_view(const CameraView& start, int frame, int frames);

// Renders command.animation frames of the orbit (each command.frames frames accumulated) and
// writes them. Errors throw clf::Error; with several ranks the caller must end them all
// (clf::ProcessGroup::abort), as main() does, or the others wait for ever.
int run_animation(const RenderCommand& command, const Scene& scene, const RenderSettings& settings,
                  clf::DeviceSet& devices);

}  // namespace raytracer
