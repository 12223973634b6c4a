import BlueproofWire

/// An attribute named on the command line: a characteristic UUID, or a handle as `0x…`.
enum GATTTarget: Hashable, Sendable, CustomStringConvertible {
    case uuid(BluetoothUUID)
    case handle(UInt16)

    /// `180D`, `7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000`, or `0x0012`.
    static func parse(_ text: String) throws -> GATTTarget {
        let lowered = text.lowercased()
        if lowered.hasPrefix("0x") {
            guard let value = UInt16(lowered.dropFirst(2), radix: 16), value != 0 else {
                throw GATTArgumentError("a handle is 0x0001...0xFFFF, e.g. 0x0012")
            }
            return .handle(value)
        }
        guard let uuid = BluetoothUUID(text) else {
            throw GATTArgumentError("expected a characteristic UUID (180D, 7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000) or a handle (0x0012)")
        }
        return .uuid(uuid)
    }

    var description: String {
        switch self {
        case let .uuid(uuid): "\(uuid)"
        case let .handle(handle): "0x\(hex(handle))"
        }
    }
}

/// `TARGET=HEX` for `--write` and `--write-command`.
struct GATTWrite: Hashable, Sendable {
    var target: GATTTarget
    var value: [UInt8]

    static func parse(_ text: String) throws -> GATTWrite {
        guard let equals = text.firstIndex(of: "=") else {
            throw GATTArgumentError("expected UUID=HEX or 0xHANDLE=HEX, e.g. 2A06=01")
        }
        let target = try GATTTarget.parse(String(text[..<equals]))
        guard let value = bytes(fromHex: String(text[text.index(after: equals)...])) else {
            throw GATTArgumentError("the value after = must be hexadecimal bytes, e.g. c0ffee01")
        }
        return GATTWrite(target: target, value: value)
    }
}

/// Why a `--read`, `--write` or `--subscribe` argument was refused; ArgumentParser prints the
/// description after the value.
struct GATTArgumentError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
