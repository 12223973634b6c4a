"""scripts/mutate: command line."""

import argparse
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass

from . import config, operators, patch, score
from .runner import Runner, Stop
from .scratch import Scratch

DESCRIPTION = """\
Mutation testing of the modules the conformance suite judges (issue 12): does the suite catch a
broken implementation? Each mutant is one small change of one source file (an operator, a
constant, a removed call, a swapped event). It is built in a scratch copy and judged by the
case groups that Conformance/mutation/map.txt names for its file (`blueproof run --filter
GROUP/*` on btvirt): a non-zero exit kills the mutant, a hang past the run timeout too
("timeout"); a mutant that does not compile is "stillborn" and left out of the score.

  score = killed / (generated - stillborn - judged equivalent)

Your checkout is only read. Mutants are built in WORK/src (a copy of the working tree and of
.build), restored after each one, and WORK/src is removed at the end unless --keep. Results are
appended to WORK/results.jsonl as they come; --resume skips the mutants already there.
"""

EPILOG = """\
examples:
  scripts/mutate --list                                  every mutant, nothing built
  scripts/mutate --list --files '*/SendValidator.swift'   one file's mutants
  scripts/mutate --curated                               the curated mutants (Conformance/mutation/curated)
  scripts/mutate --curated kilobyte-1000                 one of them, by name
  scripts/mutate --sample 50 --seed 1                    a reproducible sample of 50
  scripts/mutate --files 'Sources/BlueproofTransmitter/Security/*' --operators relational,constant
  scripts/mutate                                         everything (hours; see docs/mutation.md)
  scripts/mutate --score                                 the score of the last results, again

mark a survivor as equivalent (no behaviour changes, so no case can catch it) by adding its id
and the reason to Conformance/mutation/equivalent.txt:
  Sources/X.swift@X.check#1 relational >= -> > | both sides are never equal: X is odd, Y even

a mutant's id is `path@scope#k operator original -> replacement`: `scope` is the declaration that
encloses it (`RSSIGate.init`, `TransferChunker.Iterator.next`) and k counts that exact mutation
within it, so edits elsewhere in the file keep it; `at path:line:col` follows it for humans.
--match TEXT selects by a part of the id or by the place (`RSSIGate.swift:44`).
"""


@dataclass(frozen=True)
class Work:
    """One thing to build and judge: a generated or a curated mutant."""
    id: str
    path: str
    line: int
    operator: str
    groups: tuple
    diff: str
    source_mutant: object = None
    curated: object = None
    files: tuple = ()
    location: str = ""  # `path:line:col` for humans; the id does not depend on it

    def matches(self, text):
        """--match: TEXT is part of the id, or names the place (`path:line[:col]`, the path
        possibly shortened to its last components, e.g. `RSSIGate.swift:44`)."""
        if text in self.id:
            return True
        if not self.location:
            return False
        line = self.location.rsplit(":", 1)[0]
        return any(place == text or place.endswith("/" + text) for place in (self.location, line))

    @property
    def filters(self):
        return tuple(sorted(config.filters(self.groups)))

    def apply(self, scratch):
        """Writes the mutant into the scratch copy; returns a problem text when it cannot."""
        if self.source_mutant is not None:
            text = scratch.read(self.path).decode("utf-8")
            try:
                mutated = self.source_mutant.apply(text)
            except AssertionError as error:
                return str(error)
            scratch.write(self.path, mutated.encode("utf-8"))
            return None
        with open(self.curated.patch, encoding="utf-8") as handle:
            per_file = patch.parse(handle.read())
        changed = {}
        for path, hunks in per_file.items():
            try:
                changed[path] = patch.apply(scratch.read(path).decode("utf-8"), hunks, path)
            except (OSError, patch.PatchError) as error:
                return f"the patch does not apply: {error}"
        for path, text in changed.items():
            scratch.write(path, text.encode("utf-8"))
        return None


