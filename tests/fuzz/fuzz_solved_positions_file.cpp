// The solved-positions file as the perfect engine reads it from the database folder: the input
// is the file.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "apps/mankalah/endgame/level_file.hpp"
#include "apps/mankalah/solver/solved_positions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("clf-fuzz-solved-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::filesystem::path file = mankalah::solver::SolvedPositions::path_in(folder);
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  try {
    const auto loaded = mankalah::solver::SolvedPositions::load(file);
    volatile int sum = 0;
    for (const auto& entry : loaded.positions()) sum += entry.second.value + entry.second.move;
    (void)sum;
  } catch (const mankalah::endgame::DatabaseError&) {
  }
  return 0;
}
