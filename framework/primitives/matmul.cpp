#include "framework/primitives/matmul.hpp"

#include <cstdint>
#include <iostream>
#include <limits>

#include "framework/primitives/support.hpp"
#include "framework/sources.hpp"

namespace clf::primitives {

namespace {

// How a variant launches for an m x n result: the rows, columns and depth one work-group covers
// per step (sizes that are multiples of them use the kernel built without bounds checks), its
// build options and its grid.
struct Launch {
  std::size_t span_m, span_n, span_k;
  std::string options;
  Range range;
};

// The default: a bm x bn tile of C per work-group, tm x tn elements per work-item.
Launch register_tiles_launch(const MatmulConfig& config, std::size_t m, std::size_t n) {
  const MatmulTiling& t = config.tiling;
  const unsigned threads_x = t.bn / t.tn;
  const unsigned threads_y = t.bm / t.tm;
  return {t.bm, t.bn, t.bk,
          "-DBM=" + std::to_string(t.bm) + " -DBN=" + std::to_string(t.bn) +
              " -DBK=" + std::to_string(t.bk) + " -DTM=" + std::to_string(t.tm) +
              " -DTN=" + std::to_string(t.tn),
          Range::grid(ceil_div(n, t.bn) * threads_x, ceil_div(m, t.bm) * threads_y, threads_x,
                      threads_y)};
}

// Tensor cores: warps of fragments (kernels/primitives/matmul/tf32x3.cl).
Launch tf32x3_launch(const MatmulConfig& config, std::size_t m, std::size_t n) {
  const Tf32x3Tiling& t = config.tf32x3;
  return {t.bm(), t.bn(), t.bk,
          "-DWARPS_M=" + std::to_string(t.warps_m) + " -DWARPS_N=" + std::to_string(t.warps_n) +
              " -DTILES_M=" + std::to_string(t.tiles_m) +
              " -DTILES_N=" + std::to_string(t.tiles_n) + " -DBK=" + std::to_string(t.bk) +
              " -DPARTIAL_STEPS=" + std::to_string(t.partial_steps),
          Range::grid(ceil_div(n, t.bn()) * t.work_group_size(), ceil_div(m, t.bm()),
                      t.work_group_size(), 1)};
}

// Gruber's variants: work-groups of 16 x 16, `elements` x `elements` results per work-item.
template <unsigned elements>
Launch reference_launch(const MatmulConfig&, std::size_t m, std::size_t n) {
  constexpr std::size_t kGroupSide = 16;
  constexpr std::size_t span = kGroupSide * elements;
  return {span, span, span, "",
          Range::grid(ceil_div(n, elements), ceil_div(m, elements), kGroupSide, kGroupSide)};
}

struct VariantSpec {
  const char* name;
  const char* file;
  const char* kernel;
  bool needs_checked_build;  // false: the kernel checks its bounds in every build
  // Throws unless the config's tiling for this kernel suits the device (null: no tiling).
  void (*check_tiling)(const MatmulConfig& config, const DeviceInfo& device);
  Launch (*launch)(const MatmulConfig& config, std::size_t m, std::size_t n);
  // Depths below this run register-tiles (tf32x3: fp32's error bound needs some depth).
  std::size_t min_depth = 0;
  bool mma_on_nvidia = false;  // built with -DCLF_PTX on NVIDIA GPUs (mma.sync)
};

void check_register_tiles(const MatmulConfig& config, const DeviceInfo& device) {
  config.tiling.check(device);
}

void check_tf32x3(const MatmulConfig& config, const DeviceInfo& device) {
  config.tf32x3.check(device);
}

// tf32x3's error, about 12 * 2^-24 sum |a| |b| plus the accumulation's, is within fp32's
// (K + 2) * 2^-24 sum |a| |b| from this depth on, even were every addition truncated.
constexpr std::size_t kTf32x3MinDepth = 128;

// "default" is not among them: it names tf32x3 on NVIDIA GPUs (where the tuning table says so)
// and register-tiles elsewhere (default_spec).
const VariantSpec kVariants[] = {
    {"register-tiles", "kernels/primitives/matmul/register_tiles.cl", "matmul_register_tiles", true,
     check_register_tiles, register_tiles_launch},
    {"naive", "kernels/primitives/matmul/naive.cl", "matmul_naive", false, nullptr,
     reference_launch<1>},
    {"tiles", "kernels/primitives/matmul/tiles.cl", "matmul_tiles", true, nullptr,
     reference_launch<1>},
    {"blocks", "kernels/primitives/matmul/blocks.cl", "matmul_blocks", true, nullptr,
     reference_launch<4>},
    {"blocks-tiles", "kernels/primitives/matmul/blocks_tiles.cl", "matmul_blocks_tiles", true,
     nullptr, reference_launch<4>},
    {"tf32x3", "kernels/primitives/matmul/tf32x3.cl", "matmul_tf32x3", true, check_tf32x3,
     tf32x3_launch, kTf32x3MinDepth, true},
};

const VariantSpec& find_variant(const std::string& name) {
  for (const VariantSpec& spec : kVariants) {
    if (name == spec.name) return spec;
  }
  throw unknown_variant("matmul", name, matmul_variants());
}

const VariantSpec& default_spec(const MatmulConfig& config, const DeviceInfo& device) {
  const bool tensor_cores = config.tensor_cores && device_class(device) == DeviceClass::nvidia_gpu;
  return find_variant(tensor_cores ? "tf32x3" : "register-tiles");
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

// The three matrices' sizes against M x K, K x N and M x N, and a depth the kernels' 32-bit
// loops over K (in steps of up to 64) can count to.
void check_shapes(std::size_t a_size, std::size_t b_size, std::size_t c_size, std::size_t m,
                  std::size_t k, std::size_t n) {
  check_shape("A", a_size, m, k, "M x K");
  check_shape("B", b_size, k, n, "K x N");
  check_shape("C", c_size, m, n, "M x N");
  constexpr std::size_t kMaxDepth = std::numeric_limits<std::uint32_t>::max() - 64;
  if (k > kMaxDepth) {
    throw Error("matmul: a depth K of " + std::to_string(k) + " is more than the kernels' " +
                std::to_string(kMaxDepth));
  }
}

}  // namespace

const std::vector<std::string>& matmul_variants() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list{"default"};
    for (const VariantSpec& spec : kVariants) list.emplace_back(spec.name);
    return list;
  }();
  return names;
}

