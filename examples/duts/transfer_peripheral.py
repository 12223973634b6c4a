#!/usr/bin/env python3
"""The Core Bluetooth transfer sample's peripheral, on Google Bumble: a device under test that
blueproof did not write.

What it does (the sample's behaviour, docs: corebluetooth-transfer-sample.md):

* serves one primary service E20A39F4-73F5-4BC4-A12F-17D1AD07A961 with one characteristic
  08590F7E-DB05-467E-8757-72F6FAEB13D4: properties notify + write without response,
  permissions readable + writeable (a read answers an empty value; a Write Request is refused
  with Write Not Permitted, as the characteristic does not have the write property);
* advertises the service UUID, connectable, from the controller's public address (the radio
  proxy knows a node by that address; a random one would escape its RSSI model);
* once a central subscribes (CCCD notify bit), notifies the payload in chunks of
  min(ATT_MTU - 3, 512) bytes, then the value "EOM". Flow control: a chunk waits while more
  than a few ACL packets are queued beyond the controller's free buffers, so nothing is
  dropped and the host queue stays short. A last chunk that would be exactly "EOM" goes as
  "EO" then "M", so no data chunk reads as the marker and any payload arrives byte-exact;
* prints every Write Command the central sends to the characteristic (the write-back) and, when
  BLUEPROOF_OUTPUT is set, keeps the last one in $BLUEPROOF_OUTPUT/written.bin;
* an unsubscription (CCCD 0) stops a transfer under way; after a disconnection it advertises
  again and serves the next central the same way;
* runs until SIGTERM or SIGINT, then exits 0 within a second.

Environment (see README.md): BLUEPROOF_HCI (tcp:HOST:PORT or unix:PATH), BLUEPROOF_ROLE (must be
"peripheral", else exit 77), BLUEPROOF_PAYLOAD (file with the bytes to send; may be empty),
BLUEPROOF_CASE (logged only), BLUEPROOF_OUTPUT (optional here). A missing variable: exit 2.

Broken variants, DUT_FAULT=...:

* chunk-mtu-minus-2: chunks of ATT_MTU - 2 bytes, one more than a notification may carry
  (at ATT_MTU 517 that is 515, over the 512 cap too). Bumble cuts a notification value to
  ATT_MTU - 3, so these go out as hand-made ATT Handle Value Notification PDUs on the ATT
  channel: the oversize bytes really are on the air.
* chunk-small: chunks one byte short of the right size, min(ATT_MTU - 3, 512) - 1 (that is
  ATT_MTU - 4 up to ATT_MTU 515).
* no-eom: the chunks, but never the "EOM" marker.
* notify-before-subscribe: as soon as a central connects, before any CCCD write, it notifies
  the first chunk of the payload (at the ATT_MTU of that moment; "EOM" for an empty payload);
  the normal transfer follows the subscription.
* wrong-service-uuid: serves and advertises E20A39F4-73F5-4BC4-A12F-17D1AD07A9FF instead.
* write-with-response-only: the characteristic's properties are notify + write (Write Request
  accepted and answered) instead of notify + write without response (Write Commands are
  then ignored, as the properties say).
* empty-chunk: an empty payload goes as a notification of no bytes, then "EOM".
* drop-short-chunks: a data chunk of 1 or 2 bytes (a payload's short last chunk) is not sent.

An unknown DUT_FAULT prints an error and exits 2.
"""

from __future__ import annotations

import asyncio
import os
import struct

