// The framework's shared structs, with their fields, so tests/test_struct_layout.cpp can check
// that host and device agree on sizes and offsets. Each owner of shared/ headers keeps such a
// list beside them (shared/<app>/struct_layouts.h); a test fails if a shared struct is in none:
// add each new one as STRUCT(Name, NAME_FIELDS) with its NAME_FIELDS(FIELD) list.
#ifndef SHARED_STRUCT_LAYOUTS_H
#define SHARED_STRUCT_LAYOUTS_H

#include "shared/random.h"

#define CLF_FRAMEWORK_STRUCTS(STRUCT)      \
  STRUCT(PhiloxState, PHILOX_STATE_FIELDS) \
  STRUCT(Mwc64xState, MWC64X_STATE_FIELDS)

#endif  // SHARED_STRUCT_LAYOUTS_H
