import BlueproofHost
import BlueproofWire

/// The test service of `Bumble/peer.py`, so either stack can play either side.
enum TestService {
    static let service = BluetoothUUID("7B5C0001-2F3A-4E0B-9E43-52A0C6B1D000")!
    /// Notify and indicate; value bytes 0...19.
    static let notify = BluetoothUUID("7B5C0002-2F3A-4E0B-9E43-52A0C6B1D000")!
    /// Write and write without response.
    static let write = BluetoothUUID("7B5C0003-2F3A-4E0B-9E43-52A0C6B1D000")!
    /// Read, 300 bytes: longer than one ATT_MTU, so Read Blob is needed.
    static let read = BluetoothUUID("7B5C0004-2F3A-4E0B-9E43-52A0C6B1D000")!
    static let spsm = L2CAPSPSM(0x0080)
    /// 100 KB of bulk data, as the interop requirements ask.
    static let bulk = 102_400

    static let definition = GATTServiceDefinition(uuid: service, characteristics: [
        GATTCharacteristicDefinition(uuid: notify, properties: [.notify, .indicate], value: Array(0..<20)),
        GATTCharacteristicDefinition(uuid: write, properties: [.write, .writeWithoutResponse], value: []),
        GATTCharacteristicDefinition(uuid: read, properties: .read, value: pattern(300)),
    ])
}

/// Bulk data as peer.py makes it: byte i is i % 251 across the whole stream.
func pattern(_ count: Int, from start: Int = 0) -> [UInt8] {
    (start..<start + count).map { UInt8($0 % 251) }
}
