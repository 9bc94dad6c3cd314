// Boid states as CSV: one boid per line, x,y[,z],vx,vy[,vz], written with %.9g so every float
// reads back to the same bits. Blank lines and lines starting with '#' are skipped on reading.
// Written files start with a line naming the format version, the dimensions, the boid count and
// the checksum of the rows, and are written whole or not at all; where that line is present, a
// file that does not match it is refused (a file without it, written by hand, loads as it is).
#pragma once

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

#include "apps/boids/simulation.hpp"

namespace boids {

struct CsvBoids {
  State state;
  std::vector<std::size_t> lines;  // the 1-based line each boid came from, for messages
};

// Throws clf::Error "FILE:LINE: ..." naming the field and value for a malformed line, and for a
// file that cannot be read, holds no boids, or does not match its first line.
CsvBoids read_csv(const std::string& path, int dims);
// The same from a stream; `path` names it in messages.
CsvBoids read_csv(std::istream& in, const std::string& path, int dims);
// Throws clf::Error when the file cannot be written or a value is not finite (NaN or
// infinite: --init could not read it back), naming the boid and the field.
void write_csv(const std::string& path, const State& state, int dims);

}  // namespace boids
