#!/usr/bin/env python3
"""The terminal shell when a person leaves it (an outside tester's findings): closing the terminal (SIGHUP) stores every
confirmed change and exits 129, Ctrl-C exits 130 after storing; timers of the system clock fire while the shell waits
at its prompt (autosave, an okit.after whose error is printed above the line) and the line typed so far stays, once;
a resize in the middle of a line keeps it too.
Usage: stop_and_timers.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import fcntl
import os
import shutil
import signal
import struct
import sys
import termios
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pty_terminal  # noqa: E402

okit_run, data = sys.argv[1], os.path.abspath(sys.argv[2])
failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


def stored(folder, text):
    """Whether a file of the data folder (the model or its journal) holds `text`."""
    for root, _, names in os.walk(os.path.join(folder, "okit", "data")):
        for name in names:
            with open(os.path.join(root, name), "rb") as f:
                if text.encode() in f.read():
                    return True
    return False


def shop(folder, autosave=60, extra=""):
    """A copy of the bookshop autosaving every `autosave` seconds, with `extra` Lua at its end."""
    copy = os.path.join(folder, "bookshop")
    shutil.copytree("examples/bookshop", copy)
    app = os.path.join(copy, "app.lua")
    with open(app, encoding="utf-8") as f:
        source = f.read().replace("autosave = 60", "autosave = %d" % autosave)
    with open(app, "w", encoding="utf-8") as f:
        f.write(source + extra)
    return app


def start(app, folder):
    t = pty_terminal.Terminal([okit_run, app, "--data", os.path.join(folder, "d"), "--no-color"])
    t.read_until(["2. Emma", "\n> "])
    return t


# Closing the terminal: what was confirmed is stored, a half-typed line is not; exit 129.
folder = os.path.join(data, "hangup")
os.makedirs(folder)
t = start("examples/bookshop/app.lua", folder)
t.type("tap Dune", "Book — Dune")
t.type("edit on", "(editing)")
t.type('set name "Dune (confirmed)"', "Dune (confirmed)")
t.type("back", "Book Shop")
t.type("add Zeta", "Zeta —")
t.keys("add Half-typed")
time.sleep(0.3)
code = t.hang_up()
check(code == 128 + signal.SIGHUP, "closing the terminal exits 129 after storing, got %r" % code)
check(stored(os.path.join(folder, "d"), "Dune (confirmed)") and stored(os.path.join(folder, "d"), "Zeta"),
      "the confirmed changes are stored when the terminal closes")
check(not stored(os.path.join(folder, "d"), "Half-typed"), "a line not confirmed is not run")

# A resize in the middle of a line keeps it; Ctrl-C still stores and exits 130.
folder = os.path.join(data, "ctrl-c")
os.makedirs(folder)
t = start("examples/bookshop/app.lua", folder)
t.keys("add Res")
for columns in (100, 140):           # the terminal resized twice while the line is typed
    fcntl.ioctl(t.master, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    time.sleep(0.2)
screen = t.type("ized", "Resized —")
check("Resized —" in screen, "a resize in the middle of a line keeps it: %r" % screen[-300:])
t.keys("\x03")
code, rest = t.end()
check(code == 128 + signal.SIGINT, "Ctrl-C exits 130, got %r: %r" % (code, rest[-300:]))
check("stored the state and stopped (signal 2)" in rest, "Ctrl-C says it stored: %r" % rest[-300:])
check(stored(os.path.join(folder, "d"), "Resized"), "Ctrl-C stored the state")

# Autosave every second while the person waits in the middle of a line; then an okit.after whose error is printed
# above the line, which is drawn again with what was typed.
folder = os.path.join(data, "timers")
os.makedirs(folder)
app = shop(folder, autosave=1, extra='\nokit.after(6, function() error("the reminder failed") end)\n')
t = start(app, folder)
t.type("add Zeta", "Zeta —")
typed_at = len(t.seen)               # the reminder may fire while autosave is awaited: read from here
t.keys("add Yon")
deadline = time.monotonic() + 5
while time.monotonic() < deadline and not stored(os.path.join(folder, "d"), "Zeta"):
    t.read_until(["\x00never"], seconds=0.2)
check(stored(os.path.join(folder, "d"), "Zeta"), "autosave stored while the shell waited at its prompt")
if b"the reminder failed" not in t.seen[typed_at:]:
    t.read_until(["the reminder failed"], seconds=10)
if not t.seen[typed_at:].split(b"the reminder failed")[-1].rstrip().endswith(b"> add Yon"):
    t.read_until(["> add Yon"], seconds=2)
screen = t.seen[typed_at:].decode("utf-8", errors="replace")
check("the reminder failed" in screen and screen.rstrip().endswith("> add Yon"),
      "a timer's error comes above the prompt, drawn again with the line typed so far: %r" % screen[-300:])
screen = t.type("der", "Yonder —")
check("Yonder —" in screen and "Yon —" not in screen and "YonYon" not in screen,
      "the line goes on as typed, nothing lost or doubled: %r" % screen[-400:])
code = t.quit()
check(code == 0, "quit exits 0, got %r" % code)
check(stored(os.path.join(folder, "d"), "Yonder"), "quit stored the state")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
