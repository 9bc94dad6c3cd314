#!/usr/bin/env python3
"""Plays a whole game of `cl-mankalah play` through a pseudo-terminal, as a person at a terminal
would: moves by key (1-6, always the first non-empty pit), an illegal move, undo, hint, and at
the end "quit". Checks that the program answers every input within the AI's time (per AI move)
plus a margin, and that the move log (--log) replays move by move under Kalah's rules (written
again in tests/kalah_rules.py, independently of the C++ code) to the boards and final score the
program reported.

usage: pty_play.py CL_MANKALAH [TIME_MS]"""
import json
import os
import pty
import select
import sys
import tempfile
import time

from kalah_rules import START, sow

MARGIN_S = 2.0


class Terminal:
    def __init__(self, argv):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execv(argv[0], argv)
        self.text = ""

    def wait_for(self, *prompts, timeout):
        """Reads until the output ends with one of `prompts`; returns it and the time taken."""
        start = time.monotonic()
        while True:
            for prompt in prompts:
                if self.text.rstrip(" ").endswith(prompt.rstrip(" ")):
                    self.text = ""
                    return prompt, time.monotonic() - start
            left = timeout - (time.monotonic() - start)
            if left <= 0:
                raise AssertionError(f"no {prompts} within {timeout:.1f} s; screen ends with:\n"
                                     + self.text[-800:])
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.fd, 65536).decode(errors="replace")
                except OSError:
                    chunk = ""
                if not chunk:
                    raise AssertionError("the program ended; screen ends with:\n" + self.text[-800:])
                self.text += chunk.replace("\r\n", "\n")

    def type(self, line):
        os.write(self.fd, (line + "\n").encode())


def main():
    program = sys.argv[1]
    time_ms = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    budget = time_ms / 1000 + MARGIN_S
    log_path = os.path.join(tempfile.mkdtemp(), "play.jsonl")
    term = Terminal([program, "play", "--engine", "alphabeta", "--time-ms", str(time_ms),
                     "--log", log_path])
    term.wait_for("your move> ", timeout=30)  # the first prompt may build kernels on a cold start

    def log():
        with open(log_path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def moves_in_log():
        return sum(1 for entry in log() if "ply" in entry)

    def answer(line, expect_ai):
        before = moves_in_log()
        term.type(line)
        prompt, seconds = term.wait_for("your move> ", "new or quit> ", timeout=60)
        ai_moves = sum(1 for e in log()[before:] if e.get("by") == "ai") if expect_ai else 0
        allowed = budget * max(1, ai_moves)
        assert seconds <= allowed, f"'{line}' took {seconds:.2f} s for {ai_moves} AI moves"
        return prompt

    answer("9", expect_ai=False)  # not a pit: an error, the prompt again
    assert log()[-1].get("event") == "error", log()[-1]
    answer("1", expect_ai=True)
    answer("undo", expect_ai=False)
    assert log()[-1] == {"event": "undo", "done": True}, log()[-1]
    answer("hint", expect_ai=True)
    prompt = "your move> "
    for _ in range(200):
        if prompt == "new or quit> ":
            break
        moves = [e for e in log() if "ply" in e]
        board = moves[-1]["board"] if moves else START
        key = next(i for i in range(6) if board[i] > 0) + 1
        prompt = answer(str(key), expect_ai=True)
    assert prompt == "new or quit> ", "the game did not end"
    term.type("quit")
    _, status = os.waitpid(term.pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, f"exit status {status}"

    # Replay the log: after an undo the game continues from the ply it names.
    history = [{"cells": list(START), "to_move": 0}]
    over = False
    for entry in log():
        if "ply" not in entry:
            continue
        history = history[:entry["ply"]]
        board = {"cells": list(history[-1]["cells"]), "to_move": history[-1]["to_move"]}
        assert board["to_move"] == (1 if entry["side"] == "top" else 0), entry
        _, over = sow(board, entry["move"])
        assert board["cells"] == entry["board"], f"ply {entry['ply']}: {board['cells']} != {entry}"
        assert over == entry["game_over"], entry
        history.append(board)
    end = [e for e in log() if e.get("event") == "game_over"][-1]
    final = history[-1]["cells"]
    assert over and (end["top"], end["bottom"]) == (final[13], final[6]), (end, final)
    print(f"pty play: {moves_in_log()} moves logged, final score TOP {end['top']} - BOTTOM "
          f"{end['bottom']}, every answer within {budget:.1f} s per AI move: passed")


if __name__ == "__main__":
    main()
