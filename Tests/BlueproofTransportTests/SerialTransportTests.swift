import BlueproofWire
import CBlueproofSystem
import Foundation
import Glibc
import Testing
@testable import BlueproofTransport

/// serial: over a pseudo-terminal pair: the transport opens the slave side as its UART.
@Suite("Serial transport")
struct SerialTransportTests {
    @Test("H4 both ways over a pty with noflow")
    func bothDirections() async throws {
        let pty = try PseudoTerminal()
        let sink = RecordingSink()
        let spec = try TransportSpec(parsing: "serial:\(pty.slavePath)@115200,noflow")
        let transport = try openTransport(spec, capture: sink)
        defer { transport.close() }
        #expect(transport.endpoint == "serial:\(pty.slavePath)@115200,noflow")

        let incoming = [commandComplete(0x0C03), acl(Array(0..<255)), H4Packet(type: .event, payload: [0x05, 0x00])]
        let bytes = incoming.flatMap(\.h4Bytes)
        try pty.master.write(Array(bytes[..<2]))
        try pty.master.write(Array(bytes[2...]))
        #expect(try await take(incoming.count, from: transport.inbound) == incoming)

        // Raw mode: bytes a cooked terminal would translate (CR, NL, ^C, ^D, ^S) pass untouched.
        let tricky = acl([0x0D, 0x0A, 0x03, 0x04, 0x11, 0x13, 0x7F, 0xFF])
        try transport.send(resetCommand)
        try transport.send(tricky)
        #expect(try pty.master.read(resetCommand.h4Bytes.count + tricky.h4Bytes.count)
            == resetCommand.h4Bytes + tricky.h4Bytes)
        try pty.master.write(tricky.h4Bytes)
        #expect(try await take(1, from: transport.inbound) == [tricky])

        #expect(sink.all.map(\.direction) == [.received, .received, .received, .sent, .sent, .received])

        transport.close()
        let (rest, error) = try await drain(transport.inbound)
        #expect(rest.isEmpty)
        #expect(error == nil)
    }

    @Test("the line is raw at the spec's rate, with RTS/CTS unless noflow", arguments: [
        ("", 115_200, true),
        ("@1000000", 1_000_000, true),
        ("@921600,noflow", 921_600, false),
        (",noflow", 115_200, false),
    ])
    func lineSettings(suffix: String, rate: Int, rtscts: Bool) throws {
        let pty = try PseudoTerminal()
        let transport = try openTransport(TransportSpec(parsing: "serial:\(pty.slavePath)\(suffix)"), capture: nil)
        defer { transport.close() }
        let link = try #require(transport as? FileDescriptorLink)
        var speed: UInt32 = 0, flow: Int32 = -1, raw: Int32 = -1
        try #require(bp_transport_read_line_settings(link.core.fd, &speed, &flow, &raw) == 0)
        #expect(speed == bp_transport_baud_constant(UInt32(rate)))
        #expect(flow == (rtscts ? 1 : 0))
        #expect(raw == 1)
    }

    @Test("close() frees a sender blocked on a line whose output is suspended")
    func closeFreesBlockedSender() async throws {
        let pty = try PseudoTerminal()
        let sends = SendSignal()
        let transport = try openTransport(TransportSpec(parsing: "serial:\(pty.slavePath),noflow"), capture: sends)
        // Suspend the line's output (tcflow TCOOFF, as a UART whose CTS stays low): every
        // write to it now blocks.
        let control = Glibc.open(pty.slavePath, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(control >= 0, "opening \(pty.slavePath): \(errnoText(errno))")
        defer { Glibc.close(control) }
        try #require(tcflow(control, TCOOFF) == 0, "tcflow: \(errnoText(errno))")

        // A terminal has no shutdown(): only the link's own wake-up can free this sender.
        let (outcomes, report) = AsyncStream<TransportError?>.makeStream()
        Thread {
            do throws(TransportError) {
                try transport.send(acl(Array(repeating: 0xA5, count: 200)))
                report.yield(nil)
            } catch {
                report.yield(error)
            }
        }.start()
        try await within("the sender to start writing") { await sends.firstSend() }
        transport.close()
        let outcome = try await within("the blocked sender to give up") { () -> TransportError? in
            for await outcome in outcomes { return outcome }
            throw TestFailure("the sender reported nothing")
        }
        #expect(outcome == .closed)
        let (rest, error) = try await drain(transport.inbound)
        #expect(rest.isEmpty)
        #expect(error == nil)
    }

    @Test("a missing serial device fails to open with the endpoint and errno")
    func missingDevice() throws {
        let spec = try TransportSpec(parsing: "serial:/dev/bp-no-such-tty")
        #expect(throws: TransportError.connectFailed(endpoint: "serial:/dev/bp-no-such-tty@115200", errno: ENOENT)) {
            try openTransport(spec, capture: nil)
        }
    }

    @Test("a file that is no terminal is refused")
    func notATerminal() throws {
        let spec = TransportSpec.serial(device: "/dev/null", baudRate: 115_200, flowControl: false)
        #expect(throws: TransportError.connectFailed(endpoint: spec.description, errno: ENOTTY)) {
            try openTransport(spec, capture: nil)
        }
    }
}
