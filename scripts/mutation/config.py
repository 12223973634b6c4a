"""The files the tool reads from the repository: the map of judges, the judged-equivalent
mutants and the curated mutants (all under Conformance/mutation/)."""

import fnmatch
import os
import re
from dataclasses import dataclass

MAP = "Conformance/mutation/map.txt"
EQUIVALENT = "Conformance/mutation/equivalent.txt"
CURATED = "Conformance/mutation/curated"


class ConfigError(ValueError):
    """A malformed line in one of the tool's files, as `file:line: reason`."""


@dataclass(frozen=True)
class Rule:
    glob: str
    groups: tuple  # case globs for `blueproof run --filter`; empty: not under judgement
    line: int


def glob_match(path, glob):
    """Shell glob on repository paths; `*` also matches `/`, as `blueproof run --filter` does."""
    return fnmatch.fnmatchcase(path, glob)


def read_map(root):
    """The rules of the map, in file order: `GLOB: GROUP...` (the first matching rule wins;
    `GLOB: -` leaves the files out)."""
    path = os.path.join(root, MAP)
    rules = []
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise ConfigError(f"{MAP}: cannot read the map of judges: {error.strerror}") from None
    for number, raw in enumerate(lines, 1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        glob, colon, groups = text.partition(":")
        if not colon or not glob.strip():
            raise ConfigError(f"{MAP}:{number}: expected `GLOB: GROUP...` or `GLOB: -`, got {raw.strip()!r}")
        names = groups.split()
        if names == ["-"]:
            names = []
        elif not names:
            raise ConfigError(f"{MAP}:{number}: {glob.strip()} names no group (write `-` to leave it out)")
        for name in names:
            if not re.fullmatch(r"[A-Z]+(/[A-Z*-]+)*(/\*)?", name):
                raise ConfigError(f"{MAP}:{number}: {name!r} is not a case group such as BFT/OPT or CBT/*")
        rules.append(Rule(glob.strip(), tuple(names), number))
    return rules


def groups_for(rules, path):
    """The case filters that judge `path`, or None when no rule names it."""
    for rule in rules:
        if glob_match(path, rule.glob):
            return rule.groups
    return None


def filters(groups):
    """`--filter` arguments for the groups (`BFT/OPT` means every case in it)."""
    return [group if group.endswith("*") else group + "/*" for group in groups]


def read_equivalent(root):
    """{mutant id: reason} from `ID | reason` lines."""
    path = os.path.join(root, EQUIVALENT)
    if not os.path.exists(path):
        return {}
    found = {}
    with open(path, encoding="utf-8") as handle:
        for number, raw in enumerate(handle.read().splitlines(), 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            ident, bar, reason = text.partition(" | ")
            if not bar or not reason.strip():
                raise ConfigError(f"{EQUIVALENT}:{number}: expected `ID | reason` (the reason is required)")
            if ident.strip() in found:
                raise ConfigError(f"{EQUIVALENT}:{number}: {ident.strip()} is listed twice")
            found[ident.strip()] = reason.strip()
    return found


@dataclass(frozen=True)
class Curated:
    name: str
    patch: str  # path of the patch file
    summary: str
    groups: tuple  # from a `Groups:` header, else empty (then the map decides)
    files: tuple  # repository paths the patch changes

    @property
    def id(self):
        return f"curated:{self.name}"


def read_curated(root):
    folder = os.path.join(root, CURATED)
    found = []
    if not os.path.isdir(folder):
        return found
    for entry in sorted(os.listdir(folder)):
        if not entry.endswith(".patch"):
            continue
        path = os.path.join(folder, entry)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        summary, groups = "", ()
        for line in text.splitlines():
            if line.startswith("diff ") or line.startswith("--- "):
                break
            if line.lower().startswith("groups:"):
                groups = tuple(line.split(":", 1)[1].split())
            elif line.strip() and not summary:
                summary = line.strip()
        files = tuple(sorted(set(re.findall(r"^\+\+\+ b/(\S+)", text, re.M))))
        if not files:
            raise ConfigError(f"{CURATED}/{entry}: not a patch (no `+++ b/PATH` line)")
        found.append(Curated(entry[:-len(".patch")], path, summary, groups, files))
    return found
