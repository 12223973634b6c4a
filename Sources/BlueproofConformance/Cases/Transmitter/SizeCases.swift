import BlueproofTransmitter
import Foundation

/// The size limits (bridgefy-ios-sdk-readme.md, "Maximum package sizes and throughput",
/// "Mesh", "Connections with Android devices"): N−1 and N accepted and delivered, N+1 refused
/// and never delivered. Dictionaries are measured in their compact JSON form with sorted keys
/// (docs/transmitter.md, "Payload encoding"); limits come from the profile.
struct SizeCase: TransmitterCase {
    enum Part: Sendable { case binary, meshDictionary, broadcastDictionary }
    enum Limit: Sendable {
        /// The size table's value for the link (`bridgefy.limits.ble.*`).
        case sizeTable
        /// The Mesh section's 2048 bytes (`bridgefy.limits.mesh_dictionary_bytes`).
        case meshSection
        /// Whichever `bridgefy.limits.mesh_dictionary_ble_applied` names.
        case applied
        /// The size table's Wi-Fi value (`bridgefy.limits.wifi.mesh_dictionary_bytes`), between
        /// two iOS-like nodes on Wi-Fi peer-to-peer.
        case wifi
    }

    let id: CaseID
    let part: Part
    let limit: Limit
    /// The size sent, relative to the limit: -1, 0 or +1.
    let offset: Int
    let nodes = 2

