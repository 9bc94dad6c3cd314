// Typed reads from glTF accessors.
#include "apps/raytracer/model/gltf_accessor.hpp"

#include <cstring>

#include "framework/error.hpp"

namespace raytracer::model {

AccessorView::AccessorView(const tinygltf::Model& gltf, int index, const std::string& what,
                           int components)
    : what_(what), index_(index) {
  if (index < 0 || index >= static_cast<int>(gltf.accessors.size())) {
    throw clf::Error(what + ": accessor " + std::to_string(index) + " does not exist");
  }
  accessor_ = &gltf.accessors[index];
  if (accessor_->sparse.isSparse) {
    throw clf::Error(what + ": sparse accessors are not supported");
  }
  components_ = tinygltf::GetNumComponentsInType(accessor_->type);
  component_size_ = tinygltf::GetComponentSizeInBytes(accessor_->componentType);
  if (components_ <= 0 || component_size_ <= 0) {
    throw clf::Error(what + ": accessor " + std::to_string(index) + " has an unknown type");
  }
  if (components_ < components) {
    throw clf::Error(what + ": accessor " + std::to_string(index) + " has " +
                     std::to_string(components_) + " components per element, not " +
                     std::to_string(components));
  }
  if (accessor_->bufferView < 0) return;  // all zeros, as glTF defines it
  const auto past = [&](const char* what_is_missing) {
    return clf::Error(what + ": accessor " + std::to_string(index) + " " + what_is_missing);
  };
  if (accessor_->bufferView >= static_cast<int>(gltf.bufferViews.size())) {
    throw past("has no such buffer view");
  }
  const tinygltf::BufferView& view = gltf.bufferViews[accessor_->bufferView];
  if (view.buffer < 0 || view.buffer >= static_cast<int>(gltf.buffers.size())) {
    throw past("has a buffer view with no such buffer");
  }
  const std::vector<unsigned char>& buffer = gltf.buffers[view.buffer].data;
  stride_ = view.byteStride ? view.byteStride : components_ * component_size_;
  const std::size_t begin = view.byteOffset + accessor_->byteOffset;
  const std::size_t element = static_cast<std::size_t>(components_) * component_size_;
  // Every element takes at least a byte: a larger count cannot fit (and would overflow below).
  if (accessor_->count > buffer.size() || begin > buffer.size()) {
    throw past("reaches past the end of its buffer");
  }
  const std::size_t end =
      accessor_->count == 0 ? begin : begin + (accessor_->count - 1) * stride_ + element;
  if (end > buffer.size() || end > view.byteOffset + view.byteLength) {
    throw past("reaches past the end of its buffer");
  }
  data_ = buffer.data() + begin;
}

float AccessorView::real(std::size_t i, int c) const {
  if (!data_) return 0;
  const unsigned char* p = data_ + i * stride_ + c * component_size_;
  switch (accessor_->componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return accessor_->normalized ? *p / 255.0f : *p;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return accessor_->normalized ? integer(i, c) / 65535.0f : static_cast<float>(integer(i, c));
    default:
      throw unsupported_component_type("vertex data");
  }
}

std::uint32_t AccessorView::integer(std::size_t i, int c) const {
  if (!data_) return 0;
  const unsigned char* p = data_ + i * stride_ + c * component_size_;
  switch (accessor_->componentType) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return *p;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      std::uint16_t v;
      std::memcpy(&v, p, sizeof v);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
      std::uint32_t v;
      std::memcpy(&v, p, sizeof v);
      return v;
    }
    default:
      throw unsupported_component_type("indices");
  }
}

clf::Error AccessorView::unsupported_component_type(const char* use) const {
  return clf::Error(what_ + ": accessor " + std::to_string(index_) + " has component type " +
                    std::to_string(accessor_->componentType) + ", which glTF does not allow for " +
                    use);
}

}  // namespace raytracer::model
