#!/usr/bin/env python3
"""Plays the Mankalah window as a person would (tests/gui/xwindow.py: real clicks and keys under
Xvfb): builds the endgame databases from the window's button (the AI becomes the perfect
engine), a whole game against each engine, moves by click and by key, undo, hint, "move now", a new
game during a search, the engine and the time changed during a search, undo while the AI thinks a
game's first move. Checks that the AI
answered within its time plus a margin every time, that every move the window reports replays
under Kalah's rules (tests/kalah_rules.py) to the board it showed, and that the final score is the
one the moves give.

usage: xvfb-run -a mankalah_window.py CL_MANKALAH [ENGINE...]"""
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from kalah_rules import START, legal_moves, sow  # noqa: E402
from xwindow import WindowTest  # noqa: E402

TIME_MS = 250
MARGIN_S = 1.5
PIT_KEYS = "123456"


class Game:
    """The game as the window reports it, replayed here."""

    def __init__(self):
        self.board = {"cells": list(START), "to_move": 0}
        self.over = False

    def apply(self, move):
        assert self.board["to_move"] == move["side"], ("side", move, self.board)
        assert move["pit"] in legal_moves(self.board), ("illegal", move, self.board)
        _, self.over = sow(self.board, move["pit"])
        assert self.board["cells"] == move["board"], ("board", move, self.board)


def ai_answers(w, game, budget_s, engine, started=None):
    """Waits for the AI's searches and moves until the human is to move or the game ends;
    `started` is the first search's start when the caller has already seen it."""
    while not game.over and game.board["to_move"] == 1:
        start = started or w.wait_for(
            lambda e: e["event"] == "search_start" and e["kind"] == "ai", 30, "the AI's search")
        started = None
        assert start["engine"] == engine, start
        end = w.wait_for(lambda e: e["event"] == "search_end", budget_s + 30, "the AI's answer")
        took = (end["t"] - start["t"]) / 1000
        assert took <= budget_s, f"{engine} answered in {took:.2f} s (budget {budget_s:.2f} s)"
        move = w.wait_for(lambda e: e["event"] == "move", 10, "the AI's move")
        assert move["by"] == "ai", move
        game.apply(move)


def human_move(w, game, by_key):
    pit = legal_moves(game.board)[0]
    if by_key:
        w.key(PIT_KEYS[pit])
    else:
        w.click(f"pit{pit}")
    move = w.wait_for(lambda e: e["event"] == "move", 10, f"the human move c{pit}")
    assert move["by"] == "human" and move["pit"] == pit, move
    game.apply(move)


def play_whole_game(w, engine, budget_s):
    game = Game()
    turn = 0
    while not game.over:
        if game.board["to_move"] == 0:
            human_move(w, game, by_key=turn % 2 == 0)
            turn += 1
        else:
            ai_answers(w, game, budget_s, engine)
    end = w.wait_for(lambda e: e["event"] == "game_over", 10, "the end of the game")
    cells = game.board["cells"]
    assert (end["top"], end["bottom"]) == (cells[13], cells[6]), (end, cells)
    return end


def select(w, dropdown, index):
    """Picks item `index` of a drop-down by mouse and keyboard, as a person would."""
    w.click(dropdown)
    time.sleep(0.3)  # the list opens
    w.key("Home", *(["Down"] * index), "Return")
    time.sleep(0.3)  # and closes


