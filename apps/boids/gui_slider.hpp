// The boids window's sliders fitted to the rules they start from (GTK-free, for tests): a
// slider clamps a value outside its range, so a command line's `--rc 30` on a 0..20 slider ran
// as 20 and `--dt 2` as 1.
#pragma once

#include <algorithm>
#include <cmath>

namespace boids {

// A slider's range, step and the decimal places it shows.
struct SliderScale {
  double low, high, step;
  int digits;
};

// `scale` widened to hold `value` and given the digits (up to 8) that show it as the float it
// is, e.g. --wc 0.0005 on a 3-digit slider.
inline SliderScale fit_slider_scale(SliderScale scale, float value) {
  if (!std::isfinite(value)) return scale;
  scale.low = std::min(scale.low, static_cast<double>(value));
  scale.high = std::max(scale.high, static_cast<double>(value));
  for (; scale.digits < 8; ++scale.digits) {
    const double unit = std::pow(10.0, -scale.digits);
    if (static_cast<float>(std::round(value / unit) * unit) == value) break;
  }
  return scale;
}

}  // namespace boids
