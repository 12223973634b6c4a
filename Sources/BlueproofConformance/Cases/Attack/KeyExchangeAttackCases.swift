import BlueproofTransmitter
import Foundation

/// A man in the middle on the key exchange (breaking-bridgefy-2021, "Man in the middle";
/// docs/security.md, "Key exchange man in the middle"). The SDK readme's "Secure connections"
/// promises end-to-end encryption once two users exchanged keys; a relay on the link that swaps
/// the key in a keyRequest for its own must not leave the subject holding the relay's key for the
/// honest user nor reporting a secure connection with it.
enum KeyExchangeAttackCases {
    static func all() -> [ScriptCase] {
        [
            ScriptCase("BFT/ATK/BI-13", nodes: 2, brokenBy: [.keyNotBoundToUser]) { stage in
                let (subject, tester) = try await stage.connectedPair()
                let relay = try RawFrameAttacker(stage, node: 1)
                guard await !stage.subject.existsKey(forUser: tester) else {
                    throw StageFailure(.freshSession, "the subject held a key for the tester before the attack")
                }
                let mark = stage.logs[0].events.count
                // The honest user's keyRequest as the relay rewrote it: the honest user's id, the
                // relay's key, signed by the relay's key (the signature checks out; the id does not).
                let key = relay.keys.publicKeys.base64
                let signature: [UInt8]
                do {
                    signature = try relay.keys.sign(KeyExchangeFrame.signedBytes(kind: .keyRequest, user: tester, publicKey: key))
                } catch {
                    throw StageFailure(.tester, "the relay could not sign its keyRequest: \(error)")
                }
                let request = TransmitterFrame.keyRequest(KeyExchangeFrame(user: tester, publicKey: key, signature: signature))
                try await relay.send(request.encoded(), to: subject, what: "a keyRequest for \(tester.shortName) carrying the relay's key")
                // A subject that took the relay's key may then drop the honest user's frames as a
                // key conflict: the breach is reported before the stall it causes.
                let stalled = try await relay.honestPacket(to: subject)
                if stage.logs[0].events.dropFirst(mark).contains(.secureConnection(tester)) {
                    return .fail("the subject reported a secure connection with \(tester.shortName) on a keyRequest carrying another user's key")
                }
                if await stage.subject.existsKey(forUser: tester) {
                    return .fail("the subject holds a key for \(tester.shortName) taken from a keyRequest carrying another user's key")
                }
                if let stalled { return .fail(stalled) }
                // The honest exchange still works: the subject ends with the honest user's key.
                try await stage.secure(1, with: subject)
                guard await stage.logs[0].first(within: stage.airTimeout, from: mark, where: { $0 == .secureConnection(tester) }) != nil else {
                    return .fail("after refusing the rewritten keyRequest the subject never reported the honest secure connection with \(tester.shortName)")
                }
                return .pass("a keyRequest for \(tester.shortName) carrying a relay's key was refused; the honest exchange that followed was reported secure")
            },
        ]
    }
}
