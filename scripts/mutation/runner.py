"""Builds each mutant in the scratch copy and lets the conformance suite judge it."""

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

from . import score

_VERDICT = re.compile(r"^(fail|error|inconclusive)\s+(\S+)", re.M)
_COUNT = re.compile(r"^(\d+) cases?:", re.M)
_SUMMARY = re.compile(r"^\d+ cases?: .*$", re.M)
_FAILED = re.compile(r"^(fail|error)\s")


class Stop(Exception):
    """The run cannot go on (the unmutated copy does not build or does not pass)."""


def _clock(seconds):
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def run_process(arguments, cwd, timeout, log_path, env=None, stop_at=None):
    """Runs `arguments` in its own process group, its output going to `log_path` line by line
    (`tail -f` shows a build's progress); returns (status, output, seconds, outcome) where
    outcome is None, "timeout", or "stopped" when a line matched `stop_at` (the group is ended
    then: one failing case is enough to kill a mutant). A timeout or an interruption ends the
    whole group (a run's btvirt processes with it)."""
    started = time.monotonic()
    decided = threading.Event()
    matched = []
    process = subprocess.Popen(arguments, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def read():
        with open(log_path, "wb") as log:
            for line in process.stdout:
                log.write(line)
                log.flush()
                if stop_at is not None and not matched and stop_at.match(line.decode("utf-8", "replace")):
                    matched.append(line)
                    decided.set()
        decided.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    outcome = None
    try:
        if not decided.wait(timeout):
            outcome = "timeout"
        elif matched:
            outcome = "stopped"
        if outcome:
            _end_group(process)
        process.wait()
        reader.join()
    except BaseException:
        _end_group(process)
        raise
    with open(log_path, encoding="utf-8", errors="replace") as log:
        text = log.read()
    return process.returncode, text, time.monotonic() - started, outcome


def _end_group(process):
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


class Runner:
    def __init__(self, scratch, work, results_path, options, out=sys.stdout):
        self.scratch = scratch
        self.work = work
        self.results_path = results_path
        self.options = options
        self.out = out
        self.baseline = {}  # filters tuple -> (seconds, case count)
        self.env = dict(os.environ, NO_COLOR="1")
        self.last_summary = None

    # Output -------------------------------------------------------------------------------

    def say(self, text):
        print(text, file=self.out, flush=True)

    def record(self, record):
        """Appends one result and makes it durable before going on."""
        with open(self.results_path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    # Building and judging -----------------------------------------------------------------

    def build(self, product, timeout, log_name):
        arguments = ["nice", "swift", "build"] + (["--product", product] if product else [])
        log_path = os.path.join(self.work, log_name)
        return run_process(arguments, self.scratch.src, timeout, log_path, self.env)

    def judge(self, filters, timeout, baseline=False):
        """Runs the cases, up to the first that fails unless --all-cases (a baseline runs them
        all); returns (status, failed case ids, seconds, exit status, case count)."""
        output_dir = os.path.join(self.work, "run")
        shutil.rmtree(output_dir, ignore_errors=True)
        built = os.path.join(self.scratch.src, ".build", "debug", "blueproof")
        runner = self.judge_binary if getattr(self.options, "as_dut", False) else built
        arguments = [runner, "run",
                     "--controller", self.options.controller,
                     "--output", os.path.join(output_dir, "reports"),
                     "--captures", os.path.join(output_dir, "captures")]
        for case_filter in filters:
            arguments += ["--filter", case_filter]
        if getattr(self.options, "as_dut", False):
            # Roles `blueproof dut` does not serve decline with 77 (docs/dut.md).
            arguments += ["--dut-exec", 'case "$BLUEPROOF_ROLE" in transmitter|spark|bluenet) ;; *) exit 77;; esac; '
                          f'exec {shlex.quote(built)} dut --controller "$BLUEPROOF_HCI" --listen "$BLUEPROOF_CONTROL"']
        stop_at = None if self.options.all_cases or baseline else _FAILED
        status, text, seconds, outcome = run_process(
            ["nice"] + arguments, self.scratch.src, timeout, os.path.join(self.work, "run.log"), self.env, stop_at)
        shutil.rmtree(output_dir, ignore_errors=True)
        failed = [f"{m.group(2)} {m.group(1)}" for m in _VERDICT.finditer(text)]
        count = _COUNT.search(text)
        summary = _SUMMARY.search(text)
        self.last_summary = summary.group(0) if summary else None
        if outcome == "timeout":
            return "timeout", failed, seconds, None, None
        if outcome == "stopped":
            return "killed", failed, seconds, "stopped at the first failing case", None
        return ("survived" if status == 0 else "killed"), failed, seconds, status, int(count.group(1)) if count else 0

    def prepare_baseline(self, filter_sets):
        """Builds the unmutated copy and runs every group set once: all must pass."""
        self.say(f"• scratch copy {self.scratch.src}: building the unmutated sources")
        status, text, seconds, outcome = self.build(None, self.options.build_timeout * 3, "build-baseline.log")
        if status != 0 or outcome:
            raise Stop(f"the unmutated scratch copy does not build (see {os.path.join(self.work, 'build-baseline.log')});"
                       " fix the checkout first")
        self.say(f"• built in {seconds:.0f} s")
        if getattr(self.options, "as_dut", False):
            # The judge stays unmutated: a copy of this build (with the preload library it
            # expects beside it) runs the cases and the testers.
            judge = os.path.join(self.work, "judge")
            os.makedirs(judge, exist_ok=True)
            for name in ("blueproof", "libBlueproofPreload.so"):
                shutil.copy2(os.path.join(self.scratch.src, ".build", "debug", name), os.path.join(judge, name))
            self.judge_binary = os.path.join(judge, "blueproof")
            self.say(f"• judging as an implementation under test: {self.judge_binary} runs the cases, each mutant serves `blueproof dut`")
        for filters in sorted(filter_sets):
            if not filters:
                continue
            verdict, failed, seconds, exit_status, count = self.judge(filters, self.options.timeout or 1800, baseline=True)
            if verdict != "survived":
                raise Stop(f"the unmutated build does not pass {' '.join(filters)} (exit {exit_status}, "
                           f"{verdict}: {', '.join(failed) or 'see ' + os.path.join(self.work, 'run.log')});"
                           " a mutant can only be judged by cases that pass without it")
            summary = self.last_summary or ""
            passed = re.search(r"(\d+) pass\b", summary)
            self.baseline[filters] = (seconds, count, int(passed.group(1)) if passed else count)
            note = "" if count else "  (no implemented case: mutants judged only by it survive)"
            self.say(f"• baseline {' '.join(filters)}: {count} cases pass in {seconds:.1f} s{note}")

    def run_timeout(self, filters):
        if self.options.timeout:
            return self.options.timeout
        seconds = self.baseline.get(filters, (60, 0, 0))[0]
        return max(120.0, 3 * seconds + 60)

    def run_one(self, item):
        """Applies, builds and judges one mutant (a `Work` item); the scratch copy is restored
        whatever happens."""
        filters = item.filters
        record = {"kind": "mutant", "id": item.id, "path": item.path, "line": item.line,
                  "operator": item.operator, "groups": list(item.groups), "diff": item.diff}
        if item.files:
            record["files"] = list(item.files)
        if item.location:
            record["location"] = item.location
        if not filters or not self.baseline.get(filters, (0, 0, 0))[1]:
            record.update(status="survived", note="no implemented case judges this file", build_s=0, run_s=0)
            return record
        try:
            problem = item.apply(self.scratch)
            if problem:
                record.update(status="stale", note=problem)
                return record
            status, text, build_s, outcome = self.build("blueproof", self.options.build_timeout, "build.log")
            record["build_s"] = round(build_s, 1)
            if status != 0 or outcome:
                errors = [line for line in text.splitlines() if "error:" in line][:3]
                record.update(status="stillborn", note="; ".join(errors) or "the build failed")
                return record
            verdict, failed, run_s, exit_status, _ = self.judge(filters, self.run_timeout(filters))
            record.update(status=verdict, failed=failed, run_s=round(run_s, 1), exit=exit_status)
            if verdict == "survived" and self.last_summary:
                record["verdicts"] = self.last_summary
                passed = re.search(r"(\d+) pass\b", self.last_summary)
                if passed and int(passed.group(1)) < self.baseline[filters][2]:
                    record["note"] = f"fewer cases passed than without the mutant ({self.last_summary})"
            if isinstance(exit_status, int) and exit_status < 0 and not failed:
                record["note"] = f"the run crashed (signal {-exit_status}): the cases run in its process"
            return record
        finally:
            self.scratch.restore()

    def run_all(self, items, done_before):
        started = time.monotonic()
        total = len(items)
        for index, item in enumerate(items, 1):
            begun = time.monotonic()
            record = self.run_one(item)
            self.record(record)
            done_before[record["id"]] = record
            elapsed = time.monotonic() - started
            eta = elapsed / index * (total - index)
            detail = ""
            if record["status"] in score.KILLED and record.get("failed"):
                detail = ": " + ", ".join(record["failed"][:3])
            elif record.get("note"):
                detail = ": " + record["note"]
            self.say(f"[{index}/{total}] {_clock(elapsed)} ETA {_clock(eta)}  {record['status']:<10} {record['id']}"
                     f"{'  at ' + item.location if item.location else ''}  ({time.monotonic() - begun:.0f} s){detail}")
