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
        defer { Console.flush() }
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
        // Every packet goes through the decoder, printed or not, so each connection's ATT_MTU,
        // discovered attributes and partial frames are known when a later packet needs them.
        var decoder = TraceDecoder.withTransmitterFrames()
        while let entry = stream.nextEntry() {
            let packet: InspectedPacket
            var context: PacketContext?
            switch entry {
            case let .packet(record):
                if start == nil, record.isTimestampInRange { start = record.timestampMicros }
                connections?.consume(record, frame: stream.frameNumber)
                guard !summary else { continue }
                let description = decoder.describe(record.packet, sent: record.direction == .sent)
                guard stream.frameNumber <= limit ?? .max else { continue }  // counted, not printed
                if view.needsContext { context = classifier.classify(record) }
                packet = InspectedPacket(number: stream.frameNumber, record: record, description: description, start: start, hex: hex)
            case let .note(note):
                guard !summary, stream.frameNumber <= limit ?? .max else { continue }
                packet = InspectedPacket(number: stream.frameNumber, note: note, start: start)
            }
            guard view.admits(context, seconds: packet.seconds) else { continue }
            // JSON without --grep never needs the text line.
            let line = writer == nil || view.grep != nil ? packet.line : ""
            guard view.admits(line: line) else { continue }
            if writer != nil { writer?.add(packet) } else { Console.bufferedLine(line) }
        }
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

    /// Said under the header of a capture with an interface of link type 187.
    static let guessedDirectionNote = "note: link type 187 is H4 without direction header: direction guessed "
        + "(commands sent; events, ACL, SCO and ISO data received)"
}

/// One packet of `blueproof inspect`.
struct InspectedPacket {
    var number: Int
    var timestampMicros: Int64
    /// Since the first packet; nil when out of range.
    var seconds: Double?
    /// `sent` or `received`; nil for a record that holds no packet (type `note`).
    var direction: String?
    var controllerIndex: UInt16?
    var type: String
    var name: String
    /// The fields in wire order: a JSON object (`fields`, the first of a repeated name) and
    /// `name=value` words in the text line.
    private var orderedFields: [HCIPacketDescription.Field]
    /// Microseconds since the first packet, for the text line; nil when out of range.
    private var spanMicros: Int64?
    var malformed: String?
    var bytes: String?
    /// A note's text, for the text line.
    private var detail = ""

    /// `description` is the packet's, from the capture's ``TraceDecoder``; `start` is the time of
    /// the capture's first packet with a time in range, nil when none has one yet.
    init(number: Int, record: CaptureRecord, description: HCIPacketDescription, start: Int64?, hex showHex: Bool) {
        self.number = number
        timestampMicros = record.timestampMicros
        seconds = Self.seconds(from: start, to: record.timestampMicros)
        direction = record.direction.rawValue
        controllerIndex = record.controllerIndex
        type = record.packet.type.description
        name = description.name
        orderedFields = description.fields
        spanMicros = Self.span(from: start, to: record.timestampMicros)
        malformed = description.malformed?.description
        bytes = showHex ? BlueproofWire.hex(record.packet.h4Bytes) : nil
    }

    /// A record that holds no HCI packet (a btmon note or index record, ...): type `note`.
    init(number: Int, note: CaptureNote, start: Int64?) {
        self.number = number
        timestampMicros = note.timestampMicros
        seconds = Self.seconds(from: start, to: note.timestampMicros)
        direction = nil
        controllerIndex = note.controllerIndex
        type = "note"
        name = note.name
        orderedFields = note.detail.isEmpty ? [] : [HCIPacketDescription.Field("detail", note.detail)]
        spanMicros = Self.span(from: start, to: note.timestampMicros)
        detail = note.detail
    }

    /// Seconds from `start` to the record, nil when the record's time is out of range or the
    /// span does not fit in 64-bit microseconds.
    static func seconds(from start: Int64?, to micros: Int64) -> Double? {
        span(from: start, to: micros).map { Double($0) / 1e6 }
    }

    /// Microseconds from `start` to `micros`, nil as for ``seconds(from:to:)``.
    static func span(from start: Int64?, to micros: Int64) -> Int64? {
        guard let start, micros != .max, micros != .min else { return nil }
        let (span, overflowed) = micros.subtractingReportingOverflow(start)
        return overflowed ? nil : span
    }

    /// `span` µs as `%11.6f` seconds prints them, without Foundation's formatter (the text
    /// line is the hot path of `inspect`).
    static func timeColumn(_ span: Int64) -> String {
        // Digits written backwards into bytes: String(format:) and String.count cost more
        // than the rest of the line.
        var bytes = [UInt8](repeating: 0x20, count: 24)
        var at = bytes.count
        var value = span.magnitude
        for place in 0..<20 {
            if place == 6 { at -= 1; bytes[at] = 0x2E }  // "."
            at -= 1
            bytes[at] = 0x30 + UInt8(value % 10)
            value /= 10
            if value == 0 && place >= 6 { break }
        }
        if span < 0 { at -= 1; bytes[at] = 0x2D }  // "-"
        return String(decoding: bytes[min(at, bytes.count - 11)...], as: UTF8.self)
    }

    /// `   0.000140 > [0] event  Command Complete ncmd=1 ...`
    var line: String {
        var line = spanMicros.map(Self.timeColumn) ?? "out of range"
        line.reserveCapacity(160)
        line += direction.map { $0 == "sent" ? " <" : " >" } ?? " ="
        if let controllerIndex { line += " [\(controllerIndex)]" }
        line += " " + type
        if type.utf8.count < 7 { line += String(repeating: " ", count: 7 - type.utf8.count) }
        line += " " + name
        if detail.isEmpty {
            for field in orderedFields { line += " " + field.name + "=" + field.value }
        } else {
            line += " " + detail
        }
        if let malformed { line += "  [malformed: \(malformed)]" }
        if let bytes { line += "\n            \(bytes)" }
        return line
    }

    /// The packet as one compact JSON object, keys sorted, written by hand: JSONEncoder costs
    /// more than decoding the packet (the hot path of `inspect --json`).
    var json: String {
        var out = "{"
        if let bytes { out += "\"bytes\":" + JSONText.quoted(bytes) + "," }
        if let controllerIndex { out += "\"controllerIndex\":\(controllerIndex)," }
        if let direction { out += "\"direction\":" + JSONText.quoted(direction) + "," }
        out += "\"fields\":{"
        var previous: String?
        // Sorting is stable: of a repeated name, the first in wire order is kept.
        for field in orderedFields.sorted(by: { $0.name < $1.name }) where field.name != previous {
            out += (previous == nil ? "" : ",") + JSONText.quoted(field.name) + ":" + JSONText.quoted(field.value)
            previous = field.name
        }
        out += "},"
        if let malformed { out += "\"malformed\":" + JSONText.quoted(malformed) + "," }
        out += "\"name\":" + JSONText.quoted(name) + ",\"number\":\(number),"
        if let spanMicros { out += "\"seconds\":" + Self.timeColumn(spanMicros).drop { $0 == " " } + "," }
        out += "\"timestampMicros\":\(timestampMicros),\"type\":" + JSONText.quoted(type) + "}"
        return out
    }
}

/// JSON text written by hand.
enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped (RFC 8259 §7).
    static func quoted(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
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

    mutating func add(_ packet: InspectedPacket) {
        Console.bufferedLine((first ? "" : ",") + packet.json)
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
