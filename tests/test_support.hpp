// Helpers shared by the tests: one quiet, profiling runtime per test process on the device the
// environment selects (PoCL in CI; CL_PLATFORM=NVIDIA on the GPU machine).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "framework/clf.hpp"

namespace clf_test {

inline clf::Runtime& runtime() {
  // Never destroyed, like Runtime::shared() and for the same reason.
  static clf::Runtime* runtime = new clf::Runtime([] {
    clf::DeviceRequest request;
    request.profiling = true;
    request.quiet = true;
    return request;
  }());
  return *runtime;
}

// Sets an environment variable for the lifetime of the object, then restores it.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) {
      had_old_ = true;
      old_ = old;
    }
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_old_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  bool had_old_ = false;
  std::string old_;
};

// Expects `statement` to throw an exception derived from clf::Error whose message contains
// every one of the given fragments.
#define EXPECT_CLF_ERROR(statement, ...)                                       \
  do {                                                                         \
    try {                                                                      \
      statement;                                                               \
      ADD_FAILURE() << "expected a clf::Error from: " #statement;              \
    } catch (const clf::Error& error) {                                        \
      for (const char* fragment : {__VA_ARGS__}) {                             \
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) \
            << "message lacks '" << fragment << "':\n"                         \
            << error.what();                                                   \
      }                                                                        \
    }                                                                          \
  } while (false)

// `count` floats uniform in [-1, 1), the same for the same seed.
inline std::vector<float> uniform_floats(std::size_t count, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = uniform(random);
  return values;
}

// Expects `call` to throw clf::Error whose message contains `word`.
template <typename Call>
void expect_error(Call call, const std::string& word) {
  try {
    call();
    ADD_FAILURE() << "no clf::Error thrown (expected one mentioning '" << word << "')";
  } catch (const clf::Error& error) {
    EXPECT_NE(std::string(error.what()).find(word), std::string::npos) << error.what();
  }
}

// Expects `call` to throw clf::Error whose message contains every one of `words`.
template <typename Call>
void expect_error_naming(Call call, const std::vector<std::string>& words) {
  try {
    call();
    ADD_FAILURE() << "no clf::Error thrown (expected one mentioning '" << words.front() << "')";
  } catch (const clf::Error& error) {
    const std::string message = error.what();
    for (const std::string& word : words) {
      EXPECT_NE(message.find(word), std::string::npos) << "'" << word << "' not in: " << message;
    }
  }
}

}  // namespace clf_test
