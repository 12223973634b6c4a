#!/usr/bin/env python3
"""A Google Bumble peer for blueproof's interop tests.

Run with the project venv's python (Bumble 0.0.236, pinned by scripts/setup):

    .venv/bin/python peer.py --transport TRANSPORT MODE [options]

TRANSPORT is a Bumble transport string: ``unix:<work>/btvirt/bt-server-le`` for btvirt,
``tcp-client:127.0.0.1:<port>`` for Rootcanal. Every connection is a new controller.

Events are JSON objects, one per line, flushed at once, on stdout (or on the descriptor
``--events-fd`` names). Everything else (logs) goes to stderr. Every mode first prints
``{"event":"ready","address":...,"address_type":...}`` with the address a peer must use to
reach it. A failure prints ``{"event":"error","message":...}`` and exits with status 1.

Addresses: by default the peer uses a static random address it generates at start (two
peers on one backend never collide); ``--address`` sets it, ``--address-type public`` uses
the controller's own public address instead (btvirt and Rootcanal assign one per controller).

Modes (see ``--help`` of each):
  advertise     legacy connectable advertising of a name, service UUIDs, iBeacon or
                manufacturer data, until killed or stdin ends
  scan          active scan; prints advertisements
  gatt-server   advertises and serves the test service (below)
  gatt-central  connects, discovers, long-reads, writes, subscribes, counts notifications
  l2cap-server  advertises, accepts one LE credit-based channel, echoes N bytes back
  l2cap-client  connects, opens the channel, sends N bytes and reads N bytes back
  transfer-peripheral  the Core Bluetooth transfer sample's peripheral: notifies a payload
                in chunks of ATT_MTU - 3, then "EOM", once a central subscribes
  transfer-central     the sample's central: scan, RSSI gate, connect, subscribe, reassemble
                until "EOM", write a reply back without response, unsubscribe, disconnect
  spark-send    a Spark sender written from docs/spark-wire.md: finds the listener whose
                advertisement names --to, publishes its key in --keys, opens the channel,
                offers a data connection and sends a file of N pattern bytes, then ends it

The test service (fixed UUIDs):
  service  7B5C0001-2F3A-4E0B-9E43-52A0C6B1D000
  0002     notify + indicate, 20-byte value (bytes 0..19)
  0003     write + write without response (the server prints "written")
  0004     read, a long value (default 300 bytes, byte i = i % 251): needs Read Blob
           whenever ATT_MTU - 1 < its length

Bulk data, everywhere (notifications, L2CAP), is the pattern byte i = i % 251 over the
whole stream, so the receiver can check it is intact and in order.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import logging
import os
import stat
import struct
import sys
import time
import uuid as uuidlib

from bumble import hci, l2cap
from bumble.att import ATT_Error
from bumble.core import UUID, PhysicalTransport
from bumble.device import AdvertisingType, Connection, Device
from bumble.gatt import (
    GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR,
    Characteristic,
    CharacteristicValue,
    Service,
)
from bumble.transport import open_transport

log = logging.getLogger("peer")

SERVICE_UUID = "7B5C0001-2F3A-4E0B-9E43-52A0C6B1D000"
NOTIFY_UUID = "7B5C0002-2F3A-4E0B-9E43-52A0C6B1D000"
WRITE_UUID = "7B5C0003-2F3A-4E0B-9E43-52A0C6B1D000"
READ_UUID = "7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000"
DEFAULT_SPSM = 0x0080
DEFAULT_NAME = "blueproof-peer"
DEFAULT_WRITE = "c0ffee01"
DEFAULT_WRITE_COMMAND = "c0ffee02"
APPLE_COMPANY_ID = 0x004C

AD_FLAGS = 0x01
AD_COMPLETE_16 = 0x03
AD_COMPLETE_128 = 0x07
AD_SHORT_NAME = 0x08
AD_COMPLETE_NAME = 0x09
AD_MANUFACTURER = 0xFF
FLAGS_LE_GENERAL_NO_BREDR = 0x06


class PeerError(Exception):
    """A failure reported as an "error" event (exit status 1)."""


# --------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------
class Events:
    def __init__(self, fd: int | None) -> None:
        self.stream = os.fdopen(fd, "w", buffering=1) if fd is not None else sys.stdout

    def emit(self, event: str, **fields) -> None:
        line = json.dumps({"event": event, **fields}, separators=(",", ":"))
        log.info("event %s", line)
        self.stream.write(line + "\n")
        self.stream.flush()


EVENTS: Events


def emit(event: str, **fields) -> None:
    EVENTS.emit(event, **fields)


def pattern(count: int, start: int = 0) -> bytes:
    """Bytes start..start+count-1 of the bulk pattern (byte i = i % 251)."""
    return bytes((start + i) % 251 for i in range(count))


def uuid_text(uuid: UUID) -> str:
    """16-bit UUIDs as 4 hex digits ("2902"), others in the 8-4-4-4-12 form, upper case."""
    raw = uuid.to_bytes()  # little-endian
    if len(raw) == 2:
        return f"{int.from_bytes(raw, 'little'):04X}"
    if len(raw) == 4:
        return f"{int.from_bytes(raw, 'little'):08X}"
    return str(uuidlib.UUID(bytes=raw[::-1])).upper()


def address_text(address: hci.Address) -> str:
    return address.to_string(with_type_qualifier=False)


def address_kind(address: hci.Address) -> str:
    return "public" if address.address_type in (
        hci.Address.PUBLIC_DEVICE_ADDRESS, hci.Address.PUBLIC_IDENTITY_ADDRESS) else "random"


# --------------------------------------------------------------------------------------
# Advertising data
# --------------------------------------------------------------------------------------
def parse_uuid(text: str) -> UUID:
    text = text.strip()
    if len(text) in (4, 6) and not "-" in text:  # 180D or 0x180D
        return UUID.from_16_bits(int(text, 16))
    return UUID(str(uuidlib.UUID(text)).upper())


def ibeacon_payload(spec: str) -> bytes:
    """UUID:MAJOR:MINOR:POWER -> Apple manufacturer data (company 0x004C, type 0x02,
    length 0x15, proximity UUID, major and minor big-endian, measured power)."""
    try:
        text, major, minor, power = spec.rsplit(":", 3)
        proximity = uuidlib.UUID(text).bytes
        return (struct.pack("<H", APPLE_COMPANY_ID) + bytes([0x02, 0x15]) + proximity
                + struct.pack(">HHb", int(major, 0), int(minor, 0), int(power, 0)))
    except (ValueError, struct.error) as error:
        raise PeerError(f"--ibeacon {spec!r}: expected UUID:MAJOR:MINOR:POWER ({error})")


def ad_structure(ad_type: int, payload: bytes) -> bytes:
    return bytes([len(payload) + 1, ad_type]) + payload


def build_advertising(name: str, services: list[str], ibeacon: str | None,
                      manufacturer: list[str]) -> tuple[bytes, bytes]:
    """Advertising data and scan response data. The flags go first in the advertising data;
    the other structures (name, iBeacon, manufacturer data, 16-bit UUIDs, 128-bit UUIDs) are
    placed in that order, each in the advertising data if it still fits in 31 bytes, else in
    the scan response; when that fails, the same is tried largest structure first."""
    uuids = [parse_uuid(text) for text in services]
    short = [u for u in uuids if len(u.uuid_bytes) == 2]
    long = [u for u in uuids if len(u.uuid_bytes) != 2]
    structures = [ad_structure(AD_FLAGS, bytes([FLAGS_LE_GENERAL_NO_BREDR]))]
    if name:
        structures.append(ad_structure(AD_COMPLETE_NAME, name.encode()))
    if ibeacon:
        structures.append(ad_structure(AD_MANUFACTURER, ibeacon_payload(ibeacon)))
    for text in manufacturer:
        structures.append(ad_structure(AD_MANUFACTURER, bytes.fromhex(text.replace(":", ""))))
    if short:
        structures.append(ad_structure(AD_COMPLETE_16, b"".join(u.to_bytes() for u in short)))
    if long:
        structures.append(ad_structure(AD_COMPLETE_128, b"".join(u.to_bytes() for u in long)))
    def place(order: list[bytes]) -> tuple[bytes, bytes] | None:
        advertising, scan_response = structures[0], b""  # the flags stay in the advertising data
        for structure in order:
            if len(advertising) + len(structure) <= 31:
                advertising += structure
            elif len(scan_response) + len(structure) <= 31:
                scan_response += structure
            else:
                return None
        return advertising, scan_response

    # In the order above first; if that does not fit, largest first.
    placed = place(structures[1:]) or place(sorted(structures[1:], key=len, reverse=True))
    if placed is None:
        raise PeerError("advertising data does not fit in 31 + 31 bytes: "
                        + " ".join(structure.hex() for structure in structures))
    return placed


def parse_ad(data: bytes) -> dict:
    """The fields of advertising data a test checks, decoded here (not by Bumble)."""
    result: dict = {}
    offset = 0
    while offset < len(data):
        length = data[offset]
        if length == 0 or offset + 1 + length > len(data):
            break
        ad_type, payload = data[offset + 1], data[offset + 2: offset + 1 + length]
        offset += 1 + length
        if ad_type == AD_FLAGS and payload:
            result["flags"] = payload[0]
        elif ad_type in (AD_COMPLETE_NAME, AD_SHORT_NAME):
            result["name"] = payload.decode(errors="replace")
        elif ad_type in (0x02, 0x03):
            result.setdefault("services", []).extend(
                f"{int.from_bytes(payload[i:i + 2], 'little'):04X}" for i in range(0, len(payload) - 1, 2))
        elif ad_type in (0x06, 0x07):
            result.setdefault("services", []).extend(
                str(uuidlib.UUID(bytes=payload[i:i + 16][::-1])).upper() for i in range(0, len(payload) - 15, 16))
        elif ad_type == AD_MANUFACTURER and len(payload) >= 2:
            company = int.from_bytes(payload[:2], "little")
            result.setdefault("manufacturer", []).append({"company": company, "data": payload[2:].hex()})
            if company == APPLE_COMPANY_ID and len(payload) == 25 and payload[2:4] == b"\x02\x15":
                major, minor, power = struct.unpack(">HHb", payload[20:25])
                result["ibeacon"] = {"uuid": str(uuidlib.UUID(bytes=payload[4:20])).upper(),
                                     "major": major, "minor": minor, "power": power}
    return result


# --------------------------------------------------------------------------------------
# Device set-up
# --------------------------------------------------------------------------------------
class Peer:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.device: Device
        self.own_address_type = (hci.OwnAddressType.PUBLIC if args.address_type == "public"
                                 else hci.OwnAddressType.RANDOM)

    async def open(self, transport) -> None:
        address = (hci.Address(self.args.address, hci.Address.RANDOM_DEVICE_ADDRESS)
                   if self.args.address else hci.Address.generate_static_address())
        self.device = Device.with_hci(self.args.name, address, transport.source, transport.sink)
        await self.device.power_on()

    @property
    def own_address(self) -> hci.Address:
        return (self.device.public_address if self.own_address_type == hci.OwnAddressType.PUBLIC
                else self.device.random_address)

    def ready(self, **fields) -> None:
        emit("ready", mode=self.args.mode, address=address_text(self.own_address),
             address_type=self.args.address_type,
             public_address=address_text(self.device.public_address), **fields)

    async def advertise(self, services: list[str], ibeacon: str | None = None,
                        manufacturer: list[str] | None = None) -> dict:
        advertising, scan_response = build_advertising(self.args.name, services, ibeacon, manufacturer or [])
        await self.device.start_advertising(
            advertising_type=AdvertisingType.UNDIRECTED_CONNECTABLE_SCANNABLE,
            own_address_type=self.own_address_type, auto_restart=True,
            advertising_data=advertising, scan_response_data=scan_response,
            advertising_interval_min=self.args.interval, advertising_interval_max=self.args.interval)
        return {"advertising_data": advertising.hex(), "scan_response_data": scan_response.hex()}

    def watch_connections(self) -> None:
        def on_connection(connection: Connection) -> None:
            emit("connected", peer=address_text(connection.peer_address),
                 peer_type=address_kind(connection.peer_address), handle=connection.handle,
                 role="central" if connection.role == hci.Role.CENTRAL else "peripheral")
            connection.on(connection.EVENT_CONNECTION_ATT_MTU_UPDATE,
                          lambda: emit("mtu", mtu=connection.att_mtu))
            connection.on(connection.EVENT_DISCONNECTION,
                          lambda reason: emit("disconnected", reason=int(reason)))
        self.device.on(self.device.EVENT_CONNECTION, on_connection)

    async def connect(self) -> Connection:
        kind = (hci.Address.PUBLIC_DEVICE_ADDRESS if self.args.peer_type == "public"
                else hci.Address.RANDOM_DEVICE_ADDRESS)
        target = hci.Address(self.args.peer, kind)
        log.info("connecting to %s", target)
        try:
            connection = await self.device.connect(target, transport=PhysicalTransport.LE,
                                                   own_address_type=self.own_address_type,
                                                   timeout=self.args.timeout)
        except Exception as error:
            raise PeerError(f"cannot connect to {target}: {error!r}") from error
        emit("connected", peer=address_text(connection.peer_address),
             peer_type=address_kind(connection.peer_address), handle=connection.handle, role="central")
        return connection

    def acl_queue(self, connection: Connection):
        return self.device.host.connections[connection.handle].acl_packet_queue

    async def wait_for_room(self, connection: Connection, limit: int = 64) -> None:
        """Waits until at most `limit` ACL packets of the host queue are pending, so a bulk
        sender keeps the controller busy without queueing megabytes in memory."""
        queue = self.acl_queue(connection)
        while queue.pending > limit:
            flowed = asyncio.Event()
            queue.once("flow", flowed.set)
            await flowed.wait()

    async def drain(self, connection: Connection) -> None:
        """Until no ACL packet of `connection` is in flight (Bumble's own drain)."""
        await self.acl_queue(connection).drain(connection.handle)

    async def drain_all(self, connection: Connection) -> None:
        """Until every ACL packet queued for `connection` has been completed by the controller,
        or the connection ended. Bumble's own `drain` returns when none is in flight for a
        moment, which happens between two packets while more wait in the queue (one controller
        buffer, as btvirt's); a sender about to disconnect needs this one."""
        queue = self.acl_queue(connection)
        await queue.drain(connection.handle)
        # A disconnection flushes the queue without a 'flow' event: it ends the wait too.
        woken = asyncio.Event()
        gone = False

        def on_disconnection(*_) -> None:
            nonlocal gone
            gone = True
            woken.set()

        connection.once(connection.EVENT_DISCONNECTION, on_disconnection)
        while queue.pending > 0 and not gone:
            woken.clear()
            queue.once("flow", woken.set)
            await woken.wait()


async def with_timeout(awaitable, seconds: float, what: str):
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except asyncio.TimeoutError:
        raise PeerError(f"timed out after {seconds:g} s waiting for {what}") from None


async def until_disconnected(connection: Connection) -> None:
    # Already gone (the device forgets a connection when it ends): its event has been and gone.
    if connection.device.connections.get(connection.handle) is not connection:
        return
    gone = asyncio.get_running_loop().create_future()
    connection.on(connection.EVENT_DISCONNECTION,
                  lambda reason: gone.done() or gone.set_result(reason))
    await gone


async def run_forever() -> None:
    await asyncio.get_running_loop().create_future()


# --------------------------------------------------------------------------------------
# Modes
# --------------------------------------------------------------------------------------
async def mode_advertise(peer: Peer) -> None:
    args = peer.args
    peer.watch_connections()
    data = await peer.advertise(args.service, args.ibeacon, args.manufacturer)
    peer.ready(**data)
    await run_forever()


async def mode_scan(peer: Peer) -> None:
    args = peer.args
    matches = 0
    done = asyncio.Event()
    seen: set[tuple[str, bool]] = set()

    def on_advertisement(advertisement) -> None:
        nonlocal matches
        if done.is_set():
            return
        # Bumble merges a scan response with the advertisement it answers (active scan).
        data = bytes(advertisement.data)
        fields = parse_ad(data)
        if args.filter_name and fields.get("name") != args.filter_name:
            return
        key = (str(advertisement.address), advertisement.is_scan_response)
        if args.once and key in seen:
            return
        seen.add(key)
        emit("advertisement", address=address_text(advertisement.address),
             address_type=address_kind(advertisement.address), rssi=advertisement.rssi,
             connectable=advertisement.is_connectable, scan_response=advertisement.is_scan_response,
             data=data.hex(), **fields)
        matches += 1
        if args.count and matches >= args.count:
            done.set()

    peer.device.on(peer.device.EVENT_ADVERTISEMENT, on_advertisement)
    peer.ready()  # before scanning starts: btvirt reports every advertiser at once then
    await peer.device.start_scanning(active=True, own_address_type=peer.own_address_type,
                                     filter_duplicates=False)
    try:
        await asyncio.wait_for(done.wait(), args.duration)
    except asyncio.TimeoutError:
        if args.count:
            raise PeerError(f"saw {matches} of {args.count} advertisements in {args.duration:g} s")
    await peer.device.stop_scanning()
    emit("done", advertisements=matches)


def test_service(args: argparse.Namespace, on_write) -> tuple[Service, Characteristic, Characteristic, Characteristic]:
    notify = Characteristic(NOTIFY_UUID, Characteristic.Properties.NOTIFY | Characteristic.Properties.INDICATE,
                            Characteristic.READABLE, bytes(range(20)))
    write = Characteristic(WRITE_UUID,
                           Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                           Characteristic.WRITEABLE, CharacteristicValue(write=on_write))
    read = Characteristic(READ_UUID, Characteristic.Properties.READ, Characteristic.READABLE,
                          pattern(args.read_size))
    return Service(SERVICE_UUID, [notify, write, read]), notify, write, read


async def mode_gatt_server(peer: Peer) -> None:
    args = peer.args
    device = peer.device
    service, notify, write, _ = test_service(args, lambda connection, value: None)
    device.add_service(service)
    device.gatt_server.max_mtu = args.mtu

    # The written value and whether it came as a Write Request or a Write Command: seen on
    # the ATT PDU itself, before the server stores it.
    server = device.gatt_server
    for handler_name, with_response in (("on_att_write_request", True), ("on_att_write_command", False)):
        original = getattr(server, handler_name)

        def handler(bearer, pdu, original=original, with_response=with_response):
            if pdu.attribute_handle == write.handle:
                emit("written", value=bytes(pdu.attribute_value).hex(), with_response=with_response)
            return original(bearer, pdu)
        setattr(server, handler_name, handler)

    sending: set[asyncio.Task] = set()

    async def send_notifications(connection: Connection) -> None:
        size = args.notify_size or connection.att_mtu - 3
        if size > connection.att_mtu - 3:
            raise PeerError(f"--notify-size {size} exceeds ATT_MTU - 3 = {connection.att_mtu - 3}")
        start = time.monotonic()
        sent = 0
        count = 0
        while sent < args.notify_bytes:
            chunk = pattern(min(size, args.notify_bytes - sent), sent)
            await peer.wait_for_room(connection)
            await device.notify_subscriber(connection, notify, value=chunk)
            sent += len(chunk)
            count += 1
        await peer.drain(connection)
        seconds = time.monotonic() - start
        emit("notified", bytes=sent, notifications=count, size=size,
             sha256=hashlib.sha256(pattern(sent)).hexdigest(), seconds=round(seconds, 6),
             bytes_per_second=round(sent / seconds) if seconds else None)

    async def send_indication(connection: Connection) -> None:
        start = time.monotonic()
        await device.indicate_subscriber(connection, notify, value=bytes(range(20)))
        emit("indicated", value=bytes(range(20)).hex(), seconds=round(time.monotonic() - start, 6))

    def start(work, connection: Connection) -> None:
        async def guarded() -> None:
            try:
                await work(connection)
            except PeerError as error:
                fail(str(error))
            except Exception as error:  # noqa: BLE001 - reported as an error event
                log.exception("task failed")
                fail(f"{type(error).__name__}: {error}")
        task = asyncio.ensure_future(guarded())
        sending.add(task)
        task.add_done_callback(sending.discard)

    def on_subscription(connection: Connection, notify_enabled: bool, indicate_enabled: bool) -> None:
        emit("subscribed", characteristic=NOTIFY_UUID, notify=notify_enabled, indicate=indicate_enabled)
        if notify_enabled and args.notify_bytes:
            start(send_notifications, connection)
        if indicate_enabled and args.indicate:
            start(send_indication, connection)

    notify.on(notify.EVENT_SUBSCRIPTION, on_subscription)
    peer.watch_connections()
    data = await peer.advertise([SERVICE_UUID])
    peer.ready(service=SERVICE_UUID, **data)
    await run_forever()


async def mode_gatt_central(peer: Peer) -> None:
    args = peer.args
    device = peer.device
    peer.ready()
    connection = await peer.connect()
    from bumble.device import Peer as GattPeer
    gatt = GattPeer(connection)
    t = args.timeout

    if args.mtu != 23:
        mtu = await with_timeout(gatt.request_mtu(args.mtu), t, "the MTU exchange")
        emit("mtu", mtu=mtu)

    await with_timeout(gatt.discover_services(), t, "service discovery")
    services = []
    for service in gatt.services:
        await with_timeout(service.discover_characteristics(), t, "characteristic discovery")
        characteristics = []
        for characteristic in service.characteristics:
            await with_timeout(characteristic.discover_descriptors(), t, "descriptor discovery")
            characteristics.append({
                "uuid": uuid_text(characteristic.uuid), "value_handle": characteristic.handle,
                "properties": int(characteristic.properties),
                "descriptors": [{"uuid": uuid_text(d.type), "handle": d.handle}
                                for d in characteristic.descriptors]})
        services.append({"uuid": uuid_text(service.uuid), "start": service.handle,
                         "end": service.end_group_handle, "characteristics": characteristics})
    emit("services", services=services)

    def find(uuid: str):
        for service in gatt.services:
            if uuid_text(service.uuid) == SERVICE_UUID:
                for characteristic in service.characteristics:
                    if uuid_text(characteristic.uuid) == uuid:
                        return characteristic
        raise PeerError(f"characteristic {uuid} not found")
    notify, write, read = find(NOTIFY_UUID), find(WRITE_UUID), find(READ_UUID)

    value = await with_timeout(read.read_value(), t, "the long read")
    emit("read", characteristic=READ_UUID, bytes=len(value), sha256=hashlib.sha256(value).hexdigest(),
         pattern_ok=value == pattern(len(value)), value=value.hex())

    received = bytearray()
    first: float | None = None
    last = 0.0
    enough = asyncio.Event()
    indications: list[bytes] = []
    indicated = asyncio.Event()

    def on_notification(value: bytes) -> None:
        nonlocal first, last
        now = time.monotonic()
        first = first or now
        last = now
        received.extend(value)
        if len(received) >= args.expect_bytes:
            enough.set()

    def on_indication(value: bytes) -> None:
        indications.append(bytes(value))
        emit("indication", characteristic=NOTIFY_UUID, value=bytes(value).hex())
        indicated.set()

    client = connection.gatt_client
    cccd = notify.get_descriptor(GATT_CLIENT_CHARACTERISTIC_CONFIGURATION_DESCRIPTOR)
    if cccd is None:
        raise PeerError("the notify characteristic has no CCCD")
    # Subscribed by hand (not Bumble's subscribe()) to enable notifications and, with
    # --indicate, indications on the one CCCD.
    client.notification_subscribers.setdefault(notify.handle, set()).add(on_notification)
    if args.indicate:
        client.indication_subscribers.setdefault(notify.handle, set()).add(on_indication)
    bits = 0x0001 | (0x0002 if args.indicate else 0)
    await with_timeout(client.write_value(cccd, struct.pack("<H", bits), with_response=True), t, "the CCCD write")
    emit("subscribed", characteristic=NOTIFY_UUID, notify=True, indicate=args.indicate)

    await with_timeout(write.write_value(bytes.fromhex(args.write), with_response=True), t, "the Write Response")
    emit("wrote", characteristic=WRITE_UUID, value=args.write, with_response=True)
    await write.write_value(bytes.fromhex(args.write_command), with_response=False)
    emit("wrote", characteristic=WRITE_UUID, value=args.write_command, with_response=False)

    if args.expect_bytes:
        await with_timeout(enough.wait(), t, f"{args.expect_bytes} bytes of notifications ({len(received)} came)")
        data = bytes(received)
        seconds = (last - first) if first is not None else 0.0
        emit("received", bytes=len(data), sha256=hashlib.sha256(data).hexdigest(),
             pattern_ok=data == pattern(len(data)), seconds=round(seconds, 6),
             bytes_per_second=round(len(data) / seconds) if seconds else None)
    if args.indicate:
        await with_timeout(indicated.wait(), t, "an indication")

    client.notification_subscribers.pop(notify.handle, None)
    client.indication_subscribers.pop(notify.handle, None)
    await with_timeout(client.write_value(cccd, b"\x00\x00", with_response=True), t, "the CCCD write")
    emit("unsubscribed", characteristic=NOTIFY_UUID)
    await connection.disconnect()
    emit("done")


def l2cap_spec(args: argparse.Namespace) -> l2cap.LeCreditBasedChannelSpec:
    return l2cap.LeCreditBasedChannelSpec(psm=args.spsm, mtu=args.mtu, mps=args.mps, max_credits=args.credits)


class Channel:
    """Reads and writes one LE credit-based channel."""

    def __init__(self, peer: Peer, connection: Connection, channel) -> None:
        self.peer, self.connection, self.channel = peer, connection, channel
        self.received = bytearray()
        self.first: float | None = None
        self.last = 0.0
        self.want = 0
        self.enough = asyncio.Event()
        channel.sink = self.on_sdu
        emit("channel", spsm=channel.psm, mtu=channel.mtu, mps=channel.mps,
             peer_mtu=channel.peer_mtu, peer_mps=channel.peer_mps, peer_credits=channel.credits)

    def on_sdu(self, sdu: bytes) -> None:
        now = time.monotonic()
        self.first = self.first or now
        self.last = now
        self.received.extend(sdu)
        if len(self.received) >= self.want:
            self.enough.set()

    async def receive(self, count: int, timeout: float) -> None:
        self.want = count
        if len(self.received) < count:
            await with_timeout(self.enough.wait(), timeout,
                               f"{count} bytes on the channel (came {len(self.received)})")
        data = bytes(self.received[:count])
        seconds = (self.last - self.first) if self.first is not None else 0.0
        emit("received", bytes=len(data), sha256=hashlib.sha256(data).hexdigest(),
             pattern_ok=data == pattern(count), extra=len(self.received) - count,
             seconds=round(seconds, 6), bytes_per_second=round(count / seconds) if seconds else None)

    async def send(self, count: int, sdu_size: int, timeout: float) -> None:
        size = min(sdu_size or self.channel.peer_mtu, self.channel.peer_mtu)
        start = time.monotonic()
        sent = 0
        while sent < count:
            chunk = pattern(min(size, count - sent), sent)
            self.channel.write(chunk)
            sent += len(chunk)
            await with_timeout(self.channel.drain(), timeout, "the channel to drain (credits)")
        await with_timeout(self.peer.drain(self.connection), timeout, "the controller to take every packet")
        seconds = time.monotonic() - start
        emit("sent", bytes=count, sdu_size=size, sha256=hashlib.sha256(pattern(count)).hexdigest(),
             seconds=round(seconds, 6), bytes_per_second=round(count / seconds) if seconds else None)


async def mode_l2cap_server(peer: Peer) -> None:
    args = peer.args
    accepted: asyncio.Queue = asyncio.Queue()
    peer.device.create_l2cap_server(spec=l2cap_spec(args), handler=accepted.put_nowait)
    peer.watch_connections()
    data = await peer.advertise([])
    peer.ready(spsm=args.spsm, **data)
    raw = await accepted.get()
    connection = raw.connection
    channel = Channel(peer, connection, raw)
    await channel.receive(args.bytes, args.timeout)
    await channel.send(args.bytes, args.sdu_size, args.timeout)
    emit("done")
    # Stay until the client disconnects (or we are stopped).
    await until_disconnected(connection)


async def mode_l2cap_client(peer: Peer) -> None:
    args = peer.args
    peer.ready()
    connection = await peer.connect()
    try:
        raw = await with_timeout(peer.device.create_l2cap_channel(connection, l2cap_spec(args)), args.timeout,
                                 f"the channel on SPSM 0x{args.spsm:04X}")
    except l2cap.L2capError as error:
        raise PeerError(f"channel on SPSM 0x{args.spsm:04X} refused: {error}") from error
    channel = Channel(peer, connection, raw)
    await channel.send(args.bytes, args.sdu_size, args.timeout)
    await channel.receive(args.bytes, args.timeout)
    await raw.disconnect()
    await connection.disconnect()
    emit("done")


# --------------------------------------------------------------------------------------
# Spark (docs/spark-wire.md), written from the document, not from blueproof's Swift
# --------------------------------------------------------------------------------------
SPARK_SPSM = 0x0081
SPARK_SERVICE = uuidlib.UUID("5B1E7A10-0B1E-4F5A-9C3D-7E2A61B0F001")
SPARK_VERSION = 1
SPARK_HEADER = 9          # version, kind, origin, u32 connection, u16 body length
SPARK_CHUNK_DATA = 65535 - SPARK_HEADER - 4


# The listener speaks first: its hello can arrive before `create_l2cap_channel` returns and a
# sink is set, and Bumble 0.0.236 drops a PDU that finds no sink. A channel without one keeps
# its PDUs here until `spark_sink` sets one and replays them, in order.
_on_pdu = l2cap.LeCreditBasedChannel.on_pdu


def _keep_early_pdus(self, pdu: bytes) -> None:
    if self.sink is None:
        self.__dict__.setdefault("early_pdus", []).append(pdu)
        return
    _on_pdu(self, pdu)


l2cap.LeCreditBasedChannel.on_pdu = _keep_early_pdus


def spark_sink(channel, sink) -> None:
    channel.sink = sink
    for pdu in channel.__dict__.pop("early_pdus", []):
        _on_pdu(channel, pdu)


def spark_frame(kind: int, origin: int, connection: int, body: bytes) -> bytes:
    return struct.pack(">BBBIH", SPARK_VERSION, kind, origin, connection, len(body)) + body


def spark_parse(sdu: bytes) -> tuple[int, int, int, bytes]:
    if len(sdu) < SPARK_HEADER:
        raise PeerError(f"a Spark frame of {len(sdu)} bytes, shorter than its header")
    version, kind, origin, connection, length = struct.unpack(">BBBIH", sdu[:SPARK_HEADER])
    if version != SPARK_VERSION or length != len(sdu) - SPARK_HEADER:
        raise PeerError(f"a Spark frame with version {version} and body length {length} of {len(sdu) - SPARK_HEADER}")
    return kind, origin, connection, sdu[SPARK_HEADER:]


def spark_listener_id(data: bytes) -> int | None:
    """The registration id in a Spark listener's Service Data (128-bit UUID, 8 bytes little-endian)."""
    offset = 0
    while offset + 1 < len(data):
        length = data[offset]
        if length == 0 or offset + 1 + length > len(data):
            return None
        ad_type, payload = data[offset + 1], data[offset + 2:offset + 1 + length]
        if ad_type == 0x21 and len(payload) == 24 and uuidlib.UUID(bytes=payload[15::-1]) == SPARK_SERVICE:
            return struct.unpack("<Q", payload[16:])[0]
        offset += 1 + length
    return None


async def mode_spark_send(peer: Peer) -> None:
    args = peer.args
    found: asyncio.Future = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement) -> None:
        if not found.done() and advertisement.is_connectable and spark_listener_id(bytes(advertisement.data)) == args.to:
            found.set_result(advertisement.address)

    peer.device.on(peer.device.EVENT_ADVERTISEMENT, on_advertisement)
    key = os.urandom(32)
    os.makedirs(args.keys, exist_ok=True)
    temporary = os.path.join(args.keys, f".{args.id}.tmp")
    with open(temporary, "w", encoding="ascii") as handle:
        handle.write(key.hex() + "\n")
    os.replace(temporary, os.path.join(args.keys, str(args.id)))
    peer.ready(registration=args.id)
    # Active, as mode_scan: btvirt reports the advertiser's data with its scan response.
    await peer.device.start_scanning(active=True, own_address_type=peer.own_address_type, filter_duplicates=False)
    address = await with_timeout(found, args.timeout, f"an advertisement of Spark listener {args.to}")
    await peer.device.stop_scanning()
    connection = await peer.device.connect(address, transport=PhysicalTransport.LE, own_address_type=peer.own_address_type,
                                           timeout=args.timeout)
    emit("connected", peer=address_text(address), handle=connection.handle)
    spec = l2cap.LeCreditBasedChannelSpec(psm=SPARK_SPSM, mtu=65535, mps=args.mps, max_credits=args.credits)
    channel = await with_timeout(peer.device.create_l2cap_channel(connection, spec), args.timeout, "the Spark channel")
    frames: asyncio.Queue = asyncio.Queue()
    spark_sink(channel, frames.put_nowait)

    async def next_frame(what: str) -> tuple[int, int, int, bytes]:
        return spark_parse(await with_timeout(frames.get(), args.timeout, what))

    async def send(frame: bytes, what: str) -> None:
        # Bumble's channel is a byte stream: what is queued together goes out as one SDU (up to
        # the peer's MTU). A Spark frame is one SDU, so each waits for the one before it to leave.
        await with_timeout(channel.drain(), args.timeout, f"credits for {what}")
        channel.write(frame)

    kind, _, _, body = await next_frame("the listener's hello")
    if kind != 1 or len(body) != 8:
        raise PeerError(f"the listener's first frame is kind {kind}, not a hello")
    named = struct.unpack(">Q", body)[0]
    emit("hello", registration=named)
    await send(spark_frame(1, 0, 0, struct.pack(">Q", args.id)), "the hello")
    metadata = args.metadata.encode("utf-8")
    await send(spark_frame(2, 0, 1, struct.pack(">QQ", args.id, args.to) + key + struct.pack(">H", len(metadata)) + metadata), "the offer")
    kind, origin, number, body = await next_frame("the answer to the offer")
    if (kind, origin, number) != (3, 1, 1):
        raise PeerError(f"the offer was answered with kind {kind}, origin {origin}, connection {number}: {body.hex()}")
    emit("accepted")

    payload = pattern(args.bytes)
    digest = hashlib.sha256(payload).digest()
    name = args.name_of_file.encode("utf-8")
    transfer = 2  # the offerer's ids are even
    start = time.monotonic()
    await send(spark_frame(9, 0, 1, struct.pack(">IBQ", transfer, 2, len(payload)) + digest + bytes([len(name)]) + name), "the header")
    for offset in range(0, len(payload), SPARK_CHUNK_DATA):
        await send(spark_frame(10, 0, 1, struct.pack(">I", transfer) + payload[offset:offset + SPARK_CHUNK_DATA]), "a chunk")
    await send(spark_frame(11, 0, 1, struct.pack(">I", transfer)), "done")
    await send(spark_frame(5, 0, 1, bytes([2])), "the end")
    await with_timeout(channel.drain(), args.timeout, "credits for the end")
    await with_timeout(peer.drain_all(connection), args.timeout, "the controller to take every packet")
    seconds = time.monotonic() - start
    emit("sent", bytes=len(payload), sha256=digest.hex(), seconds=round(seconds, 6))
    try:
        kind, origin, number, body = spark_parse(frames.get_nowait())
        emit("answer", kind=kind, body=body.hex())
    except asyncio.QueueEmpty:
        pass
    await connection.disconnect()
    os.remove(os.path.join(args.keys, str(args.id)))
    emit("done")


