#include "framework/primitives/matmul.hpp"

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

// How a variant is launched. Sizes that are multiples of `multiple_*` use the kernel built
// without bounds checks; others use the one built with MATMUL_CHECK_BOUNDS=1.
struct VariantSpec {
  const char* name;
  const char* file;
  const char* kernel;
  unsigned elements_per_item;  // along each of M and N
  bool needs_checked_build;    // false: the kernel checks its bounds in every build
};

constexpr unsigned kSeedTile = 16;  // work-group side of the seed's variants (tiles.cl, blocks*.cl)

const VariantSpec kVariants[] = {
    {"default", "kernels/primitives/matmul/register_tiles.cl", "matmul_register_tiles", 0, true},
    {"naive", "kernels/primitives/matmul/naive.cl", "matmul_naive", 1, false},
    {"tiles", "kernels/primitives/matmul/tiles.cl", "matmul_tiles", 1, true},
    {"blocks", "kernels/primitives/matmul/blocks.cl", "matmul_blocks", 4, true},
    {"blocks-tiles", "kernels/primitives/matmul/blocks_tiles.cl", "matmul_blocks_tiles", 4, true},
};

const VariantSpec& find_variant(const std::string& name) {
  for (const VariantSpec& spec : kVariants) {
    if (name == spec.name) return spec;
  }
  std::string known;
  for (const VariantSpec& spec : kVariants)
    known += std::string(known.empty() ? "" : ", ") + spec.name;
  throw Error("matmul: unknown variant '" + name + "' (known: " + known + ")");
}

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Tile sizes of the default variant by kind of device. Where the numbers come from
// (docs/matmul.md has the full tables and the commands):
//   NVIDIA GPU  tuned on an NVIDIA H200 (driver 580.159.04, OpenCL on CUDA) at 8192^3, median of
//               5 runs: 64x128x16/8x8 47.8 TFLOP/s, 128x64x16/8x8 44.9, 128x128x8/8x8 44.8,
//               128x128x8/16x8 44.6, 128x128x16/8x8 32.1, 64x64x16/4x4 33.7 (cuBLAS 51.3).
//   other GPU   the NVIDIA shape, untested: 128 work-items and 24.5 KiB of local memory fit any
//               current GPU.
//   CPU         measured with PoCL 3.1 on the 2-core development machine (AMD EPYC), 512^3:
//               32x64x8/4x8 53 ms, 32x32x16/4x4 95 ms, 64x64x8/8x4 114 ms, 128x128x16/8x8 194 ms.
MatmulTiling tiling_for_device(const DeviceInfo& device) {
  if (device.type == DeviceType::cpu) return MatmulTiling{32, 64, 8, 4, 8};
  if (device.type == DeviceType::gpu) return MatmulTiling{64, 128, 16, 8, 8};
  return MatmulTiling{64, 64, 16, 4, 4};  // accelerators and the unknown: a modest portable shape
}

void check_shape(const char* what, std::size_t size, std::size_t rows, std::size_t cols,
                 const char* shape) {
  if (cols != 0 && rows > std::numeric_limits<std::uint32_t>::max() / cols) {
    throw Error("matmul: " + std::string(what) + " of " + std::to_string(rows) + " x " +
                std::to_string(cols) + " (" + shape + ") has more than 2^32 - 1 elements, " +
                "too many for the kernels' 32-bit indices");
  }
  if (size != rows * cols) {
    throw Error("matmul: " + std::string(what) + " has " + std::to_string(size) +
                " elements, but " + shape + " = " + std::to_string(rows) + " x " +
                std::to_string(cols) + " needs " + std::to_string(rows * cols));
  }
}

}  // namespace

const std::vector<std::string>& matmul_variants() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const VariantSpec& spec : kVariants) list.emplace_back(spec.name);
    return list;
  }();
  return names;
}

std::size_t MatmulTiling::local_bytes() const {
  // Two buffers each of the transposed A piece (rows padded by 4) and the B piece.
  return 2 * sizeof(float) * (static_cast<std::size_t>(bk) * (bm + 4) + bk * bn);
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
  if (device.max_work_group_size != 0 && threads > device.max_work_group_size) {
    throw Error(name + std::to_string(threads) + " work-items, more than " + device.name +
                " allows (" + std::to_string(device.max_work_group_size) + ")");
  }
  if (device.local_memory_bytes != 0 && local_bytes() > device.local_memory_bytes) {
    throw Error(name + std::to_string(local_bytes()) + " bytes of local memory, more than " +
                device.name + " has (" + std::to_string(device.local_memory_bytes) + ")");
  }
}

MatmulTiling default_matmul_tiling(const DeviceInfo& device) {
  if (const char* forced = std::getenv("CLF_MATMUL_TILING"); forced != nullptr && *forced) {
    return MatmulTiling::parse(forced);
  }
  return tiling_for_device(device);
}

