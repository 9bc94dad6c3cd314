// Program cache files as the framework reads them from the cache folder: the whole file (header,
// size, checksum) and, since random bytes rarely pass the checksum, the payload alone.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "framework/program_cache_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  clf::decode_program_cache_entry(bytes, "key");
  clf::decode_program_cache_payload(bytes, "key");
  return 0;
}
