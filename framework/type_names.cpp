#include "framework/type_names.hpp"

#include <cctype>
#include <map>

namespace clf {

std::optional<std::size_t> builtin_type_size(const std::string& type_name) {
  static const std::map<std::string, std::size_t> scalar_sizes = {
      {"char", 1},          {"uchar", 1},          {"short", 2},        {"ushort", 2},
      {"int", 4},           {"uint", 4},           {"long", 8},         {"ulong", 8},
      {"float", 4},         {"double", 8},         {"half", 2},         {"bool", 1},
      {"unsigned char", 1}, {"unsigned short", 2}, {"unsigned int", 4}, {"unsigned long", 8}};
  std::size_t digits = type_name.size();
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(type_name[digits - 1])) != 0) {
    --digits;
  }
  const auto scalar = scalar_sizes.find(type_name.substr(0, digits));
  if (scalar == scalar_sizes.end()) return std::nullopt;
  if (digits == type_name.size()) return scalar->second;
  const int width = std::stoi(type_name.substr(digits));
  switch (width) {
    case 2:
    case 4:
    case 8:
    case 16:
      return scalar->second * width;
    case 3:  // 3-wide vectors are stored as 4-wide
      return scalar->second * 4;
    default:
      return std::nullopt;
  }
}

bool is_floating_type_name(const std::string& type_name) {
  return type_name.rfind("float", 0) == 0 || type_name.rfind("double", 0) == 0 ||
         type_name.rfind("half", 0) == 0;
}

}  // namespace clf
