"""Unit tests of the transfer DUTs' pure parts and of their environment contract (no controller
needed): .venv/bin/python -m unittest discover -s examples/duts -p 'test_*.py'
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import dut_common  # noqa: E402
import rssi_shim  # noqa: E402
import transfer_central  # noqa: E402
import transfer_peripheral  # noqa: E402


class GateTests(unittest.TestCase):
    def decide(self, rssi, fault=None, allow=False):
        return transfer_central.gate(rssi, fault, allow)[0]

    def test_the_samples_gate(self):
        self.assertTrue(self.decide(-50))
        self.assertTrue(self.decide(-49))
        self.assertTrue(self.decide(0))
        self.assertFalse(self.decide(-51))
        self.assertFalse(self.decide(-127))

    def test_no_reading(self):
        self.assertFalse(self.decide(127))
        self.assertFalse(self.decide(1))
        self.assertFalse(self.decide(20))
        self.assertTrue(self.decide(127, allow=True))
        self.assertFalse(self.decide(1, allow=True))

    def test_strict_gate_refuses_exactly_minus_50(self):
        self.assertFalse(self.decide(-50, fault="strict-gate"))
        self.assertTrue(self.decide(-49, fault="strict-gate"))
        self.assertFalse(self.decide(-51, fault="strict-gate"))


class ChunkTests(unittest.TestCase):
    def test_chunk_size_per_fault(self):
        size = transfer_peripheral.chunk_size
        self.assertEqual([size(None, m) for m in (23, 185, 517)], [20, 182, 512])
        self.assertEqual([size("chunk-small", m) for m in (23, 185, 517)], [19, 181, 511])
        self.assertEqual([size("chunk-mtu-minus-2", m) for m in (23, 185, 517)], [21, 183, 515])

    def test_chunks_and_marker_split(self):
        chunks = lambda payload, n: list(transfer_peripheral.chunks(payload, n))  # noqa: E731
        self.assertEqual(chunks(b"", 20), [])
        self.assertEqual(chunks(b"EOM", 20), [b"EO", b"M"])
        self.assertEqual(chunks(b"a" * 20 + b"EOM", 20), [b"a" * 20, b"EO", b"M"])
        self.assertEqual(chunks(b"xEOM", 20), [b"xEOM"])
        payload = bytes(range(256)) * 10
        self.assertEqual(b"".join(chunks(payload, 182)), payload)
        self.assertTrue(all(len(c) == 182 for c in chunks(payload, 182)[:-1]))


class AdvertisingTests(unittest.TestCase):
    def test_central_finds_the_peripherals_advertising(self):
        data = transfer_peripheral.advertising_data(dut_common.SERVICE_UUID)
        self.assertLessEqual(len(data), 31)
        self.assertTrue(transfer_central.advertises_service(data))
        wrong = transfer_peripheral.advertising_data(transfer_peripheral.WRONG_SERVICE_UUID)
        self.assertFalse(transfer_central.advertises_service(wrong))
        self.assertFalse(transfer_central.advertises_service(b"\x02\x01\x06"))
        self.assertFalse(transfer_central.advertises_service(b"\x30\x07"))  # cut short


class ShimTests(unittest.TestCase):
    def test_legacy_and_extended_reports_get_the_rssi(self):
        data = transfer_peripheral.advertising_data(dut_common.SERVICE_UUID)
        body = bytes([0x02, 1, 0x00, 0x00]) + bytes(6) + bytes([len(data)]) + data + bytes([127])
        legacy = bytes([0x04, 0x3E, len(body)]) + body
        self.assertEqual(rssi_shim.rewrite(legacy, -50), legacy[:-1] + bytes([0xCE]))
        report = bytearray(24)
        report[13] = 127
        report[23] = len(data)
        body = bytes([0x0D, 1]) + bytes(report) + data
        extended = bytes([0x04, 0x3E, len(body)]) + body
        rewritten = rssi_shim.rewrite(extended, -51)
        self.assertEqual(rewritten[5 + 13], 0xCD)
        self.assertEqual(rewritten[:18] + rewritten[19:], extended[:18] + extended[19:])
        other = bytes([0x04, 0x0E, 4, 1, 3, 0x0C, 0])
        self.assertEqual(rssi_shim.rewrite(other, -50), other)


class TransportTests(unittest.TestCase):
    def test_names(self):
        self.assertEqual(dut_common.bumble_transport("tcp:127.0.0.1:6402"), "tcp-client:127.0.0.1:6402")
        self.assertEqual(dut_common.bumble_transport("unix:/tmp/x"), "unix:/tmp/x")
        for bad in ("tcp:127.0.0.1", "serial:/dev/ttyUSB0", "unix:", "6402"):
            with self.assertRaises(dut_common.UsageError):
                dut_common.bumble_transport(bad)


class ContractTests(unittest.TestCase):
    """The programs as the runner starts them."""

    def start(self, script, **env):
        environment = {key: value for key, value in os.environ.items()
                       if not key.startswith(("BLUEPROOF_", "DUT_"))}
        environment.update(env)
        return subprocess.Popen([sys.executable, os.path.join(HERE, script)], env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def finish(self, script, **env):
        process = self.start(script, **env)
        out, err = process.communicate(timeout=20)
        return process.returncode, out, err

    def test_wrong_role_is_77(self):
        for script, other in (("transfer_peripheral.py", "central"), ("transfer_central.py", "peripheral")):
            status, out, _ = self.finish(script, BLUEPROOF_ROLE=other)
            self.assertEqual(status, 77, script)
            self.assertTrue(out.startswith("blueproof-dut: transfer-"), out)

    def test_missing_variables_are_named(self):
        status, _, err = self.finish("transfer_peripheral.py")
        self.assertEqual((status, err.strip()[:27]), (2, "error: BLUEPROOF_ROLE is no"))
        status, _, err = self.finish("transfer_peripheral.py", BLUEPROOF_ROLE="peripheral",
                                     BLUEPROOF_HCI="tcp:127.0.0.1:9")
        self.assertEqual(status, 2)
        self.assertIn("BLUEPROOF_PAYLOAD", err)
        status, _, err = self.finish("transfer_central.py", BLUEPROOF_ROLE="central",
                                     BLUEPROOF_HCI="tcp:127.0.0.1:9")
        self.assertEqual(status, 2)
        self.assertIn("BLUEPROOF_OUTPUT", err)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_unknown_fault_is_2(self):
        status, out, err = self.finish("transfer_central.py", BLUEPROOF_ROLE="central",
                                       BLUEPROOF_HCI="tcp:127.0.0.1:9", BLUEPROOF_OUTPUT=HERE,
                                       DUT_FAULT="sloppy")
        self.assertEqual(status, 2)
        self.assertIn("fault=sloppy", out.splitlines()[0])
        self.assertIn("DUT_FAULT='sloppy' is unknown", err)

    def test_sigterm_exits_0_within_a_second(self):
        """Against a controller that never answers (a silent unix socket)."""
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "hci")
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            server.bind(path)
            server.listen(4)
            payload = os.path.join(folder, "payload")
            with open(payload, "wb") as file:
                file.write(b"\xff\x00EOM")
            try:
                for script, env in (("transfer_peripheral.py", {"BLUEPROOF_ROLE": "peripheral",
                                                                "BLUEPROOF_PAYLOAD": payload}),
                                    ("transfer_central.py", {"BLUEPROOF_ROLE": "central",
                                                             "BLUEPROOF_OUTPUT": folder})):
                    process = self.start(script, BLUEPROOF_HCI=f"unix:{path}", BLUEPROOF_CASE="TEST/1", **env)
                    lines = []
                    while not any("hci: opening" in line for line in lines):
                        line = process.stdout.readline()
                        self.assertTrue(line, f"{script} ended early: {lines}")
                        lines.append(line)
                    self.assertTrue(lines[0].startswith(f"blueproof-dut: {script[:-3].replace('_', '-')} "))
                    self.assertTrue(any("case: TEST/1" in line for line in lines))
                    time.sleep(0.3)
                    start = time.monotonic()
                    process.send_signal(signal.SIGTERM)
                    status = process.wait(timeout=5)
                    elapsed = time.monotonic() - start
                    process.stdout.close()
                    process.stderr.close()
                    self.assertEqual(status, 0, script)
                    self.assertLess(elapsed, 1.0, script)
            finally:
                server.close()


if __name__ == "__main__":
    unittest.main()
