#include "framework/environment.hpp"

#include <cstdlib>

namespace clf {

std::string env_text(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::string(value) : std::string();
}

bool env_flag(const char* name, bool fallback) {
  const std::string value = env_text(name);
  if (value.empty()) return fallback;
  return value != "0";
}

}  // namespace clf
