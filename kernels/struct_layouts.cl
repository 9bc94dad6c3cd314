// Writes, for every struct of one owner's list, its size and then each field's offset, in the
// list's order, so the host can compare them with its own layout. The program first includes
// the owner's list and defines CLF_LAYOUT_STRUCTS as its name (tests/test_struct_layout.cpp).
#ifndef CLF_LAYOUT_STRUCTS
#error "define CLF_LAYOUT_STRUCTS as a struct list, e.g. CLF_FRAMEWORK_STRUCTS"
#endif

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
  CLF_LAYOUT_STRUCTS(CLF_LAYOUT_STRUCT)
}
