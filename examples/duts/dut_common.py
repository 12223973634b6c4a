"""What both transfer DUTs share: the environment contract, the hello line, event logging,
the HCI transport, the controller's address, and a prompt exit on SIGTERM.

Nothing here comes from blueproof: it is plain Python on Google Bumble, so the two programs
beside it are implementations blueproof did not write.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import os
import signal
import sys
import time


def _run_in_the_project_venv() -> None:
    """Started by a Python without Bumble (`python3 examples/duts/...`): start again with the
    repository's .venv (scripts/setup makes it), which has the pinned Bumble."""
    try:
        import bumble  # noqa: F401
        return
    except ImportError:
        pass
    venv = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".venv"))
    python = os.path.join(venv, "bin", "python")
    if os.path.exists(python) and os.path.realpath(sys.prefix) != os.path.realpath(venv):
        os.execv(python, [python] + sys.argv)
    sys.stderr.write("error: Bumble is not installed for this Python: run scripts/setup, or "
                     "pip install bumble==0.0.236\n")
    sys.exit(2)


_run_in_the_project_venv()

# The Core Bluetooth transfer sample's numbers (docs: corebluetooth-transfer-sample.md).
SERVICE_UUID = "E20A39F4-73F5-4BC4-A12F-17D1AD07A961"
CHARACTERISTIC_UUID = "08590F7E-DB05-467E-8757-72F6FAEB13D4"
END_OF_MESSAGE = b"EOM"
#: The longest attribute value (Core Vol 3, Part F, 3.2.9): a chunk never exceeds it.
MAX_ATTRIBUTE_VALUE = 512
#: The ATT_MTU the central asks for.
REQUESTED_MTU = 517

VERSION = "1.0.0"

#: Exit statuses.
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOT_MY_ROLE = 77

_START = time.monotonic()


def _terminated_early(_number, _frame) -> None:
    """SIGTERM before the event loop runs (while Bumble is imported, say): nothing to undo."""
    _exit_now()


# Until install_sigterm() hands SIGTERM to the event loop.
signal.signal(signal.SIGTERM, _terminated_early)


class UsageError(Exception):
    """A broken environment: printed on one line, exit status 2."""


def bumble_version() -> str:
    try:
        return importlib.metadata.version("bumble")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def say(line: str) -> None:
    """One line on stdout, flushed at once (the runner reads it live)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def event(kind: str, text: str = "") -> None:
    """One event: seconds since start, its kind, then what happened."""
    say(f"[{time.monotonic() - _START:9.3f}] {kind}" + (f": {text}" if text else ""))


def error(text: str) -> None:
    sys.stderr.write(f"error: {text}\n")
    sys.stderr.flush()


def hello(name: str, fault: str | None) -> None:
    """The first stdout line: which implementation this is."""
    say(f"blueproof-dut: {name} {VERSION} (bumble {bumble_version()}) fault={fault or 'none'}")


def require(variable: str) -> str:
    value = os.environ.get(variable)
    if value is None or value == "":
        raise UsageError(f"{variable} is not set (see examples/duts/README.md, 'Environment contract')")
    return value


def check_role(played: str) -> None:
    """Exit 77 at once when BLUEPROOF_ROLE names a role this program does not play; a missing
    BLUEPROOF_ROLE is a usage error."""
    role = require("BLUEPROOF_ROLE")
    if role != played:
        error(f"BLUEPROOF_ROLE={role!r}: this DUT plays only {played!r}")
        sys.exit(EXIT_NOT_MY_ROLE)


def choose_fault(known: dict[str, str]) -> str | None:
    """DUT_FAULT, checked against the variants this program has."""
    fault = os.environ.get("DUT_FAULT") or None
    if fault is not None and fault not in known:
        raise UsageError(f"DUT_FAULT={fault!r} is unknown; known: {', '.join(sorted(known))}")
    return fault


def bumble_transport(spec: str) -> str:
    """BLUEPROOF_HCI (tcp:HOST:PORT or unix:PATH) as a Bumble transport name."""
    if spec.startswith("tcp:"):
        rest = spec[len("tcp:"):]
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit():
            raise UsageError(f"BLUEPROOF_HCI={spec!r}: expected tcp:HOST:PORT")
        return f"tcp-client:{host}:{port}"
    if spec.startswith("unix:") and len(spec) > len("unix:"):
        return spec
    raise UsageError(f"BLUEPROOF_HCI={spec!r}: expected tcp:HOST:PORT or unix:PATH")


def hex_preview(value: bytes, limit: int = 16) -> str:
    shown = value[:limit].hex()
    return shown + ("..." if len(value) > limit else "")


def size_summary(sizes: list[int]) -> str:
    """Chunk sizes in order of first appearance, with counts: '512x5, 440x1'."""
    if not sizes:
        return "no data chunks"
    counts: dict[int, int] = {}
    for size in sizes:
        counts[size] = counts.get(size, 0) + 1
    return ", ".join(f"{size}x{count}" for size, count in counts.items())


def install_sigterm(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """SIGTERM (and SIGINT) set `stop`; a watchdog makes sure the process is gone within
    half a second whatever the event loop is doing."""

    def on_signal(number: int) -> None:
        if not stop.is_set():
            event("stopping", f"{signal.Signals(number).name} received")
            stop.set()
            loop.call_later(0.5, _exit_now)

    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, on_signal, number)


def _exit_now() -> None:
    sys.stdout.flush()
    os._exit(EXIT_OK)


async def until_stopped(stop: asyncio.Event, work) -> int:
    """Runs `work` (a coroutine returning an exit status) until it ends or `stop` is set. A stop
    cancels it, leaves it a moment to close the transport, and is exit status 0."""
    task = asyncio.ensure_future(work)
    stopped = asyncio.ensure_future(stop.wait())
    await asyncio.wait([task, stopped], return_when=asyncio.FIRST_COMPLETED)
    if task.done():
        stopped.cancel()
        return task.result()
    task.cancel()
    await asyncio.wait([task], timeout=0.3)
    event("stopped")
    return EXIT_OK


def run(main) -> None:
    """Runs `main()` (a coroutine function returning an exit status) and exits with it."""
    try:
        status = asyncio.run(main())
    except UsageError as problem:
        error(str(problem))
        status = EXIT_USAGE
    except KeyboardInterrupt:
        status = EXIT_OK
    except Exception as problem:  # noqa: BLE001 - anything unexpected: one line, exit 1
        event("error", f"{type(problem).__name__}: {problem}")
        status = EXIT_FAILED
    # The loop is gone and with it the SIGTERM handler: a SIGTERM now changes nothing.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.stdout.flush()
    sys.stderr.flush()
    sys.exit(status)