def main():
    program, engines = sys.argv[1], sys.argv[2:] or ["alphabeta", "minimax", "bonzo",
                                                     "gpu-layered", "perfect"]
    databases = tempfile.TemporaryDirectory(prefix="mankalah_window_db_")
    w = WindowTest([program, "gui", "--time-ms", str(TIME_MS), "--db-dir", databases.name],
                   "Mankalah")
    ready = w.wait_for(lambda e: e["event"] == "ready", 60, "the window")
    # No databases yet: the window picks alphabeta and offers to build them.
    assert ready["engine"] == "alphabeta", ready
    w.click("build_databases")
    w.wait_for(lambda e: e["event"] == "database_build" and e["state"] == "started", 10,
               "the database build")
    built = w.wait_for(lambda e: e["event"] == "database_build" and e["state"] != "started", 600,
                       "the databases")
    assert built["state"] == "done" and built["error"] == "", built
    w.wait_for(lambda e: e["event"] == "settings" and e["engine"] == "perfect", 10,
               "the switch to the perfect engine")
    select(w, "engine", ready["engines"].index(engines[0]))
    w.wait_for(lambda e: e["event"] == "settings" and e["engine"] == engines[0], 10,
               f"the engine {engines[0]}")
    ready["engine"] = engines[0]
    names = ready["engines"]
    budget_s = TIME_MS / 1000 + MARGIN_S

    # Undo and hint at the start of the first game; then a whole game against each engine.
    game = Game()
    human_move(w, game, by_key=True)
    ai_answers(w, game, budget_s, engines[0])
    w.key("u")
    w.wait_for(lambda e: e["event"] == "undo" and e["done"], 10, "the undo")
    w.key("h")
    hint = w.wait_for(lambda e: e["event"] == "search_end" and e["kind"] == "hint", budget_s + 30,
                      "the hint")
    assert hint["move"] in range(0, 6), hint
    results = []
    current = ready["engine"]
    for engine in engines:
        if engine != current:
            select(w, "engine", names.index(engine))
            w.wait_for(lambda e: e["event"] == "settings" and e["engine"] == engine, 10,
                       f"the engine {engine}")
            current = engine
        w.key("n")
        w.wait_for(lambda e: e["event"] == "new_game", 10, "a new game")
        results.append((engine, play_whole_game(w, engine, budget_s)))

    # During a search: "move now" (the button) answers at once with the best move so far.
    times = ready["times_ms"]
    if current != "alphabeta":
        select(w, "engine", names.index("alphabeta"))
        w.wait_for(lambda e: e["event"] == "settings" and e["engine"] == "alphabeta", 10,
                   "the engine alphabeta")
    select(w, "time", times.index(5000))
    w.wait_for(lambda e: e["event"] == "settings" and e["time_ms"] == 5000, 10, "the time")
    w.key("n")
    w.wait_for(lambda e: e["event"] == "new_game", 10, "a new game")
    game = Game()
    human_move(w, game, by_key=False)
    w.wait_for(lambda e: e["event"] == "search_start" and e["kind"] == "ai", 30, "a search")
    w.click("move_now")
    end = w.wait_for(lambda e: e["event"] == "search_end", 3, "the answer to move now")
    assert end["stopped"] and end["ms"] < 5000, end
    move = w.wait_for(lambda e: e["event"] == "move", 10, "the AI's move")
    game.apply(move)
    ai_answers(w, game, 5 + MARGIN_S, "alphabeta")

    # During a search: another time and engine; the search goes on, the next one uses them.
    human_move(w, game, by_key=True)
    started = w.wait_for(lambda e: e["event"] == "search_start" and e["kind"] == "ai", 30,
                         "a search")
    select(w, "time", times.index(TIME_MS))
    w.wait_for(lambda e: e["event"] == "settings" and e["time_ms"] == TIME_MS, 10,
               "the time during a search")
    select(w, "engine", names.index("minimax"))
    w.wait_for(lambda e: e["event"] == "settings" and e["engine"] == "minimax", 10,
               "the engine minimax")  # well within the 5 s search
    ai_answers(w, game, 5 + MARGIN_S, "alphabeta", started)
    human_move(w, game, by_key=True)
    start = w.wait_for(lambda e: e["event"] == "search_start", 30, "the next search")
    assert start["engine"] == "minimax" and start["budget_ms"] == TIME_MS, start

    # A new game during that search: its answer is dropped, the board is new.
    w.key("n")
    w.wait_for(lambda e: e["event"] == "new_game", 10, "a new game during a search")
    game = Game()
    human_move(w, game, by_key=True)
    ai_answers(w, game, budget_s, "minimax")

    # Undo (the key) while the AI thinks the first move of a game: nothing to take back, and the
    # AI's search starts again instead of leaving the game waiting.
    select(w, "first_move", 1)
    select(w, "time", times.index(5000))
    w.wait_for(lambda e: e["event"] == "settings" and e["time_ms"] == 5000, 10, "the time")
    w.key("n")
    w.wait_for(lambda e: e["event"] == "new_game", 10, "a new game the AI starts")
    w.wait_for(lambda e: e["event"] == "search_start" and e["kind"] == "ai", 30, "its search")
    w.key("u")
    w.wait_for(lambda e: e["event"] == "undo" and not e["done"], 10, "the undo of nothing")
    w.wait_for(lambda e: e["event"] == "search_start" and e["kind"] == "ai", 10,
               "the AI's search again after the undo")
    w.click("move_now")
    first = w.wait_for(lambda e: e["event"] == "move", 10, "the AI's first move")
    assert first["by"] == "ai", first
    w.close()
    for engine, end in results:
        print(f"mankalah window: a whole game against {engine}: TOP {end['top']} - BOTTOM "
              f"{end['bottom']}")
    print("mankalah window: every AI answer in time, every move replayed: passed")


if __name__ == "__main__":
    main()