# --------------------------------------------------------------------------------------
# The Core Bluetooth transfer sample's roles (docs/corebluetooth-transfer-sample.md)
# --------------------------------------------------------------------------------------
TRANSFER_SERVICE_UUID = "E20A39F4-73F5-4BC4-A12F-17D1AD07A961"
TRANSFER_CHARACTERISTIC_UUID = "08590F7E-DB05-467E-8757-72F6FAEB13D4"
EOM = b"EOM"


def transfer_payload(args: argparse.Namespace) -> bytes:
    """--text as UTF-8, else --bytes of the bulk pattern."""
    return args.text.encode() if args.text is not None else pattern(args.bytes)


def transfer_chunks(payload: bytes, size: int):
    """Chunks of `size` bytes, then the EOM marker. A chunk that is exactly EOM (only ever the
    last one) goes as "EO" then "M", so no data chunk reads as the marker."""
    for offset in range(0, len(payload), size):
        chunk = payload[offset:offset + size]
        if chunk == EOM:
            yield chunk[:2]
            yield chunk[2:]
        else:
            yield chunk
    yield EOM


def transfer_chunk_size(connection: Connection) -> int:
    """ATT_MTU - 3, at most the 512 octets an attribute value may have."""
    return min(connection.att_mtu - 3, 512)


