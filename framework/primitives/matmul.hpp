// Matrix multiply on the device: C = A . B for row-major fp32 matrices, A M x K, B K x N, C M x N,
// any sizes (1, odd, rectangular). Variants by name, from Gruber's thesis and two fast ones:
//   default         tf32x3 on NVIDIA GPUs, register-tiles elsewhere (MatmulConfig::tensor_cores)
//   register-tiles  2D register tiling per work-item, float4 loads, double-buffered local
//                   memory; tile sizes per device (MatmulTiling, from the tuning table)
//   tf32x3          tensor cores (mma.sync on NVIDIA GPUs, emulated elsewhere): each fp32 element
//                   split into two TF32 parts, three products, fp32's error bound; depths below
//                   128 run register-tiles
//   naive           one work-item per element, straight from global memory
//   tiles           one work-item per element, 16 x 16 tiles in local memory
//   blocks          4 x 4 float4 register blocks per work-item, from global memory
//   blocks-tiles    4 x 4 register blocks and 64 x 64 tiles in local memory
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/primitives/tuning.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

// The variants' names, "default" first.
const std::vector<std::string>& matmul_variants();

// The tiling for `device`: the tuning table's (framework/primitives/tuning.cpp).
MatmulTiling default_matmul_tiling(const DeviceInfo& device);

// One variant, built once for a runtime, for repeated multiplies (benchmarks).
class Matmul {
 public:
  // Throws Error for an unknown variant. `tiling` applies to register-tiles (and so to the
  // default where that is register-tiles); when absent it comes from default_matmul_tiling.
  Matmul(Runtime& runtime, const std::string& variant = "default",
         const MatmulTiling* tiling = nullptr);
  Matmul(Runtime& runtime, const std::string& variant, const MatmulConfig& config);
  ~Matmul();
  Matmul(Matmul&&) noexcept;
  Matmul& operator=(Matmul&&) noexcept;

  const std::string& variant() const { return variant_; }
  // register-tiles' tiling (meaningless for the others).
  const MatmulTiling& tiling() const { return config_.tiling; }
  const MatmulConfig& config() const { return config_; }

  // c = a . b with a m x k, b k x n, c m x n, all on this runtime's device. Enqueues the kernel
  // and returns its event without waiting. Throws Error when a buffer's size does not match
  // its shape or a matrix is too large for 32-bit indices. m, n or k of 0 is allowed (C is
  // left as it is when m or n is 0, set to zeros when only k is 0).
  Event operator()(const DeviceBuffer<float>& a, const DeviceBuffer<float>& b,
                   DeviceBuffer<float>& c, std::size_t m, std::size_t k, std::size_t n);

 private:
  struct Kernels;
  Runtime* runtime_;
  std::string variant_;
  MatmulConfig config_;
  std::unique_ptr<Kernels> kernels_;
};

// One multiply on device buffers with the named variant (kernels come from the runtime's
// program cache, so repeated calls do not rebuild).
void matmul(const DeviceBuffer<float>& a, const DeviceBuffer<float>& b, DeviceBuffer<float>& c,
            std::size_t m, std::size_t k, std::size_t n, const std::string& variant = "default");

// Host vectors in, host vector out (uploads a and b, downloads c) on `runtime`.
std::vector<float> matmul(Runtime& runtime, const std::vector<float>& a,
                          const std::vector<float>& b, std::size_t m, std::size_t k, std::size_t n,
                          const std::string& variant = "default");
// The same on Runtime::shared().
std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                          std::size_t k, std::size_t n, const std::string& variant = "default");

}  // namespace clf::primitives
