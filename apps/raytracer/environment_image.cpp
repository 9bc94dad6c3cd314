// An environment image's sampling tables (shared/raytracer/sky.h): a texel is drawn with
// probability proportional to the mean luminance a bilinear lookup gives over its area times the
// sine of its row's polar angle (the solid angle the row covers), first its row by the running
// sums over rows, then the texel by its row's running sums. The mean over the area, not the
// texel's own value, because lookups are bilinear: a black texel beside a bright one still shows
// some of it, and directions light sampling could never draw would be left to the paths that
// escape there by chance (bright speckles around a small sun). Sums are taken in double, so a
// wide row's last texels keep their share.
#include <algorithm>
#include <cmath>

#include "apps/raytracer/scene.hpp"
#include "framework/error.hpp"

namespace raytracer {

EnvironmentImage::EnvironmentImage(int width_, int height_, std::vector<cl_float4> radiance_)
    : width(width_), height(height_), radiance(std::move(radiance_)) {
  if (width < 1 || height < 1 ||
      radiance.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw clf::Error("environment image: " + std::to_string(radiance.size()) + " texels for " +
                     std::to_string(width) + "x" + std::to_string(height));
  }
  const std::size_t w = width, h = height;
  std::vector<cl_float> cdf(h + h * w);
  std::vector<double> row_weight(h);
  std::vector<double> running(w);
  std::vector<double> luminance(w * h);
  for (std::size_t i = 0; i < w * h; ++i) luminance[i] = rt_luminance(radiance[i]);
  // The bilinear lookup's mean over texel (x, y): the texel 3/4 and each neighbour 1/8 along
  // each axis (across wrapping, up and down held at the edges, as the lookup does).
  const auto mean_around = [&](std::size_t x, std::size_t y) {
    const std::size_t rows[3] = {y > 0 ? y - 1 : 0, y, std::min(y + 1, h - 1)};
    const std::size_t columns[3] = {(x + w - 1) % w, x, (x + 1) % w};
    const double share[3] = {0.125, 0.75, 0.125};
    double mean = 0;
    for (int j = 0; j < 3; ++j) {
      for (int i = 0; i < 3; ++i) mean += share[j] * share[i] * luminance[rows[j] * w + columns[i]];
    }
    return mean;
  };
  double total = 0;
  for (std::size_t y = 0; y < h; ++y) {
    const double sin_polar = std::sin(M_PI * (static_cast<double>(y) + 0.5) / h);
    double sum = 0;
    for (std::size_t x = 0; x < w; ++x) {
      sum += mean_around(x, y) * sin_polar;
      running[x] = sum;
    }
    // A black row is never drawn; its texels get an even table all the same.
    cl_float* row = &cdf[h + y * w];
    for (std::size_t x = 0; x < w; ++x) {
      row[x] = sum > 0 ? static_cast<cl_float>(running[x] / sum)
                       : static_cast<cl_float>(x + 1) / static_cast<cl_float>(w);
    }
    row[w - 1] = 1.0f;
    row_weight[y] = sum;
    total += sum;
  }
  if (!(total > 0)) return;  // black everywhere: nothing to sample
  double sum = 0;
  for (std::size_t y = 0; y < h; ++y) {
    sum += row_weight[y];
    cdf[y] = static_cast<cl_float>(sum / total);
  }
  cdf[h - 1] = 1.0f;
  distribution = std::move(cdf);
}

}  // namespace raytracer
