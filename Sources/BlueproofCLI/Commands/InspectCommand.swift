import ArgumentParser
import BlueproofCapture
import BlueproofWire
import Foundation

struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a capture: one line per HCI packet, like btmon.",
        discussion: """
        Reads pcap or pcapng (link types 201, 187, 254) and btsnoop (1001, 1002, 2001: btmon's \
        and Android's) files. Each line: time since the first packet, direction (< host to \
        controller, > controller to host), controller index when the file has several, and the \
        decoded packet.

        A file cut short (a killed run) is decoded up to its last complete packet; the cut is \
        reported on standard error and the exit status is 1. Exit status 2: not a capture.

        Examples:
          blueproof inspect Captures/probe-node0.pcap
          blueproof inspect --json btsnoop_hci.log | jq '.packets[] | select(.name == "LE Advertising Report")'
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

    func run() async throws {
        let capture: CaptureFile
        do {
            capture = try CaptureReader.read(path: file)
        } catch {
            Console.error("\(error)")
            throw ExitCode(2)
        }
        let records = limit.map { Array(capture.records.prefix($0)) } ?? capture.records
        let first = capture.records.first?.timestampMicros ?? 0
        let packets = records.enumerated().map { InspectedPacket(number: $0.offset + 1, record: $0.element, start: first, hex: hex) }

        if json {
            try Console.json(InspectOutput(file: file, format: capture.format.rawValue, linkType: capture.linkType,
                                           packetCount: capture.records.count, skipped: capture.skipped,
                                           truncated: capture.truncated?.description, packets: packets))
        } else {
            print("\(file): \(capture.format), link type \(capture.linkType), \(capture.records.count) packet(s)"
                  + (capture.skipped > 0 ? ", \(capture.skipped) non-packet record(s) skipped" : ""))
            for packet in packets { print(packet.line) }
        }
        if let truncated = capture.truncated {
            Console.error("the capture ends early: \(truncated)")
            throw ExitCode(1)
        }
    }
}

/// One packet of `blueproof inspect`.
struct InspectedPacket: Encodable {
    var number: Int
    var timestampMicros: Int64
    var seconds: Double
    var direction: String
    var controllerIndex: UInt16?
    var type: String
    var name: String
    var fields: [String: String]
    /// The fields in wire order, for the text line (JSON objects have no order).
    private var orderedFields: [HCIPacketDescription.Field]
    var malformed: String?
    var bytes: String?

    init(number: Int, record: CaptureRecord, start: Int64, hex showHex: Bool) {
        let description = record.packet.describe()
        self.number = number
        timestampMicros = record.timestampMicros
        seconds = Double(record.timestampMicros - start) / 1e6
        direction = record.direction.rawValue
        controllerIndex = record.controllerIndex
        type = record.packet.type.description
        name = description.name
        fields = Dictionary(description.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        orderedFields = description.fields
        malformed = description.malformed?.description
        bytes = showHex ? BlueproofWire.hex(record.packet.h4Bytes) : nil
    }

    /// `   0.000140 > [0] event  Command Complete ncmd=1 ...`
    var line: String {
        let time = String(format: "%11.6f", seconds)
        let arrow = direction == "sent" ? "<" : ">"
        let index = controllerIndex.map { " [\($0)]" } ?? ""
        let body = ([name] + orderedFields.map { "\($0.name)=\($0.value)" }).joined(separator: " ")
        var line = "\(time) \(arrow)\(index) \(type.padding(toLength: 7, withPad: " ", startingAt: 0)) \(body)"
        if let malformed { line += "  [malformed: \(malformed)]" }
        if let bytes { line += "\n            \(bytes)" }
        return line
    }

    enum CodingKeys: String, CodingKey {
        case number, timestampMicros, seconds, direction, controllerIndex, type, name, fields, malformed, bytes
    }
}

/// `blueproof inspect --json`.
struct InspectOutput: Encodable {
    var file: String
    var format: String
    var linkType: UInt32
    var packetCount: Int
    var skipped: Int
    var truncated: String?
    var packets: [InspectedPacket]
}
