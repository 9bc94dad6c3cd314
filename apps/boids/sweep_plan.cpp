#include "apps/boids/sweep_plan.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace boids {
namespace {

constexpr std::size_t kMaxRuns = 10'000'000;

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) parts.push_back(part);
  if (!text.empty() && text.back() == ',') parts.emplace_back();
  return parts;
}

std::string quoted(const std::string& option, const std::string& text) {
  return option + " '" + text + "'";
}

std::uint64_t whole_number(const std::string& part, const std::string& text,
                           const std::string& option) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(part.c_str(), &end, 10);
  if (part.empty() || part[0] == '-' || part[0] == '+' || *end != '\0' || errno == ERANGE) {
    throw clf::Error(quoted(option, text) + ": '" + part + "' is not a whole number");
  }
  return value;
}

double number(const std::string& part, const std::string& text, const std::string& option) {
  char* end = nullptr;
  const double value = std::strtod(part.c_str(), &end);
  if (part.empty() || *end != '\0' || !std::isfinite(value)) {
    throw clf::Error(quoted(option, text) + ": '" + part + "' is not a finite number");
  }
  return value;
}

// A parameter --set may sweep: its names and how ModelOptions takes it.
struct RuleParameter {
  const char* name;
  const char* long_name;
  void (*set)(ModelOptions& model, float value);
};

const RuleParameter kRuleParameters[] = {
    {"rc", "cohesion-radius", [](ModelOptions& m, float v) { m.rc = v; }},
    {"rs", "separation-radius", [](ModelOptions& m, float v) { m.rs = v; }},
    {"ra", "alignment-radius", [](ModelOptions& m, float v) { m.ra = v; }},
    {"wc", "cohesion-weight", [](ModelOptions& m, float v) { m.wc = v; }},
    {"ws", "separation-weight", [](ModelOptions& m, float v) { m.ws = v; }},
    {"wa", "alignment-weight", [](ModelOptions& m, float v) { m.wa = v; }},
    {"wg", "goal-weight", [](ModelOptions& m, float v) { m.wg = v; }},
    {"max-speed", "max-speed", [](ModelOptions& m, float v) { m.max_speed = v; }},
    {"dt", "time-step", [](ModelOptions& m, float v) { m.dt = v; }},
    {"box", "half-width", [](ModelOptions& m, float v) { m.box = v; }},
};

std::string parameter_names() {
  std::string names;
  for (const RuleParameter& p : kRuleParameters) {
    names += (names.empty() ? "" : ", ") + std::string(p.name);
    if (std::string(p.name) != p.long_name) names += " (" + std::string(p.long_name) + ")";
  }
  return names;
}

const RuleParameter& find_parameter(const std::string& name, const std::string& text) {
  for (const RuleParameter& p : kRuleParameters) {
    if (name == p.name || name == p.long_name) return p;
  }
  std::string hint;
  if (name == "n" || name == "count") hint = " (N is swept with --count)";
  if (name == "dims") hint = " (dims are swept with --dims)";
  if (name == "seed" || name == "seeds") hint = " (seeds are swept with --seeds)";
  if (name == "cohesion" || name == "separation" || name == "alignment") {
    hint = " (" + name + "-radius or " + name + "-weight?)";
  }
  throw clf::Error(quoted("--set", text) + ": unknown parameter '" + name + "'" + hint +
                   "; it may be one of " + parameter_names());
}

SweptParameter parse_set(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw clf::Error(quoted("--set", text) + ": expected NAME=VALUES, e.g. rs=1,1.5,2 or " +
                     "ws=0.05:0.2:0.05");
  }
  const std::string name = text.substr(0, equals);
  const RuleParameter& parameter = find_parameter(name, text);
  return {parameter.name, parse_numbers(text.substr(equals + 1), "--set " + name)};
}

// "count=10000, dims=2, rs=1.5, seed=3": how errors name a run.
std::string describe_run(std::size_t count, int dims, const std::vector<SweptParameter>& swept,
                         const std::vector<double>& values, std::uint64_t seed) {
  std::ostringstream out;
  out << "count=" << count << ", dims=" << dims;
  for (std::size_t p = 0; p < swept.size(); ++p) out << ", " << swept[p].name << "=" << values[p];
  out << ", seed=" << seed;
  return out.str();
}

}  // namespace

std::vector<std::uint64_t> parse_whole_numbers(const std::string& text, const std::string& option) {
  std::vector<std::uint64_t> values;
  for (const std::string& part : split_commas(text)) {
    const std::size_t dash = part.find('-', 1);
    if (dash == std::string::npos) {
      values.push_back(whole_number(part, text, option));
      continue;
    }
    const std::uint64_t first = whole_number(part.substr(0, dash), text, option);
    const std::uint64_t last = whole_number(part.substr(dash + 1), text, option);
    if (last < first) {
      throw clf::Error(quoted(option, text) + ": the range '" + part + "' runs backwards");
    }
    if (last - first >= kMaxRuns) {
      throw clf::Error(quoted(option, text) + ": the range '" + part + "' is longer than " +
                       std::to_string(kMaxRuns));
    }
    for (std::uint64_t v = first; v <= last; ++v) values.push_back(v);
  }
  if (values.empty()) throw clf::Error(quoted(option, text) + ": the list is empty");
  return values;
}

