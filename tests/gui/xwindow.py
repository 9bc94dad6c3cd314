"""Drives a program's GTK window from outside, as a person would: real key presses and mouse clicks
through the X server (xdotool, XTEST), and the window's own account of what it did as JSON lines
(clf::gtk::log_event, enabled by CLF_GUI_EVENTS). Run under a virtual display: xvfb-run -a."""
import json
import os
import subprocess
import tempfile
import time


class WindowTest:
    def __init__(self, argv, title, env=None):
        self.events_path = os.path.join(tempfile.mkdtemp(), "events.jsonl")
        environment = dict(os.environ, CLF_GUI_EVENTS=self.events_path, CL_QUIET="1")
        environment.update(env or {})
        self.stderr_path = self.events_path + ".stderr"
        self.stderr = open(self.stderr_path, "w")
        self.read = 0  # events consumed by wait_for
        # xvfb-run -a can hand over a display that is not answering yet (the previous test's
        # server is still going away): wait until it answers, and start again once if the
        # program found no display all the same.
        for attempt in range(2):
            self._wait_for_display()
            self.process = subprocess.Popen(argv, env=environment, stdout=subprocess.DEVNULL,
                                             stderr=self.stderr)
            try:
                self.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                break
            if attempt == 0 and "cannot open a display" in self.stderr_text():
                time.sleep(1)
                continue
            break
        self.window = self._find_window(title)
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], check=False)

    @staticmethod
    def _wait_for_display(timeout=30):
        deadline = time.monotonic() + timeout
        while subprocess.run(["xdotool", "getdisplaygeometry"], capture_output=True).returncode:
            if time.monotonic() > deadline:
                raise AssertionError(f"the display {os.environ.get('DISPLAY')} does not answer")
            time.sleep(0.2)

    def _find_window(self, title, timeout=60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_alive()
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                                   capture_output=True, text=True)
            ids = found.stdout.split()
            if ids:
                return ids[-1]
            time.sleep(0.2)
        raise AssertionError(f"no window named {title!r} within {timeout} s")

    def check_alive(self):
        if self.process.poll() is not None:
            raise AssertionError(f"the program exited with {self.process.returncode}:\n" +
                                 self.stderr_text()[-2000:])

    def stderr_text(self):
        self.stderr.flush()
        with open(self.stderr_path) as f:
            return f.read()

    def events(self):
        try:
            with open(self.events_path) as f:
                return [json.loads(line) for line in f if line.endswith("\n")]
        except FileNotFoundError:
            return []

    def wait_for(self, predicate, timeout, what):
        """Waits for a new event (after those already consumed) that satisfies `predicate`."""
        deadline = time.monotonic() + timeout
        while True:
            events = self.events()
            for i in range(self.read, len(events)):
                if predicate(events[i]):
                    self.read = i + 1
                    return events[i]
            self.check_alive()
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout} s; last events:\n" +
                                     "\n".join(json.dumps(e) for e in events[-8:]))
            time.sleep(0.02)

    def skip_to_end(self):
        self.read = len(self.events())

    def widget(self, name, timeout=30):
        """Where the window last said `name` is (it says so again after every layout change)."""
        deadline = time.monotonic() + timeout
        while True:
            placed = [e for e in self.events() if e["event"] == "widget" and e["name"] == name]
            if placed:
                return placed[-1]
            self.check_alive()
            if time.monotonic() > deadline:
                raise AssertionError(f"the window never placed widget {name!r}")
            time.sleep(0.05)

    def key(self, *keys, window=None):
        """Presses `keys` in the program's window (or in `window`, e.g. a dialog's)."""
        subprocess.run(["xdotool", "windowfocus", "--sync", window or self.window], check=False)
        subprocess.run(["xdotool", "key", "--clearmodifiers", *keys], check=True)

    def hold_key(self, key, seconds):
        """Holds `key` down for `seconds` (keys that act while held, e.g. to fly)."""
        subprocess.run(["xdotool", "windowfocus", "--sync", self.window], check=False)
        subprocess.run(["xdotool", "keydown", key], check=True)
        time.sleep(seconds)
        subprocess.run(["xdotool", "keyup", key], check=True)

    def type_text(self, text, window):
        subprocess.run(["xdotool", "windowfocus", "--sync", window], check=False)
        subprocess.run(["xdotool", "type", "--delay", "10", text], check=True)

    def dialog(self, title, timeout=30):
        """Waits for the program's dialog window named `title` and gives it the keyboard (under
        Xvfb no window manager does). Returns its window id."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.check_alive()
            found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", title],
                                   capture_output=True, text=True)
            ids = [i for i in found.stdout.split() if i != self.window]
            if ids:
                subprocess.run(["xdotool", "windowfocus", "--sync", ids[-1]], check=False)
                return ids[-1]
            time.sleep(0.2)
        raise AssertionError(f"no dialog named {title!r} within {timeout} s")

    def click(self, name, dx=0.5, dy=0.5):
        w = self.widget(name)
        x, y = int(w["x"] + dx * w["width"]), int(w["y"] + dy * w["height"])
        subprocess.run(["xdotool", "mousemove", "--window", self.window, str(x), str(y),
                        "click", "1"], check=True)

    def drag(self, name, dx, dy):
        w = self.widget(name)
        x, y = int(w["x"] + w["width"] / 2), int(w["y"] + w["height"] / 2)
        subprocess.run(["xdotool", "mousemove", "--window", self.window, str(x), str(y),
                        "mousedown", "1"], check=True)
        for step in range(1, 11):
            subprocess.run(["xdotool", "mousemove", "--window", self.window,
                            str(x + dx * step // 10), str(y + dy * step // 10)], check=True)
            time.sleep(0.02)
        subprocess.run(["xdotool", "mouseup", "1"], check=True)

    def scroll(self, name, clicks):
        w = self.widget(name)
        x, y = int(w["x"] + w["width"] / 2), int(w["y"] + w["height"] / 2)
        button = "4" if clicks < 0 else "5"
        subprocess.run(["xdotool", "mousemove", "--window", self.window, str(x), str(y)],
                       check=True)
        for _ in range(abs(clicks)):
            subprocess.run(["xdotool", "click", button], check=True)

    def close(self):
        """Closes the window (Ctrl+Q) and checks a clean exit with no GTK critical."""
        self.key("ctrl+q")
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError("the window did not close within 30 s of Ctrl+Q")
        errors = self.stderr_text()
        assert "-CRITICAL **" not in errors, errors[-2000:]
        assert self.process.returncode == 0, f"exit status {self.process.returncode}:\n{errors}"
