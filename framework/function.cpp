#include "framework/function.hpp"

#include <sstream>

namespace clf::detail {

std::string function_wrapper_source(const std::string& function, const char* result_type,
                                    std::size_t result_offset,
                                    const std::vector<const char*>& parameter_types,
                                    const std::vector<bool>& parameter_is_out,
                                    const std::vector<std::size_t>& parameter_offsets) {
  std::ostringstream out;
  const std::string wrapper = "clf_call_" + function;
  out << "\n#line 1 \"" << wrapper << ".generated\"\n";
  out << "__kernel void " << wrapper << "(__global uchar* clf_arguments) {\n";
  for (std::size_t i = 0; i < parameter_types.size(); ++i) {
    out << "  " << parameter_types[i] << " a" << i << " = *(__global " << parameter_types[i]
        << "*)(clf_arguments + " << parameter_offsets[i] << ");\n";
  }
  std::string call = function + "(";
  for (std::size_t i = 0; i < parameter_types.size(); ++i) {
    call +=
        (i == 0 ? "" : ", ") + std::string(parameter_is_out[i] ? "&a" : "a") + std::to_string(i);
  }
  call += ")";
  if (std::string(result_type) == "void") {
    out << "  " << call << ";\n";
  } else {
    out << "  " << result_type << " result = " << call << ";\n";
    out << "  *(__global " << result_type << "*)(clf_arguments + " << result_offset
        << ") = result;\n";
  }
  for (std::size_t i = 0; i < parameter_types.size(); ++i) {
    if (!parameter_is_out[i]) continue;
    out << "  *(__global " << parameter_types[i] << "*)(clf_arguments + " << parameter_offsets[i]
        << ") = a" << i << ";\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace clf::detail
