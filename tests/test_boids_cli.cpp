// cl-boids' files and commands: CSV round trips, dumps, PNG frames and input errors.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "apps/boids/commands.hpp"
#include "apps/boids/csv.hpp"
#include "apps/boids/render.hpp"
#include "apps/boids/sweep_plan.hpp"
#include "test_support.hpp"

namespace {

// A file path under the test's temporary directory.
std::string temp_path(const std::string& name) { return testing::TempDir() + "boids_" + name; }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

boids::RunOptions small_run(int dims) {
  boids::RunOptions options;
  options.model.dims = dims;
  options.model.count = 600;
  options.model.count_given = true;
  options.model.box = dims == 3 ? 12.0f : 30.0f;
  options.steps = 4;
  return options;
}

int run(const boids::RunOptions& options) {
  std::ostringstream out;
  clf::DeviceOptions device;
  device.request.quiet = true;
  return boids::run_command(options, device, out);
}

TEST(BoidsCsv, WriteThenReadGivesTheSameBits) {
  for (int dims : {2, 3}) {
    BoidsRules rules = boids::default_rules(dims);
    const boids::State state = boids::reference_initial_state(500, 9, rules);
    const std::string path = temp_path("roundtrip.csv");
    boids::write_csv(path, state, dims);
    const boids::CsvBoids read = boids::read_csv(path, dims);
    ASSERT_EQ(read.state.size(), state.size());
    for (std::size_t i = 0; i < state.size(); ++i) {
      ASSERT_EQ(std::memcmp(&read.state.position[i], &state.position[i], sizeof(cl_float4)), 0);
      ASSERT_EQ(std::memcmp(&read.state.velocity[i], &state.velocity[i], sizeof(cl_float4)), 0);
    }
    EXPECT_EQ(read.lines.back(), 501u) << "the header, then a line a boid";
  }
}

// A written state names its version, dimensions, count and checksum on its first line: a file
// cut short, edited or of the other dimensions is refused; without that line it loads as written.
TEST(BoidsCsv, AWrittenStateThatDoesNotMatchItsFirstLineIsRefused) {
  const boids::State state = boids::reference_initial_state(50, 9, boids::default_rules(2));
  const std::string path = temp_path("sealed.csv");
  boids::write_csv(path, state, 2);
  const std::string whole = read_file(path);
  ASSERT_EQ(whole.rfind("# cl-boids state, version 1, dims 2, boids 50, checksum ", 0), 0u);

  write_file(path, whole.substr(0, whole.size() - 3));
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "sealed.csv", "damaged", "checksum");
  write_file(path, whole.substr(0, whole.rfind('\n', whole.size() - 2) + 1));  // a whole row less
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "sealed.csv", "damaged");
  std::string edited = whole;
  edited[edited.size() - 2] = edited[edited.size() - 2] == '1' ? '2' : '1';
  write_file(path, edited);
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "sealed.csv", "damaged");
  write_file(path, whole);
  EXPECT_CLF_ERROR(boids::read_csv(path, 3), "sealed.csv:1:", "2D boids", "--dims 3");
  std::string newer = whole;
  newer.replace(newer.find("version 1"), 9, "version 2");
  write_file(path, newer);
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "sealed.csv:1:", "version 2");
  write_file(path, edited.substr(edited.find('\n') + 1));  // edited by hand, first line removed
  EXPECT_EQ(boids::read_csv(path, 2).state.size(), 50u);
}

// A dump that fails midway (here: the file size limit) leaves the previous file as it was.
TEST(BoidsCsv, AFailedDumpKeepsThePreviousFile) {
  const boids::State state = boids::reference_initial_state(2000, 9, boids::default_rules(2));
  const std::string path = temp_path("kept.csv");
  boids::write_csv(path, state, 2);
  const std::string before = read_file(path);
  rlimit old{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  const rlimit small{4096, old.rlim_max};
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  const boids::State other = boids::reference_initial_state(2000, 10, boids::default_rules(2));
  EXPECT_THROW(boids::write_csv(path, other, 2), clf::Error);
  setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(read_file(path), before);
}

// A state that --init could not read back (NaN or infinity) is refused, naming the boid and field.
TEST(BoidsCsv, ANonFiniteStateIsNotWritten) {
  boids::State state = boids::reference_initial_state(20, 9, boids::default_rules(2));
  state.velocity[7].y = std::nanf("");
  const std::string path = temp_path("nan.csv");
  std::remove(path.c_str());
  EXPECT_CLF_ERROR(boids::write_csv(path, state, 2), "nan.csv", "boid 7's vy is nan");
  EXPECT_FALSE(std::ifstream(path).good());
  state.velocity[7].y = 0.0f;
  state.position[3].x = -INFINITY;
  EXPECT_CLF_ERROR(boids::write_csv(path, state, 2), "boid 3's x is infinite");
}

TEST(BoidsCsv, MalformedLinesNameFileLineAndField) {
  const std::string path = temp_path("bad.csv");
  write_file(path, "# x,y,vx,vy\n1,2,0.5,0.5\n\n1,2,0.5\n");
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "bad.csv:4:", "expected 4", "found 3");
  write_file(path, "1,2,0.5,0.5\n1,2,abc,0.5\n");
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "bad.csv:2:", "field 3 (vx)", "'abc'");
  write_file(path, "1,2,3,0.5,0.5,1e99\n");
  EXPECT_CLF_ERROR(boids::read_csv(path, 3), "bad.csv:1:", "field 6 (vz)", "not a finite");
  write_file(path, "# nothing\n");
  EXPECT_CLF_ERROR(boids::read_csv(path, 2), "bad.csv", "no boids");
  EXPECT_CLF_ERROR(boids::read_csv(temp_path("missing.csv"), 2), "missing.csv", "cannot open");
}

