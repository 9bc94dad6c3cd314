// The layered search (after Kloosterman's senior project, docs/mankalah.md), bottom stage: one
// work-group per frontier position evaluates the full-width minimax tree of its last `plies`
// plies in local memory and writes the value (TOP is MAX, finished games exact, the heuristic at
// the depth limit) and the number of leaves.
//
// The tree is stored level by level: node n's children are 6n+1 .. 6n+6 (child i plays the
// mover's i-th pit), so level l starts at (6^l - 1) / 5. Only the levels above the leaves are
// stored (`inner` = (6^plies - 1) / 5 boards): the work-items that own the last stored level
// play each leaf move in private memory and reduce it on the spot, so local memory holds
// 20 bytes per inner node (1555 nodes, 31 KB, for 5 plies).
#include "shared/mankalah/kalah.h"

#define NO_BOARD 1  // KalahBoard.mark of a slot whose move is illegal (or whose parent is empty)

// The minimax value of a leaf position and 1 leaf, or of a position one ply above the leaves.
static int value_over_children(KalahBoard board, uint* leaves) {
  if (kalah_is_over(&board)) {
    *leaves += 1;
    return kalah_final_value(&board);
  }
  const int maximizing = board.to_move == KALAH_TOP;
  const int first = kalah_first_pit(board.to_move);
  int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
  for (int i = 0; i < KALAH_PITS; ++i) {
    if (board.cells[first + i] == 0) continue;
    KalahBoard child = board;
    kalah_sow(&child, first + i);
    const int value = kalah_leaf_value(&child);
    best = maximizing ? max(best, value) : min(best, value);
    *leaves += 1;
  }
  return best;
}

__kernel void layered_minimax(__global const KalahBoard* frontier, uint count, uint plies,
                              __global int* values, __global uint* leaf_counts,
                              __local KalahBoard* tree, __local int* scores,
                              __local uint* group_leaves) {
  const uint group = get_group_id(0);
  if (group >= count) return;  // uniform over the group: no barrier is skipped by some only
  const uint lid = get_local_id(0);
  const uint size = get_local_size(0);
  uint level_start = 0;
  uint level_size = 1;
  if (lid == 0) {
    tree[0] = frontier[group];
    tree[0].mark = 0;
    *group_leaves = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Generate levels 1 .. plies-1 from their parents.
  for (uint level = 1; level < plies; ++level) {
    level_start += level_size;
    level_size *= KALAH_PITS;
    for (uint k = lid; k < level_size; k += size) {
      const uint node = level_start + k;
      KalahBoard board = tree[(node - 1) / KALAH_PITS];
      if (board.mark != NO_BOARD && !kalah_is_over(&board)) {
        const int pit = kalah_first_pit(board.to_move) + (int)((node - 1) % KALAH_PITS);
        if (board.cells[pit] > 0) {
          kalah_sow(&board, pit);
        } else {
          board.mark = NO_BOARD;
        }
      } else {
        board.mark = NO_BOARD;
      }
      tree[node] = board;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The last stored level: each node's value over its leaf children (or its own final value).
  uint leaves = 0;
  for (uint k = lid; k < level_size; k += size) {
    const uint node = level_start + k;
    const KalahBoard board = tree[node];
    scores[node] = board.mark == NO_BOARD ? 0 : value_over_children(board, &leaves);
  }
  // Nodes above it that ended the game are leaves too.
  for (uint node = lid; node < level_start; node += size) {
    const KalahBoard board = tree[node];
    if (board.mark != NO_BOARD && kalah_is_over(&board)) leaves += 1;
  }
  atomic_add(group_leaves, leaves);
  barrier(CLK_LOCAL_MEM_FENCE);
  // Reduce the levels above, bottom up.
  while (level_start > 0) {
    level_size /= KALAH_PITS;
    level_start -= level_size;
    for (uint k = lid; k < level_size; k += size) {
      const uint node = level_start + k;
      const KalahBoard board = tree[node];
      if (board.mark == NO_BOARD) continue;
      if (kalah_is_over(&board)) {
        scores[node] = kalah_final_value(&board);
        continue;
      }
      const int maximizing = board.to_move == KALAH_TOP;
      int best = maximizing ? -KALAH_INFINITY : KALAH_INFINITY;
      for (uint i = 0; i < KALAH_PITS; ++i) {
        const uint child = KALAH_PITS * node + 1 + i;
        if (tree[child].mark == NO_BOARD) continue;
        best = maximizing ? max(best, scores[child]) : min(best, scores[child]);
      }
      scores[node] = best;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    values[group] = scores[0];
    leaf_counts[group] = *group_leaves;
  }
}