from dut_common import (
    CHARACTERISTIC_UUID,
    END_OF_MESSAGE,
    EXIT_FAILED,
    MAX_ATTRIBUTE_VALUE,
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

from bumble import att, hci
from bumble.core import UUID, AdvertisingData
from bumble.device import AdvertisingType, Connection, Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.transport import open_transport

NAME = "transfer-peripheral"

FAULTS = {
    "chunk-mtu-minus-2": "chunks of ATT_MTU - 2 bytes (one over the limit), sent as raw ATT PDUs",
    "chunk-small": "chunks one byte short: min(ATT_MTU - 3, 512) - 1",
    "no-eom": "the EOM marker is never sent",
    "notify-before-subscribe": "the first chunk is notified on connection, before the CCCD write",
    "wrong-service-uuid": "serves and advertises E20A39F4-73F5-4BC4-A12F-17D1AD07A9FF",
    "write-with-response-only": "characteristic properties notify + write, not write without response",
    "empty-chunk": "an empty payload goes as an empty notification, then EOM",
    "drop-short-chunks": "data chunks shorter than the marker (a short last chunk) are not sent",
}

WRONG_SERVICE_UUID = "E20A39F4-73F5-4BC4-A12F-17D1AD07A9FF"
LOCAL_NAME = "blueproof-dut"
ADVERTISING_INTERVAL_MS = 100
#: ACL packets a sender lets wait in Bumble's host queue beyond those the controller holds.
QUEUE_SLACK = 4
ATT_CID = 0x0004
ATT_HANDLE_VALUE_NOTIFICATION = 0x1B
ATT_WRITE_NOT_PERMITTED = 0x03


def chunk_size(fault: str | None, mtu: int) -> int:
    right = min(mtu - 3, MAX_ATTRIBUTE_VALUE)
    if fault == "chunk-mtu-minus-2":
        return mtu - 2
    if fault == "chunk-small":
        return right - 1
    return right


def chunks(payload: bytes, size: int):
    """The data values for `payload`: pieces of `size` bytes; one that is exactly the marker
    (only ever the last) goes as two values so it cannot end the message early."""
    for offset in range(0, len(payload), size):
        piece = payload[offset:offset + size]
        if piece == END_OF_MESSAGE:
            yield piece[:2]
            yield piece[2:]
        else:
            yield piece


def advertising_data(service: str) -> bytes:
    return bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),  # LE General Discoverable, BR/EDR not supported
        (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, UUID(service).to_bytes(force_128=True)),
    ]))


def scan_response_data() -> bytes:
    return bytes(AdvertisingData([(AdvertisingData.COMPLETE_LOCAL_NAME, LOCAL_NAME.encode())]))


