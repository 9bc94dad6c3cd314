// Matrix multiply on the device: C = A . B for row-major fp32 matrices, A M x K, B K x N, C M x N,
// any sizes (1, odd, rectangular). Variants by name, from Gruber's thesis and a fast default:
//   default       2D register tiling per work-item, float4 loads, double-buffered local memory;
//                 tile sizes per device (MatmulTiling, default_matmul_tiling)
//   naive         one work-item per element, straight from global memory
//   tiles         one work-item per element, 16 x 16 tiles in local memory
//   blocks        4 x 4 float4 register blocks per work-item, from global memory
//   blocks-tiles  4 x 4 register blocks and 64 x 64 tiles in local memory
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "framework/buffer.hpp"
#include "framework/kernel.hpp"
#include "framework/runtime.hpp"

namespace clf::primitives {

// The variants' names, "default" first.
const std::vector<std::string>& matmul_variants();

// Tile sizes of the default variant: a work-group of (bn / tn) x (bm / tm) work-items computes a
// bm x bn tile of C, stepping bk along K; each work-item computes tm x tn elements.
struct MatmulTiling {
  unsigned bm = 64;
  unsigned bn = 64;
  unsigned bk = 16;
  unsigned tm = 4;
  unsigned tn = 4;

  unsigned work_group_size() const { return (bm / tm) * (bn / tn); }
  // Bytes of local memory the kernel declares (two buffers of each piece).
  std::size_t local_bytes() const;
  // "128x128x16/8x8", as parse() reads it.
  std::string to_string() const;
  // Reads "BMxBNxBK/TMxTN" (e.g. "128x128x16/8x8"); throws Error when malformed.
  static MatmulTiling parse(const std::string& text);
  // Throws Error naming the rule broken (multiples of 4, tiles dividing, loads per work-item,
  // local memory and work-group size of `device`).
  void check(const DeviceInfo& device) const;
};

// The tiling for `device`, from the table in matmul.cpp (measured, see the comment there), or
// CLF_MATMUL_TILING from the environment when it is set (for tuning).
MatmulTiling default_matmul_tiling(const DeviceInfo& device);

// One variant, built once for a runtime, for repeated multiplies (benchmarks).
class Matmul {
 public:
  // Throws Error for an unknown variant. `tiling` applies to the default variant only; when
  // absent it comes from default_matmul_tiling.
  Matmul(Runtime& runtime, const std::string& variant = "default",
         const MatmulTiling* tiling = nullptr);
  ~Matmul();
  Matmul(Matmul&&) noexcept;
  Matmul& operator=(Matmul&&) noexcept;

  const std::string& variant() const { return variant_; }
  // The default variant's tiling (meaningless for the others).
  const MatmulTiling& tiling() const { return tiling_; }

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
  MatmulTiling tiling_;
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