async def mode_transfer_peripheral(peer: Peer) -> None:
    """The sample's peripheral: serves the transfer characteristic (notify + write without
    response), advertises the service UUID, and once a central subscribes notifies the payload
    in chunks of ATT_MTU - 3, then EOM. Writes from the central are printed as "written"."""
    args, device = peer.args, peer.device

    def on_write(connection, value) -> None:
        emit("written", value=bytes(value).hex(), bytes=len(value))

    characteristic = Characteristic(
        TRANSFER_CHARACTERISTIC_UUID,
        Characteristic.Properties.NOTIFY | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
        Characteristic.READABLE | Characteristic.WRITEABLE, CharacteristicValue(write=on_write))
    device.add_service(Service(TRANSFER_SERVICE_UUID, [characteristic]))
    device.gatt_server.max_mtu = args.mtu
    payload = transfer_payload(args)
    tasks: set[asyncio.Task] = set()

    async def send(connection: Connection) -> None:
        size = transfer_chunk_size(connection)
        start = time.monotonic()
        count = 0
        for chunk in transfer_chunks(payload, size):
            await peer.wait_for_room(connection)
            await device.notify_subscriber(connection, characteristic, value=chunk)
            count += 1
        await peer.drain(connection)
        seconds = time.monotonic() - start
        emit("sent", bytes=len(payload), chunks=count - 1, chunk_size=size,
             sha256=hashlib.sha256(payload).hexdigest(), seconds=round(seconds, 6),
             bytes_per_second=round(len(payload) / seconds) if seconds else None)

    def on_subscription(connection: Connection, notify_enabled: bool, indicate_enabled: bool) -> None:
        emit("subscribed", characteristic=TRANSFER_CHARACTERISTIC_UUID, notify=notify_enabled)
        if not notify_enabled:
            return

        async def guarded() -> None:
            try:
                await send(connection)
            except Exception as error:  # noqa: BLE001 - reported as an error event
                log.exception("transfer failed")
                fail(f"{type(error).__name__}: {error}")
        task = asyncio.ensure_future(guarded())
        tasks.add(task)
        task.add_done_callback(tasks.discard)

    characteristic.on(characteristic.EVENT_SUBSCRIPTION, on_subscription)
    peer.watch_connections()
    data = await peer.advertise([TRANSFER_SERVICE_UUID])
    peer.ready(service=TRANSFER_SERVICE_UUID, **data)
    await run_forever()


