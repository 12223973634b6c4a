import ArgumentParser
import BlueproofCapture
import BlueproofCheck
import BlueproofTransmitterLinks
import BlueproofWire
import Foundation

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a capture: one line per HCI packet, like btmon.",
        discussion: """
        Reads pcap or pcapng (link types 201, 187, 254; pcapng with several interfaces) and btsnoop (1001, 1002, 2001: btmon's \
        and Android's) files. Each line: time since the first packet, direction (< host to \
        controller, > controller to host), controller index when the file has several, and the \
        decoded packet; btmon's notes and index records are lines of type `note`.

        Views: --conn, --layer, --from/--to and --grep keep the packets that pass all of them \
        (notes pass only the time and text filters); --summary prints one block per connection \
        instead (peer, role, ATT_MTU, ACL packets and bytes each way, throughput, most packets \
        in flight, ATT/SMP/L2CAP errors, disconnection reason).

        A file cut short (a killed run) is decoded up to its last complete packet; the cut is \
        reported on standard error and the exit status is 1. Exit status 2: not a capture.

        Examples:
          blueproof inspect Captures/probe-node0.pcap
          blueproof inspect --json btsnoop_hci.log | jq '.packets[] | select(.name == "LE Advertising Report")'
          blueproof inspect --conn 0x0040 --layer att btsnoop_hci.log
          blueproof inspect --from 12.5 --to 14 --grep "error" btsnoop_hci.log
          blueproof inspect --summary btsnoop_hci.log
        """
    )

    @Argument(help: "The capture file (pcap, pcapng or btsnoop).")
    var file: String

    @Flag(name: .long, help: "Print the packets as JSON.")
    var json = false

    @Option(name: .long, help: "Print at most this many packets.")
    var limit: Int?

    @Flag(name: .long, help: "Add each packet's bytes in hexadecimal.")
    var hex = false

    // issue 16: views
    @Option(name: .long, help: ArgumentHelp("Only the packets of this connection handle (decimal or 0x hex).", valueName: "HANDLE"))
    var conn: String?

    @Option(name: .long, help: ArgumentHelp("Only packets carrying these layers: hci (commands, events), acl, l2cap, signal, att, smp, sco, iso; comma-separated.",
                                            valueName: "LAYER"))
    var layer: [String] = []

    @Option(name: .long, help: ArgumentHelp("Only packets at or after this many seconds from the first.", valueName: "SECONDS"))
    var from: Double?

    @Option(name: .long, help: ArgumentHelp("Only packets at or before this many seconds from the first.", valueName: "SECONDS"))
    var to: Double?

    @Option(name: .long, help: ArgumentHelp("Only packets whose text line contains this (any case).", valueName: "TEXT"))
    var grep: String?

    @Option(name: .long, help: ArgumentHelp("The ATT conversation of one link (transmitter chunks included): --conn HANDLE --layer att.",
                                            valueName: "HANDLE"))
    var follow: String?

    @Flag(name: .long, help: "Print a summary per connection instead of the packets: MTU, throughput, credits, errors, disconnection reason.")
    var summary = false

    func validate() throws {
        _ = try conn.map(InspectView.handle)
        _ = try follow.map(InspectView.handle)
        _ = try InspectView.layers(layer)
        if follow != nil, conn != nil || !layer.isEmpty { throw ValidationError("--follow is --conn with --layer att: give one or the others") }
    }

    func run() async throws {
        // --follow is a thin view: the link's ATT packets, however far their decoding goes.
        let view = InspectView(handle: try (follow ?? conn).map(InspectView.handle),
                               layers: follow != nil ? [.att] : try InspectView.layers(layer),
                               from: from, to: to, grep: grep?.lowercased())
        let stream: CaptureStream
        do {
            stream = try CaptureReader.open(path: file)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        // Each packet is printed as it is decoded (64 KiB at a time); the counts come after the packets.
        var writer = json && !summary ? InspectJSONWriter() : nil
        let linkTypes = stream.linkTypes.map(String.init).joined(separator: ", ")
        if let writer {
            try writer.begin(file: file, format: stream.format.rawValue, linkType: stream.linkType,
                             linkTypes: stream.linkTypes, directionGuessed: stream.directionSource == .inferredFromPacketType)
        } else if !json {
            Console.line("\(file): \(stream.format), link type\(stream.linkTypes.count > 1 ? "s" : "") \(linkTypes)")
            if stream.directionSource == .inferredFromPacketType { Console.line(Self.guessedDirectionNote) }
        }
        var start: Int64?
        var classifier = PacketClassifier()
        var connections = summary ? CaptureSummary() : nil
        let forms = InspectBody.Forms(text: !json || view.grep != nil, json: json)
        // Every packet goes through the decoder, printed or not, so each connection's ATT_MTU,
        // discovered attributes and partial frames are known when a later packet needs them.
        var describer = InspectDescriber(forms: forms)
        // The lines gather here as UTF-8 and are written 64 KiB at a time.
        var out: [UInt8] = []
        out.reserveCapacity(Console.bufferBytes + 4096)
        // The options as plain values: a property wrapper's getter costs in a loop of 100,000.
        let (summary, limit, hex) = (self.summary, self.limit ?? .max, self.hex)
        while let entry = stream.nextEntry() {
            // The packet to print; nil when its line is written already.
            let packet: InspectedPacket?
            var context: PacketContext?
            switch entry {
            case let .packet(record):
                if start == nil, record.isTimestampInRange { start = record.timestampMicros }
                if summary {
                    connections?.consume(record, frame: stream.frameNumber)
                    continue
                }
                guard stream.frameNumber <= limit else {  // counted, not printed
                    describer.skip(record)
                    continue
                }
                if view.needsContext { context = classifier.classify(record) }
                var shown = InspectedPacket(number: stream.frameNumber, record: record, start: start, hex: hex)
                guard view.admits(context, seconds: shown.seconds) else {
                    describer.skip(record)
                    continue
                }
                if view.grep == nil, let plain = describer.plain(record) {
                    // Most packets of a long transfer: written from the decoder's fields.
                    Self.write(shown, plain, writer: &writer, to: &out)
                    packet = nil
                } else {
                    shown.body = describer.body(of: record)
                    guard view.grep != nil else {  // written here: not copied to `packet`
                        Self.write(shown, writer: &writer, to: &out)
                        Self.flush(&out)
                        continue
                    }
                    packet = shown
                }
            case let .note(note):
                guard !summary, stream.frameNumber <= limit else { continue }
                packet = InspectedPacket(number: stream.frameNumber, note: note, start: start, forms: forms)
                guard view.admits(nil, seconds: packet?.seconds) else { continue }
            }
            if let packet {
                if view.grep != nil, !view.admits(line: packet.line) { continue }
                Self.write(packet, writer: &writer, to: &out)
            }
            Self.flush(&out)
        }
        Console.lines(utf8: out)
        if let connections {
            if json {
                try Console.json(InspectSummaryJSON(file: file, summary: connections))
            } else {
                InspectSummaryText.lines(connections).forEach { Console.line($0) }
            }
        } else if let writer {
            try writer.end(packetCount: stream.packetCount, skipped: stream.skipped, truncated: stream.truncated?.description)
        } else {
            Console.line("\(stream.packetCount) packet(s)"
                  + (stream.skipped > 0 ? ", \(stream.skipped) other record(s) (notes, index records; numbered as frames)" : ""))
        }
        if let truncated = stream.truncated {
            Console.error("the capture ends early: \(truncated)")
            throw ExitCode(1)
        }
    }

    /// The packet's text line or JSON object into `out`; its body from `plain` when given.
    private static func write(_ packet: InspectedPacket, _ plain: TraceDecoder.PlainATT? = nil,
                              writer: inout InspectJSONWriter?, to out: inout [UInt8]) {
        if writer != nil { writer?.add(packet, plain, to: &out) } else { packet.appendLine(plain, to: &out) }
    }

    /// Writes `out` once it holds ``Console/bufferBytes``.
    private static func flush(_ out: inout [UInt8]) {
        if out.count >= Console.bufferBytes {
            Console.lines(utf8: out)
            out.removeAll(keepingCapacity: true)
        }
    }

    /// Said under the header of a capture with an interface of link type 187.
    static let guessedDirectionNote = "note: link type 187 is H4 without direction header: direction guessed "
        + "(commands sent; events, ACL, SCO and ISO data received)"
}

