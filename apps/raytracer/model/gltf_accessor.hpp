// Typed reads from a glTF accessor: element i, component c, through the buffer view's stride,
// with the accessor's extent checked against its buffer once, up front.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "framework/error.hpp"

namespace raytracer::model {

class AccessorView {
 public:
  // For reading `components` components per element. Throws clf::Error, starting with `what`,
  // for an accessor that does not exist, is sparse, has fewer components or reaches past its
  // buffer.
  AccessorView(const tinygltf::Model& gltf, int index, const std::string& what, int components);

  std::size_t count() const { return accessor_->count; }
  int components() const { return components_; }

  // Component c of element i as a float (normalised integers mapped to [0, 1]).
  float real(std::size_t i, int c) const;
  // Component c of element i of an unsigned integer accessor (indices).
  std::uint32_t integer(std::size_t i, int c) const;

 private:
  clf::Error unsupported_component_type(const char* use) const;

  std::string what_;  // what the accessor holds, for errors
  int index_ = 0;
  const tinygltf::Accessor* accessor_ = nullptr;
  const unsigned char* data_ = nullptr;  // null: no buffer view, every element is zero
  std::size_t stride_ = 0;
  int components_ = 0;
  int component_size_ = 0;
};

}  // namespace raytracer::model
