// Endgame database levels on the device, one work-item per position (shared/kalah_endgame.h
// describes the levels, their ranking and why a level's moves form an acyclic graph).
//
// endgame_level_pass evaluates positions first .. first + count - 1 of level `level` in place:
// children in lower levels are read from `lower` (levels 0..level-1 one after the other, all
// final), children in the same level from `values` itself. A pass over the whole level, started
// from any contents, makes final every position whose longest same-level path is shorter than
// the number of passes so far (its same-level children were final after the previous pass, and a
// final value recomputed from final children does not change), whatever order the work-items run
// in and whichever of a child's old or new value they read. A pass that changes no value found a
// fixed point of "value = best over moves", which on an acyclic graph is unique: the level's
// values. So the host repeats passes until one reports no change; the longest same-level path
// (at most 5n moves: the potential lies in n..6n) bounds the passes. The same holds for each
// pair of classes {a, n - a} alone, as their same-level children lie among themselves: the host
// passes over one pair at a time.
#include "shared/mankalah/kalah_endgame.h"

// The value of position `rank` of level `level` from its children as `values` holds them now.
char endgame_position_value(__global const char* lower, int level, ulong rank,
                            __global const char* values) {
  const KalahBoard position = kalah_endgame_unrank(level, rank);
  if (kalah_endgame_is_terminal(&position)) return (char)kalah_endgame_terminal_value(&position);
  int best = -KALAH_INFINITY;
  for (int pit = 0; pit < KALAH_PITS; ++pit) {
    KalahEndgamePly move;
    if (!kalah_endgame_play(&position, pit, &move)) continue;
    int child = 0;
    if (!move.game_over) {
      child = move.level == level ? values[move.rank]
                                  : lower[kalah_endgame_level_offset(move.level) + move.rank];
    }
    best = max(best, kalah_endgame_move_value(&move, child));
  }
  return (char)best;
}

__kernel void endgame_level_pass(__global const char* lower, int level, ulong first, uint count,
                                 __global char* values, __global int* changed) {
  const uint id = get_global_id(0);
  if (id >= count) return;
  const ulong rank = first + id;
  const char best = endgame_position_value(lower, level, rank, values);
  if (values[rank] != best) {
    values[rank] = best;
    *changed = 1;
  }
}

// Copies a finished level into its place among the levels below the next one.
__kernel void endgame_store_level(__global const char* level_values, ulong offset, uint count,
                                  ulong first, __global char* lower) {
  const uint id = get_global_id(0);
  if (id >= count) return;
  lower[offset + first + id] = level_values[first + id];
}
