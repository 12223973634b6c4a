#!/usr/bin/env python3
"""The Core Bluetooth transfer sample's central, on Google Bumble: a device under test that
blueproof did not write.

What it does (the sample's behaviour, docs: corebluetooth-transfer-sample.md):

* scans (active, duplicates kept, from the controller's public address) for connectable
  advertisers of service E20A39F4-73F5-4BC4-A12F-17D1AD07A961 and judges every report's RSSI:
  it passes when -50 <= RSSI <= 0 dBm; 127 ("not available") and anything above 0 are no
  reading and are refused. It keeps scanning while no report passes;
* connects to the first advertiser that passes, exchanges ATT_MTU (asks 517), discovers the
  service, the characteristic 08590F7E-DB05-467E-8757-72F6FAEB13D4 and its CCCD, and subscribes
  (CCCD 0x0001, Write Request). A notification before that write is logged and ignored;
* appends every notified value, as bytes (values that are not UTF-8 are kept), until a value
  that is exactly "EOM";
* writes the message to $BLUEPROOF_OUTPUT/received.bin, then writes back with an ATT Write
  Command (no response) to the characteristic's value: the first min(ATT_MTU - 3, 512, length)
  bytes of the message (an empty value for an empty message: the sample writes back on EOM);
* unsubscribes (CCCD 0x0000, Write Request), disconnects and exits 0.

A connection that fails or ends before "EOM" sends it back to scanning, as the sample does; a
peer without the service, characteristic or CCCD is left (unsubscribe when subscribed,
disconnect) with exit 1. SIGTERM or SIGINT: exit 0 within a second, wherever it is.

Environment (see README.md): BLUEPROOF_HCI (tcp:HOST:PORT or unix:PATH), BLUEPROOF_ROLE (must be
"central", else exit 77), BLUEPROOF_OUTPUT (an existing folder), BLUEPROOF_CASE (logged only).
A missing variable: exit 2. Test aid only: DUT_ALLOW_UNAVAILABLE_RSSI=1 lets RSSI 127 pass the
gate, for controllers that measure nothing (btvirt); never set it in a conformance run.

Broken variants, DUT_FAULT=...:

* ignore-rssi-gate: connects to the first advertiser of the service whatever its RSSI (the gate
  is still judged and logged).
* strict-gate: refuses an RSSI of exactly -50 dBm (> -50 where the sample has >= -50).
* no-write-back: never writes back after "EOM".
* write-request: writes back with an ATT Write Request (with response) instead of a Write
  Command; an error response is logged.
* no-unsubscribe: disconnects without writing 0 to the CCCD.
* stay-connected: unsubscribes but never disconnects; stays until SIGTERM.
* keep-eom: keeps the "EOM" marker at the end of the message it saves.
* filter-duplicates: scans with duplicate reports filtered out (Filter_Duplicates on).

An unknown DUT_FAULT prints an error and exits 2.
"""

from __future__ import annotations

import asyncio
import os
import time

from dut_common import (
    CHARACTERISTIC_UUID,
    END_OF_MESSAGE,
    EXIT_FAILED,
    EXIT_OK,
    MAX_ATTRIBUTE_VALUE,
    REQUESTED_MTU,
    SERVICE_UUID,
    UsageError,
    bumble_transport,
    check_role,
    choose_fault,
    event,
    hello,
    hex_preview,
    install_sigterm,
    require,
    run,
    size_summary,
    until_stopped,
)

from bumble import hci
from bumble.core import UUID, AdvertisingData, PhysicalTransport
from bumble.device import Connection, Device, Peer
from bumble.gatt import GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR, Characteristic
from bumble.transport import open_transport

NAME = "transfer-central"

FAULTS = {
    "ignore-rssi-gate": "connects whatever the RSSI",
    "strict-gate": "refuses an RSSI of exactly -50 dBm",
    "no-write-back": "never writes back after EOM",
    "write-request": "writes back with a Write Request instead of a Write Command",
    "no-unsubscribe": "disconnects without writing 0 to the CCCD",
    "stay-connected": "never disconnects; stays until SIGTERM",
    "keep-eom": "keeps the EOM marker at the end of the message",
    "filter-duplicates": "scans with duplicate reports filtered out",
}

