import BlueproofTransmitter
import Foundation

/// Delivery (bridgefy-ios-sdk-readme.md, "4. Send data", "5. Receive Data", "Direct and mesh
/// transmission", "Sending options"): events, flags and contents as the receiver sees them.
enum DeliveryCases {
    static let text: [String: TransmitterValue] = ["text": .string("blueproof delivery"), "n": .integer(7), "ok": .bool(true), "x": .number(1.5)]

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/DLV/BV-01", nodes: 2, brokenBy: [.directNeverConfirmed]) { stage in
                let (_, tester) = try await stage.connectedPair()
                let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
                guard await stage.logs[0].first(within: stage.airTimeout, where: { $0 == .sentDirect(id) }) != nil else {
                    return .fail("no didSendDirectPacket for packet \(id)")
                }
                return .pass("didSendDirectPacket with the id the send returned (\(id))")
            },
            flags("BFT/DLV/BV-02", options: .directTransmission, mesh: false, broadcast: false, brokenBy: [.directFlaggedAsMesh]),
            ScriptCase("BFT/DLV/BV-03", nodes: 2, brokenBy: [.senderMisreported]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .directTransmission)
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("packet \(id) never reached the tester")
                }
                guard packet.sender == subject else { return .fail("the receiver sees sender \(packet.sender), the sender is \(subject)") }
                return .pass("received with the sender's id \(subject) and packet id \(id)")
            },
            flags("BFT/DLV/BV-05", options: .meshTransmission, mesh: true, broadcast: false, brokenBy: [.meshFlagDropped]),
            ScriptCase("BFT/DLV/BV-06", nodes: 2, brokenBy: [.meshSkipsReceiver]) { stage in
                // Delivery alone is judged here (the flags are BV-05's): a mesh send needs no
                // range, and having the receiver in range must not keep it from arriving.
                let (_, tester) = try await stage.connectedPair()
                let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: .meshTransmission)
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("the mesh packet \(id) never reached its receiver, connected to the sender")
                }
                guard packet.dictionary == text else { return .fail("packet \(id) arrived altered") }
                return .pass("a mesh send to the receiver in range arrived intact (packet \(id))")
            },
            flags("BFT/DLV/BV-07", options: .fullTransmission, mesh: false, broadcast: false, brokenBy: [.directFlaggedAsMesh]),
            ScriptCase("BFT/DLV/BV-11", nodes: 2, brokenBy: [.broadcastFlagDropped]) { stage in
                let (_, tester) = try await stage.connectedPair()
                let id = try await stage.send(from: 1, dictionary: text, to: nil, options: .broadcastReceiver)
                guard let packet = await stage.logs[0].received(id, within: stage.airTimeout) else {
                    return .fail("the tester's broadcast \(id) never reached the subject")
                }
                guard packet.broadcast, packet.sender == tester else {
                    return .fail("the broadcast arrived with broadcast \(packet.broadcast), sender \(packet.sender)")
                }
                return .pass("the tester's broadcast arrived with broadcast true, with no secure connection made")
            },
            ScriptCase("BFT/DLV/BV-12", nodes: 2, brokenBy: [.encryptedPayloadCorrupted]) { stage in
                let (_, tester) = try await stage.connectedPair()
                try await stage.secure(0, with: tester)
                let data = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
                let id = try await stage.subject.send(dictionary: text, data: data, to: tester, options: [.encrypted, .directTransmission])
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("encrypted packet \(id) never reached the tester")
                }
                guard packet.dictionary == text, packet.data == data else { return .fail("the encrypted packet arrived altered") }
                return .pass("encrypted dictionary and data arrived decrypted and equal")
            },
            ScriptCase("BFT/DLV/BI-01", nodes: 2, brokenBy: [.directNeverFails], directFailsInFlight),
            ScriptCase("BFT/DLV/BV-09", nodes: 3, brokenBy: [.broadcastToOnePeer], radioScenario: ScriptCase.star, broadcastReachesEveryone),
        ]
    }

    /// BFT/DLV/BI-01: a direct send accepted while the receiver is connected, whose receiver
    /// leaves while the packet is still on its way (the largest binary part the profile allows,
    /// so it is in the air for a while), must end in didFailForPacket naming that packet. A
    /// refusal at the call proves nothing here: the receiver was in range when it was made.
    @Sendable static func directFailsInFlight(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let (_, tester) = try await stage.connectedPair()
        let size = try stage.context.profile.int("bridgefy.limits.ble.binary_bytes")
        let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let id = try await stage.subject.send(dictionary: nil, data: data, to: tester, options: .directTransmission)
        await stage.nodes[1].stop()
        let outcome = await stage.logs[0].first(within: stage.airTimeout) { event in
            switch event {
            case .failed(let failed, _): failed == id
            case .sentDirect(let sent): sent == id
            default: false
            }
        }
        switch outcome {
        case .failed(_, let error)?:
            return .pass("accepted (packet \(id)), then didFailForPacket \(id) once the receiver left: \(error)")
        case .sentDirect?:
            // The tester reports what it received before its `stopped`.
            _ = try await stage.wait(1, for: "the tester's stopped", precondition: .tester) { $0 == .stopped }
            if stage.logs[1].received.contains(where: { $0.packetID == id }) {
                throw StageFailure(.tester, "the \(size)-byte packet \(id) arrived before the receiver left: no failure to observe")
            }
            return .fail("packet \(id) was reported sent direct, but the receiver left before it arrived")
        default:
            let others = stage.logs[0].events.filter { if case .failed = $0 { true } else { false } }
            return .fail("no didFailForPacket naming packet \(id) within \(stage.airTimeout) after its receiver left"
                + (others.isEmpty ? "" : " (failures reported: \(others))"))
        }
    }

    /// BFT/DLV/BV-09 ("Sending options": a broadcast goes to every user in range): the subject
    /// broadcasts with two testers in range (of it, not of each other); each must receive it,
    /// flagged broadcast.
    @Sendable static func broadcastReachesEveryone(_ stage: TransmitterStage) async throws -> CaseOutcome {
        let subject = try await stage.start(0)
        var testers: [UserID] = []
        for index in 1...2 { testers.append(try await stage.start(index)) }
        for index in 1...2 {
            let tester = testers[index - 1]
            _ = try await stage.wait(0, for: "connection with tester \(index)") { $0 == .connected(tester) }
            _ = try await stage.wait(index, for: "connection with the subject") { $0 == .connected(subject) }
        }
        let id = try await stage.subject.send(dictionary: text, data: nil, to: nil, options: .broadcastReceiver)
        for index in 1...2 {
            guard let packet = await stage.logs[index].received(id, within: stage.airTimeout) else {
                return .fail("the broadcast \(id) never reached tester \(index), in range of the subject")
            }
            guard packet.broadcast, packet.dictionary == text else {
                return .fail("the broadcast reached tester \(index) with broadcast \(packet.broadcast)\(packet.dictionary == text ? "" : ", altered")")
            }
        }
        return .pass("the broadcast \(id) reached both nodes in range, intact and flagged broadcast")
    }

    /// Sends with `options` to the connected tester and checks the receive flags.
    static func flags(_ id: CaseID, options: SendingOptions, mesh: Bool, broadcast: Bool, brokenBy: Set<Defect>) -> ScriptCase {
        ScriptCase(id, nodes: 2, brokenBy: brokenBy) { stage in
            let (_, tester) = try await stage.connectedPair()
            let id = try await stage.subject.send(dictionary: text, data: nil, to: tester, options: options)
            guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                return .fail("packet \(id) (\(options.names.joined(separator: " + "))) never reached the tester")
            }
            guard packet.dictionary == text else { return .fail("packet \(id) arrived altered") }
            if packet.mesh != mesh { return .fail("arrived with mesh \(packet.mesh), expected \(mesh)") }
            if packet.broadcast != broadcast { return .fail("arrived with broadcast \(packet.broadcast), expected \(broadcast)") }
            return .pass("\(options.names.joined(separator: " + ")) arrived with mesh \(packet.mesh), broadcast \(packet.broadcast)")
        }
    }
}
