import BlueproofTransmitter
import Foundation

// issue 14: BFT/SIZE with an Android peer
/// The subject as an iOS node with both links, the tester as an Android node with both too
/// (bridgefy-ios-sdk-readme.md, "Connections with Android devices": Wi-Fi peer-to-peer only
/// between iOS devices; with an Android device every connection is BLE). The tester's Wi-Fi
/// link reaches the subject, so a subject that ignores the platform could use it; the tester's
/// links count what crossed each of them from the subject.
enum AndroidPeerSizeCases {
    static let platforms: [Int: DevicePlatform] = [0: .ios, 1: .android]

    static func all() -> [any TransmitterCase] {
        [AndroidBinaryLimitCase(), AndroidCarrierCase()]
    }
}

extension TransmitterStage {
    /// Waits until tester `index` reaches `peer` over Wi-Fi peer-to-peer as well as BLE, so that
    /// the subject has both links to choose from (a precondition).
    func carriageWithWiFi(atTester index: Int, of peer: UserID) async throws -> DualLink.Carriage {
        guard let provider = context.transmitterProvider else { throw MissingTransmitterProvider() }
        guard let carriage = try await provider.carriage(atTester: index, of: peer, within: preconditionTimeout,
                                                         where: { $0.onWiFi }, for: context) else {
            throw StageFailure(.connection, "node \(index): the subject not reached over Wi-Fi peer-to-peer within \(preconditionTimeout)")
        }
        return carriage
    }
}

/// BFT/SIZE/BV-03: to an Android peer, binary data sent direct keeps BLE's limit: exactly the
/// limit is accepted and delivered, one byte over is refused for the documented reason (or, if
/// accepted, never reaches the peer), however fast a Wi-Fi link to it would be.
struct AndroidBinaryLimitCase: TransmitterCase {
    let id: CaseID = "BFT/SIZE/BV-03"
    let nodes = 2
    let brokenBy: Set<Defect> = [.wifiLimitsToAndroidPeer]
    var judgesRefusals: Bool { true }
    var platforms: [Int: DevicePlatform] { AndroidPeerSizeCases.platforms }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let limit = try stage.context.profile.int("bridgefy.limits.ble.binary_bytes")
        let (subject, tester) = try await stage.connectedPair()
        _ = try await stage.carriageWithWiFi(atTester: 1, of: subject)
        let options: SendingOptions = [.directTransmission, .noEncrypted]
        let atLimit = Data((0..<limit).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let what = "binary data of \(limit) bytes (the BLE limit) sent direct to an Android peer"
        let id: PacketID
        do {
            id = try await stage.subject.send(dictionary: nil, data: atLimit, to: tester, options: options)
        } catch {
            return .fail("\(what) was refused: \(error)")
        }
        guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
            return .fail("\(what) was accepted (packet \(id)) but never delivered")
        }
        guard packet.data == atLimit else { return .fail("\(what) arrived altered") }
        let over = "binary data of \(limit + 1) bytes (one over the BLE limit) sent direct to an Android peer"
        let overID: PacketID
        do {
            overID = try await stage.subject.send(dictionary: nil, data: atLimit + [0], to: tester, options: options)
        } catch {
            let judged = try stage.judgeRefusal(error, of: over, by: [.binaryTooLarge])
            guard judged.verdict == .pass else { return judged }
            return .pass("\(what) was delivered intact; \(judged.reason)")
        }
        let judged = try await SizeCase.judgeDiscarded(overID, of: over, stage: stage, to: tester, options: options, dictionaryMarker: false)
        guard judged.verdict == .pass else { return judged }
        return .pass("\(what) was delivered intact; \(judged.reason)")
    }
}

/// BFT/SIZE/BV-14: nothing the subject sends to an Android peer crosses Wi-Fi peer-to-peer,
/// though the peer is reachable there: direct, mesh and full packets all arrive over BLE. Judged
/// from the frames the tester's links took from the subject, not from the subject's reports,
/// and, over controllers, from the tester's capture: each packet's data frame is in it.
struct AndroidCarrierCase: TransmitterCase {
    let id: CaseID = "BFT/SIZE/BV-14"
    let nodes = 2
    let brokenBy: Set<Defect> = [.wifiToAndroidPeer]
    var platforms: [Int: DevicePlatform] { AndroidPeerSizeCases.platforms }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (subject, tester) = try await stage.connectedPair()
        let before = try await stage.carriageWithWiFi(atTester: 1, of: subject)
        let sends: [(String, [String: TransmitterValue]?, Data?, SendingOptions)] = [
            ("a direct dictionary", ["n": .integer(1)], nil, [.directTransmission, .noEncrypted]),
            ("direct binary data", nil, Data(repeating: 0xA5, count: 4096), [.directTransmission, .noEncrypted]),
            ("a mesh dictionary", ["n": .integer(2)], nil, [.meshTransmission, .noEncrypted]),
            ("a full-transmission dictionary", ["n": .integer(3)], nil, [.fullTransmission, .noEncrypted]),
        ]
        var delivered: [PacketID] = []
        for (what, dictionary, data, options) in sends {
            let id: PacketID
            do {
                id = try await stage.subject.send(dictionary: dictionary, data: data, to: tester, options: options)
            } catch {
                return .fail("\(what) to the Android peer was refused: \(error)")
            }
            guard await stage.logs[1].received(id, within: stage.airTimeout) != nil else {
                return .fail("\(what) to the Android peer (packet \(id)) was never delivered")
            }
            delivered.append(id)
        }
        // Counted before each delivery was reported, so what the tester saw now is complete.
        let after = try await stage.context.transmitterProvider?.carriage(atTester: 1, of: subject, within: .zero, where: { _ in true },
                                                                           for: stage.context) ?? before
        let overWiFi = after.wifiFrames - before.wifiFrames
        let overBLE = after.bleFrames - before.bleFrames
        guard overWiFi == 0 else {
            return .fail("\(overWiFi) of the subject's frames to the Android peer crossed Wi-Fi peer-to-peer (\(overBLE) crossed BLE)")
        }
        guard overBLE >= sends.count else {
            return .fail("only \(overBLE) frames from the subject crossed BLE for \(sends.count) packets delivered")
        }
        var captured = ""
        if stage.context.captures.count > 1 {
            let inCapture = Set(try CaptureEvidence(path: stage.context.captures[1]).transmitterDataFrames.map(\.data.packetID))
            let missing = delivered.filter { !inCapture.contains($0) }
            guard missing.isEmpty else {
                return .fail("packets \(missing) reached the Android peer but are not in its BLE capture")
            }
            captured = "; each packet's data frame is in the tester's BLE capture"
        }
        return .pass("\(sends.count) packets (direct, mesh, full) reached the Android peer in \(overBLE) frames over BLE, none over Wi-Fi peer-to-peer, which reached it too\(captured)")
    }
}