class TransferPeripheral:
    def __init__(self, device: Device, payload: bytes, fault: str | None, output: str | None,
                 stop: asyncio.Event) -> None:
        self.device = device
        self.payload = payload
        self.fault = fault
        self.output = output
        self.stop = stop
        self.service_uuid = WRONG_SERVICE_UUID if fault == "wrong-service-uuid" else SERVICE_UUID
        write_property = (Characteristic.Properties.WRITE if fault == "write-with-response-only"
                          else Characteristic.Properties.WRITE_WITHOUT_RESPONSE)
        self.properties = Characteristic.Properties.NOTIFY | write_property
        self.characteristic = Characteristic(
            CHARACTERISTIC_UUID, self.properties,
            Characteristic.READABLE | Characteristic.WRITEABLE,
            CharacteristicValue(read=lambda _connection: b"", write=self.on_value_written))
        self.senders: dict[int, asyncio.Task] = {}
        self.tasks: set[asyncio.Task] = set()

        device.add_service(Service(self.service_uuid, [self.characteristic], primary=True))
        self.intercept_writes()
        self.characteristic.on(Characteristic.EVENT_SUBSCRIPTION, self.on_subscription)
        device.on(Device.EVENT_CONNECTION, self.on_connection)

    # ---------------------------------------------------------------- advertising
    async def advertise(self) -> None:
        await self.device.start_advertising(
            advertising_type=AdvertisingType.UNDIRECTED_CONNECTABLE_SCANNABLE,
            own_address_type=hci.OwnAddressType.PUBLIC,
            advertising_data=advertising_data(self.service_uuid),
            scan_response_data=scan_response_data(),
            advertising_interval_min=ADVERTISING_INTERVAL_MS,
            advertising_interval_max=ADVERTISING_INTERVAL_MS)
        event("advertising", f"service {self.service_uuid}, connectable, from {self.device.public_address} "
                             f"(public), every {ADVERTISING_INTERVAL_MS} ms")

    def spawn(self, work) -> asyncio.Task:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.finished)
        return task

    def finished(self, task: asyncio.Task) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.stop.is_set():
            problem = task.exception()
            event("error", f"{type(problem).__name__}: {problem}")

    # ---------------------------------------------------------------- connections
    def on_connection(self, connection: Connection) -> None:
        event("connected", f"central {connection.peer_address}, handle 0x{connection.handle:04X}, "
                           f"ATT_MTU {connection.att_mtu}")
        connection.on(Connection.EVENT_CONNECTION_ATT_MTU_UPDATE,
                      lambda: event("mtu", f"ATT_MTU {connection.att_mtu} (handle 0x{connection.handle:04X})"))
        connection.on(Connection.EVENT_DISCONNECTION,
                      lambda reason: self.on_disconnection(connection, reason))
        if self.fault == "notify-before-subscribe":
            self.spawn(self.notify_early(connection))

    def on_disconnection(self, connection: Connection, reason: int) -> None:
        sender = self.senders.pop(connection.handle, None)
        if sender is not None and not sender.done():
            sender.cancel()
            event("transfer", "stopped: the connection ended")
        try:
            reason_text = hci.HCI_Constant.error_name(reason)
        except Exception:  # noqa: BLE001 - only for the log line
            reason_text = str(reason)
        event("disconnected", f"handle 0x{connection.handle:04X}, reason 0x{int(reason):02X} {reason_text}")
        if not self.stop.is_set():
            self.spawn(self.advertise())

    # ---------------------------------------------------------------- writes
    def intercept_writes(self) -> None:
        """Bumble's GATT server accepts any write to a writeable value, whatever the
        characteristic's properties; this peripheral answers as its properties say."""
        server = self.device.gatt_server
        original_request = server.on_att_write_request
        original_command = server.on_att_write_command

        def on_write_request(bearer, request):
            if request.attribute_handle == self.characteristic.handle:
                value = bytes(request.attribute_value)
                if not self.properties & Characteristic.Properties.WRITE:
                    event("write-request refused", f"{len(value)} bytes: Write Not Permitted "
                                                   f"(the characteristic is write without response)")
                    server.send_response(bearer, att.ATT_Error_Response(
                        request_opcode_in_error=request.op_code,
                        attribute_handle_in_error=request.attribute_handle,
                        error_code=ATT_WRITE_NOT_PERMITTED))
                    return None
                self.report_write("Write Request", value)
            return original_request(bearer, request)

        def on_write_command(bearer, command):
            if command.attribute_handle == self.characteristic.handle:
                value = bytes(command.attribute_value)
                if not self.properties & Characteristic.Properties.WRITE_WITHOUT_RESPONSE:
                    event("write-command ignored", f"{len(value)} bytes: the characteristic has no "
                                                   f"write-without-response property")
                    return None
                self.report_write("Write Command", value)
            return original_command(bearer, command)

        server.on_att_write_request = on_write_request
        server.on_att_write_command = on_write_command

    def report_write(self, kind: str, value: bytes) -> None:
        try:
            text = value.decode("utf-8")
            shown = repr(text[:48] + ("..." if len(text) > 48 else ""))
        except UnicodeDecodeError:
            shown = "not UTF-8"
        event("write-back", f"{kind}, {len(value)} bytes, hex {hex_preview(value)}, text {shown}")
        if self.output:
            with open(os.path.join(self.output, "written.bin"), "wb") as file:
                file.write(value)

    def on_value_written(self, _connection, _value) -> None:
        """The value is kept nowhere: the write was reported on arrival."""

    # ---------------------------------------------------------------- subscription and sending
    def on_subscription(self, bearer, notify_enabled: bool, indicate_enabled: bool) -> None:
        handle = bearer.handle
        if notify_enabled:
            event("subscribed", f"handle 0x{handle:04X}, notifications on (ATT_MTU {bearer.att_mtu})")
            previous = self.senders.pop(handle, None)
            if previous is not None and not previous.done():
                previous.cancel()
                event("transfer", "restarted: the central subscribed again")
            self.senders[handle] = self.spawn(self.send(bearer))
        else:
            event("unsubscribed", f"handle 0x{handle:04X}" + (", indications on" if indicate_enabled else ""))
            sender = self.senders.pop(handle, None)
            if sender is not None and not sender.done():
                sender.cancel()
                event("transfer", "stopped: the central unsubscribed")

    def packet_queue(self, connection: Connection):
        host_connection = self.device.host.connections.get(connection.handle)
        return host_connection.acl_packet_queue if host_connection is not None else None

    async def wait_for_room(self, connection: Connection) -> None:
        """Flow control: Bumble never gives the controller more ACL packets than it has
        buffers; this keeps Bumble's own queue short by waiting for completed packets."""
        queue = self.packet_queue(connection)
        while queue is not None and queue.pending > queue.max_in_flight + QUEUE_SLACK:
            flowed = asyncio.Event()
            queue.once("flow", flowed.set)
            await flowed.wait()

    async def notify(self, connection: Connection, value: bytes, force: bool = False) -> None:
        if len(value) > connection.att_mtu - 3:
            # Bumble would cut the value to ATT_MTU - 3: put the whole PDU on the ATT channel.
            pdu = struct.pack("<BH", ATT_HANDLE_VALUE_NOTIFICATION, self.characteristic.handle) + value
            self.device.send_l2cap_pdu(connection.handle, ATT_CID, pdu)
        else:
            await self.device.notify_subscriber(connection, self.characteristic, value=value, force=force)

    async def notify_early(self, connection: Connection) -> None:
        size = chunk_size(None, connection.att_mtu)
        first = next(chunks(self.payload, size), END_OF_MESSAGE)
        await self.notify(connection, first, force=True)
        event("notified before subscription", f"{len(first)} bytes at ATT_MTU {connection.att_mtu} "
                                              f"(fault notify-before-subscribe)")

    async def send(self, connection: Connection) -> None:
        mtu = connection.att_mtu
        size = chunk_size(self.fault, mtu)
        event("transfer", f"{len(self.payload)} bytes at ATT_MTU {mtu}: chunks of {size}")
        sizes: list[int] = []
        if self.fault == "empty-chunk" and not self.payload:
            await self.notify(connection, b"")
            event("chunks", "an empty notification before EOM (fault empty-chunk)")
        for piece in chunks(self.payload, size):
            if self.fault == "drop-short-chunks" and len(piece) < len(END_OF_MESSAGE):
                event("chunk", f"{len(piece)} bytes not sent (fault drop-short-chunks)")
                continue
            await self.wait_for_room(connection)
            await self.notify(connection, piece)
            sizes.append(len(piece))
        event("chunks", f"{len(sizes)} notified, {sum(sizes)} bytes: {size_summary(sizes)}")
        if self.fault == "no-eom":
            event("eom", "not sent (fault no-eom)")
        else:
            await self.wait_for_room(connection)
            await self.notify(connection, END_OF_MESSAGE)
            event("eom", "notified")
        queue = self.packet_queue(connection)
        if queue is not None:
            try:
                await queue.drain(connection.handle)
            except ValueError:
                pass
        event("transfer", "done: every packet handed to the controller was completed")


