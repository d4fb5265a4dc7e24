#!/usr/bin/env python3
"""What the terminal shell takes from a line and what it writes (an outside tester's findings): a quote left open is
refused and a pasted text's later lines are not run; `$'…\\n…'` types a line break into a multiline cell; a backup's
password is asked with echo off, never taken from the line nor kept in the history; TERM=dumb and stdout to a file
get no escape codes, and the prompt then still shows on the terminal.
Usage: quotes_secrets_colours.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pty_terminal  # noqa: E402

okit_run, data = sys.argv[1], os.path.abspath(sys.argv[2])
app = "examples/bookshop/app.lua"
failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


def start(folder, env=None, stdout=None, color=False):
    args = [okit_run, app, "--data", os.path.join(data, folder)] + ([] if color else ["--no-color"])
    t = pty_terminal.Terminal(args, env=env, stdout=stdout)
    t.read_until(["\n> "] if stdout is None else ["> "])
    return t


def books(folder):
    with open(os.path.join(data, folder, "okit", "data", "default.json"), encoding="utf-8") as f:
        return json.load(f)["books"]


# A pasted text with a line break inside quotes: refused, and its second line is not run.
t = start("quotes")
os.write(t.master, b'add "First line\rsecond line"\r')
screen = t.read_until(["unclosed quote", "\n> "])
check('unclosed quote (") in add "First line: nothing was done' in screen, "the open quote is refused: %r" % screen[-400:])
check("were not run either" in screen, "the pasted lines after it are not run: %r" % screen[-400:])
screen += t.read_until(["\x00never"], seconds=1)
check("unknown command" not in screen and "First line —" not in screen, "nothing else ran: %r" % screen[-400:])
screen = t.type('add "abc', "nothing was done")
check("unclosed quote" in screen and "abc —" not in screen, "a typed open quote is refused: %r" % screen[-300:])
# A line break typed into the multiline Comment cell.
t.type("tap Dune", "Book — Dune")
t.type("edit on", "(editing)")
t.type("set Comment $'first line\\nsecond line'", "first line")
code = t.quit()
check(code == 0, "quit exits 0, got %r" % code)
comments = [b.get("comment") for b in books("quotes")]
check("first line\nsecond line" in comments, "the comment holds a line break: %r" % comments)
check(not any(b["name"].startswith(("First line", "abc")) for b in books("quotes")), "no book was added")

# A secure backup's passwords: asked with echo off, never taken from the line, never in the history.
t = start("secure")
t.type("menu", "Backups")
t.type("menuItem Backups", "Backups")
t.type("add", "respond ACTION")
screen = t.type("respond OK daily s3cret s3cret", "nothing was done")
check("asked with echo off after respond OK daily" in screen, "a password on the line is refused: %r" % screen[-300:])
t.keys("\x1b[A")                              # Up: the history's last line is `add`, not the refused one
screen = t.read_until(["add"], seconds=3)
check("s3cret" not in screen, "the refused line is not in the history: %r" % screen)
t.keys("\x15")                                # Ctrl-U: the recalled line goes
os.write(t.master, b"respond OK daily\r")
screen = t.read_until(["Password: "])
os.write(t.master, b"s3cret\r")
screen += t.read_until(["Password: "])
os.write(t.master, b"s3cret\r")
screen += t.read_until(["daily", "\n> "])
check("s3cret" not in screen, "the password is not echoed: %r" % screen[-400:])
check("1. daily" in screen, "the backup is made: %r" % screen[-400:])
code = t.quit()
check(code == 0, "quit exits 0, got %r" % code)
check(os.path.exists(os.path.join(data, "secure", "okit", "backup", "daily.okbackup")), "the secure backup was written")

# TERM=dumb: no escape codes, colours or others.
t = start("dumb", env=dict(os.environ, TERM="dumb", LANG="C.UTF-8"), color=True)
screen = t.type("screen", "Book Shop")
check("\x1b" not in screen, "TERM=dumb writes no escape codes: %r" % screen[:300])
t.quit()

# stdout to a file: the file gets plain text; the prompt shows on the terminal (stderr).
path = os.path.join(data, "screens.txt")
with open(path, "w") as out:
    t = start("file", env=dict(os.environ, TERM="xterm", LANG="C.UTF-8"), stdout=out, color=True)
    check("> " in t.seen.decode("utf-8", "replace"), "the prompt shows on the terminal")
    os.write(t.master, b"add Zeta\r")
    t.read_until(["> "])
    code = t.quit()
with open(path, encoding="utf-8") as f:
    text = f.read()
check(code == 0 and "Zeta —" in text and "Book Shop" in text, "the screens went to the file: %r" % text[:300])
check("\x1b" not in text and not re.search(r"\[\d+m", text), "the file holds no escape codes: %r" % text[:300])

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