// Two runs with the same seed dump identical files; a run from the dumped initial state gives
// the same dump as the seeded run.
TEST(BoidsRun, DumpsAreDeterministicAndInitRoundTrips) {
  for (int dims : {2, 3}) {
    boids::RunOptions options = small_run(dims);
    options.dump_file = temp_path("a.csv");
    ASSERT_EQ(run(options), 0);
    options.dump_file = temp_path("b.csv");
    ASSERT_EQ(run(options), 0);
    const std::string a = read_file(temp_path("a.csv"));
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, read_file(temp_path("b.csv")));

    boids::RunOptions initial = small_run(dims);
    initial.steps = 0;
    initial.dump_file = temp_path("initial.csv");
    ASSERT_EQ(run(initial), 0);
    boids::RunOptions resumed = small_run(dims);
    resumed.model.count_given = false;
    resumed.model.init_file = temp_path("initial.csv");
    resumed.dump_file = temp_path("c.csv");
    ASSERT_EQ(run(resumed), 0);
    EXPECT_EQ(a, read_file(temp_path("c.csv"))) << dims << "D";
  }
}

TEST(BoidsRun, WritesAPngFrameAndJson) {
  for (int dims : {2, 3}) {
    boids::RunOptions options = small_run(dims);
    options.png_file = temp_path("frame.png");
    options.json_file = temp_path("run.json");
    options.image_size = 64;
    ASSERT_EQ(run(options), 0);
    const std::string png = read_file(options.png_file);
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    EXPECT_NE(read_file(options.json_file).find("\"steps_per_second\""), std::string::npos);
  }
}

TEST(BoidsRender, DrawsEveryBoidInsideTheFrame) {
  clf::Runtime& runtime = clf_test::runtime();
  for (int dims : {2, 3}) {
    BoidsRules rules = boids::default_rules(dims);
    rules.half_width = 20.0f;
    boids::Simulation simulation(runtime, rules, 50, 1, boids::Method{true, 1});
    boids::FrameRenderer renderer(runtime);
    const BoidsView view = boids::make_view(rules, 256, 256);
    const std::vector<std::uint8_t> frame = renderer.render(simulation, view);
    ASSERT_EQ(frame.size(), 256u * 256u * 4u);
    std::size_t lit = 0;
    for (std::size_t i = 0; i < frame.size(); i += 4) {
      if (frame[i] != 12 || frame[i + 1] != 14 || frame[i + 2] != 22) ++lit;
      EXPECT_EQ(frame[i + 3], 255);
    }
    // 50 boids, a few may share a pixel.
    EXPECT_GE(lit, 40u) << dims << "D";
    EXPECT_LE(lit, 50u) << dims << "D";
    EXPECT_EQ(renderer.render(simulation, view), frame);  // deterministic
  }
}

// At the default density a few boids' box held too few cells for the grid (`run --n 20`,
// `bench --min-n 16` were refused); the default box is now at least what the grid needs.
TEST(BoidsRun, FewBoidsRunInTheDefaultBox) {
  for (int dims : {2, 3}) {
    for (int cell_width : {1, 2}) {
      boids::RunOptions options = small_run(dims);
      options.model.box.reset();
      options.model.count = 20;
      options.model.cell_width = cell_width;
      EXPECT_EQ(run(options), 0) << dims << "D, cell width " << cell_width;
    }
  }
  boids::BenchOptions bench;
  bench.min_n = bench.max_n = 16;
  bench.seconds = 0.0;
  std::ostringstream out;
  clf::DeviceOptions device;
  device.request.quiet = true;
  EXPECT_EQ(boids::bench_command(bench, device, out), 0);
  EXPECT_NE(out.str().find("dense        3        16"), std::string::npos) << out.str();
}

