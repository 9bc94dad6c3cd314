#include "framework/program_cache_file.hpp"

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

#include "framework/atomic_file.hpp"
#include "framework/error.hpp"

namespace clf {

namespace {

constexpr std::string_view kMagic = "clf-program-cache-2";

std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ULL) {
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string hex(std::uint64_t value) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(value));
  return buffer;
}

void write_string(std::ostream& out, const std::string& text) {
  out << text.size() << ' ';
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// Reads what write_string wrote, refusing a length longer than what is left of the payload.
class PayloadReader {
 public:
  explicit PayloadReader(std::string_view payload) : rest_(payload) {}

  bool number(std::size_t& value) {
    std::size_t digits = 0;
    value = 0;
    while (digits < rest_.size() && rest_[digits] >= '0' && rest_[digits] <= '9') {
      if (digits == 18) return false;  // no field is that large
      value = value * 10 + static_cast<std::size_t>(rest_[digits] - '0');
      ++digits;
    }
    if (digits == 0 || digits >= rest_.size() || rest_[digits] != ' ') return false;
    rest_.remove_prefix(digits + 1);
    return true;
  }

  bool string(std::string& text) {
    std::size_t size = 0;
    if (!number(size) || size > rest_.size()) return false;
    text.assign(rest_.substr(0, size));
    rest_.remove_prefix(size);
    return true;
  }

  bool done() const { return rest_.empty(); }
  std::size_t left() const { return rest_.size(); }

 private:
  std::string_view rest_;
};

bool read_kernel(PayloadReader& in, KernelInfo& kernel) {
  std::size_t arg_count = 0, known = 0;
  if (!in.string(kernel.name) || !in.number(arg_count) || !in.number(known) || known > 1) {
    return false;
  }
  // Each argument takes at least 8 bytes: refuse counts the payload cannot hold.
  if (arg_count > in.left() / 8 + 1) return false;
  kernel.arg_count = static_cast<unsigned>(arg_count);
  kernel.args_known = known != 0;
  kernel.args.resize(kernel.args_known ? arg_count : 0);
  for (KernelArgInfo& arg : kernel.args) {
    std::size_t address = 0, is_const = 0;
    if (!in.string(arg.name) || !in.string(arg.type_name) || !in.number(address) ||
        !in.number(is_const) || address > static_cast<std::size_t>(AddressSpace::private_) ||
        is_const > 1) {
      return false;
    }
    arg.address = static_cast<AddressSpace>(address);
    arg.is_const = is_const != 0;
  }
  return true;
}

}  // namespace

std::string program_cache_file_name(const std::string& key) {
  return hex(fnv1a(key)) + hex(fnv1a(key, 0x84222325cbf29ce4ULL)) + ".bin";
}

std::string encode_program_cache_entry(const std::string& key, const ProgramCacheEntry& entry) {
  std::ostringstream payload;
  write_string(payload, key);
  write_string(payload, entry.binary);
  payload << entry.kernels.size() << ' ';
  for (const KernelInfo& kernel : entry.kernels) {
    write_string(payload, kernel.name);
    payload << kernel.arg_count << ' ' << (kernel.args_known ? 1 : 0) << ' ';
    for (const KernelArgInfo& arg : kernel.args) {
      write_string(payload, arg.name);
      write_string(payload, arg.type_name);
      payload << static_cast<int>(arg.address) << ' ' << (arg.is_const ? 1 : 0) << ' ';
    }
  }
  const std::string body = payload.str();
  return std::string(kMagic) + " " + std::to_string(body.size()) + " " + hex(fnv1a(body)) + "\n" +
         body;
}

std::optional<ProgramCacheEntry> decode_program_cache_payload(std::string_view payload,
                                                              const std::string& key) {
  PayloadReader in(payload);
  std::string stored_key;
  if (!in.string(stored_key) || stored_key != key) return std::nullopt;
  ProgramCacheEntry entry;
  std::size_t kernel_count = 0;
  if (!in.string(entry.binary) || !in.number(kernel_count) || kernel_count > in.left() / 4 + 1) {
    return std::nullopt;
  }
  entry.kernels.resize(kernel_count);
  for (KernelInfo& kernel : entry.kernels) {
    if (!read_kernel(in, kernel)) return std::nullopt;
  }
  if (!in.done()) return std::nullopt;
  return entry;
}

std::optional<ProgramCacheEntry> decode_program_cache_entry(std::string_view bytes,
                                                            const std::string& key) {
  // Header: magic, payload size, checksum of the payload; then exactly that payload.
  const std::size_t end = bytes.find('\n');
  if (end == std::string_view::npos) return std::nullopt;
  const std::string_view header = bytes.substr(0, end);
  const std::string_view payload = bytes.substr(end + 1);
  if (header.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  const std::string expected =
      std::string(kMagic) + " " + std::to_string(payload.size()) + " " + hex(fnv1a(payload));
  if (header != expected) return std::nullopt;
  return decode_program_cache_payload(payload, key);
}

bool save_program_cache_entry(const std::filesystem::path& file, const std::string& key,
                              const ProgramCacheEntry& entry) {
  // Atomic: a reader sees the old entry or the new one, and a writer killed midway leaves only
  // its temporary file behind.
  try {
    write_file_atomically(file, encode_program_cache_entry(key, entry));
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::optional<ProgramCacheEntry> load_program_cache_entry(const std::filesystem::path& file,
                                                          const std::string& key) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_program_cache_entry(bytes, key);
}

}  // namespace clf
