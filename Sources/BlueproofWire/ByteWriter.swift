/// Appends little-endian fields to a byte array (Core Vol 4, Part E §5.2).
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 32) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func i8(_ value: Int8) { bytes.append(UInt8(bitPattern: value)) }
    public mutating func u16(_ value: UInt16) { uint(UInt64(value), width: 2) }
    public mutating func u24(_ value: UInt32) { uint(UInt64(value), width: 3) }
    public mutating func u32(_ value: UInt32) { uint(UInt64(value), width: 4) }
    public mutating func u64(_ value: UInt64) { uint(value, width: 8) }

    public mutating func uint(_ value: UInt64, width: Int) {
        for index in 0..<width {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index)))
        }
    }

    public mutating func append(_ other: some Sequence<UInt8>) { bytes.append(contentsOf: other) }
}