// Where results go is checked before the steps: a run of 300 steps with --dump /proc/x.csv
// ran them all, then failed naming /proc/x.csv.tmp.NNN.
TEST(BoidsRun, UnwritableOutputsAreRefusedBeforeTheSteps) {
  const std::string plain = temp_path("plain");
  write_file(plain, "a file, not a folder");
  const struct {
    std::string boids::RunOptions::*file;
    std::string path;
    std::string message;
  } outputs[] = {{&boids::RunOptions::dump_file, plain + "/x.csv",
                  "--dump " + plain + "/x.csv: " + plain + " is not a folder"},
                 {&boids::RunOptions::png_file, "/proc/x.png",
                  "--png /proc/x.png: cannot create a file in /proc: "},
                 {&boids::RunOptions::json_file, "/proc/x.json",
                  "--json /proc/x.json: cannot create a file in /proc: "}};
  for (const auto& output : outputs) {
    boids::RunOptions options = small_run(2);
    options.steps = 2000;
    options.*output.file = output.path;
    std::ostringstream out;
    clf::DeviceOptions device;
    device.request.quiet = true;
    EXPECT_CLF_ERROR(boids::run_command(options, device, out), output.message.c_str());
    EXPECT_EQ(out.str(), "") << "it ran before refusing " << output.path;
  }
  boids::BenchOptions bench;
  bench.json_file = "/proc/bench.json";
  std::ostringstream out;
  EXPECT_CLF_ERROR(boids::bench_command(bench, clf::DeviceOptions{}, out),
                   "--json /proc/bench.json");
  EXPECT_EQ(out.str(), "");
}

TEST(BoidsRun, BadInputIsRefusedWithAClearMessage) {
  boids::RunOptions options = small_run(2);
  options.model.count = 0;
  EXPECT_CLF_ERROR(run(options), "--n must be at least 1");
  options = small_run(2);
  options.model.rs = -1.0f;
  EXPECT_CLF_ERROR(run(options), "--rs (separation radius)", "-1");
  options = small_run(3);
  options.model.box = 6.0f;  // 12 wide, radius 5: two cells, the wrap needs three
  EXPECT_CLF_ERROR(run(options), "box is too small", "--box L = 6");
  options.model.cell_width = 2;
  EXPECT_CLF_ERROR(run(options), "box is too small", "--cell-width 2 needs 2");
  for (float box : {0.0f, -3.0f}) {  // --box 0 meant the default box
    options = small_run(2);
    options.model.box = box;
    EXPECT_CLF_ERROR(run(options), "--box (half width L) must be a finite number > 0, got ");
  }
  options = small_run(2);
  options.model.goal = "1,x";
  EXPECT_CLF_ERROR(run(options), "--goal", "'x'");
  options = small_run(2);
  options.model.max_speed = 100.0f;
  options.model.box = 10.0f;
  EXPECT_CLF_ERROR(run(options), "--max-speed x --dt");

  const std::string path = temp_path("outside.csv");
  write_file(path, "0,0,0,0\n# comment\n31,0,0,0\n");
  options = small_run(2);
  options.model.count_given = false;
  options.model.init_file = path;
  EXPECT_CLF_ERROR(run(options), "outside.csv:3:", "x = 31", "outside the box");
  write_file(path, "0,0,0,0\n1,0,0,0\n");
  options.model.count_given = true;
  options.model.count = 5;
  EXPECT_CLF_ERROR(run(options), "--n 5", "holds 2 boids");
}

// CLI11 reads "-1" into an unsigned option as 2^64 - 1: `run --steps -1` ran for ever and
// `--seed -1` became another seed. Each such option refuses a sign, naming itself and the value.
TEST(BoidsRun, NegativeCountsAndSeedsAreRefusedByName) {
  auto message_of = [](auto&& options, const std::string& arguments) {
    CLI::App app;
    options.add_to(app);
    try {
      app.parse(arguments);
    } catch (const CLI::ValidationError& error) {
      return std::string(error.what());
    }
    return std::string("accepted");
  };
  const struct {
    const char* arguments;
    const char* message;
  } refused[] = {{"--steps -1", "--steps: must not be negative, got -1"},
                 {"--n -5", "--n: must not be negative, got -5"},
                 {"--seed -1", "--seed: must not be negative, got -1"}};
  for (const auto& r : refused) {
    EXPECT_EQ(message_of(boids::RunOptions{}, r.arguments), r.message);
  }
  EXPECT_EQ(message_of(boids::SweepOptions{}, "--count 100 --steps -1"),
            "--steps: must not be negative, got -1");
  EXPECT_EQ(message_of(boids::BenchOptions{}, "--min-n -16"),
            "--min-n: must not be negative, got -16");
  EXPECT_EQ(message_of(boids::RunOptions{}, "--steps 0 --seed 0 --n 7 --wg -0.5"), "accepted");
}

}  // namespace
