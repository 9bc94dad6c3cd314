#include "apps/boids/csv.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>

#include "framework/atomic_file.hpp"
#include "framework/checksum.hpp"

namespace boids {
namespace {

std::string trim(const std::string& s) {
  const std::size_t first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  const std::size_t last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma - start)));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return fields;
}

// The first line of a written state: what the rows are and their checksum. Files without it
// (written by hand or by other programs) load as they are.
constexpr const char* kHeaderStart = "# cl-boids state";
constexpr int kStateFileVersion = 1;

struct StateHeader {
  bool present = false;
  std::size_t boids = 0;
};

// Checks a state file's first line where it is one of ours: its version, dimensions and the
// checksum of the rows after it.
StateHeader check_header(const std::string& text, const std::string& path, int dims) {
  StateHeader header;
  if (text.rfind(kHeaderStart, 0) != 0) return header;
  const std::size_t end = text.find('\n');
  const std::string first = trim(text.substr(0, end));
  // Digit counts keep every number in range of its type.
  static const std::regex form(
      R"(# cl-boids state, version (\d{1,9}), dims (\d{1,9}), boids (\d{1,19}), checksum ([0-9a-f]{16}))");
  std::smatch field;
  if (!std::regex_match(first, field, form)) {
    throw clf::Error(path + ":1: not a cl-boids state header this program reads: '" + first + "'");
  }
  const int version = std::stoi(field[1].str());
  const int file_dims = std::stoi(field[2].str());
  const std::string checksum = field[4].str();
  if (version != kStateFileVersion) {
    throw clf::Error(path + ":1: state file version " + std::to_string(version) +
                     "; this program reads version " + std::to_string(kStateFileVersion));
  }
  if (file_dims != dims) {
    throw clf::Error(path + ":1: the file holds " + std::to_string(file_dims) +
                     "D boids, not the " + std::to_string(dims) + "D of --dims " +
                     std::to_string(dims));
  }
  const std::string rows = end == std::string::npos ? "" : text.substr(end + 1);
  if (clf::checksum_hex(clf::checksum64(rows)) != checksum) {
    throw clf::Error(path +
                     ": damaged: the rows do not match the checksum on its first line (remove that "
                     "line to load a file edited by hand)");
  }
  header.present = true;
  header.boids = std::stoull(field[3].str());
  return header;
}

float field_value(const std::string& text, const std::string& where, std::size_t f,
                  const std::vector<std::string>& names) {
  char* end = nullptr;
  const float value = text.empty() ? 0.0f : std::strtof(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    throw clf::Error(where + "field " + std::to_string(f + 1) + " (" + names[f] + ") '" + text +
                     "' is not a number");
  }
  if (!std::isfinite(value)) {  // overflow gives inf; underflow to 0 or a denormal is fine
    throw clf::Error(where + "field " + std::to_string(f + 1) + " (" + names[f] + ") '" + text +
                     "' is not a finite float");
  }
  return value;
}

}  // namespace

CsvBoids read_csv(const std::string& path, int dims) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw clf::Error(path + ": cannot open the --init file for reading");
  return read_csv(in, path, dims);
}

CsvBoids read_csv(std::istream& in, const std::string& path, int dims) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw clf::Error(path + ": read error");
  const StateHeader header = check_header(text, path, dims);
  const std::vector<std::string> names =
      dims == 3 ? std::vector<std::string>{"x", "y", "z", "vx", "vy", "vz"}
                : std::vector<std::string>{"x", "y", "vx", "vy"};
  CsvBoids out;
  std::istringstream lines(text);
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(lines, line)) {
    ++line_number;
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(line_number) + ": ";
    const std::vector<std::string> fields = split(content);
    if (fields.size() != names.size()) {
      std::string expected;
      for (const std::string& name : names) expected += (expected.empty() ? "" : ",") + name;
      throw clf::Error(where + "expected " + std::to_string(names.size()) +
                       " comma-separated numbers (" + expected + " for --dims " +
                       std::to_string(dims) + "), found " + std::to_string(fields.size()) +
                       " fields in '" + content + "'");
    }
    float values[6] = {0, 0, 0, 0, 0, 0};
    for (std::size_t f = 0; f < fields.size(); ++f)
      values[f] = field_value(fields[f], where, f, names);
    cl_float4 p{};
    cl_float4 v{};
    p.x = values[0];
    p.y = values[1];
    if (dims == 3) {
      p.z = values[2];
      v.x = values[3];
      v.y = values[4];
      v.z = values[5];
    } else {
      v.x = values[2];
      v.y = values[3];
    }
    out.state.position.push_back(p);
    out.state.velocity.push_back(v);
    out.lines.push_back(line_number);
  }
  if (out.state.size() == 0) throw clf::Error(path + ": no boids in the file (N = 0)");
  if (header.present && out.state.size() != header.boids) {
    throw clf::Error(path + ": holds " + std::to_string(out.state.size()) +
                     " boids, its first line says " + std::to_string(header.boids));
  }
  return out;
}

namespace {

// A state that cannot be read back (--init refuses non-finite numbers) is not written.
void check_finite(const std::string& path, std::size_t boid, const cl_float4& p, const cl_float4& v,
                  int dims) {
  const float values[6] = {p.x, p.y, p.z, v.x, v.y, v.z};
  const char* const names[6] = {"x", "y", "z", "vx", "vy", "vz"};
  for (int f = 0; f < 6; ++f) {
    if ((f == 2 || f == 5) && dims == 2) continue;
    if (std::isfinite(values[f])) continue;
    throw clf::Error(path + ": not written: boid " + std::to_string(boid) + "'s " + names[f] +
                     " is " + (std::isnan(values[f]) ? "nan" : "infinite") +
                     ", not a finite number (weights so large that the sums overflow float?)");
  }
}

}  // namespace

void write_csv(const std::string& path, const State& state, int dims) {
  std::string rows;
  char line[160];
  for (std::size_t i = 0; i < state.size(); ++i) {
    const cl_float4& p = state.position[i];
    const cl_float4& v = state.velocity[i];
    check_finite(path, i, p, v, dims);
    if (dims == 3) {
      std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p.x, p.y, p.z, v.x, v.y,
                    v.z);
    } else {
      std::snprintf(line, sizeof line, "%.9g,%.9g,%.9g,%.9g\n", p.x, p.y, v.x, v.y);
    }
    rows += line;
  }
  const std::string header = std::string(kHeaderStart) + ", version " +
                             std::to_string(kStateFileVersion) + ", dims " + std::to_string(dims) +
                             ", boids " + std::to_string(state.size()) + ", checksum " +
                             clf::checksum_hex(clf::checksum64(rows)) + "\n";
  clf::write_file_atomically(path, header + rows);
}

}  // namespace boids