async def main() -> int:
    hello(NAME, os.environ.get("DUT_FAULT") or None)
    check_role("peripheral")
    transport_name = bumble_transport(require("BLUEPROOF_HCI"))
    payload_path = require("BLUEPROOF_PAYLOAD")
    fault = choose_fault(FAULTS)
    output = os.environ.get("BLUEPROOF_OUTPUT") or None
    try:
        with open(payload_path, "rb") as file:
            payload = file.read()
    except OSError as problem:
        raise UsageError(f"BLUEPROOF_PAYLOAD={payload_path!r}: {problem.strerror}") from None

    event("case", os.environ.get("BLUEPROOF_CASE") or "(BLUEPROOF_CASE not set)")
    event("payload", f"{len(payload)} bytes from {payload_path}")
    if fault:
        event("fault", f"{fault}: {FAULTS[fault]}")

    stop = asyncio.Event()
    install_sigterm(asyncio.get_running_loop(), stop)
    return await until_stopped(stop, serve(transport_name, payload, fault, output, stop))


async def serve(transport_name: str, payload: bytes, fault: str | None, output: str | None,
                stop: asyncio.Event) -> int:
    event("hci", f"opening {transport_name}")
    try:
        transport = await open_transport(transport_name)
    except Exception as problem:  # noqa: BLE001 - any failure to reach the controller
        event("error", f"cannot open {transport_name}: {problem!r}")
        return EXIT_FAILED
    async with transport:
        device = Device.with_hci(LOCAL_NAME, hci.Address.generate_static_address(),
                                 transport.source, transport.sink)
        await device.power_on()
        peripheral = TransferPeripheral(device, payload, fault, output, stop)
        await peripheral.advertise()
        await asyncio.shield(transport.source.terminated)
        event("error", "the controller closed the HCI transport")
        return EXIT_FAILED

if __name__ == "__main__":
    run(main)
