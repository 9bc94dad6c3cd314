// Endgame database level files as `cl-mankalah db` opens them from the database folder: the
// first byte picks the level the file must hold (0..15), the rest is the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "apps/mankalah/endgame/level_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("clf-fuzz-level-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const int level = data[0] % 16;
  const std::filesystem::path file = mankalah::endgame::level_path(folder, level);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  try {
    const auto opened = mankalah::endgame::LevelFile::open(file, level);
    volatile cl_char sum = 0;  // touch every value the mapping claims to hold
    for (std::uint64_t i = 0; i < opened.count(); ++i) sum += opened.values()[i];
    (void)sum;
  } catch (const mankalah::endgame::DatabaseError&) {
  }
  return 0;
}
