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

    @Test("publish then read: the last key per id wins, the file is the documented lines, an absent file holds nothing")
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
        let text = try String(contentsOfFile: keys.path, encoding: .utf8)
        #expect(text == "8 \(String(repeating: "03", count: 32))\n7 \(String(repeating: "02", count: 32))\n")
        #expect(throws: SparkKeyDirectoryError.badKey(bytes: 31)) { try keys.publish([UInt8](repeating: 0, count: 31), for: 7) }
    }

    @Test("untrusted file: a malformed line names itself, past 512 KiB or 4096 lines is refused naming the limit; publishing keeps the newest 4096")
    func bounds() throws {
        let (keys, folder) = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let good = "5 \(String(repeating: "ab", count: 32))\n"
        for (broken, line) in [(good + "6 zz\n", 2), (good + "x \(String(repeating: "ab", count: 32))\n", 2), ("7 \(String(repeating: "ab", count: 31))\n", 1), ("1 2 3\n", 1)] {
            try broken.write(toFile: keys.path, atomically: true, encoding: .utf8)
            #expect(throws: SparkKeyDirectoryError.malformed(path: keys.path, line: line)) { try keys.key(for: 5) }
        }
        try Data(repeating: 0x0A, count: SparkKeyDirectory.maxBytes + 1).write(to: URL(fileURLWithPath: keys.path))
        #expect(throws: SparkKeyDirectoryError.tooLarge(path: keys.path, limit: SparkKeyDirectory.maxBytes)) { try keys.key(for: 5) }
        let many = (0...SparkKeyDirectory.maxEntries).map { "\($0 + 1) \(String(repeating: "ab", count: 32))\n" }.joined()
        try many.write(toFile: keys.path, atomically: true, encoding: .utf8)
        #expect(throws: SparkKeyDirectoryError.tooManyEntries(path: keys.path, limit: SparkKeyDirectory.maxEntries)) { try keys.key(for: 5) }

        let full = (1...SparkKeyDirectory.maxEntries).map { "\($0) \(String(repeating: "ab", count: 32))\n" }.joined()
        try full.write(toFile: keys.path, atomically: true, encoding: .utf8)
        try keys.publish([UInt8](repeating: 9, count: 32), for: 999_999)
        #expect(try keys.key(for: 999_999) == [UInt8](repeating: 9, count: 32))
        #expect(try keys.key(for: 1) == nil, "the oldest line was kept past the bound")
        #expect(try keys.key(for: 2) != nil)
    }
}
