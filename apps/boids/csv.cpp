#include "apps/boids/csv.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

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

}  // namespace

CsvBoids read_csv(const std::string& path, int dims) {
  std::ifstream in(path);
  if (!in) throw clf::Error(path + ": cannot open the --init file for reading");
  return read_csv(in, path, dims);
}

CsvBoids read_csv(std::istream& in, const std::string& path, int dims) {
  const std::vector<std::string> names =
      dims == 3 ? std::vector<std::string>{"x", "y", "z", "vx", "vy", "vz"}
                : std::vector<std::string>{"x", "y", "vx", "vy"};
  CsvBoids out;
  std::string line;
  std::size_t line_number = 0;
  while (std::getline(in, line)) {
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
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const std::string& text = fields[f];
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
      values[f] = value;
    }
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
  if (in.bad()) throw clf::Error(path + ": read error");
  if (out.state.size() == 0) throw clf::Error(path + ": no boids in the file (N = 0)");
  return out;
}

void write_csv(const std::string& path, const State& state, int dims) {
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "w"), &std::fclose);
  if (!file) throw clf::Error(path + ": cannot open the --dump file for writing");
  for (std::size_t i = 0; i < state.size(); ++i) {
    const cl_float4& p = state.position[i];
    const cl_float4& v = state.velocity[i];
    int written = 0;
    if (dims == 3) {
      written =
          std::fprintf(file.get(), "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p.x, p.y, p.z, v.x, v.y, v.z);
    } else {
      written = std::fprintf(file.get(), "%.9g,%.9g,%.9g,%.9g\n", p.x, p.y, v.x, v.y);
    }
    if (written < 0) throw clf::Error(path + ": write error");
  }
  if (std::fflush(file.get()) != 0) throw clf::Error(path + ": write error");
}

}  // namespace boids
