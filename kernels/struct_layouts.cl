// Writes, for every shared struct, its size and then each field's offset, in the order of
// CLF_SHARED_STRUCTS, so the host can compare them with its own layout.
#include "shared/struct_layouts.h"

#define CLF_LAYOUT_FIELD(field) \
  out[n++] = (ulong)((__global char*)&probe->field - (__global char*)probe);
#define CLF_LAYOUT_STRUCT(type, FIELDS)             \
  {                                                 \
    __global type* probe = (__global type*)scratch; \
    out[n++] = sizeof(type);                        \
    FIELDS(CLF_LAYOUT_FIELD)                        \
  }

__kernel void struct_layouts(__global ulong* out, __global uchar* scratch) {
  if (get_global_id(0) != 0) return;
  uint n = 0;
  CLF_SHARED_STRUCTS(CLF_LAYOUT_STRUCT)
}