def parse_arguments(argv):
    parser = argparse.ArgumentParser(prog="scripts/mutate", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", action="extend", nargs="+", metavar="GLOB",
                        help="only source files matching a GLOB (quote it; `*` crosses `/`) or named (the shell's expansion "
                             "works too); repeatable; default: every file the map judges")
    parser.add_argument("--operators", metavar="LIST",
                        help=f"comma-separated operators; default all: {','.join(operators.OPERATORS)}")
    parser.add_argument("--match", action="append", metavar="TEXT",
                        help="only mutants whose id contains TEXT or that are at TEXT (`path:line[:col]`, the path's last "
                             "components are enough); repeatable, e.g. to judge survivors again")
    parser.add_argument("--sample", type=int, metavar="N", help="a random subset of N mutants (reproducible with --seed)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of --sample (default 0)")
    parser.add_argument("--curated", nargs="*", metavar="NAME",
                        help="run the curated mutants instead (all, or those named)")
    parser.add_argument("--list", action="store_true", help="print the mutants and their judges; build nothing")
    parser.add_argument("--json", action="store_true", help="with --list: one JSON object a line")
    parser.add_argument("--diff", action="store_true", help="with --list: show each mutant's diff")
    parser.add_argument("--score", action="store_true", help="print the score of the results file and exit")
    parser.add_argument("--resume", action="store_true", help="keep the results file and skip the mutants it already judged")
    parser.add_argument("--keep", action="store_true", help="keep WORK/src (the next run reuses its build)")
    parser.add_argument("--work", metavar="DIR", help="work folder (default ROOT/.build-mutate, git-ignored)")
    parser.add_argument("--results", metavar="FILE", help="results file (default WORK/results.jsonl)")
    parser.add_argument("--root", metavar="DIR", help="the project (default: this script's repository)")
    parser.add_argument("--all-cases", action="store_true",
                        help="run every case of a mutant's groups (default: stop at the first failing case, which kills it)")
    parser.add_argument("--controller", default="btvirt", help="passed to blueproof run (default btvirt)")
    parser.add_argument("--as-dut", action="store_true",
                        help="judge each mutant as an implementation under test: the unmutated runner and its testers run "
                             "the cases, the mutant only serves the subject (`blueproof dut` through --dut-exec); without it "
                             "the mutant runs the cases too, so a mutation both sides share (a wire constant) goes unseen")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help="seconds one judging run may take (default 3 x the baseline + 60, at least 120)")
    parser.add_argument("--build-timeout", type=float, default=900, metavar="S",
                        help="seconds one mutant's build may take (default 900)")
    arguments = parser.parse_args(argv)
    if arguments.sample is not None and arguments.sample < 1:
        parser.error("--sample needs a positive count")
    if arguments.operators:
        chosen = [name.strip() for name in arguments.operators.split(",") if name.strip()]
        unknown = [name for name in chosen if name not in operators.OPERATORS]
        if unknown:
            parser.error(f"unknown operator {', '.join(unknown)}; known: {', '.join(operators.OPERATORS)}")
        arguments.operators = tuple(chosen)
    else:
        arguments.operators = operators.OPERATORS
    return arguments


def swift_files(root):
    found = []
    for folder, dirs, names in os.walk(os.path.join(root, "Sources")):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            if name.endswith(".swift"):
                found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(found)


def module_events(root, path, cache):
    """The event enums of the module (`Sources/NAME/`) that holds `path`, read once per module."""
    parts = path.split("/")
    if len(parts) < 3 or parts[0] != "Sources":
        return None
    key = "/".join(parts[:2])
    if key not in cache:
        texts = []
        for name in swift_files(root):
            if name.split("/")[:2] == parts[:2]:
                with open(os.path.join(root, name), encoding="utf-8") as handle:
                    texts.append(handle.read())
        try:
            cache[key] = operators.event_enums(texts)
        except ValueError:
            cache[key] = None  # the broken file is named when its own turn comes
    return cache[key]


def generated_work(root, arguments, rules):
    """The mutants to judge, and how many were left out because only a deliberate fault reaches them."""
    work, events, variant_only = [], {}, 0
    for path in swift_files(root):
        groups = config.groups_for(rules, path)
        if arguments.files:
            if not any(config.glob_match(path, glob) for glob in arguments.files):
                continue
            if groups is None:
                raise config.ConfigError(f"{path}: no rule of {config.MAP} names it; add one to say which groups judge it")
        if not groups:
            continue
        with open(os.path.join(root, path), encoding="utf-8") as handle:
            text = handle.read()
        try:
            found = operators.mutants(path, text, arguments.operators, module_events(root, path, events))
        except ValueError as error:
            raise config.ConfigError(f"{path}: {error}") from None
        for mutant in found:
            if mutant.fault:
                variant_only += 1
                continue
            work.append(Work(mutant.id, path, mutant.line, mutant.operator, groups, mutant.diff(text), mutant,
                             location=mutant.location))
    return work, variant_only


