import Testing
import BlueproofTransmitter

/// Rules that depend on the context of the send: operation mode, range, keys, receiver.
/// bridgefy-ios-sdk-readme.md, "Operation modes", "Sending options", "Export and import keys".
@Suite("Send context rules")
struct SendContextTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let options: SendingOptions
        var hasReceiver = true
        var inRange = true
        var canEncrypt = true
        var mode: ConnectionMode = .automatic
        var binary = false
        let expected: Expectation
        var testDescription: String { "\(name) -> \(expected)" }
    }

    static let rows: [Row] = [
        // On-demand: direct only ("Operation modes").
        Row(name: "on-demand direct", options: [.directTransmission], mode: .onDemand,
            expected: .accept(.direct, encrypted: false, firstHop: .direct)),
        Row(name: "on-demand direct binary", options: [.directTransmission], mode: .onDemand, binary: true,
            expected: .accept(.direct, encrypted: false, firstHop: .direct)),
        Row(name: "on-demand mesh", options: [.meshTransmission], mode: .onDemand, expected: .refuse(50005)),
        Row(name: "on-demand full", options: [.fullTransmission], mode: .onDemand, expected: .refuse(50005)),
        Row(name: "on-demand broadcast", options: [.broadcastReceiver], hasReceiver: false, mode: .onDemand,
            expected: .refuse(50005)),
        Row(name: "on-demand encrypted broadcast (mode first)", options: [.broadcastReceiver, .encrypted],
            hasReceiver: false, mode: .onDemand, expected: .refuse(50005)),

        // Receiver out of range ("Sending options").
        Row(name: "direct out of range", options: [.directTransmission], inRange: false, expected: .refuse(50003)),
        Row(name: "direct binary out of range", options: [.directTransmission], inRange: false, binary: true,
            expected: .refuse(50003)),
        Row(name: "mesh out of range", options: [.meshTransmission], inRange: false,
            expected: .accept(.mesh, encrypted: false, firstHop: .mesh)),
        Row(name: "full out of range falls to mesh", options: [.fullTransmission], inRange: false,
            expected: .accept(.full, encrypted: false, firstHop: .mesh)),
        Row(name: "full in range goes direct", options: [.fullTransmission],
            expected: .accept(.full, encrypted: false, firstHop: .direct)),
        Row(name: "broadcast nobody in range", options: [.broadcastReceiver], hasReceiver: false, inRange: false,
            expected: .accept(.broadcast, encrypted: false, firstHop: .mesh)),

        // Encryption needs a secure connection or an imported key ("Export and import keys").
        Row(name: "encrypted direct, no key", options: [.directTransmission, .encrypted], canEncrypt: false,
            expected: .refuse(50004)),
        Row(name: "encrypted mesh, no key", options: [.meshTransmission, .encrypted], canEncrypt: false,
            expected: .refuse(50004)),
        Row(name: "encrypted full, no key", options: [.fullTransmission, .encrypted], canEncrypt: false,
            expected: .refuse(50004)),
        Row(name: "encrypted mesh, key, out of range", options: [.meshTransmission, .encrypted], inRange: false,
            expected: .accept(.mesh, encrypted: true, firstHop: .mesh)),
        Row(name: "plain direct, no key", options: [.directTransmission, .noEncrypted], canEncrypt: false,
            expected: .accept(.direct, encrypted: false, firstHop: .direct)),
        Row(name: "plain broadcast, no key", options: [.broadcastReceiver, .noEncrypted], hasReceiver: false,
            canEncrypt: false, expected: .accept(.broadcast, encrypted: false, firstHop: .mesh)),
        Row(name: "encrypted direct, no key, out of range (key first)", options: [.directTransmission, .encrypted],
            inRange: false, canEncrypt: false, expected: .refuse(50004)),

        // Receivers (choice C7).
        Row(name: "direct without receiver", options: [.directTransmission], hasReceiver: false, expected: .refuse(50011)),
        Row(name: "mesh without receiver", options: [.meshTransmission], hasReceiver: false, expected: .refuse(50011)),
        Row(name: "full without receiver", options: [.fullTransmission], hasReceiver: false, expected: .refuse(50011)),
        Row(name: "broadcast with receiver", options: [.broadcastReceiver], expected: .refuse(50012)),
        Row(name: "broadcast binary with receiver (binary first)", options: [.broadcastReceiver], binary: true,
            expected: .refuse(50006)),
        Row(name: "mesh binary without receiver (receiver first)", options: [.meshTransmission], hasReceiver: false,
            binary: true, expected: .refuse(50011)),
        Row(name: "mesh binary, no key (binary first)", options: [.meshTransmission, .encrypted], canEncrypt: false,
            binary: true, expected: .refuse(50002)),
    ]

    @Test("context rule", arguments: rows)
    func rule(_ row: Row) {
        let request = SendRequest(
            options: row.options, dictionarySize: row.binary ? nil : 100, binarySize: row.binary ? 100 : nil,
            hasReceiver: row.hasReceiver, receiverInRange: row.inRange, canEncryptToReceiver: row.canEncrypt,
            mode: row.mode)
        let verdict = SendValidator().validate(request)
        #expect(row.expected.matches(verdict), "got \(verdict)")
    }

    @Test("check(_:) throws the same refusal validate(_:) returns")
    func checkThrows() {
        let request = SendRequest(
            options: [.broadcastReceiver, .encrypted], dictionarySize: 10, binarySize: nil,
            hasReceiver: false, receiverInRange: false, canEncryptToReceiver: true)
        #expect(throws: TransmitterError.encryptedBroadcast) { try SendValidator().check(request) }
    }

    @Test("zero-length binary alone is nothing to send")
    func emptyBinary() {
        let request = SendRequest(
            options: [.directTransmission], dictionarySize: nil, binarySize: 0,
            hasReceiver: true, receiverInRange: true, canEncryptToReceiver: true)
        #expect(SendValidator().validate(request).error == .noDataToSend)
    }
}
