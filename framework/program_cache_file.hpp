// One file of the on-disk program cache: a program binary and its kernels' argument info, under
// the key it was built for (platform, device, driver, options, source). The file starts with its
// format version, the payload's size and a checksum, and is written to a unique temporary file
// that is then renamed into place, so readers see a whole entry or none. A file that is
// truncated, damaged, of another format or for another key is a miss: the program is built
// again and the file rewritten; it is never used.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "framework/program.hpp"

namespace clf {

struct ProgramCacheEntry {
  std::string binary;
  std::vector<KernelInfo> kernels;
};

// The cache file's name for `key` (two 64-bit hashes of it, in hex, and ".bin").
std::string program_cache_file_name(const std::string& key);

// The file's bytes for `entry` under `key`.
std::string encode_program_cache_entry(const std::string& key, const ProgramCacheEntry& entry);
// The entry `bytes` hold, if they are a whole, undamaged file of this format for `key`.
std::optional<ProgramCacheEntry> decode_program_cache_entry(std::string_view bytes,
                                                            const std::string& key);
// The payload alone (what follows the header), unchecked by the checksum: for the fuzz target.
std::optional<ProgramCacheEntry> decode_program_cache_payload(std::string_view payload,
                                                              const std::string& key);

// Writes atomically; false (and no file) when the directory cannot be written, which is not an
// error: the program is just built again next time.
bool save_program_cache_entry(const std::filesystem::path& file, const std::string& key,
                              const ProgramCacheEntry& entry);
std::optional<ProgramCacheEntry> load_program_cache_entry(const std::filesystem::path& file,
                                                          const std::string& key);

}  // namespace clf