GATE_MINIMUM = -50
GATE_MAXIMUM = 0
RSSI_NOT_AVAILABLE = 127
CONNECT_TIMEOUT = 5.0
GATT_TIMEOUT = 10.0
#: A gate decision that repeats the last one for an advertiser is logged at most this often.
GATE_LOG_INTERVAL = 2.0
SERVICE = UUID(SERVICE_UUID)
CHARACTERISTIC = UUID(CHARACTERISTIC_UUID)
SERVICE_LIST_TYPES = (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS,
                      AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS)


class PeerUnusable(Exception):
    """The connected peer lacks what the transfer needs: leave it, exit 1."""


class Disconnected(Exception):
    """The connection ended before the transfer finished: scan again."""


def advertises_service(data: bytes) -> bool:
    """Whether raw advertising data lists the transfer service among its 128-bit UUIDs."""
    wanted = SERVICE.to_bytes(force_128=True)
    offset = 0
    while offset < len(data):
        length = data[offset]
        if length == 0 or offset + 1 + length > len(data):
            break
        kind, body = data[offset + 1], data[offset + 2:offset + 1 + length]
        if kind in SERVICE_LIST_TYPES:
            if any(body[start:start + 16] == wanted for start in range(0, len(body) - 15, 16)):
                return True
        offset += 1 + length
    return False


def gate(rssi: int, fault: str | None, allow_unavailable: bool) -> tuple[bool, str]:
    """The RSSI gate's decision for one report, with its reason."""
    if rssi == RSSI_NOT_AVAILABLE:
        if allow_unavailable:
            return True, "RSSI not available (127), allowed by DUT_ALLOW_UNAVAILABLE_RSSI (test aid)"
        return False, "RSSI not available (127)"
    if rssi > GATE_MAXIMUM:
        return False, f"RSSI {rssi} dBm above {GATE_MAXIMUM} dBm: not a reading"
    if fault == "strict-gate" and rssi == GATE_MINIMUM:
        return False, f"RSSI {rssi} dBm not above {GATE_MINIMUM} dBm (fault strict-gate)"
    if rssi >= GATE_MINIMUM:
        return True, f"RSSI {rssi} dBm >= {GATE_MINIMUM} dBm"
    return False, f"RSSI {rssi} dBm < {GATE_MINIMUM} dBm: not in range"


