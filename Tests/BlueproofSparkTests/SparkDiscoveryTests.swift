import BlueproofSpark
import BlueproofWire
import Foundation
import Testing

/// How `blueproof spark` finds a listener and its key (docs/spark-wire.md, "Finding a
/// listener"): the advertisement and the key directory, both read from untrusted bytes.
@Suite("Spark listener advertisement and key directory")
struct SparkDiscoveryTests {
    @Test("the advertisement names the registration id in 29 octets; other service data, lengths and broken AD name nothing")
    func advertisement() throws {
        let data = try SparkAdvertisement.data(registrationID: 0x0102_0304_0506_0708)
        #expect(data.count == 29)
        #expect(SparkAdvertisement.registrationID(in: data) == 0x0102_0304_0506_0708)
        #expect(SparkAdvertisement.registrationID(in: try SparkAdvertisement.data(registrationID: 7)) == 7)
        let other = try AdvertisingData([.serviceData(ServiceData(uuid: BluetoothUUID("5B1E7A11-0B1E-4F5A-9C3D-7E2A61B0F001")!, data: [7, 0, 0, 0, 0, 0, 0, 0]))]).encoded()
        #expect(SparkAdvertisement.registrationID(in: other) == nil)
        let short = try AdvertisingData([.serviceData(ServiceData(uuid: SparkAdvertisement.service, data: [7, 0, 0]))]).encoded()
        #expect(SparkAdvertisement.registrationID(in: short) == nil)
        #expect(SparkAdvertisement.registrationID(in: Array(data.dropLast())) == nil, "a structure cut short")
        #expect(SparkAdvertisement.registrationID(in: []) == nil)
    }

    static func directory() throws -> (SparkKeyDirectory, String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spark-keys-\(UUID().uuidString)").path
        return (SparkKeyDirectory(path: folder + "/sub/keys"), folder)
    }

    @Test("publish, read, replace, withdraw: one file per node holding its key id in hex; no file is no key")
    func publishAndRead() throws {
        let (keys, folder) = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try keys.key(for: 7) == nil)
        let first = [UInt8](repeating: 1, count: 32), second = [UInt8](repeating: 2, count: 32)
        try keys.publish(first, for: 7)
        try keys.publish([UInt8](repeating: 3, count: 32), for: 8)
        try keys.publish(second, for: 7)
        #expect(try keys.key(for: 7) == second)
        #expect(try keys.key(for: 8) == [UInt8](repeating: 3, count: 32))
        #expect(try keys.key(for: 9) == nil)
        #expect(try String(contentsOfFile: keys.path + "/7", encoding: .utf8) == String(repeating: "02", count: 32) + "\n")
        keys.withdraw(7)
        #expect(try keys.key(for: 7) == nil)
        #expect(try keys.key(for: 8) != nil)
        #expect(throws: SparkKeyDirectoryError.badKey(bytes: 31)) { try keys.publish([UInt8](repeating: 0, count: 31), for: 7) }
    }

    @Test("untrusted files: not 64 hex digits is malformed, past 128 bytes is refused naming the limit")
    func bounds() throws {
        let (keys, folder) = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: keys.path, withIntermediateDirectories: true)
        let file = keys.path + "/5"
        for broken in ["zz", String(repeating: "ab", count: 31), String(repeating: "ab", count: 33), "", String(repeating: "ab", count: 32) + " x"] {
            try broken.write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: SparkKeyDirectoryError.malformed(path: file)) { try keys.key(for: 5) }
        }
        try Data(repeating: 0x61, count: SparkKeyDirectory.maxFileBytes + 1).write(to: URL(fileURLWithPath: file))
        #expect(throws: SparkKeyDirectoryError.tooLarge(path: file, limit: SparkKeyDirectory.maxFileBytes)) { try keys.key(for: 5) }
        try (String(repeating: "ab", count: 32) + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try keys.key(for: 5) == [UInt8](repeating: 0xAB, count: 32))
    }
}
