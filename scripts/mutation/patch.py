"""Applies a unified diff (a curated mutant) to file contents, hunk by hunk, by exact context."""

import re

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@")


class PatchError(ValueError):
    pass


def parse(text):
    """{path: [(old start line, old lines, new lines)]} from a `diff -u` / `git diff` text."""
    files, path, hunk = {}, None, None
    for line in text.splitlines():
        if line.startswith("+++ "):
            name = line[4:].split("\t")[0].strip()
            path = name[2:] if name.startswith("b/") else name
            files.setdefault(path, [])
            hunk = None
        elif line.startswith("--- ") and hunk is None:
            continue
        elif (m := _HUNK.match(line)) and path:
            hunk = (int(m.group(1)), [], [])
            files[path].append(hunk)
        elif hunk is not None and line[:1] in (" ", "-", "+"):
            if line[:1] in (" ", "-"):
                hunk[1].append(line[1:])
            if line[:1] in (" ", "+"):
                hunk[2].append(line[1:])
        elif hunk is not None and line == "":
            hunk[1].append("")
            hunk[2].append("")
        elif line.startswith("\\"):
            continue
        else:
            hunk = None
    return files


def apply(text, hunks, path):
    """`text` with `hunks` applied; the old lines must appear exactly (searched near their line)."""
    lines = text.split("\n")
    shift = 0
    for start, old, new in hunks:
        guess = max(0, start - 1 + shift)
        found = None
        for distance in range(0, len(lines) + 1):
            for candidate in (guess - distance, guess + distance):
                if 0 <= candidate <= len(lines) - len(old) and lines[candidate:candidate + len(old)] == old:
                    found = candidate
                    break
            if found is not None:
                break
        if found is None:
            raise PatchError(f"{path}: the hunk at line {start} no longer matches the source")
        lines[found:found + len(old)] = new
        shift += len(new) - len(old) + (found - guess)
    return "\n".join(lines)