def stale_equivalents(root, equivalent, rules):
    """Ids of equivalent.txt that name a judged file but no mutant the tool judges (the code they
    named changed or moved to another declaration, or only a deliberate fault reaches it): each
    must be judged again, and its line fixed or removed."""
    by_path = {}
    for ident in equivalent:
        path = ident.split("@", 1)[0] if "@" in ident else ident.split(":", 1)[0]
        by_path.setdefault(path, []).append(ident)
    stale, events = [], {}
    for path, idents in sorted(by_path.items()):
        full = os.path.join(root, path)
        if not os.path.isfile(full) or not config.groups_for(rules, path):
            stale += idents
            continue
        with open(full, encoding="utf-8") as handle:
            text = handle.read()
        try:
            known = {m.id for m in operators.mutants(path, text, operators.OPERATORS, module_events(root, path, events)) if not m.fault}
        except ValueError:
            continue  # the broken file is reported where it is read for its mutants
        stale += [ident for ident in idents if ident not in known]
    return stale


def curated_work(root, arguments, rules):
    available = config.read_curated(root)
    names = {item.name for item in available}
    unknown = [name for name in arguments.curated if name not in names]
    if unknown:
        raise config.ConfigError(f"no curated mutant {', '.join(unknown)} in {config.CURATED} "
                                 f"(there are: {', '.join(sorted(names)) or 'none'})")
    work = []
    for item in available:
        if arguments.curated and item.name not in arguments.curated:
            continue
        groups = item.groups
        if not groups:
            merged = []
            for path in item.files:
                for group in config.groups_for(rules, path) or ():
                    if group not in merged:
                        merged.append(group)
            groups = tuple(merged)
        with open(item.patch, encoding="utf-8") as handle:
            text = handle.read()
        diff = text[text.find("--- "):] if "--- " in text else text
        work.append(Work(item.id, item.files[0], 0, "curated", groups, diff.rstrip(), curated=item, files=item.files))
    return work


# The case groups whose subject `blueproof dut` serves (docs/dut.md).
DUT_GROUPS = ("BFT/", "SPK/", "BLN/")


