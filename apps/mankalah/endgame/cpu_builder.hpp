// The reference builder: a level on the CPU in plain C++, from the functions the device kernel
// uses (shared/kalah_endgame.h), by another order of work (increasing potential, one pass) so
// that comparing the two checks the kernel's fixed-point iteration as well.
#pragma once

#include <vector>

#include "shared/mankalah/kalah_endgame.h"

namespace mankalah::endgame {

// The value of `position` (a level's position: BOTTOM to move, empty stores) from its children:
// levels[m] holds level m's values for every m up to the position's level (that level's entries
// must be final for the same-level children).
int value_from_children(const KalahBoard& position, const std::vector<const cl_char*>& levels);

// Level n from levels 0..n-1 (lower[m] is level m), on `threads` threads (0: one per core).
std::vector<cl_char> build_level_cpu(int n, const std::vector<const cl_char*>& lower,
                                     unsigned threads = 0);

}  // namespace mankalah::endgame