/// `blueproof inspect --json`, written as the packets are decoded: one object whose `packets`
/// array is printed one compact packet per line, with the counts after it.
struct InspectJSONWriter {
    private struct Header: Encodable {
        var file: String
        var format: String
        var linkType: UInt32
        /// Every interface's link type (pcapng may have several).
        var linkTypes: [UInt32]
        /// True when the file has an interface of link type 187: directions are guessed.
        var directionGuessed: Bool
    }

    private struct Footer: Encodable {
        var packetCount: Int
        var skipped: Int
        var truncated: String?
    }

    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
    private var first = true

    /// `{"file":...,"format":...,"linkType":...,"packets":[`
    func begin(file: String, format: String, linkType: UInt32, linkTypes: [UInt32], directionGuessed: Bool) throws {
        let header = try encoded(Header(file: file, format: format, linkType: linkType, linkTypes: linkTypes,
                                        directionGuessed: directionGuessed))
        Console.line(header.dropLast() + ",\"packets\":[")
    }

    /// The packet's line, into `out`; its body from `plain` when its fields came from
    /// ``TraceDecoder/plainATT(_:sent:)``.
    mutating func add(_ packet: InspectedPacket, _ plain: TraceDecoder.PlainATT? = nil, to out: inout [UInt8]) {
        if !first { out.append(0x2C) }  // ","
        packet.appendJSON(plain, to: &out)
        first = false
    }

    /// `],"packetCount":...,"skipped":...,"truncated":...}`
    func end(packetCount: Int, skipped: Int, truncated: String?) throws {
        let footer = try encoded(Footer(packetCount: packetCount, skipped: skipped, truncated: truncated))
        Console.line("]," + footer.dropFirst())
    }

    private func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