def main(argv=None):
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    root = os.path.abspath(arguments.root or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    work_dir = os.path.abspath(arguments.work or os.path.join(root, ".build-mutate"))
    results_path = os.path.abspath(arguments.results or os.path.join(work_dir, "results.jsonl"))
    try:
        rules = config.read_map(root)
        equivalent = config.read_equivalent(root)
        if arguments.score:
            records, _ = score.read_results(results_path)
            if not records:
                print(f"scripts/mutate: no results in {results_path}", file=sys.stderr)
                return 2
            total = score.summary(list(records.values()), equivalent, sys.stdout)
            return 0 if total["survived"] == 0 else 1
        if arguments.curated is not None:
            items = curated_work(root, arguments, rules)
        else:
            items, variant_only = generated_work(root, arguments, rules)
            if variant_only:
                print(f"scripts/mutate: {variant_only} mutant(s) left out: only a deliberate fault "
                      "(`defects.contains(.x)`) reaches their code (docs/mutation.md, \"Variant-only code\")", file=sys.stderr)
    except config.ConfigError as error:
        print(f"scripts/mutate: {error}", file=sys.stderr)
        return 2
    for ident in stale_equivalents(root, equivalent, rules):
        print(f"scripts/mutate: warning: {config.EQUIVALENT} names {ident}, which is no mutant the tool "
              "judges (its code changed, or only a deliberate fault reaches it): judge that code again and fix or remove the line", file=sys.stderr)
    if arguments.match:
        items = [item for item in items if any(item.matches(text) for text in arguments.match)]
    if arguments.sample is not None and arguments.sample < len(items):
        chosen = set(random.Random(arguments.seed).sample(range(len(items)), arguments.sample))
        items = [item for index, item in enumerate(items) if index in chosen]
    if arguments.list:
        return list_work(items, equivalent, arguments)
    if arguments.as_dut:
        # `blueproof dut` serves the transmitter (BFT) and Spark (SPK) roles only: a mutant
        # judged by other groups would run only in the unmutated judge and always survive.
        unserved = sorted({group for item in items for group in item.groups if not group.startswith(DUT_GROUPS)})
        if unserved:
            print(f"scripts/mutate: --as-dut judges only what `blueproof dut` serves ({', '.join(DUT_GROUPS)}); "
                  f"the selected mutants are also judged by {', '.join(unserved)}: narrow them with --files", file=sys.stderr)
            return 2
    return run(root, work_dir, results_path, items, equivalent, arguments)


def list_work(items, equivalent, arguments):
    for item in items:
        if arguments.json:
            entry = {"id": item.id, "location": item.location, "path": item.path, "line": item.line, "operator": item.operator,
                     "groups": list(item.groups), "equivalent": item.id in equivalent}
            if item.source_mutant is not None:
                entry.update(col=item.source_mutant.col, original=item.source_mutant.original,
                             replacement=item.source_mutant.replacement)
            print(json.dumps(entry, sort_keys=True))
            continue
        mark = "  (judged equivalent)" if item.id in equivalent else ""
        place = f"  at {item.location}" if item.location else ""
        print(f"{item.id}{place}   [{' '.join(item.groups)}]{mark}")
        if arguments.diff:
            print("\n".join("    " + line for line in item.diff.splitlines()))
    if not arguments.json:
        print(f"{len(items)} mutants", file=sys.stderr)
    return 0


def run(root, work_dir, results_path, items, equivalent, arguments):
    os.makedirs(work_dir, exist_ok=True)
    done = {}
    if arguments.resume:
        done, _ = score.read_results(results_path)
    elif os.path.exists(results_path) and os.path.getsize(results_path) > 0:
        kept = results_path[:-len(".jsonl")] + time.strftime("-%Y%m%d-%H%M%S") + ".jsonl"
        os.replace(results_path, kept)
        print(f"• the previous results are in {kept}")

    def log(text):
        print(f"• {text}", flush=True)

    scratch = Scratch(root, work_dir, log)
    runner = Runner(scratch, work_dir, results_path, arguments)

    def stop(signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    selected = {item.id for item in items}
    try:
        runner.record({"kind": "run", "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "root": root, "mutants": len(items), "argv": sys.argv[1:]})
        pending = []
        for item in items:
            if item.id in done:
                continue
            if item.id in equivalent:
                record = {"kind": "mutant", "id": item.id, "path": item.path, "line": item.line,
                          "operator": item.operator, "groups": list(item.groups), "diff": item.diff,
                          "status": "equivalent", "reason": equivalent[item.id]}
                runner.record(record)
                done[item.id] = record
                continue
            pending.append(item)
        print(f"• {len(items)} mutants: {len(pending)} to judge, {len(items) - len(pending)} already judged or equivalent")
        if pending:
            copied = scratch.prepare()
            print(f"• scratch copy ready ({copied} files copied)")
            runner.prepare_baseline({item.filters for item in pending})
            runner.run_all(pending, done)
    except Stop as error:
        print(f"scripts/mutate: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        scratch.restore()
        print(f"\nscripts/mutate: interrupted; the results so far are in {results_path} (--resume goes on)", file=sys.stderr)
        return 130
    finally:
        scratch.restore()
        signal.signal(signal.SIGTERM, previous)
        if not arguments.keep:
            scratch.remove()
        elif os.path.isdir(scratch.src):
            print(f"• kept the scratch copy {scratch.src}")
    print()
    records = [done[item.id] for item in items if item.id in done and done[item.id]["status"] in score.FINAL]
    stale = [done[item.id] for item in items if item.id in done and done[item.id]["status"] == "stale"]
    total = score.summary(records, equivalent, sys.stdout)
    for record in stale:
        print(f"scripts/mutate: {record['id']}: {record.get('note')}", file=sys.stderr)
    print(f"\nresults: {results_path}")
    return 1 if total["survived"] or stale else 0
