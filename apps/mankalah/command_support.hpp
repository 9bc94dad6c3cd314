// Helpers more than one cl-mankalah command uses.
#pragma once

#include <random>
#include <string>

#include "shared/mankalah/kalah.h"

namespace mankalah {

// The start position with `to_move` to move when `board` is empty, else `board` parsed
// (throws std::invalid_argument as parse_board does).
KalahBoard start_or_parse(const std::string& board, int to_move);

// `board` after up to `plies` random legal moves drawn from `rng`, never one that ends the game:
// fewer where every move would (a game cannot go on for ever, so any `plies` returns).
KalahBoard play_random_plies(KalahBoard board, int plies, std::mt19937& rng);

}  // namespace mankalah
