#!/usr/bin/env python3
"""Every character a person types in the terminal shell (cli.md "Typing in the terminal", issue 36 item 5): okit-run
runs the bookshop on a real pseudo-terminal, this script types `add "Jürgen Müller"`, a search with "é" and a name
edited with backspace over "ë", and checks what the shell shows and what is stored — under LANG=C.UTF-8, with LANG
unset, LANG=C and LANG=de_DE.UTF-8 (installed or not: a terminal sends UTF-8 whatever LANG says). Then the
JSON-lines protocol carries the same texts unchanged.
Usage: utf8_input.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

okit_run, data = sys.argv[1], sys.argv[2]
app = "examples/bookshop/app.lua"
failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


class Terminal:
    """okit-run's terminal shell on the slave side of a pty; the master side is the person's keyboard and screen."""

    def __init__(self, env, folder):
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 140, 0, 0))
        self.process = subprocess.Popen([okit_run, app, "--data", folder, "--clock", "virtual", "--no-color"],
                                        stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True,
                                        start_new_session=True)
        os.close(slave)
        self.seen = b""

    def read_until(self, texts, seconds=20):
        """Reads the screen until each of `texts` (UTF-8) shows, in order, after what was read before; returns the
        new output."""
        start = len(self.seen)
        deadline = time.monotonic() + seconds

        def shown():
            at = start
            for text in texts:
                at = self.seen.find(text.encode(), at)
                if at < 0:
                    return False
                at += len(text.encode())
            return True
        while not shown() and time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.seen += chunk
        return self.seen[start:].decode("utf-8", errors="replace")

    def type(self, keys, then_see):
        """Types `keys` (str: UTF-8 bytes, as a terminal sends them) and Enter; the output until `then_see` and the
        next prompt after it."""
        os.write(self.master, keys.encode() + b"\r")
        return self.read_until([then_see, "\n> "])

    def quit(self):
        os.write(self.master, b"quit\r")
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = "killed"
        self.read_until(["\0"], seconds=0.5)
        os.close(self.master)
        return code


def stored_names(folder):
    with open(os.path.join(folder, "okit", "data", "default.json"), encoding="utf-8") as f:
        model = json.load(f)
    names = []

    def walk(v):
        if isinstance(v, dict):
            if isinstance(v.get("name"), str):
                names.append(v["name"])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(model)
    return names


def environment(lang):
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LANGUAGE") and not k.startswith("LC_")}
    env["TERM"] = "xterm"
    if lang is not None:
        env["LANG"] = lang
    return env


def shell_session(lang, n):
    where = "LANG=%s" % lang if lang is not None else "LANG unset"
    folder = os.path.join(data, "terminal%d" % n)
    t = Terminal(environment(lang), folder)
    screen = t.read_until(["\n> "])
    check("Dune" in screen, "%s: the shell starts on the book list: %r" % (where, screen[-400:]))
    screen = t.type('add "Jürgen Müller"', "Jürgen Müller —")
    check("Jürgen Müller —" in screen, "%s: the added name is shown whole: %r" % (where, screen[-600:]))
    # Backspace (DEL) takes the whole "ë", not one of its two bytes.
    screen = t.type('add "Zoëë\x7f"', "Zoë —")
    check("Zoë —" in screen, "%s: backspace over ë: %r" % (where, screen[-600:]))
    t.type('add "Chloé Dupont"', "Chloé Dupont —")
    screen = t.type('search "Chloé"', 'search: "Chloé"')
    check('search: "Chloé"' in screen, "%s: the search text keeps é: %r" % (where, screen[-600:]))
    listed = screen.split('search: "Chloé"')[-1]
    check("Chloé Dupont" in listed and "Dune" not in listed and "Jürgen" not in listed,
          "%s: the search finds Chloé only: %r" % (where, listed[-600:]))
    code = t.quit()
    check(code == 0, "%s: quit exits 0, got %r: %r" % (where, code, t.seen.decode("utf-8", "replace")[-400:]))
    names = stored_names(folder)
    for name in ("Jürgen Müller", "Zoë", "Chloé Dupont"):
        check(name in names, "%s: %r is stored as typed: %r" % (where, name, names))
    check(not any(n.startswith("Zo") and n != "Zoë" for n in names), "%s: backspace took the whole ë: %r" % (where, names))


def json_lines():
    folder = os.path.join(data, "jsonlines")
    p = subprocess.Popen([okit_run, app, "--data", folder, "--clock", "virtual", "--json"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(None))

    def send(line):
        p.stdin.write(line.encode() + b"\n")
        p.stdin.flush()
        answer = p.stdout.readline()
        if not answer:
            sys.exit("okit-run ended early: " + p.stderr.read().decode("utf-8", "replace"))
        return answer

    send('add "Jürgen Müller"')
    raw = send(json.dumps({"cmd": "search", "text": "Jürgen"}))          # \u00fc escapes on the way in
    a = json.loads(raw)
    rows = [r["text"] for s in a["snapshot"]["screen"]["sections"] for r in s["rows"]]
    check(a["ok"] and a["snapshot"]["screen"]["search"]["text"] == "Jürgen", "JSON lines: the search text: %r" % raw)
    check(rows == ["Jürgen Müller"], "JSON lines: the row: %r" % rows)
    check("Jürgen Müller".encode() in raw, "JSON lines: answers carry UTF-8 unchanged: %r" % raw[:300])
    send("quit")
    p.wait(timeout=30)
    check("Jürgen Müller" in stored_names(folder), "JSON lines: stored as sent")


for n, lang in enumerate(["C.UTF-8", None, "C", "POSIX", "de_DE.UTF-8", "en_US.UTF-8"]):
    shell_session(lang, n)
json_lines()

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("%d checks hold" % checks)