// The kernels of one variant, built when first needed: most sizes need only one of the two.
struct Matmul::Kernels {
  const VariantSpec* spec = nullptr;
  std::unique_ptr<CLKernel> unchecked;
  std::unique_ptr<CLKernel> checked;
};

Matmul::Matmul(Runtime& runtime, const std::string& variant, const MatmulTiling* tiling)
    : runtime_(&runtime), variant_(variant), kernels_(std::make_unique<Kernels>()) {
  kernels_->spec = &find_variant(variant);
  if (variant_ == "default") {
    tiling_ = tiling != nullptr ? *tiling : default_matmul_tiling(runtime.device());
    tiling_.check(runtime.device());
  }
}

Matmul::~Matmul() = default;
Matmul::Matmul(Matmul&&) noexcept = default;
Matmul& Matmul::operator=(Matmul&&) noexcept = default;

Event Matmul::operator()(const DeviceBuffer<float>& a, const DeviceBuffer<float>& b,
                         DeviceBuffer<float>& c, std::size_t m, std::size_t k, std::size_t n) {
  check_shape("A", a.size(), m, k, "M x K");
  check_shape("B", b.size(), k, n, "K x N");
  check_shape("C", c.size(), m, n, "M x N");
  if (&a.runtime() != runtime_ || &b.runtime() != runtime_ || &c.runtime() != runtime_) {
    throw Error("matmul: the buffers must belong to the runtime the Matmul was made for (" +
                runtime_->device_name() + ")");
  }
  if (m == 0 || n == 0) return Event();

  const VariantSpec& spec = *kernels_->spec;
  const bool is_default = spec.elements_per_item == 0;
  // Rows, columns and depth one work-group covers per step, which unchecked sizes must divide.
  const std::size_t span_m = is_default ? tiling_.bm : kSeedTile * spec.elements_per_item;
  const std::size_t span_n = is_default ? tiling_.bn : kSeedTile * spec.elements_per_item;
  const std::size_t span_k = is_default ? tiling_.bk : kSeedTile * spec.elements_per_item;
  const bool aligned = k != 0 && m % span_m == 0 && n % span_n == 0 && k % span_k == 0;
  const bool checked = spec.needs_checked_build && !aligned;

  std::unique_ptr<CLKernel>& kernel = checked ? kernels_->checked : kernels_->unchecked;
  if (!kernel) {
    std::string options;
    if (is_default) {
      options = "-DBM=" + std::to_string(tiling_.bm) + " -DBN=" + std::to_string(tiling_.bn) +
                " -DBK=" + std::to_string(tiling_.bk) + " -DTM=" + std::to_string(tiling_.tm) +
                " -DTN=" + std::to_string(tiling_.tn);
    }
    if (checked) options += " -DMATMUL_CHECK_BOUNDS=1";
    kernel = std::make_unique<CLKernel>(*runtime_, kernel_source(spec.file), spec.kernel, options);
  }

  Range range;
  if (is_default) {
    const unsigned threads_x = tiling_.bn / tiling_.tn;
    const unsigned threads_y = tiling_.bm / tiling_.tm;
    range = Range::grid(ceil_div(n, tiling_.bn) * threads_x, ceil_div(m, tiling_.bm) * threads_y,
                        threads_x, threads_y);
  } else {
    range = Range::grid(ceil_div(n, spec.elements_per_item), ceil_div(m, spec.elements_per_item),
                        kSeedTile, kSeedTile);
  }
  return (*kernel)(range, a, b, write_only(c), static_cast<cl_uint>(m), static_cast<cl_uint>(k),
                   static_cast<cl_uint>(n));
}

void matmul(const DeviceBuffer<float>& a, const DeviceBuffer<float>& b, DeviceBuffer<float>& c,
            std::size_t m, std::size_t k, std::size_t n, const std::string& variant) {
  Matmul(a.runtime(), variant)(a, b, c, m, k, n);
}

std::vector<float> matmul(Runtime& runtime, const std::vector<float>& a,
                          const std::vector<float>& b, std::size_t m, std::size_t k, std::size_t n,
                          const std::string& variant) {
  Matmul multiply(runtime, variant);
  // Shapes are checked before anything is allocated, so a wrong size reads as such.
  check_shape("A", a.size(), m, k, "M x K");
  check_shape("B", b.size(), k, n, "K x N");
  check_shape("C", m * n, m, n, "M x N");
  DeviceBuffer<float> device_a(runtime, a.size());
  DeviceBuffer<float> device_b(runtime, b.size());
  DeviceBuffer<float> device_c(runtime, m * n);
  device_a.write(a);
  device_b.write(b);
  multiply(device_a, device_b, device_c, m, k, n);
  return device_c.read();
}

std::vector<float> matmul(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                          std::size_t k, std::size_t n, const std::string& variant) {
  return matmul(Runtime::shared(), a, b, m, k, n, variant);
}

}  // namespace clf::primitives