class TransferCentral:
    def __init__(self, device: Device, fault: str | None, output: str, allow_unavailable: bool,
                 stop: asyncio.Event) -> None:
        self.device = device
        self.fault = fault
        self.output = output
        self.allow_unavailable = allow_unavailable
        self.stop = stop
        self.found: asyncio.Future | None = None
        self.last_gate: dict[str, tuple[bool, int, float, int]] = {}
        device.on(Device.EVENT_ADVERTISEMENT, self.on_advertisement)

    # ---------------------------------------------------------------- scanning and the gate
    def on_advertisement(self, advertisement) -> None:
        if self.found is None or self.found.done() or not advertisement.is_connectable:
            return
        if not advertises_service(bytes(advertisement.data)):
            return
        rssi = int(advertisement.rssi)
        passed, reason = gate(rssi, self.fault, self.allow_unavailable)
        address = str(advertisement.address)
        connect = passed or self.fault == "ignore-rssi-gate"
        self.log_gate(address, passed, rssi, reason, connect)
        if connect:
            self.found.set_result(advertisement.address)

    def log_gate(self, address: str, passed: bool, rssi: int, reason: str, connect: bool) -> None:
        now = time.monotonic()
        last = self.last_gate.get(address)
        if last is not None and not connect and (last[0], last[1]) == (passed, rssi) and now - last[2] < GATE_LOG_INTERVAL:
            self.last_gate[address] = (last[0], last[1], last[2], last[3] + 1)
            return
        repeats = f" (same decision {last[3]} more times since the last line)" if last and last[3] else ""
        verdict = "pass" if passed else "refuse"
        if connect and not passed:
            verdict = "refuse, connecting anyway (fault ignore-rssi-gate)"
        event("gate", f"{address}: {verdict}: {reason}{repeats}")
        self.last_gate[address] = (passed, rssi, now, 0)

    async def find(self) -> hci.Address:
        self.found = asyncio.get_running_loop().create_future()
        self.last_gate.clear()
        event("scanning", f"for service {SERVICE_UUID}, duplicates kept, gate {GATE_MINIMUM}..{GATE_MAXIMUM} dBm")
        # Active: btvirt sends no advertising reports to a passive scanner.
        await self.device.start_scanning(active=True, own_address_type=hci.OwnAddressType.PUBLIC,
                                         filter_duplicates=self.fault == "filter-duplicates")
        try:
            return await self.found
        finally:
            self.found = None
            if not self.stop.is_set():
                await self.device.stop_scanning()

    # ---------------------------------------------------------------- one transfer
    async def transfer(self, address: hci.Address) -> bool:
        """One connection. True when the transfer finished, False to scan again."""
        event("connecting", str(address))
        try:
            connection = await self.device.connect(address, transport=PhysicalTransport.LE,
                                                   own_address_type=hci.OwnAddressType.PUBLIC,
                                                   timeout=CONNECT_TIMEOUT)
        except Exception as problem:  # noqa: BLE001 - a failed attempt means scanning again
            event("connect failed", f"{address}: {problem!r}; scanning again")
            return False
        event("connected", f"{connection.peer_address}, handle 0x{connection.handle:04X}")
        ended = asyncio.get_running_loop().create_future()

        def on_disconnection(reason: int) -> None:
            event("disconnected", f"handle 0x{connection.handle:04X}, reason 0x{int(reason):02X} "
                                  f"{hci.HCI_Constant.error_name(reason)}")
            if not ended.done():
                ended.set_result(reason)

        connection.on(Connection.EVENT_DISCONNECTION, on_disconnection)
        session = Session(self, connection, ended)
        try:
            await session.run()
        except Disconnected as problem:
            event("transfer", f"interrupted: {problem}; scanning again")
            return False
        except PeerUnusable as problem:
            event("error", str(problem))
            await session.clean_up(disconnect=True)
            raise
        return True


