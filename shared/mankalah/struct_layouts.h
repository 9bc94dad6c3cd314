// Mankalah's shared structs for the layout check (shared/struct_layouts.h says how).
#ifndef SHARED_MANKALAH_STRUCT_LAYOUTS_H
#define SHARED_MANKALAH_STRUCT_LAYOUTS_H

#include "shared/mankalah/kalah.h"
#include "shared/mankalah/kalah_endgame.h"

#define MANKALAH_STRUCTS(STRUCT)         \
  STRUCT(KalahBoard, KALAH_BOARD_FIELDS) \
  STRUCT(KalahEndgamePly, KALAH_ENDGAME_PLY_FIELDS)

#endif  // SHARED_MANKALAH_STRUCT_LAYOUTS_H