    var brokenBy: Set<Defect> { offset > 0 ? [.sizeLimitsOffByOne] : [.limitsTooStrict] }
    var wifiNodes: Set<Int> { limit == .wifi ? [0, 1] : [] }
    var judgesRefusals: Bool { offset > 0 }
    /// The rule an oversize send of this part is refused by.
    var rule: RefusalRule { part == .binary ? .binaryTooLarge : .meshDictionaryTooLarge }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let profile = stage.context.profile
        let applied = try profile.string("bridgefy.limits.mesh_dictionary_ble_applied")
        let limitBytes: Int
        switch (part, limit) {
        case (.binary, _):
            limitBytes = try profile.int("bridgefy.limits.ble.binary_bytes")
        case (_, .wifi):
            limitBytes = try profile.int("bridgefy.limits.wifi.mesh_dictionary_bytes")
        case (_, .sizeTable), (_, .meshSection):
            let wanted = limit == .sizeTable ? "size_table" : "mesh_section"
            guard applied == wanted else {
                return .notApplicable("the profile applies \(applied) to mesh dictionaries over BLE, this case checks \(wanted)")
            }
            limitBytes = try profile.int(wanted == "size_table" ? "bridgefy.limits.ble.mesh_dictionary_bytes" : "bridgefy.limits.mesh_dictionary_bytes")
        case (_, .applied):
            limitBytes = try profile.int(applied == "size_table" ? "bridgefy.limits.ble.mesh_dictionary_bytes" : "bridgefy.limits.mesh_dictionary_bytes")
        }
        let size = limitBytes + offset
        let (_, tester) = try await stage.connectedPair()
        let dictionary: [String: TransmitterValue]?
        let data: Data?
        let options: SendingOptions
        let receiver: UserID?
        switch part {
        case .binary:
            (dictionary, data, options, receiver) = (nil, Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }), [.directTransmission, .noEncrypted], tester)
        case .meshDictionary:
            (dictionary, data, options, receiver) = (try Self.dictionary(ofJSONSize: size), nil, [.meshTransmission, .noEncrypted], tester)
        case .broadcastDictionary:
            (dictionary, data, options, receiver) = (try Self.dictionary(ofJSONSize: size), nil, [.broadcastReceiver], nil)
        }
        let what = "\(part) of \(size) bytes (limit \(limitBytes), \(limit == .applied ? applied : "\(limit)"))"
        let id: PacketID
        do {
            id = try await stage.subject.send(dictionary: dictionary, data: data, to: receiver, options: options)
        } catch {
            return offset > 0 ? try stage.judgeRefusal(error, of: what, by: [rule]) : .fail("\(what) refused: \(error)")
        }
        if offset > 0 { return try await Self.judgeDiscarded(id, of: what, stage: stage, to: receiver, options: options, dictionaryMarker: part != .binary) }
        guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
            return .fail("\(what) accepted (packet \(id)) but never delivered to the tester")
        }
        guard packet.data == data, packet.dictionary == dictionary else {
            return .fail("\(what) delivered altered")
        }
        return .pass("\(what) accepted and delivered intact")
    }

    /// An oversize send accepted at the call (packet `id`) must still never reach the air ("will
    /// be discarded"): tester 1 neither receives it nor sees it arrive oversize. Judged against
    /// a small marker sent the same way right after it: once the marker is delivered, the
    /// oversize packet had its turn on the air; it then gets three times the marker's delay
    /// (at least 5 s, for an implementation that lets a small packet overtake a big one) more,
    /// so a slow machine stretches the wait instead of passing a delivery that came late.
    static func judgeDiscarded(_ id: PacketID, of what: String, stage: TransmitterStage, to receiver: UserID?, options: SendingOptions,
                               dictionaryMarker: Bool) async throws -> CaseOutcome {
        let sent = ContinuousClock.now
        let marker: PacketID
        do {
            marker = try await stage.subject.send(dictionary: dictionaryMarker ? ["m": .string("marker")] : nil,
                                                  data: dictionaryMarker ? nil : Data([0x4D]), to: receiver, options: options)
        } catch {
            return .error("the small marker sent after \(what) was refused (\(error)): the discard cannot be judged")
        }
        let oversize: @Sendable (TransmitterEvent) -> Bool = { event in
            switch event {
            case .received(let packet): packet.packetID == id
            case .rejectedBySize(let rejected, _, _): rejected == id
            default: false
            }
        }
        guard await stage.logs[1].received(marker, within: stage.airTimeout) != nil else {
            if let seen = stage.logs[1].events.first(where: oversize) {
                return .fail("\(what) was accepted (packet \(id)) and went on the air: the tester saw \(seen)")
            }
            return .error("the small marker sent after \(what) never reached the tester within \(stage.airTimeout): the discard cannot be judged")
        }
        let grace = TransmitterStage.quietWindow(since: sent)
        let seen = try await stage.watch(1, for: grace, what: "\(what) (packet \(id))", oversize)
        if let seen { return .fail("\(what) was accepted (packet \(id)) and went on the air: the tester saw \(seen)") }
        return .pass("\(what) accepted at the call (packet \(id)) but discarded: the marker sent after it arrived, it did not (waited \(grace) more)")
    }

    /// `{"p":"xxx…"}` whose compact JSON is exactly `size` bytes.
    static func dictionary(ofJSONSize size: Int) throws -> [String: TransmitterValue] {
        let overhead = #"{"p":""}"#.utf8.count
        guard size >= overhead else { throw PayloadBuildError(description: "no dictionary is \(size) bytes of JSON") }
        let dictionary: [String: TransmitterValue] = ["p": .string(String(repeating: "x", count: size - overhead))]
        guard (try TransmitterPayload(dictionary: dictionary).dictionarySize) == size else {
            throw PayloadBuildError(description: "could not build a \(size)-byte dictionary")
        }
        return dictionary
    }

    static func all() -> [SizeCase] {
        [
            SizeCase(id: "BFT/SIZE/BI-01", part: .binary, limit: .sizeTable, offset: 1),
            SizeCase(id: "BFT/SIZE/BV-01", part: .binary, limit: .sizeTable, offset: -1),
            SizeCase(id: "BFT/SIZE/BV-02", part: .binary, limit: .sizeTable, offset: 0),
            SizeCase(id: "BFT/SIZE/BI-02", part: .meshDictionary, limit: .sizeTable, offset: 1),
            SizeCase(id: "BFT/SIZE/BV-04", part: .meshDictionary, limit: .sizeTable, offset: -1),
            SizeCase(id: "BFT/SIZE/BV-05", part: .meshDictionary, limit: .sizeTable, offset: 0),
            SizeCase(id: "BFT/SIZE/BI-03", part: .meshDictionary, limit: .meshSection, offset: 1),
            SizeCase(id: "BFT/SIZE/BV-06", part: .meshDictionary, limit: .meshSection, offset: -1),
            SizeCase(id: "BFT/SIZE/BV-07", part: .meshDictionary, limit: .meshSection, offset: 0),
            SizeCase(id: "BFT/SIZE/BI-04", part: .meshDictionary, limit: .wifi, offset: 1),
            SizeCase(id: "BFT/SIZE/BV-08", part: .meshDictionary, limit: .wifi, offset: -1),
            SizeCase(id: "BFT/SIZE/BV-09", part: .meshDictionary, limit: .wifi, offset: 0),
            SizeCase(id: "BFT/SIZE/BI-05", part: .broadcastDictionary, limit: .applied, offset: 1),
            SizeCase(id: "BFT/SIZE/BV-10", part: .broadcastDictionary, limit: .applied, offset: 0),
        ]
    }
}

/// The harness could not build the payload a case sends (its verdict is `error`).
struct PayloadBuildError: Error, CustomStringConvertible {
    let description: String
}

/// BFT/SIZE/BI-07: mesh binary data is refused at any size, one byte included.
struct MeshBinaryCase: TransmitterCase {
    let id: CaseID = "BFT/SIZE/BI-07"
    let nodes = 2
    let brokenBy: Set<Defect> = [.binaryInMeshAllowed]
    let judgesRefusals = true

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (_, tester) = try await stage.connectedPair()
        for options: SendingOptions in [.meshTransmission, .fullTransmission] {
            let what = "one byte of binary data with \(options.names.joined(separator: " + "))"
            do {
                let id = try await stage.subject.send(dictionary: nil, data: Data([0x42]), to: tester, options: options)
                return .fail("\(what) was accepted (packet \(id))")
            } catch {
                let judged = try stage.judgeRefusal(error, of: what, by: [.binaryInMesh])
                guard judged.verdict == .pass else { return judged }
            }
        }
        return .pass("one byte of binary data refused with MeshTransmission and FullTransmission")
    }
}