class Session:
    """Everything on one connection."""

    def __init__(self, central: TransferCentral, connection: Connection, ended: asyncio.Future) -> None:
        self.central = central
        self.fault = central.fault
        self.connection = connection
        self.ended = ended
        self.peer = Peer(connection)
        self.characteristic = None
        self.cccd = None
        self.subscribing = False
        self.subscribed = False
        self.message = bytearray()
        self.sizes: list[int] = []
        self.complete: asyncio.Future = asyncio.get_running_loop().create_future()

    async def step(self, awaitable, what: str):
        """One GATT step, given up when the connection ends or after GATT_TIMEOUT."""
        work = asyncio.ensure_future(awaitable)
        done, _ = await asyncio.wait([work, self.ended], timeout=GATT_TIMEOUT,
                                     return_when=asyncio.FIRST_COMPLETED)
        if work in done:
            if work.cancelled():
                # Bumble cancels the requests pending on a connection that ends.
                raise Disconnected(f"the connection ended during {what}")
            return work.result()
        work.cancel()
        if self.ended.done():
            raise Disconnected(f"the connection ended during {what}")
        raise PeerUnusable(f"no answer within {GATT_TIMEOUT:g} s during {what}")

    async def run(self) -> None:
        mtu = await self.step(self.peer.request_mtu(REQUESTED_MTU), "the MTU exchange")
        event("mtu", f"ATT_MTU {mtu} (asked {REQUESTED_MTU})")
        services = await self.step(self.peer.discover_service(SERVICE), "service discovery")
        if not services:
            raise PeerUnusable(f"the peer has no service {SERVICE_UUID}")
        characteristics = await self.step(
            self.peer.discover_characteristics(uuids=[CHARACTERISTIC], service=services[0]),
            "characteristic discovery")
        if not characteristics:
            raise PeerUnusable(f"the service has no characteristic {CHARACTERISTIC_UUID}")
        self.characteristic = characteristics[0]
        properties = Characteristic.Properties(self.characteristic.properties)
        event("discovered", f"service {SERVICE_UUID}, characteristic {CHARACTERISTIC_UUID} "
                            f"(value handle 0x{self.characteristic.handle:04X}, properties {properties})")
        await self.step(self.peer.discover_descriptors(self.characteristic), "descriptor discovery")
        self.cccd = self.characteristic.get_descriptor(GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR)
        if self.cccd is None:
            raise PeerUnusable("the characteristic has no CCCD")
        if not properties & Characteristic.Properties.NOTIFY:
            raise PeerUnusable("the characteristic does not notify")

        client = self.connection.gatt_client
        client.notification_subscribers.setdefault(self.characteristic.handle, set()).add(self.on_value)
        self.subscribing = True
        await self.step(self.cccd.write_value(bytes([0x01, 0x00]), with_response=True), "the subscription")
        self.subscribed = True
        event("subscribed", f"CCCD 0x{self.cccd.handle:04X} = 0x0001")

        done, _ = await asyncio.wait([self.complete, self.ended], return_when=asyncio.FIRST_COMPLETED)
        if self.complete not in done:
            raise Disconnected(f"the connection ended before EOM, {len(self.message)} bytes in "
                               f"{len(self.sizes)} chunks")
        message = bytes(self.message)
        event("chunks", f"{len(self.sizes)} received, {len(message)} bytes: {size_summary(self.sizes)}")
        event("eom", f"message complete: {len(message)} bytes")
        path = os.path.join(self.central.output, "received.bin")
        with open(path, "wb") as file:
            file.write(message)
        event("saved", f"{len(message)} bytes to {path}")

        try:
            await self.write_back(message, mtu)
            if self.fault == "stay-connected":
                await self.unsubscribe()
                event("staying connected", "until SIGTERM (fault stay-connected)")
                await self.central.stop.wait()
                return
            await self.clean_up(disconnect=True)
        except Disconnected as problem:
            # The message is in: a peer that leaves first does not undo the transfer.
            event("clean-up cut short", str(problem))

    def on_value(self, value) -> None:
        value = bytes(value)
        if not self.subscribing:
            event("notification before subscription", f"{len(value)} bytes ignored")
            return
        if self.complete.done():
            event("notification after EOM", f"{len(value)} bytes ignored")
            return
        if value == END_OF_MESSAGE:
            if self.fault == "keep-eom":
                self.message.extend(value)
            self.complete.set_result(None)
            return
        self.message.extend(value)
        self.sizes.append(len(value))

    async def write_back(self, message: bytes, mtu: int) -> None:
        if self.fault == "no-write-back":
            event("write-back", "skipped (fault no-write-back)")
            return
        # The sample writes back on EOM whatever arrived: an empty message gets an empty value.
        value = message[:min(mtu - 3, MAX_ATTRIBUTE_VALUE)]
        properties = Characteristic.Properties(self.characteristic.properties)
        if self.fault == "write-request":
            try:
                await self.step(self.characteristic.write_value(value, with_response=True), "the write-back")
                event("write-back", f"Write Request, {len(value)} bytes, hex {hex_preview(value)}: accepted "
                                    f"(fault write-request)")
            except (Disconnected, PeerUnusable):
                raise
            except Exception as problem:  # noqa: BLE001 - the peer's error response, logged
                code = getattr(problem, "error_code", None)
                reason = (f"ATT error 0x{code:02X} {getattr(problem, 'error_name', '')}".rstrip()
                          if isinstance(code, int) else repr(problem))
                event("write-back", f"Write Request, {len(value)} bytes: refused: {reason} (fault write-request)")
            return
        if not properties & Characteristic.Properties.WRITE_WITHOUT_RESPONSE:
            event("write-back", f"Write Command sent although the characteristic lacks "
                                f"write-without-response ({properties})")
        await self.characteristic.write_value(value, with_response=False)
        await self.flush("the write-back")
        event("write-back", f"Write Command, {len(value)} bytes, hex {hex_preview(value)}")

    async def flush(self, what: str) -> None:
        """Until the controller has completed every ACL packet queued on this connection. A
        Write Command returns once Bumble has queued it; a disconnection before the controller
        took it all would drop the rest (btvirt takes one 192-byte packet at a time)."""
        host_connection = self.central.device.host.connections.get(self.connection.handle)
        if host_connection is None:
            return
        try:
            await self.step(host_connection.acl_packet_queue.drain(self.connection.handle), what)
        except ValueError:
            pass  # nothing was ever queued on this connection

    async def unsubscribe(self) -> None:
        if not self.subscribed or self.ended.done():
            return
        if self.fault == "no-unsubscribe":
            event("unsubscribe", "skipped (fault no-unsubscribe)")
            return
        try:
            await self.step(self.cccd.write_value(bytes([0x00, 0x00]), with_response=True), "the unsubscription")
            event("unsubscribed", f"CCCD 0x{self.cccd.handle:04X} = 0x0000")
        except (Disconnected, PeerUnusable) as problem:
            event("unsubscribe failed", str(problem))
        finally:
            self.subscribed = False
            subscribers = self.connection.gatt_client.notification_subscribers.get(self.characteristic.handle)
            if subscribers is not None:
                subscribers.discard(self.on_value)

    async def clean_up(self, disconnect: bool) -> None:
        await self.unsubscribe()
        if disconnect and not self.ended.done():
            await self.flush("the last packets before the disconnection")
            event("disconnecting")
            try:
                await self.connection.disconnect()
            except Exception as problem:  # noqa: BLE001 - logged; the process ends anyway
                event("disconnect failed", repr(problem))
            if not self.ended.done():
                await asyncio.wait([self.ended], timeout=2.0)


