#!/usr/bin/env python3
"""Drives the raytracer window as a person would (tests/gui/xwindow.py): orbit by dragging, zoom
by scrolling, move the light with its slider, change the resolution. Each input must produce a
new frame, rendered from the changed view, within a bound.

usage: xvfb-run -a raytracer_window.py CL_RAYTRACER"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwindow import WindowTest  # noqa: E402

BOUND_S = 20  # PoCL on two cores renders a 550x380 frame of the default scene in about 0.2 s


def next_frame(w, what, changed):
    frame = w.wait_for(lambda e: e["event"] == "frame" and changed(e), BOUND_S,
                       f"a new frame after {what}")
    return frame


def main():
    w = WindowTest([sys.argv[1], "gui", "--scale", "0.5"], "cl-raytracer")
    first = w.wait_for(lambda e: e["event"] == "frame", 60, "the first frame")
    w.skip_to_end()

    w.drag("view", 120, 40)
    dragged = next_frame(w, "a drag", lambda e: e["camera"] != first["camera"])
    w.skip_to_end()

    w.scroll("view", 3)
    zoomed = next_frame(w, "scrolling", lambda e: e["camera"] != dragged["camera"])
    w.skip_to_end()

    w.click("light_x", 0.9, 0.5)
    next_frame(w, "the light slider", lambda e: e["light"] != zoomed["light"])
    w.skip_to_end()

    w.click("resolution")
    w.key("Home", "Return")  # full resolution
    full = next_frame(w, "the resolution", lambda e: e["width"] > zoomed["width"])
    w.close()
    print(f"raytracer window: drag, zoom, light and resolution each gave a new frame "
          f"({first['width']}x{first['height']} -> {full['width']}x{full['height']}): passed")


if __name__ == "__main__":
    main()
