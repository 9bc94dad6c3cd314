// The PTX that NVIDIA's OpenCL compiler makes, made loadable by the CUDA driver API (for
// sort-profile, sort_profile.cu). Plain C++, so that the tests check it where there is no CUDA.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace sort_profile {

// The OpenCL compiler reads the launch's offsets and group count from environment registers,
// which the OpenCL runtime sets and CUDA does not: %envreg0 (group offset) and %envreg3 (global
// offset) become 0, %envreg6 (groups) becomes %nctaid.x (moved as .u32: a special register
// takes no .b32 move). Throws std::invalid_argument naming any other environment register.
inline std::string cuda_ptx(const std::string& ptx) {
  std::stringstream in(ptx), out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::size_t at = line.find("%envreg");
    if (at != std::string::npos) {
      std::size_t end = at + 7;
      while (end < line.size() && line[end] >= '0' && line[end] <= '9') ++end;
      const std::string reg = line.substr(at, end - at);
      if (reg == "%envreg0" || reg == "%envreg3") {
        line.replace(at, reg.size(), "0");
      } else if (reg == "%envreg6") {
        line.replace(at, reg.size(), "%nctaid.x");
        const std::size_t mov = line.find("mov.b32");
        if (mov != std::string::npos) line.replace(mov, 7, "mov.u32");
      } else {
        throw std::invalid_argument("PTX line " + std::to_string(number) +
                                    ": unknown environment register " + reg + " in '" + line + "'");
      }
    }
    out << line << '\n';
  }
  return out.str();
}

}  // namespace sort_profile