MatmulTiling default_matmul_tiling(const DeviceInfo& device) {
  return tuning_for(device).matmul.tiling;
}

// The kernels of one variant, built when first needed: most sizes need only one of the two.
struct Matmul::Kernels {
  const VariantSpec* spec = nullptr;
  std::unique_ptr<CLKernel> unchecked;
  std::unique_ptr<CLKernel> checked;
  std::unique_ptr<Matmul> shallow;  // register-tiles, for depths below spec->min_depth
  bool mma_failed = false;          // the mma.sync build failed: shallow runs every size
};

Matmul::Matmul(Runtime& runtime, const std::string& variant, const MatmulTiling* tiling)
    : Matmul(runtime, variant, [&] {
        MatmulConfig config = tuning_for(runtime.device()).matmul;
        if (tiling != nullptr) config.tiling = *tiling;
        return config;
      }()) {}

Matmul::Matmul(Runtime& runtime, const std::string& variant, const MatmulConfig& config)
    : runtime_(&runtime),
      variant_(variant),
      config_(config),
      kernels_(std::make_unique<Kernels>()) {
  kernels_->spec =
      variant == "default" ? &default_spec(config_, runtime.device()) : &find_variant(variant);
  if (kernels_->spec->check_tiling != nullptr) {
    kernels_->spec->check_tiling(config_, runtime.device());
  }
  if (kernels_->spec->min_depth > 0) {
    kernels_->shallow = std::make_unique<Matmul>(runtime, "register-tiles", config_);
  }
}

Matmul::~Matmul() = default;
Matmul::Matmul(Matmul&&) noexcept = default;
Matmul& Matmul::operator=(Matmul&&) noexcept = default;

Event Matmul::operator()(const DeviceBuffer<float>& a, const DeviceBuffer<float>& b,
                         DeviceBuffer<float>& c, std::size_t m, std::size_t k, std::size_t n) {
  check_shapes(a.size(), b.size(), c.size(), m, k, n);
  if (&a.runtime() != runtime_ || &b.runtime() != runtime_ || &c.runtime() != runtime_) {
    throw Error("matmul: the buffers must belong to the runtime the Matmul was made for (" +
                runtime_->device_name() + ")");
  }
  if (m == 0 || n == 0) return Event();
  if (k < kernels_->spec->min_depth || kernels_->mma_failed) {
    return (*kernels_->shallow)(a, b, c, m, k, n);
  }

  const VariantSpec& spec = *kernels_->spec;
  const Launch launch = spec.launch(config_, m, n);
  const bool aligned =
      k != 0 && m % launch.span_m == 0 && n % launch.span_n == 0 && k % launch.span_k == 0;
  const bool checked = spec.needs_checked_build && !aligned;

  std::unique_ptr<CLKernel>& kernel = checked ? kernels_->checked : kernels_->unchecked;
  if (!kernel) {
    const bool mma =
        spec.mma_on_nvidia && device_class(runtime_->device()) == DeviceClass::nvidia_gpu;
    const std::string options =
        launch.options + (checked ? " -DMATMUL_CHECK_BOUNDS=1" : "") + (mma ? " -DCLF_PTX=1" : "");
    try {
      kernel =
          std::make_unique<CLKernel>(*runtime_, kernel_source(spec.file), spec.kernel, options);
    } catch (const Error& error) {
      if (!mma) throw;
      // An NVIDIA GPU before sm_80 has no TF32 mma.sync.
      std::cerr << "matmul: the tf32x3 kernel (mma.sync) does not build on "
                << runtime_->device_name() << "; the register-tiled kernel runs instead:\n"
                << error.what() << "\n";
      kernels_->mma_failed = true;
      return (*kernels_->shallow)(a, b, c, m, k, n);
    }
  }
  return (*kernel)(launch.range, a, b, write_only(c), static_cast<cl_uint>(m),
                   static_cast<cl_uint>(k), static_cast<cl_uint>(n));
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
  check_shapes(a.size(), b.size(), m * n, m, k, n);
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
