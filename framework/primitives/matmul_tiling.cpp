// Parsing and checking of the matmul kernels' tile shapes (framework/primitives/tuning.hpp).
#include <sstream>

#include "framework/error.hpp"
#include "framework/primitives/tuning.hpp"

namespace clf::primitives {

namespace {

// Throws unless `device` allows a work-group of `threads` and `local_bytes` of local memory.
void check_fits(const std::string& name, unsigned threads, std::size_t local_bytes,
                const DeviceInfo& device) {
  if (device.max_work_group_size != 0 && threads > device.max_work_group_size) {
    throw Error(name + std::to_string(threads) + " work-items, more than " + device.name +
                " allows (" + std::to_string(device.max_work_group_size) + ")");
  }
  if (device.local_memory_bytes != 0 && local_bytes > device.local_memory_bytes) {
    throw Error(name + std::to_string(local_bytes) + " bytes of local memory, more than " +
                device.name + " has (" + std::to_string(device.local_memory_bytes) + ")");
  }
}

}  // namespace

std::size_t MatmulTiling::local_bytes() const {
  // Two buffers each of the transposed A piece (rows padded by 4) and the B piece.
  return 2 * sizeof(float) *
         (static_cast<std::size_t>(bk) * (bm + 4) + static_cast<std::size_t>(bk) * bn);
}

std::string MatmulTiling::to_string() const {
  std::ostringstream out;
  out << bm << "x" << bn << "x" << bk << "/" << tm << "x" << tn;
  return out.str();
}

MatmulTiling MatmulTiling::parse(const std::string& text) {
  MatmulTiling tiling;
  char x1 = 0, x2 = 0, slash = 0, x3 = 0;
  std::istringstream in(text);
  in >> tiling.bm >> x1 >> tiling.bn >> x2 >> tiling.bk >> slash >> tiling.tm >> x3 >> tiling.tn;
  if (!in || x1 != 'x' || x2 != 'x' || slash != '/' || x3 != 'x' || in.peek() != EOF) {
    throw Error("matmul: cannot read tiling '" + text + "'; expected BMxBNxBK/TMxTN, e.g. " +
                "128x128x16/8x8");
  }
  return tiling;
}

void MatmulTiling::check(const DeviceInfo& device) const {
  const std::string name = "matmul tiling " + to_string() + ": ";
  if (bm == 0 || bn == 0 || bk == 0 || tm == 0 || tn == 0 || tm % 4 || tn % 4 || bk % 4) {
    throw Error(name + "TM, TN and BK must be positive multiples of 4");
  }
  if (bm % tm || bn % tn) throw Error(name + "TM must divide BM and TN divide BN");
  const unsigned threads = work_group_size();
  if ((bm * bk / 4) % threads || (bk * bn / 4) % threads) {
    throw Error(name + "the " + std::to_string(threads) + " work-items must split the float4s " +
                "of the A piece (BM*BK/4) and the B piece (BK*BN/4) evenly");
  }
  check_fits(name, threads, local_bytes(), device);
}

std::size_t Tf32x3Tiling::local_bytes(bool emulated) const {
  // Two buffers each of the A piece (rows padded by 4) and the B piece (rows padded by 8); the
  // portable build adds each warp's fragments (A 16 x 8, B 8 x 8 tiles_n, big and small).
  const std::size_t pieces =
      static_cast<std::size_t>(bm()) * (bk + 4) + static_cast<std::size_t>(bk) * (bn() + 8);
  const std::size_t scratch =
      emulated ? static_cast<std::size_t>(warps_m) * warps_n * 2 * (16 * 8 + 8 * 8 * tiles_n) : 0;
  return sizeof(float) * (2 * pieces + scratch);
}

std::string Tf32x3Tiling::to_string() const {
  std::ostringstream out;
  out << warps_m << "x" << warps_n << "/" << tiles_m << "x" << tiles_n << "x" << bk << "/"
      << partial_steps;
  return out.str();
}

Tf32x3Tiling Tf32x3Tiling::parse(const std::string& text) {
  Tf32x3Tiling tiling;
  char x1 = 0, slash1 = 0, x2 = 0, x3 = 0, slash2 = 0;
  std::istringstream in(text);
  in >> tiling.warps_m >> x1 >> tiling.warps_n >> slash1 >> tiling.tiles_m >> x2 >>
      tiling.tiles_n >> x3 >> tiling.bk >> slash2 >> tiling.partial_steps;
  if (!in || x1 != 'x' || slash1 != '/' || x2 != 'x' || x3 != 'x' || slash2 != '/' ||
      in.peek() != EOF) {
    throw Error("matmul: cannot read tf32x3 tiling '" + text + "'; expected WMxWN/TMxTNxBK/S " +
                "(warps, fragments per warp, depth, steps summed on the tensor cores), e.g. " +
                "2x2/4x4x16/1");
  }
  return tiling;
}

void Tf32x3Tiling::check(const DeviceInfo& device) const {
  const std::string name = "matmul tf32x3 tiling " + to_string() + ": ";
  if (warps_m == 0 || warps_n == 0 || tiles_m == 0 || tiles_n == 0 || bk == 0 || bk % 8) {
    throw Error(name + "warps and fragments must be positive and BK a multiple of 8");
  }
  const unsigned threads = work_group_size();
  if ((bm() * bk / 4) % threads || (bk * bn() / 4) % threads) {
    throw Error(name + "the " + std::to_string(threads) + " work-items must split the float4s " +
                "of the A piece (" + std::to_string(bm()) + " x BK) and the B piece (BK x " +
                std::to_string(bn()) + ") evenly");
  }
  check_fits(name, threads, local_bytes(device_class(device) != DeviceClass::nvidia_gpu), device);
}

}  // namespace clf::primitives
