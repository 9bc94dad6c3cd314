// Kernel sources. Every file under kernels/ and shared/ is embedded into the binary at build
// time (cmake/embed_sources.cmake), so an installed program reads no source files. #include
// "..." directives are resolved against those embedded files, with #line markers so that build
// logs name the original file and line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clf {

// One embedded file, by its path relative to the repository root ("kernels/scan.cl").
struct EmbeddedFile {
  std::string_view path;
  std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_files();
std::optional<std::string_view> find_embedded(std::string_view path);

// A program's source, ready to compile: includes resolved.
struct Source {
  std::string name;  // for messages: the file name, or a caller-chosen label
  std::string text;
};

// An embedded kernel file with its includes resolved. Throws Error when the file is unknown.
Source kernel_source(std::string_view path);

// Source text given by the caller (tests, generated wrappers); its includes are resolved
// against the embedded files the same way.
Source inline_source(std::string name, std::string_view text);

}  // namespace clf