async def mode_transfer_central(peer: Peer) -> None:
    """The sample's central: scans for the service UUID, applies the RSSI gate, connects,
    exchanges MTU, discovers, subscribes, appends notifications until EOM, writes a reply back
    without response, unsubscribes and disconnects."""
    args, device = peer.args, peer.device
    loop = asyncio.get_running_loop()
    found = loop.create_future()

    def on_advertisement(advertisement) -> None:
        if found.done() or not advertisement.is_connectable:
            return
        if TRANSFER_SERVICE_UUID not in parse_ad(bytes(advertisement.data)).get("services", []):
            return
        rssi = None if advertisement.rssi == 127 else advertisement.rssi  # 127: not available
        passed = args.allow_unavailable_rssi if rssi is None else rssi >= args.min_rssi
        emit("gate", address=address_text(advertisement.address), rssi=rssi, passed=passed)
        if passed:
            found.set_result(advertisement.address)

    device.on(device.EVENT_ADVERTISEMENT, on_advertisement)
    peer.ready()
    await device.start_scanning(active=True, own_address_type=peer.own_address_type, filter_duplicates=False)
    address = await with_timeout(found, args.timeout, "an advertiser of the transfer service passing the gate")
    await device.stop_scanning()
    try:
        connection = await device.connect(address, transport=PhysicalTransport.LE,
                                          own_address_type=peer.own_address_type, timeout=args.timeout)
    except Exception as error:
        raise PeerError(f"cannot connect to {address}: {error!r}") from error
    emit("connected", peer=address_text(connection.peer_address), handle=connection.handle, role="central")

    from bumble.device import Peer as GattPeer
    gatt = GattPeer(connection)
    t = args.timeout
    if args.mtu != 23:
        emit("mtu", mtu=await with_timeout(gatt.request_mtu(args.mtu), t, "the MTU exchange"))
    services = await with_timeout(gatt.discover_service(TRANSFER_SERVICE_UUID), t, "service discovery")
    if not services:
        raise PeerError("no transfer service")
    characteristics = await with_timeout(services[0].discover_characteristics(), t, "characteristic discovery")
    characteristic = next((c for c in characteristics if uuid_text(c.uuid) == TRANSFER_CHARACTERISTIC_UUID), None)
    if characteristic is None:
        raise PeerError("no transfer characteristic")
    await with_timeout(characteristic.discover_descriptors(), t, "descriptor discovery")

    received = bytearray()
    done = loop.create_future()
    stats = {"chunks": 0, "largest": 0, "first": None}

    def on_value(value: bytes) -> None:
        value = bytes(value)
        if done.done():
            return
        if value == EOM:
            done.set_result(bytes(received))
            return
        stats["first"] = stats["first"] or time.monotonic()
        stats["chunks"] += 1
        stats["largest"] = max(stats["largest"], len(value))
        received.extend(value)
        if args.disconnect_after is not None and len(received) >= args.disconnect_after:
            done.set_result(None)

    await with_timeout(characteristic.subscribe(on_value), t, "the subscription")
    emit("subscribed", characteristic=TRANSFER_CHARACTERISTIC_UUID, mtu=connection.att_mtu)
    data = await with_timeout(done, t, f"EOM ({len(received)} bytes came)")
    if data is None:
        # --disconnect-after: leave mid-transfer, without unsubscribing.
        emit("leaving", bytes=len(received), sha256=hashlib.sha256(bytes(received)).hexdigest())
        await connection.disconnect()
        emit("done")
        return
    seconds = time.monotonic() - stats["first"] if stats["first"] else 0.0
    emit("received", bytes=len(data), sha256=hashlib.sha256(data).hexdigest(),
         pattern_ok=data == pattern(len(data)), chunks=stats["chunks"], largest_chunk=stats["largest"],
         seconds=round(seconds, 6), bytes_per_second=round(len(data) / seconds) if seconds else None)

    reply = args.reply.encode() if args.reply is not None else data[:transfer_chunk_size(connection)]
    if args.write_request:
        try:
            await with_timeout(characteristic.write_value(reply, with_response=True), t, "the Write Response")
            emit("wrote", value=reply.hex(), with_response=True)
        except ATT_Error as error:
            emit("write refused", error=error.error_code, bytes=len(reply))
    else:
        await characteristic.write_value(reply, with_response=False)
        emit("wrote", value=reply.hex(), with_response=False)
    await with_timeout(characteristic.unsubscribe(on_value), t, "the unsubscription")
    emit("unsubscribed", characteristic=TRANSFER_CHARACTERISTIC_UUID)
    await connection.disconnect()
    emit("done")


