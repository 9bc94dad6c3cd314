// The checksum of the files the programs write for later (endgame levels, solved positions,
// saved scenes): xxHash's XXH3, 64 bits (Debian libxxhash-dev). It catches damaged and
// truncated files, not an adversary, and runs at memory speed, so that opening gigabytes of
// files costs little.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace clf {

std::uint64_t checksum64(const void* data, std::size_t bytes);
inline std::uint64_t checksum64(std::string_view text) {
  return checksum64(text.data(), text.size());
}

// 16 lowercase hex digits, as text formats write a checksum.
std::string checksum_hex(std::uint64_t checksum);

}  // namespace clf
