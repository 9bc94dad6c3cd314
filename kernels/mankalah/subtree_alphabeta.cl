// The hybrid engine's device stage: one work-item per position, an alpha-beta search of `plies`
// plies with an explicit stack in private memory (OpenCL C has no recursion). The root window
// is full, so the value is exactly the position's `plies`-ply minimax value (TOP is MAX,
// finished games exact, the heuristic at the limit); the number of positions visited goes to
// `nodes`. Moves are tried in kalah_ordered_pit's order (go-again moves first), as on the host:
// it cuts the positions visited at 7 plies by about 60 % (PoCL, the start position, depth 17).
#include "shared/mankalah/kalah.h"

#define SUBTREE_MAX_PLIES 16

typedef struct Frame {
  KalahBoard board;
  int alpha;
  int beta;
  int best;
  int next;  // the next kalah_ordered_pit slot to try
} Frame;

__kernel void subtree_alphabeta(__global const KalahBoard* positions, uint count, uint plies,
                                __global int* values, __global uint* nodes) {
  const uint id = get_global_id(0);
  if (id >= count) return;
  const KalahBoard root = positions[id];
  if (plies == 0 || kalah_is_over(&root)) {
    values[id] = kalah_leaf_value(&root);
    nodes[id] = 1;
    return;
  }
  Frame stack[SUBTREE_MAX_PLIES];
  const uint depth_limit = min(plies, (uint)SUBTREE_MAX_PLIES);
  int sp = 0;
  stack[0].board = root;
  stack[0].alpha = -KALAH_INFINITY;
  stack[0].beta = KALAH_INFINITY;
  stack[0].best = root.to_move == KALAH_TOP ? -KALAH_INFINITY : KALAH_INFINITY;
  stack[0].next = 0;
  uint visited = 1;
  int value = 0;
  int returning = 0;  // `value` holds the result of stack[sp]'s last child
  for (;;) {
    if (returning) {
      returning = 0;
      if (stack[sp].board.to_move == KALAH_TOP) {
        stack[sp].best = max(stack[sp].best, value);
        stack[sp].alpha = max(stack[sp].alpha, stack[sp].best);
      } else {
        stack[sp].best = min(stack[sp].best, value);
        stack[sp].beta = min(stack[sp].beta, stack[sp].best);
      }
      if (stack[sp].alpha >= stack[sp].beta) stack[sp].next = KALAH_ORDER_SLOTS;  // cut off
    }
    int pit = -1;
    while (stack[sp].next < KALAH_ORDER_SLOTS && pit < 0) {
      pit = kalah_ordered_pit(&stack[sp].board, stack[sp].next++);
    }
    if (pit < 0) {
      value = stack[sp].best;
      if (sp == 0) break;
      --sp;
      returning = 1;
      continue;
    }
    KalahBoard child = stack[sp].board;
    // kalah_sow has checked for the end of the game already: its flag saves counting both rows
    // again (most positions visited are leaves, where that was two of the three row counts).
    const int over = kalah_sow(&child, pit) & KALAH_RESULT_GAME_OVER;
    ++visited;
    if (over || (uint)(sp + 1) == depth_limit) {
      value = over ? kalah_final_value(&child) : kalah_heuristic(&child);
      returning = 1;
      continue;
    }
    ++sp;
    stack[sp].board = child;
    stack[sp].alpha = stack[sp - 1].alpha;
    stack[sp].beta = stack[sp - 1].beta;
    stack[sp].best = child.to_move == KALAH_TOP ? -KALAH_INFINITY : KALAH_INFINITY;
    stack[sp].next = 0;
  }
  values[id] = value;
  nodes[id] = visited;
}