MODES = {
    "advertise": mode_advertise,
    "scan": mode_scan,
    "gatt-server": mode_gatt_server,
    "gatt-central": mode_gatt_central,
    "l2cap-server": mode_l2cap_server,
    "l2cap-client": mode_l2cap_client,
    "spark-send": mode_spark_send,
    "transfer-peripheral": mode_transfer_peripheral,
    "transfer-central": mode_transfer_central,
}


# --------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------
def arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", required=True,
                        help="Bumble transport: unix:PATH (btvirt), tcp-client:127.0.0.1:PORT (Rootcanal)")
    parser.add_argument("--events-fd", type=int, help="write events to this descriptor instead of stdout")
    parser.add_argument("--log-level", default=os.environ.get("BUMBLE_PEER_LOG", "INFO"))

    # Options every mode takes, after the mode's name.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--name", default=DEFAULT_NAME, help=f"device name (default {DEFAULT_NAME})")
    common.add_argument("--address", help="static random address to use (default: a fresh one)")
    common.add_argument("--address-type", choices=["random", "public"], default="random",
                        help="own address: the static random one (default) or the controller's public one")
    common.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for each step (default 30)")
    common.add_argument("--interval", type=float, default=100.0, help="advertising interval in ms (default 100)")

    modes = parser.add_subparsers(dest="mode", required=True)

    def peer_options(sub):
        sub.add_argument("--peer", required=True, help="address of the peer to connect to")
        sub.add_argument("--peer-type", choices=["random", "public"], default="random")

    def l2cap_options(sub):
        sub.add_argument("--spsm", type=lambda s: int(s, 0), default=DEFAULT_SPSM,
                         help=f"SPSM (default 0x{DEFAULT_SPSM:04X})")
        sub.add_argument("--mtu", type=int, default=2048, help="our L2CAP MTU (default 2048)")
        sub.add_argument("--mps", type=int, default=2048, help="our L2CAP MPS (default 2048)")
        sub.add_argument("--credits", type=int, default=256, help="credits we give the peer (default 256)")
        sub.add_argument("--bytes", type=int, default=100_000, help="bytes each way (default 100000)")
        sub.add_argument("--sdu-size", type=int, default=0, help="SDU size we send (default: the peer's MTU)")

    sub = modes.add_parser("advertise", parents=[common], help="legacy connectable advertising")
    sub.add_argument("--service", action="append", default=[], help="service UUID, 16-bit (180D) or 128-bit")
    sub.add_argument("--ibeacon", help="UUID:MAJOR:MINOR:POWER, as Apple manufacturer data")
    sub.add_argument("--manufacturer", action="append", default=[],
                     help="manufacturer data as hex, company id first (little-endian)")

    sub = modes.add_parser("scan", parents=[common], help="active scan, prints advertisements")
    sub.add_argument("--filter-name", help="only advertisements with this complete/short name")
    sub.add_argument("--count", type=int, default=0, help="stop after this many (0: until --duration)")
    sub.add_argument("--duration", type=float, default=10.0, help="seconds to scan (default 10)")
    sub.add_argument("--once", action="store_true", help="each address (and scan response) only once")

    sub = modes.add_parser("gatt-server", parents=[common], help="serves the test service")
    sub.add_argument("--mtu", type=int, default=517, help="our ATT MTU in the exchange (default 517)")
    sub.add_argument("--read-size", type=int, default=300, help="length of the long read value (default 300)")
    sub.add_argument("--notify-bytes", type=int, default=0, help="once subscribed, send this many bytes")
    sub.add_argument("--notify-size", type=int, default=0, help="bytes per notification (default ATT_MTU - 3)")
    sub.add_argument("--indicate", action="store_true", help="once indications are enabled, send one")

    sub = modes.add_parser("gatt-central", parents=[common], help="exercises the test service")
    peer_options(sub)
    sub.add_argument("--mtu", type=int, default=247, help="ATT MTU to request (default 247; 23: no exchange)")
    sub.add_argument("--write", default=DEFAULT_WRITE, help=f"hex written with response (default {DEFAULT_WRITE})")
    sub.add_argument("--write-command", default=DEFAULT_WRITE_COMMAND,
                     help=f"hex written without response (default {DEFAULT_WRITE_COMMAND})")
    sub.add_argument("--expect-bytes", type=int, default=0, help="wait for this many bytes of notifications")
    sub.add_argument("--indicate", action="store_true", help="enable indications too and wait for one")

    sub = modes.add_parser("l2cap-server", parents=[common], help="accepts one channel, echoes N bytes")
    l2cap_options(sub)
    sub = modes.add_parser("l2cap-client", parents=[common], help="opens a channel, sends and reads N bytes")
    peer_options(sub)
    l2cap_options(sub)

    sub = modes.add_parser("spark-send", parents=[common], help="a Spark sender: offer, send a file, end")
    sub.add_argument("--to", type=int, required=True, help="the listener's registration id")
    sub.add_argument("--id", type=int, default=0x5B0B, help="our registration id (default 0x5B0B)")
    sub.add_argument("--keys", required=True, help="the key folder the listener reads (a file per node)")
    sub.add_argument("--bytes", type=int, default=100_000, help="file size, bytes of the pattern (default 100000)")
    sub.add_argument("--name-of-file", default="bumble.bin", help="the file's name (default bumble.bin)")
    sub.add_argument("--metadata", default="from bumble", help="the offer's metadata")
    sub.add_argument("--mps", type=int, default=1024, help="our L2CAP MPS (default 1024)")
    sub.add_argument("--credits", type=int, default=64, help="credits we give the listener (default 64)")

    def transfer_payload_options(sub):
        sub.add_argument("--bytes", type=int, default=100_000, help="send this many bytes of the pattern (default 100000)")
        sub.add_argument("--text", help="send this text instead")

    sub = modes.add_parser("transfer-peripheral", parents=[common], help="the transfer sample's peripheral")
    sub.add_argument("--mtu", type=int, default=517, help="our ATT MTU in the exchange (default 517)")
    transfer_payload_options(sub)
    sub = modes.add_parser("transfer-central", parents=[common], help="the transfer sample's central")
    sub.add_argument("--mtu", type=int, default=517, help="ATT MTU to request (default 517; 23: no exchange)")
    sub.add_argument("--min-rssi", type=int, default=-50, help="weakest RSSI that passes the gate (default -50)")
    sub.add_argument("--allow-unavailable-rssi", action="store_true", help="let RSSI \"not available\" (127) pass")
    sub.add_argument("--reply", help="text written back (default: the first ATT_MTU - 3 bytes received, maybe none)")
    sub.add_argument("--write-request", action="store_true", help="write back with a Write Request, not a Write Command")
    sub.add_argument("--disconnect-after", type=int,
                     help="disconnect (without unsubscribing) once this many bytes arrived")
    return parser.parse_args(argv)


