// Files written whole or not at all: the bytes go to a temporary file next to the target, are
// flushed to disk and renamed over it, so a reader sees the old file or the whole new one and a
// writer killed midway leaves only its temporary file behind (never half a file under the name).
#pragma once

#include <cstddef>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <utility>

namespace clf {

// Writes `parts` one after the other to `path` atomically, creating its folder when missing.
// The temporary name is unique per process, thread and call, so concurrent writers of one path
// never share it. Throws clf::Error naming the file and the system's reason.
void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::pair<const void*, std::size_t>> parts);
void write_file_atomically(const std::filesystem::path& path, const std::string& bytes);

// Checks, before long work whose result goes to `path`, that write_file_atomically could write
// it: `path` is not a folder, and a file can be created in its folder (or, where that is
// missing, in the nearest folder above it that exists: the write creates the rest). Tried with
// a temporary file, removed at once. Throws clf::Error naming `path` and the reason.
void check_writable(const std::filesystem::path& path);

}  // namespace clf
