#include "framework/primitives/matmul.hpp"

#include <cstdint>
#include <limits>
#include <sstream>

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
Launch register_tiles_launch(const MatmulTiling& t, std::size_t m, std::size_t n) {
  const unsigned threads_x = t.bn / t.tn;
  const unsigned threads_y = t.bm / t.tm;
  return {t.bm, t.bn, t.bk,
          "-DBM=" + std::to_string(t.bm) + " -DBN=" + std::to_string(t.bn) +
              " -DBK=" + std::to_string(t.bk) + " -DTM=" + std::to_string(t.tm) +
              " -DTN=" + std::to_string(t.tn),
          Range::grid(ceil_div(n, t.bn) * threads_x, ceil_div(m, t.bm) * threads_y, threads_x,
                      threads_y)};
}

// Gruber's variants: work-groups of 16 x 16, `elements` x `elements` results per work-item.
template <unsigned elements>
Launch reference_launch(const MatmulTiling&, std::size_t m, std::size_t n) {
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
  bool uses_tiling;
  Launch (*launch)(const MatmulTiling& tiling, std::size_t m, std::size_t n);
};

const VariantSpec kVariants[] = {
    {"default", "kernels/primitives/matmul/register_tiles.cl", "matmul_register_tiles", true, true,
     register_tiles_launch},
    {"naive", "kernels/primitives/matmul/naive.cl", "matmul_naive", false, false,
     reference_launch<1>},
    {"tiles", "kernels/primitives/matmul/tiles.cl", "matmul_tiles", true, false,
     reference_launch<1>},
    {"blocks", "kernels/primitives/matmul/blocks.cl", "matmul_blocks", true, false,
     reference_launch<4>},
    {"blocks-tiles", "kernels/primitives/matmul/blocks_tiles.cl", "matmul_blocks_tiles", true,
     false, reference_launch<4>},
};

const VariantSpec& find_variant(const std::string& name) {
  for (const VariantSpec& spec : kVariants) {
    if (name == spec.name) return spec;
  }
  throw unknown_variant("matmul", name, matmul_variants());
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
  return tuning_for(device).matmul.tiling;
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
  if (kernels_->spec->uses_tiling) {
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
  const Launch launch = spec.launch(tiling_, m, n);
  const bool aligned =
      k != 0 && m % launch.span_m == 0 && n % launch.span_n == 0 && k % launch.span_k == 0;
  const bool checked = spec.needs_checked_build && !aligned;

  std::unique_ptr<CLKernel>& kernel = checked ? kernels_->checked : kernels_->unchecked;
  if (!kernel) {
    const std::string options = launch.options + (checked ? " -DMATMUL_CHECK_BOUNDS=1" : "");
    kernel = std::make_unique<CLKernel>(*runtime_, kernel_source(spec.file), spec.kernel, options);
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
