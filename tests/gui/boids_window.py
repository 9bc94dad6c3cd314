#!/usr/bin/env python3
"""Drives the boids window as a person would (tests/gui/xwindow.py): the step counter must
advance while the flock flies, and a new N set with the slider must take effect.

usage: xvfb-run -a boids_window.py CL_BOIDS"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwindow import WindowTest  # noqa: E402


def main():
    w = WindowTest([sys.argv[1], "gui", "--n", "2000"], "cl-boids")
    first = w.wait_for(lambda e: e["event"] == "frame", 60, "the first frame")
    assert first["n"] == 2000, first
    later = w.wait_for(lambda e: e["event"] == "frame" and e["step"] >= first["step"] + 10, 30,
                       "ten more steps")
    w.click("n", 0.5, 0.5)  # focus the N slider, then down to its smallest N with the keyboard
    w.key("Home")
    changed = w.wait_for(lambda e: e["event"] == "frame" and e["n"] != 2000, 30,
                         "a frame with the new N")
    w.wait_for(lambda e: e["event"] == "frame" and e["step"] > changed["step"], 30,
               "steps with the new N")
    w.close()
    print(f"boids window: steps {first['step']} -> {later['step']}, N 2000 -> {changed['n']}: "
          "passed")


if __name__ == "__main__":
    main()
