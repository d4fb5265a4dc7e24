#!/usr/bin/env python3
"""Checks the lengths of Swift code: no function over 80 lines, no file over 400 lines.

Usage: check_lengths.py [FOLDER …]   (default: Sources)

A function is a `func`, `init`, `deinit` or `subscript` with a body, or a property whose body is code (a computed
property, accessors or observers); its length runs from the line of its declaration to the line of its closing brace.
Closures are not functions of their own: their lines count in the function that holds them. Braces in comments and
in string literals (plain, multi-line, raw, and the code of their interpolations) are not code. Prints one line per
problem — `path:line: <name> is N lines (at most 80)`, `path: N lines (at most 400)` — and exits 1 when there is one.
"""
import os
import re
import sys

MAX_FUNCTION = 80
MAX_FILE = 400

_MODIFIERS = (r"(?:(?:public|private|fileprivate|internal|package|open|static|class|final|override|mutating|"
              r"nonmutating|nonisolated|isolated|convenience|required|lazy|weak|unowned|dynamic|optional|indirect|"
              r"consuming|borrowing|distributed|prefix|postfix|infix)(?:\([^)]*\))?\s+)*")
_ATTRIBUTES = r"(?:@[\w.]+(?:\([^)]*\))?\s*)*"
_DECLARATION = re.compile(
    r"^[ \t]*" + _ATTRIBUTES + _MODIFIERS +
    r"(?:(?P<func>func)\s+(?P<name>[^\s(<]+)|(?P<init>init)[?!]?\s*[(<]|(?P<deinit>deinit)\b|"
    r"(?P<subscript>subscript)\s*[(<]|(?P<var>var)\s+(?P<varname>\w+)\b)",
    re.MULTILINE)


def blank_strings_and_comments(text):
    """The text with every comment and string literal blanked to spaces, newlines kept (so lines keep their numbers
    and braces that are not code disappear). Interpolations are blanked with their string."""
    out = list(text)
    i, n = 0, len(text)

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    def skip_string(i):
        """`i` is at the opening quote (after any `#`s): the index just past the closing delimiter."""
        hashes = 0
        while i - hashes - 1 >= 0 and text[i - hashes - 1] == "#":
            hashes += 1
        multi = text.startswith('"""', i)
        i += 3 if multi else 1
        close = ('"""' if multi else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(close, i):
                return i + len(close)
            if text.startswith(escape, i):
                j = i + len(escape)
                if j < n and text[j] == "(":
                    i = skip_code(j + 1, ")")
                    continue
                i = j + 1
                continue
            if text[i] == "\n" and not multi:
                return i          # an unterminated string ends at its line (the compiler refuses it anyway)
            i += 1
        return n

    def skip_block_comment(i):
        depth = 0
        while i < n:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
                if depth == 0:
                    return i
            else:
                i += 1
        return n

    def skip_code(i, closer):
        """Code of an interpolation, up to its closing parenthesis: the index past it."""
        depth = 0
        while i < n:
            c = text[i]
            if text.startswith("//", i):
                i = text.find("\n", i)
                i = n if i < 0 else i
            elif text.startswith("/*", i):
                i = skip_block_comment(i)
            elif c == '"':
                i = skip_string(i)
            elif c == "(":
                depth += 1
                i += 1
            elif c == closer and depth == 0:
                return i + 1
            elif c == ")":
                depth -= 1
                i += 1
            else:
                i += 1
        return n

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = skip_block_comment(i)
            blank(i, end)
            i = end
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:i + 8])):
            start = i
            while text[i] == "#":
                i += 1
            end = skip_string(i)
            blank(start, end)
            i = end
        elif text.startswith("#/", i):          # an extended regex literal: #/ … /#
            end = text.find("/#", i + 2)
            end = n if end < 0 else end + 2
            blank(i, end)
            i = end
        else:
            i += 1
    return "".join(out)


def body_start(code, i, is_property):
    """The index of the `{` that opens the body of the declaration whose keyword ends at `i`, or None when it has no
    body (a requirement, a stored property, a closure as a property's initial value)."""
    depth = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c in "([<" and not (c == "<" and depth == 0 and is_property):
            depth += 1
        elif c in ")]>" and depth > 0 and not (c == ">" and code[i - 1] == "-"):
            depth -= 1
        elif depth == 0:
            if c == "{":
                return i
            if c in "};=":
                return None
            if c == "\n":
                rest = code[i + 1:].lstrip(" \t")
                if is_property or not rest or rest.startswith(("}",)) or _DECLARATION.match(code, i + 1) \
                        or rest.startswith(("case ", "let ", "@", "#")) or rest.startswith("\n"):
                    return None
        i += 1
    return None


def body_end(code, start):
    """The index of the `}` that closes the brace at `start`."""
    depth = 0
    for k in range(start, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def long_functions(code):
    """(line, name, length) of each function or property body in `code` (blanked) longer than MAX_FUNCTION."""
    found = []
    for m in _DECLARATION.finditer(code):
        is_property = m.group("var") is not None
        start = body_start(code, m.end(), is_property)
        if start is None:
            continue
        end = body_end(code, start)
        keyword = next(m.start(g) for g in ("func", "init", "deinit", "subscript", "var") if m.group(g))
        first = code.count("\n", 0, keyword) + 1
        length = code.count("\n", keyword, end) + 1
        name = (m.group("name") or m.group("init") or m.group("deinit") or m.group("subscript")
                or "var " + (m.group("varname") or ""))
        if length > MAX_FUNCTION:
            found.append((first, name, length))
    return found


def check(paths):
    problems = []
    for top in paths:
        for root, dirs, files in os.walk(top):
            dirs.sort()
            for f in sorted(files):
                if not f.endswith(".swift"):
                    continue
                path = os.path.join(root, f)
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
                lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
                if lines > MAX_FILE:
                    problems.append(f"{path}: {lines} lines (at most {MAX_FILE})")
                for line, name, length in long_functions(blank_strings_and_comments(text)):
                    problems.append(f"{path}:{line}: {name} is {length} lines (at most {MAX_FUNCTION})")
    return problems


def main(argv):
    problems = check(argv[1:] or ["Sources"])
    for p in problems:
        print(p)
    if problems:
        print(f"okit: {len(problems)} too long (at most {MAX_FUNCTION} lines a function, {MAX_FILE} a file)",
              file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
