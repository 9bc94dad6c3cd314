// The raytracer window's worker side (apps/raytracer/gui_render_state): scenes open there, off the
// UI thread; a file that cannot be opened is reported once, by name, while the old scene goes on
// rendering (a reload that fails keeps the window's view); a view set for the old scene gives way
// to a new scene's own camera; a still view accumulates frames, and any change starts again.
#include <gtest/gtest.h>

#include "apps/raytracer/gui_render_state.hpp"
#include "apps/raytracer/scene_source.hpp"
#include "raytracer_model_test_support.hpp"
#include "test_support.hpp"

namespace {

using namespace raytracer;

class RaytracerWindowWorker : public testing::Test {
 protected:
  RaytracerWindowWorker()
      : seed_(std::make_shared<const Scene>(builtin_scene("seed"))),
        state_(seed_, {"seed", 1, ""}, [] {
          clf::DeviceRequest request;
          request.quiet = true;
          return request;
        }()) {}

  // A 48x32 frame of `source` (generation `generation`, in `environment` where given) seen by
  // camera_ (the seed's unless a test sets another), set for generation `view_generation`.
  ViewResult frame(const std::string& source, std::uint64_t generation,
                   std::uint64_t view_generation, bool accumulate = false, int grid = 3,
                   const std::string& environment = "") {
    ViewRequest r;
    r.serial = ++serial_;
    r.scene = {source, generation, environment};
    r.view_generation = view_generation;
    r.width = 48;
    r.height = 32;
    r.camera = camera_;
    r.light = {1, 8, -2};
    r.depth = 1;
    r.grid = grid;
    r.accumulate = accumulate;
    ViewResult result = state_.render(r);
    EXPECT_EQ(result.error, "") << source;
    EXPECT_EQ(result.rgba.size(), 48u * 32u) << source;
    return result;
  }

  std::shared_ptr<const Scene> seed_;
  RenderState state_;
  CameraView camera_ = seed_->camera;
  std::uint64_t serial_ = 0;
};

TEST_F(RaytracerWindowWorker, StillViewAccumulatesAndAChangeRestarts) {
  EXPECT_EQ(frame("seed", 1, 1).timings.accumulated, 1u);
  EXPECT_EQ(frame("seed", 1, 1, true).timings.accumulated, 2u);
  EXPECT_EQ(frame("seed", 1, 1, true).timings.accumulated, 3u);
  const ViewResult changed = frame("seed", 1, 1, true, 4);
  EXPECT_EQ(changed.timings.accumulated, 1u) << "another sphere grid";
  EXPECT_EQ(changed.spheres, 64u);
  EXPECT_EQ(frame("seed", 1, 1, false, 4).timings.accumulated, 1u) << "asked to start again";
}

TEST_F(RaytracerWindowWorker, AFileThatCannotBeOpenedKeepsTheSceneAndSaysWhyOnce) {
  const auto dir = raytracer_test::scratch_directory("window_worker");
  const std::string broken = (dir / "broken.json").string();
  raytracer_test::write_file(broken, R"({"camera": {"position": [0, 0, 0]}})");
  const ViewResult failed = frame(broken, 2, 1);
  EXPECT_NE(failed.open_error.find(broken), std::string::npos) << failed.open_error;
  EXPECT_NE(failed.open_error.find("camera.look_at"), std::string::npos) << failed.open_error;
  EXPECT_EQ(failed.opened, nullptr);
  EXPECT_EQ(failed.generation, 1u) << "the seed goes on";
  EXPECT_EQ(failed.spheres, 27u);
  EXPECT_EQ(frame(broken, 2, 1).open_error, "") << "not tried again for every frame";
  EXPECT_NE(frame(broken, 3, 1).open_error, "") << "a new attempt (a reload) tries again";
}

// A reload (or an environment image) keeps the window's view for the generation it opens; if
// that open fails, the frame is still the window's view of the scene shown, not the scene's own.
TEST_F(RaytracerWindowWorker, AFailedReloadKeepsTheWindowsView) {
  const auto dir = raytracer_test::scratch_directory("window_worker_reload");
  const std::string broken = (dir / "broken.json").string();
  raytracer_test::write_file(broken, R"({"camera": {"position": [0, 0, 0]}})");
  camera_.position.x += 3;
  const ViewResult user_view = frame("seed", 1, 1);
  const ViewResult failed = frame(broken, 2, 2);
  EXPECT_NE(failed.open_error, "");
  EXPECT_EQ(failed.rgba, user_view.rgba);
  // A scene opened after the failure, while the window's view still names the failed one, shows
  // its own view, not the window's.
  const ViewResult opened = frame("seed", 3, 2);
  ASSERT_NE(opened.opened, nullptr);
  EXPECT_NE(opened.rgba, user_view.rgba);
}

TEST_F(RaytracerWindowWorker, OpensScenesAndUsesTheirOwnViewUntilTheWindowHasIt) {
  const ViewResult opened = frame("aalborg", 2, 1);
  ASSERT_NE(opened.opened, nullptr);
  EXPECT_EQ(opened.open_choice.source, "aalborg");
  EXPECT_EQ(opened.generation, 2u);
  EXPECT_EQ(opened.spheres, 289u);
  EXPECT_GT(opened.fly_speed, 50.0f) << "aalborg is hundreds of units across";
  // Aalborg's own camera looks at its spheres (+z): a lit image. The window's camera below looks
  // away from them, into the dark background, once it is set for generation 2.
  camera_.position = {0, 0, 0};
  camera_.look_at = {0, 0, -1};
  const auto brightness = [](const ViewResult& r) {
    double sum = 0;
    for (const cl_uint pixel : r.rgba) sum += (pixel & 0xFF) + ((pixel >> 8) & 0xFF);
    return sum / static_cast<double>(r.rgba.size());
  };
  const ViewResult own_view = frame("aalborg", 2, 1);
  const ViewResult away = frame("aalborg", 2, 2);
  EXPECT_EQ(own_view.opened, nullptr) << "opened once";
  EXPECT_GT(brightness(own_view), brightness(away) + 20);
  const ViewResult reloaded = frame("aalborg", 3, 3);
  ASSERT_NE(reloaded.opened, nullptr) << "a new generation opens the same source again";
  EXPECT_EQ(reloaded.generation, 3u);
}

// An image opened in the window surrounds the scene shown (the seed's sky becomes the image);
// one that cannot be read is said, by name, and the scene goes on as it was.
TEST_F(RaytracerWindowWorker, AnEnvironmentImageSurroundsTheScene) {
  if (!model_files_supported()) GTEST_SKIP() << "environment images need the model library";
  const std::string image = raytracer_test::test_model("glTF2/BoxTextured-glTF/CesiumLogoFlat.png");
  const ViewResult plain = frame("seed", 1, 1);
  const ViewResult surrounded = frame("seed", 2, 2, false, 3, image);
  ASSERT_NE(surrounded.opened, nullptr);
  ASSERT_TRUE(surrounded.opened->environment && surrounded.opened->environment->image);
  EXPECT_EQ(surrounded.opened->environment->image->width, 211);
  EXPECT_EQ(surrounded.open_choice.environment, image);
  EXPECT_NE(plain.rgba, surrounded.rgba) << "the sky is the image now";
  const ViewResult missing = frame("seed", 3, 2, false, 3, "no-such-sky.hdr");
  EXPECT_NE(missing.open_error.find("environment image: no-such-sky.hdr: cannot read it"),
            std::string::npos)
      << missing.open_error;
  EXPECT_EQ(missing.generation, 2u) << "the surrounded seed goes on";
}

}  // namespace