def fail(message: str) -> None:
    emit("error", message=message)
    sys.stderr.flush()
    os._exit(1)


def stdin_is_a_pipe() -> bool:
    """Stdin worth watching for end-of-file: a pipe, a socket or a terminal (not /dev/null)."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or os.isatty(0)


async def main(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    stdin_closed = loop.create_future()
    if stdin_is_a_pipe():
        def on_stdin() -> None:
            if not os.read(0, 4096) and not stdin_closed.done():
                loop.remove_reader(0)
                stdin_closed.set_result(None)
        loop.add_reader(0, on_stdin)

    log.info("opening transport %s", args.transport)
    try:
        transport = await open_transport(args.transport)
    except Exception as error:
        raise PeerError(f"cannot open transport {args.transport}: {error!r}") from error
    async with transport:
        peer = Peer(args)
        await with_timeout(peer.open(transport), args.timeout, "the controller to power on")
        work = asyncio.ensure_future(MODES[args.mode](peer))
        lost = asyncio.ensure_future(asyncio.shield(transport.source.terminated))
        done, _ = await asyncio.wait([work, stdin_closed, lost], return_when=asyncio.FIRST_COMPLETED)
        if work in done:
            work.result()
            return
        work.cancel()
        if lost in done:
            raise PeerError(f"the controller closed the transport {args.transport}")
        log.info("stdin closed, stopping")
        emit("stopped", reason="stdin closed")


def entry() -> None:
    args = arguments(sys.argv[1:])
    global EVENTS
    EVENTS = Events(args.events_fd)
    logging.basicConfig(stream=sys.stderr, level=args.log_level.upper(),
                        format="%(asctime)s.%(msecs)03d %(levelname)s %(name)s: %(message)s", datefmt="%H:%M:%S")
    try:
        asyncio.run(main(args))
    except PeerError as error:
        fail(str(error))
    except KeyboardInterrupt:
        emit("stopped", reason="interrupted")
    except Exception as error:  # noqa: BLE001 - every failure becomes an error event
        log.exception("peer failed")
        fail(f"{type(error).__name__}: {error}")
    sys.stdout.flush()


if __name__ == "__main__":
    entry()