std::vector<double> parse_numbers(const std::string& text, const std::string& option) {
  std::vector<double> values;
  if (text.find(':') != std::string::npos) {
    std::vector<std::string> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ':')) parts.push_back(part);
    if (parts.size() != 3) {
      throw clf::Error(quoted(option, text) + ": a range is START:STOP:STEP, e.g. 0.5:2:0.5");
    }
    const double start = number(parts[0], text, option);
    const double stop = number(parts[1], text, option);
    const double step = number(parts[2], text, option);
    if (!(step > 0.0) || stop < start) {
      throw clf::Error(quoted(option, text) + ": a range needs STOP >= START and STEP > 0");
    }
    // A hair of slack so that 0.1:0.3:0.1 includes 0.3 despite rounding.
    const double steps = std::floor((stop - start) / step + 1e-9);
    if (steps >= static_cast<double>(kMaxRuns)) {
      throw clf::Error(quoted(option, text) + ": more than " + std::to_string(kMaxRuns) +
                       " values");
    }
    for (std::size_t i = 0; i <= static_cast<std::size_t>(steps); ++i) {
      values.push_back(start + static_cast<double>(i) * step);
    }
    return values;
  }
  for (const std::string& part : split_commas(text)) values.push_back(number(part, text, option));
  if (values.empty()) throw clf::Error(quoted(option, text) + ": the list is empty");
  return values;
}

void SweepOptions::add_to(CLI::App& app) {
  app.add_option("--count,--n", counts, "N of each run: a list, e.g. 10000,100000")
      ->capture_default_str();
  app.add_option("--dims", dims, "2, 3 or 2,3")->capture_default_str();
  app.add_option("--seeds", seeds, "seeds: a list with ranges, e.g. 1-8 or 1,5,9-12")
      ->capture_default_str();
  app.add_option("--set", sets,
                 "sweep a rule: NAME=V1,V2,... or NAME=START:STOP:STEP (repeat for several; "
                 "names: " +
                     parameter_names() + ")")
      ->allow_extra_args(false);
  app.add_option("--steps", steps, "steps of every run")
      ->check(clf::not_negative())
      ->capture_default_str();
  app.add_option("--csv", csv_file, "write one row per run to this file (default: stdout)");
  base.add_rules_to(app);
}

SweepPlan make_sweep_plan(const SweepOptions& options) {
  SweepPlan plan;
  plan.steps = options.steps;
  const std::vector<std::uint64_t> counts = parse_whole_numbers(options.counts, "--count");
  const std::vector<std::uint64_t> dims_list = parse_whole_numbers(options.dims, "--dims");
  const std::vector<std::uint64_t> seeds = parse_whole_numbers(options.seeds, "--seeds");
  for (std::uint64_t count : counts) {
    if (count == 0) throw clf::Error(quoted("--count", options.counts) + ": N must be >= 1");
  }
  for (std::uint64_t dims : dims_list) {
    if (dims != 2 && dims != 3) {
      throw clf::Error(quoted("--dims", options.dims) + ": " + std::to_string(dims) +
                       " is not 2 or 3");
    }
  }
  double total = static_cast<double>(counts.size()) * dims_list.size() * seeds.size();
  for (const std::string& text : options.sets) {
    plan.swept.push_back(parse_set(text));
    for (std::size_t p = 0; p + 1 < plan.swept.size(); ++p) {
      if (plan.swept[p].name == plan.swept.back().name) {
        throw clf::Error(quoted("--set", text) + ": " + plan.swept.back().name +
                         " is already swept by an earlier --set");
      }
    }
    total *= static_cast<double>(plan.swept.back().values.size());
  }
  if (total > static_cast<double>(kMaxRuns)) {
    throw clf::Error("--count x --dims x --set x --seeds make " + std::to_string(total) +
                     " runs; at most " + std::to_string(kMaxRuns));
  }
  // Every combination of the swept values, the last parameter fastest.
  std::vector<double> values(plan.swept.size());
  std::size_t combinations = 1;
  for (const SweptParameter& p : plan.swept) combinations *= p.values.size();
  for (std::uint64_t count : counts) {
    for (std::uint64_t dims : dims_list) {
      for (std::size_t combination = 0; combination < combinations; ++combination) {
        ModelOptions model = options.base;
        model.dims = static_cast<int>(dims);
        std::size_t rest = combination;
        for (std::size_t p = plan.swept.size(); p-- > 0;) {
          const SweptParameter& swept = plan.swept[p];
          values[p] = swept.values[rest % swept.values.size()];
          rest /= swept.values.size();
          find_parameter(swept.name, swept.name).set(model, static_cast<float>(values[p]));
        }
        for (std::uint64_t seed : seeds) {
          SweepRun run;
          run.count = static_cast<std::size_t>(count);
          run.seed = seed;
          try {
            run.rules = model.rules(run.count);
            run.method = model.method();
            if (!run.method.brute) make_grid(run.rules, run.method.cell_width_factor, ~0ull);
          } catch (const clf::Error& error) {
            throw clf::Error("run " + std::to_string(plan.runs.size() + 1) + " (" +
                             describe_run(run.count, model.dims, plan.swept, values, seed) +
                             "): " + error.what());
          }
          plan.runs.push_back(run);
        }
      }
    }
  }
  return plan;
}

}  // namespace boids