async def main() -> int:
    hello(NAME, os.environ.get("DUT_FAULT") or None)
    check_role("central")
    transport_name = bumble_transport(require("BLUEPROOF_HCI"))
    output = require("BLUEPROOF_OUTPUT")
    fault = choose_fault(FAULTS)
    if not os.path.isdir(output):
        raise UsageError(f"BLUEPROOF_OUTPUT={output!r} is not a folder")
    allow_unavailable = os.environ.get("DUT_ALLOW_UNAVAILABLE_RSSI") == "1"

    event("case", os.environ.get("BLUEPROOF_CASE") or "(BLUEPROOF_CASE not set)")
    if fault:
        event("fault", f"{fault}: {FAULTS[fault]}")
    if allow_unavailable:
        event("test aid", "DUT_ALLOW_UNAVAILABLE_RSSI=1: RSSI 127 (not available) passes the gate")

    stop = asyncio.Event()
    install_sigterm(asyncio.get_running_loop(), stop)
    return await until_stopped(stop, serve(transport_name, fault, output, allow_unavailable, stop))


async def serve(transport_name: str, fault: str | None, output: str, allow_unavailable: bool,
                stop: asyncio.Event) -> int:
    event("hci", f"opening {transport_name}")
    try:
        transport = await open_transport(transport_name)
    except Exception as problem:  # noqa: BLE001 - any failure to reach the controller
        event("error", f"cannot open {transport_name}: {problem!r}")
        return EXIT_FAILED
    async with transport:
        device = Device.with_hci("blueproof-dut-central", hci.Address.generate_static_address(),
                                 transport.source, transport.sink)
        await device.power_on()
        event("ready", f"controller {device.public_address} (public)")
        central = TransferCentral(device, fault, output, allow_unavailable, stop)

        async def work() -> int:
            while True:
                address = await central.find()
                try:
                    if await central.transfer(address):
                        event("done")
                        return EXIT_OK
                except PeerUnusable:
                    return EXIT_FAILED

        job = asyncio.ensure_future(work())
        lost = asyncio.ensure_future(asyncio.shield(transport.source.terminated))
        await asyncio.wait([job, lost], return_when=asyncio.FIRST_COMPLETED)
        if job.done():
            lost.cancel()
            return job.result()
        job.cancel()
        event("error", "the controller closed the HCI transport")
        return EXIT_FAILED

if __name__ == "__main__":
    run(main)
