#!/usr/bin/env python3
"""What the terminal shell shows of a row and a screen (issue 36 item 11, and item 8's terminal half): okit-run runs
apptests/flows/list_details_app.lua on a real pseudo-terminal; this script checks the index (A…Z and #), a row's
image ([image: …]) and ribbon (▌ and its colour), the [x] of a row selected in edit mode with selectPath, a
presented screen's mark in its title line, and a date cell's title with its value once (not the ISO text and the
formatted text both).
Usage: row_marks.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pty_terminal  # noqa: E402

okit_run, data = sys.argv[1], sys.argv[2]
app = "apptests/flows/list_details_app.lua"
failures = []
checks = 0


class Terminal(pty_terminal.Terminal):
    """The shell on the app of this test, on the virtual clock."""

    def __init__(self, folder):
        super().__init__([okit_run, app, "--data", folder, "--clock", "virtual", "--no-color"])


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


def line_with(screen, text):
    """The screen's last line holding `text` ("" when none)."""
    lines = [l for l in screen.replace("\r", "").split("\n") if text in l]
    return lines[-1] if lines else ""


t = Terminal(os.path.join(data, "shell"))
screen = t.read_until(["Zed", "\n> "])
check("index: A B C D E F G H I J K L M N O P Q R S T U V W X Y Z #" in screen,
      "the whole index, not only A D E Z: %r" % screen[-600:])
dune = line_with(screen, "Dune")
check("[image: dune.png]" in dune, "a row's image: %r" % dune)
emma = line_with(screen, "Emma")
check("▌#FF9500" in emma, "a row's ribbon: %r" % emma)
check("[x]" not in screen, "nothing selected yet: %r" % screen[-600:])

screen = t.type("edit on", "Zed")
screen = t.type("select Anna", "Zed")
check("1. [x] Anna" in line_with(screen, "Anna"), "the row selectPath selects shows [x]: %r" % screen[-600:])
check("[x]" not in line_with(screen, "Emma"), "an unselected row has no mark: %r" % screen[-600:])
screen = t.type("delete Anna", "\n")
check("selectPath" in screen, "delete is refused while selecting, saying why: %r" % screen[-300:])

t.type("edit off", "Zed")
books_title = line_with(t.seen.decode("utf-8", "replace"), "Books")
check("presented" not in books_title, "the home screen is not presented: %r" % books_title)
screen = t.type("tap Dune", "Released")
title = line_with(screen, "Dune")
check("[presented · close]" in title, "a presented screen says so in its title line: %r" % title)
released = line_with(screen, "Released")
check(released.count("[") == 1 and " — " not in released, "the date cell's title and value once: %r" % released)
check(released.count("2026-11-26T00:48:31Z") <= 1, "the date's ISO text at most once: %r" % released)
screen = t.type("close", "Zed")
check("presented" not in line_with(screen, "Books"), "closed: the list again: %r" % screen[-300:])

code = t.quit()
check(code == 0, "quit exits 0, got %r" % code)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
