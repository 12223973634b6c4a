#!/usr/bin/env python3
"""Test aid: an H4 pass-through that gives every advertising report one fixed RSSI.

    rssi_shim.py --listen unix:/tmp/shim.sock --controller unix:/path/to/bt-server-le --rssi -50

It listens on a unix socket; for each program that connects it opens one connection to the
controller (a btvirt socket gives each connection a new controller) and copies H4 packets
both ways, rewriting the RSSI of LE Advertising Reports (legacy, subevent 0x02) and LE
Extended Advertising Reports (0x0D) to --rssi. Everything else passes unchanged. It lets the
central DUT's gate be tried on a controller that measures nothing (btvirt reports 127)
before blueproof's radio proxy serves it; it is no part of the DUT and not needed with
`blueproof run`. Runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

EVENT = 0x04
LE_META = 0x3E
ADVERTISING_REPORT = 0x02
EXTENDED_ADVERTISING_REPORT = 0x0D
# Header length after the type byte, and where the payload length sits in it.
HEADERS = {0x01: (3, 2, 1), 0x02: (4, 2, 2), 0x03: (3, 2, 1), 0x04: (2, 1, 1), 0x05: (4, 2, 2)}


async def read_packet(reader: asyncio.StreamReader) -> bytes:
    kind = await reader.readexactly(1)
    header_length, offset, size = HEADERS[kind[0]]
    header = await reader.readexactly(header_length)
    length = int.from_bytes(header[offset:offset + size], "little")
    if kind[0] == 0x05:
        length &= 0x3FFF
    return kind + header + await reader.readexactly(length)


def rewrite(packet: bytes, rssi: int) -> bytes:
    """The packet with every advertising report's RSSI set to `rssi`."""
    if len(packet) < 5 or packet[0] != EVENT or packet[1] != LE_META:
        return packet
    data = bytearray(packet)
    value = rssi & 0xFF
    if data[3] == ADVERTISING_REPORT:
        # Parameters: Num_Reports, then per report (one report in practice) Event_Type,
        # Address_Type, Address, Data_Length, Data, RSSI.
        count, position = data[4], 5
        for _ in range(count):
            if position + 9 > len(data):
                break
            position += 8
            position += 1 + data[position]
            if position < len(data):
                data[position] = value
            position += 1
    elif data[3] == EXTENDED_ADVERTISING_REPORT:
        count, position = data[4], 5
        for _ in range(count):
            if position + 24 > len(data):
                break
            data[position + 13] = value
            position += 24 + data[position + 23]
    return bytes(data)


async def pump(reader, writer, change) -> None:
    try:
        while True:
            writer.write(change(await read_packet(reader)))
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, KeyError):
        pass
    finally:
        writer.close()


async def main(arguments: argparse.Namespace) -> None:
    controller_path = arguments.controller.removeprefix("unix:")
    listen_path = arguments.listen.removeprefix("unix:")

    async def serve(host_reader, host_writer) -> None:
        controller_reader, controller_writer = await asyncio.open_unix_connection(controller_path)
        print(f"rssi-shim: a host joined; its reports now say {arguments.rssi} dBm", flush=True)
        await asyncio.gather(
            pump(host_reader, controller_writer, lambda packet: packet),
            pump(controller_reader, host_writer, lambda packet: rewrite(packet, arguments.rssi)))

    if os.path.exists(listen_path):
        os.unlink(listen_path)
    server = await asyncio.start_unix_server(serve, listen_path)
    print(f"rssi-shim: listening on unix:{listen_path} for {arguments.controller}", flush=True)
    stop = asyncio.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(number, stop.set)
    async with server:
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--listen", required=True, help="unix:PATH where hosts connect")
    parser.add_argument("--controller", required=True, help="unix:PATH of the H4 controller socket")
    parser.add_argument("--rssi", type=int, required=True, help="RSSI every advertising report gets, in dBm")
    asyncio.run(main(parser.parse_args()))
    sys.exit(0)
