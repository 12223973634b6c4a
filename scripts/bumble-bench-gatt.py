#!/usr/bin/env python3
"""Bumble's own benchmark (`bumble-bench`) with GATT notifications working.

bumble 0.0.236 cannot send GATT notifications as shipped: its GattServer packet I/O lacks
`can_receive()`, which the sender calls right after queueing its last notification, so the
sender crashes with AttributeError before the receiver's ACK (and the speed line) arrives.
The server does receive the ACK (a write to its TX characteristic), so `can_receive` is True.

Used by `blueproof bench transfer`; takes bumble-bench's own arguments. When
BLUEPROOF_BENCH_FD names an open descriptor, bumble-bench's milestone lines (those marked
###, @@@, !!!, ***, ===; not the per-packet ones) are also written there, one per line, so the
caller sees "waiting for connection" and the speed without reading the log.
"""
import logging
import os
import re
import sys

import bumble.logging
from bumble.apps import bench

bench.GattServer.can_receive = lambda self: True

_MILESTONE = re.compile(r"(###|@@@|!!!|\*\*\*|===)")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class _Plain(logging.Formatter):
    """The message alone, without bumble's colours."""

    def format(self, record):
        return _ANSI.sub("", record.getMessage())


def _setup_logging(default_level="INFO", _original=bumble.logging.setup_basic_logging):
    _original(default_level)
    fd = os.environ.get("BLUEPROOF_BENCH_FD")
    if not fd:
        return
    handler = logging.StreamHandler(os.fdopen(int(fd), "w", buffering=1))
    handler.setFormatter(_Plain())
    handler.addFilter(lambda record: _MILESTONE.search(record.getMessage()) is not None)
    logging.getLogger().addHandler(handler)


bumble.logging.setup_basic_logging = _setup_logging

if __name__ == "__main__":
    sys.argv[0] = "bumble-bench"
    sys.exit(bench.main())
