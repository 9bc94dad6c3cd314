#include "framework/sources.hpp"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

#include "framework/error.hpp"

namespace clf {

namespace {
// Built on first use, so registrars in other files' static initialisers may run in any order.
std::vector<EmbeddedFile>& registered_files() {
  static std::vector<EmbeddedFile> files;
  return files;
}
}  // namespace

namespace detail {
EmbeddedRegistrar::EmbeddedRegistrar(const EmbeddedFile* files, std::size_t count) {
  std::vector<EmbeddedFile>& table = registered_files();
  for (std::size_t i = 0; i < count; ++i) {
    const auto at = std::lower_bound(
        table.begin(), table.end(), files[i],
        [](const EmbeddedFile& a, const EmbeddedFile& b) { return a.path < b.path; });
    if (at == table.end() || at->path != files[i].path) table.insert(at, files[i]);
  }
}
}  // namespace detail

const std::vector<EmbeddedFile>& embedded_files() { return registered_files(); }

std::optional<std::string_view> find_embedded(std::string_view path) {
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.path == path) return file.text;
  }
  return std::nullopt;
}

namespace {

std::string directory_of(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash + 1));
}

// Copies `text` into `out`, replacing each #include "x" by the embedded file x (looked up beside
// the including file, then from the repository root). Each file is included once per program,
// so headers need no guards to be safe here (they keep them for the C++ side).
void expand(const std::string& name, std::string_view text, std::set<std::string>& included,
            std::ostringstream& out) {
  static const std::regex include_line(R"(^\s*#\s*include\s*\"([^\"]+)\".*$)");
  std::istringstream lines{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    std::smatch match;
    if (!std::regex_match(line, match, include_line)) {
      out << line << '\n';
      continue;
    }
    const std::string wanted = match[1];
    std::string path = directory_of(name) + wanted;
    std::optional<std::string_view> found = find_embedded(path);
    if (!found) {
      path = wanted;
      found = find_embedded(path);
    }
    if (!found) {
      throw Error(name + ":" + std::to_string(number) + ": #include \"" + wanted +
                  "\" names no embedded file (only the kernels/ and shared/ files of the linked "
                  "targets are)");
    }
    if (included.insert(path).second) {
      out << "#line 1 \"" << path << "\"\n";
      expand(path, *found, included, out);
    }
    out << "#line " << number + 1 << " \"" << name << "\"\n";
  }
}

}  // namespace

Source inline_source(std::string name, std::string_view text) {
  std::set<std::string> included{name};
  std::ostringstream out;
  out << "#line 1 \"" << name << "\"\n";
  expand(name, text, included, out);
  return Source{std::move(name), out.str()};
}

Source kernel_source(std::string_view path) {
  const std::optional<std::string_view> text = find_embedded(path);
  if (!text) {
    std::string known;
    for (const EmbeddedFile& file : embedded_files()) known += "\n  " + std::string(file.path);
    throw Error("no embedded kernel source '" + std::string(path) + "'; embedded files:" + known);
  }
  return inline_source(std::string(path), *text);
}

}  // namespace clf
