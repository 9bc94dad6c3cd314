"""Kalah(6, 4) as Calvin's game plays it (shared/kalah.h), written again in Python so that tests can
replay a program's move log independently of the C++ rules."""

START = [4] * 6 + [0] + [4] * 6 + [0]
BOTTOM, TOP = 0, 1


def sow(board, pit):
    """Plays `pit` for board["to_move"] on board = {"cells": [14 ints], "to_move": 0|1}, in place.
    Returns (extra_turn, game_over)."""
    cells, side = board["cells"], board["to_move"]
    store, skipped = (13, 6) if side == TOP else (6, 13)
    first = 7 if side == TOP else 0
    stones, cells[pit], last = cells[pit], 0, pit
    for _ in range(stones):
        last = (last + 1) % 14
        if last == skipped:
            last = (last + 1) % 14
        cells[last] += 1
    extra = last == store
    if not extra and first <= last < first + 6 and cells[last] == 1 and cells[12 - last] > 0:
        cells[store] += 1 + cells[12 - last]
        cells[last] = cells[12 - last] = 0
    over = sum(cells[0:6]) == 0 or sum(cells[7:13]) == 0
    if over:
        cells[6] += sum(cells[0:6])
        cells[13] += sum(cells[7:13])
        for i in list(range(0, 6)) + list(range(7, 13)):
            cells[i] = 0
    elif not extra:
        board["to_move"] = 1 - side
    return extra, over


def legal_moves(board):
    cells, side = board["cells"], board["to_move"]
    if sum(cells[0:6]) == 0 or sum(cells[7:13]) == 0:
        return []
    first = 7 if side == TOP else 0
    return [p for p in range(first, first + 6) if cells[p] > 0]
