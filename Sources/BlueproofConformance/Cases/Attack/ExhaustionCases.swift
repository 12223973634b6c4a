import BlueproofTransmitter
import Foundation

/// Resource exhaustion by hostile frames (breaking-bridgefy-again-2022, "Denial of service";
/// docs/security.md, "Resource exhaustion"). The SDK readme's "5. Receive Data" has the subject
/// deliver what arrives; frames it cannot take (nested past any sane depth, length fields
/// claiming gigabytes, cut short, garbage, in a burst) it must log or ignore, and it must stay
/// alive: the honest packet sent after them is delivered within the air timeout.
enum ExhaustionCases {
    /// Levels of the nested dictionary: about 10 KB of JSON, past the 6 KB the issue saw crash a receiver.
    static let nestingLevels = 2_000
    /// Copies of the malformed frames sent in a row.
    static let burst = 20

    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/ATK/BI-15", nodes: 2, brokenBy: [.nestedPayloadStopsReceiver]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let json = Array(String(repeating: "{\"a\":", count: nestingLevels).utf8) + [0x31] + [UInt8](repeating: 0x7D, count: nestingLevels)
                let frame = try attacker.dataFrame(claiming: attacker.keys.userID, to: subject, signer: attacker.keys,
                                                   payload: RawFrameAttacker.payload(json: json))
                try await attacker.send(TransmitterFrame.data(frame).encoded(), to: subject, what: "a signed data frame nesting its dictionary \(nestingLevels) levels deep")
                if let stalled = try await attacker.honestPacket(to: subject) { return .fail(stalled) }
                return .pass("after a dictionary nested \(nestingLevels) levels deep the subject delivered the next honest packet")
            },
            ScriptCase("BFT/ATK/BI-16", nodes: 2, brokenBy: [.malformedFrameStopsReceiver]) { stage in
                let (subject, _) = try await stage.connectedPair()
                let attacker = try RawFrameAttacker(stage, node: 1)
                let valid = TransmitterFrame.data(try attacker.dataFrame(
                    claiming: attacker.keys.userID, to: subject, signer: attacker.keys,
                    payload: RawFrameAttacker.payload(["text": .string("blueproof")]))).encoded()
                let hostile = malformed(valid)
                let frames = (0..<burst).flatMap { _ in hostile.map(\.1) }
                try await attacker.send(frames, to: subject, what: "\(burst) rounds of malformed frames")
                if let stalled = try await attacker.honestPacket(to: subject) { return .fail(stalled) }
                return .pass("after \(burst * hostile.count) malformed frames (\(hostile.map(\.0).joined(separator: ", "))) the subject delivered the next honest packet")
            },
        ]
    }

    /// Malformed frames made from `valid`, a well-formed signed data frame.
    static func malformed(_ valid: [UInt8]) -> [(String, [UInt8])] {
        let headerSize = TransmitterFrame.headerSize
        // The frame header's body length claims 4 GiB − 1.
        var hugeBody = valid
        hugeBody.replaceSubrange(2..<headerSize, with: [0xFF, 0xFF, 0xFF, 0xFF])
        // The data body's payload length claims about 4 GiB (the frame header agrees with the bytes present).
        var hugePayload = valid
        // Its offset: frame header, flags, hops, packet id, sender, receiver, expiry, sender key
        // (docs/transmitter-wire.md, "data", not broadcast).
        let payloadLengthAt = headerSize + 1 + 1 + 16 + 16 + 16 + 8 + DataFrame.senderKeySize
        hugePayload.replaceSubrange(payloadLengthAt..<(payloadLengthAt + 4), with: [0xFF, 0xFF, 0xFF, 0xF0])
        var unknownVersion = valid
        unknownVersion[0] = 0xEE
        var unknownKind = valid
        unknownKind[1] = 0xEE
        let garbage = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        return [
            ("a frame whose body length claims 4 GiB", hugeBody),
            ("a data frame whose payload length claims 4 GiB", hugePayload),
            ("a data frame cut in half", Array(valid.prefix(valid.count / 2))),
            ("a frame header alone", Array(valid.prefix(headerSize))),
            ("a frame of an unknown version", unknownVersion),
            ("a frame of an unknown kind", unknownKind),
            ("512 bytes of garbage", garbage),
        ]
    }
}
