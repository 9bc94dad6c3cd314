// The documented user settings the environment carries (device choice, CL_DEBUG, CL_PROFILE,
// CL_QUIET, the disk cache): one place that says what "set" and "on" mean. Nothing else in the
// framework reads the environment, so a variable left in a shell cannot change what a program
// computes.
#pragma once

#include <string>

namespace clf {

// The variable's value, or "" when it is unset.
std::string env_text(const char* name);

// `fallback` when the variable is unset or empty; otherwise off for "0" and on for anything else.
bool env_flag(const char* name, bool fallback = false);

}  // namespace clf
