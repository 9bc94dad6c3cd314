#include "framework/ptx_register_cap.hpp"

#include <cstddef>

namespace clf {

std::string with_register_cap(const std::string& ptx, unsigned registers) {
  std::string capped;
  std::size_t from = 0;
  for (std::size_t entry = ptx.find(".entry "); entry != std::string::npos;
       entry = ptx.find(".entry ", entry + 1)) {
    const std::size_t body = ptx.find('{', entry);
    if (body == std::string::npos) break;
    capped += ptx.substr(from, body - from) + ".maxnreg " + std::to_string(registers) + "\n";
    from = body;
    entry = body;
  }
  return capped + ptx.substr(from);
}

}  // namespace clf
