import BlueproofHost
import BlueproofWire

/// A peer's GATT database as `blueproof gatt --discover` prints it.
struct GATTTreeService: Encodable, Sendable {
    var uuid: String
    var startHandle: Int
    var endHandle: Int
    var characteristics: [GATTTreeCharacteristic]
}

struct GATTTreeCharacteristic: Encodable, Sendable {
    var uuid: String
    var declarationHandle: Int
    var valueHandle: Int
    var properties: [String]
    var descriptors: [GATTTreeDescriptor]
}

struct GATTTreeDescriptor: Encodable, Sendable {
    var uuid: String
    var handle: Int
}

extension GATTCharacteristicProperties {
    /// The properties as words: `read`, `write`, `write-without-response`, `notify`, …
    var words: [String] {
        let names: [(GATTCharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended-properties"),
        ]
        return names.filter { contains($0.0) }.map(\.1)
    }
}

/// One line of `blueproof gatt` output: text, or a JSON object with `event` naming it.
struct GATTEvent: Encodable, Sendable {
    var event: String
    var peer: String?
    var peerType: String?
    var connectionHandle: Int?
    var mtu: Int?
    var services: [GATTTreeService]?
    var uuid: String?
    var handle: Int?
    var length: Int?
    /// Hexadecimal.
    var value: String?
    /// The value as UTF-8 text, when it all prints.
    var text: String?
    var withResponse: Bool?
    var indication: Bool?
    var count: Int?
    var reason: String?
    /// For `disconnected`: who ended the connection, `local` or `peer`.
    var initiator: String?
    /// For `error`: what failed, and the ATT error when the server answered with one.
    var operation: String?
    var attError: String?
    var attErrorCode: Int?

    init(_ event: String) { self.event = event }

    /// A value's fields: length, hex, and text when printable.
    mutating func set(value bytes: [UInt8]) {
        length = bytes.count
        value = hex(bytes)
        text = printableText(bytes)
    }

    var line: String {
        let target = [uuid, handle.map { "0x\(hex(UInt16(truncatingIfNeeded: $0)))" }].compactMap { $0 }
        let named = target.count == 2 ? "\(target[0]) (\(target[1]))" : target.first ?? "?"
        let shown = (value.map { $0.isEmpty ? "(empty)" : $0 } ?? "") + (text.map { "  \"\($0)\"" } ?? "")
        switch event {
        case "connected":
            return "connected to \(peer ?? "?") (\(peerType ?? "?")), handle 0x\(hex(UInt16(truncatingIfNeeded: connectionHandle ?? 0))), ATT_MTU \(mtu ?? 0)"
        case "mtu": return "ATT_MTU \(mtu ?? 0)"
        case "services": return Self.tree(services ?? [])
        case "read": return "read \(named), \(length ?? 0) bytes: \(shown)"
        case "write": return "wrote \(named) \(withResponse == true ? "with response" : "without response"): \(shown)"
        case "subscribed": return "subscribed to \(named) (\(indication == true ? "indications" : "notifications"))"
        case "notification": return "\(indication == true ? "indication" : "notification") \(named): \(shown)"
        case "unsubscribed": return "unsubscribed from \(named)"
        case "disconnected": return initiator == "peer" ? "disconnected by the peer (\(reason ?? "?"))" : "disconnected"
        default: return event
        }
    }

    private static func tree(_ services: [GATTTreeService]) -> String {
        var lines: [String] = []
        for service in services {
            lines.append("service \(service.uuid)  handles 0x\(hex(UInt16(service.startHandle)))-0x\(hex(UInt16(service.endHandle)))")
            for characteristic in service.characteristics {
                lines.append("  characteristic \(characteristic.uuid)  value 0x\(hex(UInt16(characteristic.valueHandle)))"
                             + " (declaration 0x\(hex(UInt16(characteristic.declarationHandle))))  "
                             + (characteristic.properties.isEmpty ? "-" : characteristic.properties.joined(separator: " ")))
                for descriptor in characteristic.descriptors {
                    lines.append("    descriptor \(descriptor.uuid)  0x\(hex(UInt16(descriptor.handle)))")
                }
            }
        }
        return lines.isEmpty ? "no services" : lines.joined(separator: "\n")
    }
}

/// The bytes as text when they are UTF-8 and every character prints (spaces allowed); nil
/// otherwise, or when empty.
func printableText(_ bytes: [UInt8]) -> String? {
    guard !bytes.isEmpty, let text = String(validating: bytes, as: UTF8.self) else { return nil }
    let printable = text.unicodeScalars.allSatisfy { scalar in
        scalar == " " || !(scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .format || scalar.properties.generalCategory == .unassigned)
    }
    return printable ? text : nil
}
