#!/usr/bin/env python3
"""Drives the raytracer window as a person would (tests/gui/xwindow.py): orbit by dragging, zoom
by scrolling, move the light with its slider, change the resolution; open a model through the file
chooser (and a broken scene file, which must leave the model shown and say why), fly with WASD,
look around in fly mode, switch to path tracing, save the image and the scene through their
dialogs, and reload. Each input must produce a new frame, rendered from the changed view, within a
bound; the saved PNG must be the frame's size and the saved scene must render headless.

usage: xvfb-run -a raytracer_window.py CL_RAYTRACER"""
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xwindow import WindowTest  # noqa: E402

# An image from assimp-testmodels (setup.sh installs it) as an environment panorama.
SKY_IMAGE = "/usr/share/assimp/models/glTF2/BoxTextured-glTF/CesiumLogoFlat.png"
BOUND_S = 20  # PoCL on two cores renders a 550x380 frame of the default scene in about 0.2 s

# A cube of side 2 around the origin (OBJ, no normals: the loader makes flat ones).
CUBE_OBJ = "".join(f"v {x} {y} {z}\n" for x, y, z in [
    (-1, -1, -1), (1, -1, -1), (1, 1, -1), (-1, 1, -1),
    (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]) + "".join(f"f {a} {b} {c}\n" for a, b, c in [
        (1, 3, 2), (1, 4, 3), (5, 6, 7), (5, 7, 8), (1, 2, 6), (1, 6, 5),
        (4, 8, 7), (4, 7, 3), (1, 5, 8), (1, 8, 4), (2, 3, 7), (2, 7, 6)])


def next_frame(w, what, changed):
    return w.wait_for(lambda e: e["event"] == "frame" and changed(e), BOUND_S,
                      f"a new frame after {what}")


def settled_frame(w, what):
    """A frame shown once the input so far has been handled (a moved view renders again)."""
    time.sleep(0.5)
    w.skip_to_end()
    return next_frame(w, what, lambda e: True)


def sub(a, b):
    return [x - y for x, y in zip(a, b)]


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def norm(a):
    return math.sqrt(dot(a, a))


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def choose_in_dialog(w, title, path, select_all):
    """Types `path` into the file chooser titled `title` and accepts it."""
    dialog = w.dialog(title)
    time.sleep(0.5)  # the chooser lists its folder first
    # An open dialog starts its location entry at a typed "/" (Ctrl+L would toggle it, and the
    # chooser remembers it from the last time); a save dialog's name entry holds the suggested name.
    if select_all:
        w.key("ctrl+a", window=dialog)
    w.type_text(path, dialog)
    w.key("Return", window=dialog)


def open_through_dialog(w, path):
    w.skip_to_end()
    w.key("ctrl+o")
    choose_in_dialog(w, "Open a model, scene or environment image", path, select_all=False)


def check_view_controls(w):
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
    return first, full


def check_open(w, folder):
    """Opens a model; then a broken scene file, which must say why and keep the model shown."""
    cube = os.path.join(folder, "models", "cube.obj")
    os.makedirs(os.path.dirname(cube))
    with open(cube, "w") as f:
        f.write(CUBE_OBJ)
    open_through_dialog(w, cube)
    opened = w.wait_for(lambda e: e["event"] == "scene_opened", BOUND_S, "the model opened")
    assert opened["source"] == cube, opened
    model = next_frame(w, "opening the model",
                       lambda e: e["generation"] == opened["generation"] and e["triangles"] == 12)

    broken = os.path.join(folder, "broken.json")
    with open(broken, "w") as f:
        f.write('{"camera": {"position": [0, 0, 0], "look_at": [0, 0, 1]}, "spheres": 3}')
    open_through_dialog(w, broken)
    failed = w.wait_for(lambda e: e["event"] == "message" and e["error"], BOUND_S,
                        "the error of the broken file")
    assert broken in failed["text"] and "spheres" in failed["text"], failed
    w.skip_to_end()
    w.drag("view", 30, 0)
    next_frame(w, "a drag after the failed open", lambda e: e["camera"] != model["camera"])
    still = settled_frame(w, "the drag's end")
    assert still["generation"] == opened["generation"] and still["triangles"] == 12, still
    return cube, still


def check_fly(w, before):
    """WASD moves the camera along the image's own axes (the model is right-handed); in fly mode
    a drag turns the view in place."""
    w.hold_key("w", 0.6)
    flown = settled_frame(w, "holding W")
    forward = sub(before["look_at"], before["camera"][:3])
    moved = sub(flown["camera"][:3], before["camera"][:3])
    assert norm(moved) > 0 and dot(moved, forward) > 0.9 * norm(moved) * norm(forward), (
        moved, forward)
    w.hold_key("d", 0.4)
    strafed = settled_frame(w, "holding D")
    sideways = sub(strafed["camera"][:3], flown["camera"][:3])
    # Right-handed (glTF, OBJ): the image's right is forward x up.
    right = cross(forward, [0, 1, 0])
    assert dot(sideways, right) > 0.9 * norm(sideways) * norm(right), (sideways, right)

    w.key("f")  # fly mode: dragging looks around
    w.skip_to_end()
    w.drag("view", 80, 0)
    looked = next_frame(w, "a drag in fly mode", lambda e: e["camera_mode"] == "fly" and
                        e["look_at"] != strafed["look_at"])
    assert norm(sub(looked["camera"][:3], strafed["camera"][:3])) < 1e-3, (looked, strafed)
    return looked


def check_path_mode(w):
    w.skip_to_end()
    w.click("mode")
    w.key("End", "Return")  # path tracing
    next_frame(w, "switching to path tracing", lambda e: e["mode"] == "path")
    return next_frame(w, "a still view in path mode",
                      lambda e: e["mode"] == "path" and e["accumulated"] >= 3)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def check_saving(w, program, folder, cube, frame):
    image = os.path.join(folder, "saved", "view.png")
    os.makedirs(os.path.dirname(image))
    w.skip_to_end()
    w.key("ctrl+s")
    choose_in_dialog(w, "Save the image", image, select_all=True)
    saved = w.wait_for(lambda e: e["event"] == "saved", BOUND_S, "the image saved")
    assert saved == {**saved, "kind": "image", "path": image}, saved
    assert png_size(image) == (frame["width"], frame["height"]), png_size(image)

    scene = os.path.join(folder, "saved", "view.json")
    w.key("ctrl+shift+s")
    choose_in_dialog(w, "Save the scene", scene, select_all=True)
    saved = w.wait_for(lambda e: e["event"] == "saved", BOUND_S, "the scene saved")
    assert saved["kind"] == "scene" and saved["path"] == scene, saved
    with open(scene) as f:
        written = json.load(f)
    model = os.path.normpath(os.path.join(os.path.dirname(scene), written["meshes"][0]["file"]))
    assert model == cube, written["meshes"]
    assert "triangles" not in json.dumps(written), "the model is named, not inlined"
    assert written["camera"]["right_handed"] is True, written["camera"]
    # Headless, the saved scene renders: it is in the format the loader reads.
    rendered = os.path.join(folder, "saved", "rendered.png")
    subprocess.run([program, "render", "--scene", scene, "--size", "32x24", "--out", rendered],
                   check=True, stdout=subprocess.DEVNULL, timeout=120)
    assert png_size(rendered) == (32, 24)


def check_reload(w, cube, frame):
    w.skip_to_end()
    w.key("ctrl+r")
    reloaded = w.wait_for(lambda e: e["event"] == "scene_opened", BOUND_S, "the reload")
    assert reloaded["source"] == cube, reloaded
    again = next_frame(w, "the reload", lambda e: e["generation"] == reloaded["generation"])
    assert again["camera"] == frame["camera"], "a reload keeps the view"


def check_environment(w, cube):
    """An image opened in the window surrounds the scene shown; the view stays."""
    before = settled_frame(w, "before the environment image")
    open_through_dialog(w, SKY_IMAGE)
    opened = w.wait_for(lambda e: e["event"] == "scene_opened", BOUND_S, "the environment image")
    assert opened["source"] == cube and opened["environment"] == SKY_IMAGE, opened
    after = next_frame(w, "the environment image",
                       lambda e: e["generation"] == opened["generation"])
    assert after["camera"] == before["camera"], "opening an environment image keeps the view"


def main():
    program = sys.argv[1]
    folder = tempfile.mkdtemp()
    # GTK's file chooser keeps its settings in GSettings: in memory here (no dconf under Xvfb).
    w = WindowTest([program, "gui", "--scale", "0.5"], "cl-raytracer",
                   env={"GSETTINGS_BACKEND": "memory"})
    first, full = check_view_controls(w)
    cube, model = check_open(w, folder)
    looked = check_fly(w, model)
    path = check_path_mode(w)
    check_saving(w, program, folder, cube, path)
    check_reload(w, cube, path)
    check_environment(w, cube)
    w.close()
    print(f"raytracer window: drag, zoom, light and resolution each gave a new frame "
          f"({first['width']}x{first['height']} -> {full['width']}x{full['height']}); "
          f"opened a model through the file chooser (a broken scene file said why), flew and "
          f"looked around (camera at {looked['camera'][:3]}), path tracing accumulated "
          f"{path['accumulated']} frames, saved the image and the scene (which rendered "
          f"headless), reloaded, opened an environment image around it: passed")


if __name__ == "__main__":
    main()
