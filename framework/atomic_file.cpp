#include "framework/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <functional>
#include <thread>

#include "framework/error.hpp"

namespace clf {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw Error(path.string() + ": " + what);
}

std::string system_error() { return std::strerror(errno); }

// Next to `path`, so that the rename stays within one file system.
std::filesystem::path temporary_path(const std::filesystem::path& path) {
  static std::atomic<unsigned> calls{0};
  const std::size_t thread = std::hash<std::thread::id>{}(std::this_thread::get_id());
  return path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(thread) + "." +
         std::to_string(calls++);
}

void write_all(int fd, const void* data, std::size_t bytes, const std::filesystem::path& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t written = ::write(fd, p, bytes);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) fail(path, "cannot write: " + system_error());
    p += written;
    bytes -= static_cast<std::size_t>(written);
  }
}

}  // namespace

void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<std::pair<const void*, std::size_t>> parts) {
  const std::filesystem::path parent = path.parent_path();
  if (!parent.empty()) {
    std::error_code error;
    std::filesystem::create_directories(parent, error);
    if (error) fail(path, "cannot create the folder: " + error.message());
  }
  const std::filesystem::path temporary = temporary_path(path);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create " + temporary.filename().string() + ": " + system_error());
  try {
    for (const auto& [data, bytes] : parts) write_all(fd, data, bytes, path);
    if (::fsync(fd) != 0) fail(path, "cannot flush: " + system_error());
  } catch (...) {
    ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = system_error();
    ::unlink(temporary.c_str());
    fail(path, "cannot rename " + temporary.string() + " to it: " + why);
  }
}

void write_file_atomically(const std::filesystem::path& path, const std::string& bytes) {
  write_file_atomically(path, {{bytes.data(), bytes.size()}});
}

void check_writable(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) fail(path, "is a folder");
  std::filesystem::path folder = path.parent_path();
  while (!folder.empty() && !std::filesystem::exists(folder, error)) {
    if (error) fail(path, "cannot look at " + folder.string() + ": " + error.message());
    folder = folder.parent_path();
  }
  if (folder.empty()) folder = ".";
  if (!std::filesystem::is_directory(folder, error)) {
    fail(path, folder.string() + " is not a folder");
  }
  const std::filesystem::path probe = temporary_path(folder / path.filename());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create a file in " + folder.string() + ": " + system_error());
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace clf
