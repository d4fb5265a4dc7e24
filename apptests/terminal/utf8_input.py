#!/usr/bin/env python3
"""Every character a person types in the terminal shell (cli.md "Typing in the terminal", issue 36 item 5): okit-run
runs the bookshop on a real pseudo-terminal, this script types `add "Jürgen Müller"`, a search with "é" and a name
edited with backspace over "ë", and checks what the shell shows and what is stored — under LANG=C.UTF-8, with LANG
unset, LANG=C and LANG=de_DE.UTF-8 (installed or not: a terminal sends UTF-8 whatever LANG says). Then the
JSON-lines protocol carries the same texts unchanged.
Usage: utf8_input.py OKIT_RUN DATA_DIR. Exit 0 when every check holds."""
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import pty_terminal  # noqa: E402

okit_run, data = sys.argv[1], sys.argv[2]
app = "examples/bookshop/app.lua"
failures = []
checks = 0


def Terminal(env, folder):
    """The shell on the app of this test under `env`, on the virtual clock."""
    return pty_terminal.Terminal([okit_run, app, "--data", folder, "--clock", "virtual", "--no-color"], env=env)


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)


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
    # A lone lead byte (what a terminal's own erase leaves of "ë" when the keys come before the line editor has the
    # terminal) is dropped, and the quote after it is kept.
    os.write(t.master, b'add "Lo\xc3"\r')
    screen = t.read_until(["Lo —", "\n> "])
    check("Lo —" in screen and "unclosed quote" not in screen, "%s: a lone lead byte before the quote: %r" % (where, screen[-600:]))
    t.type('add "Chloé Dupont"', "Chloé Dupont —")
    screen = t.type('search "Chloé"', 'search: "Chloé"')
    check('search: "Chloé"' in screen, "%s: the search text keeps é: %r" % (where, screen[-600:]))
    listed = screen.split('search: "Chloé"')[-1]
    check("Chloé Dupont" in listed and "Dune" not in listed and "Jürgen" not in listed,
          "%s: the search finds Chloé only: %r" % (where, listed[-600:]))
    code = t.quit()
    check(code == 0, "%s: quit exits 0, got %r: %r" % (where, code, t.seen.decode("utf-8", "replace")[-400:]))
    names = stored_names(folder)
    for name in ("Jürgen Müller", "Zoë", "Lo", "Chloé Dupont"):
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
