import BlueproofTransmitter
import Foundation

/// Size cases that go beyond one direct hop (bridgefy-ios-sdk-readme.md, "Maximum package sizes
/// and throughput", "Mesh", "Secure connections"): a direct dictionary far over the mesh limit
/// (direct dictionaries over BLE have none), encrypted binary data at the binary limit, and mesh
/// dictionaries at the applied limit carried through a relay, the subject relaying or sending.
enum SizeRelayCases {
    static func all() -> [any TransmitterCase] {
        [
            ScriptCase("BFT/SIZE/BV-11", nodes: 2, brokenBy: [.directDictionaryMeshLimited]) { stage in
                // One byte over the recommended size: far over the mesh limit, which an
                // implementation must not apply to direct dictionaries.
                let size = try stage.context.profile.int("bridgefy.limits.ble.dictionary_recommended_bytes") + 1
                let dictionary = try SizeCase.dictionary(ofJSONSize: size)
                let (_, tester) = try await stage.connectedPair()
                let id: PacketID
                do {
                    id = try await stage.subject.send(dictionary: dictionary, data: nil, to: tester, options: [.directTransmission, .noEncrypted])
                } catch {  // any refusal fails the case: dictionaryTooLarge is wrong here (no direct dictionary limit over BLE)
                    return .fail("a direct dictionary of \(size) bytes was refused, though direct dictionaries over BLE are unrestricted: \(error)")
                }
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("the direct dictionary of \(size) bytes (packet \(id)) was accepted but never delivered")
                }
                guard packet.dictionary == dictionary else { return .fail("the direct dictionary of \(size) bytes arrived altered") }
                return .pass("a direct dictionary of \(size) bytes (over the recommended size, far over the mesh limit) was accepted and delivered intact")
            },
            ScriptCase("BFT/SIZE/BV-15", nodes: 2, brokenBy: [.encryptedBinaryLimitStrict]) { stage in
                let size = try stage.context.profile.int("bridgefy.limits.ble.binary_bytes")
                let data = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13) })
                let (_, tester) = try await stage.connectedPair()
                try await stage.secure(0, with: tester)
                let id: PacketID
                do {
                    id = try await stage.subject.send(dictionary: nil, data: data, to: tester, options: [.directTransmission, .encrypted])
                } catch {  // any refusal fails the case: binaryTooLarge is wrong here (the limit is on the binary part, not its sealed form)
                    return .fail("encrypted binary data of exactly the limit (\(size) bytes) was refused: \(error)")
                }
                guard let packet = await stage.logs[1].received(id, within: stage.airTimeout) else {
                    return .fail("encrypted binary data of \(size) bytes (packet \(id)) was accepted but never delivered")
                }
                guard packet.data == data, packet.encrypted else {
                    return .fail("the encrypted binary data arrived \(packet.encrypted ? "altered" : "not encrypted")")
                }
                return .pass("encrypted binary data of exactly the limit (\(size) bytes) was accepted and delivered decrypted and intact")
            },
            MeshLineCase(id: "BFT/SIZE/BV-16", role: .relay, brokenBy: [.relayDropsAtLimit]) { stage, sender, _, receiver, users in
                let (size, source) = try appliedMeshLimit(stage.context.profile)
                let dictionary = try SizeCase.dictionary(ofJSONSize: size)
                let id = try await stage.send(from: sender, dictionary: dictionary, to: users[receiver], options: [.meshTransmission, .noEncrypted])
                guard let packet = await stage.logs[receiver].received(id, within: stage.airTimeout) else {
                    return .fail("a mesh dictionary of exactly the limit (\(size) bytes, \(source)) never got through the subject to the receiver")
                }
                guard packet.dictionary == dictionary, packet.mesh else { return .fail("the relayed mesh dictionary arrived altered or with mesh false") }
                return .pass("the subject relayed a mesh dictionary of exactly the limit (\(size) bytes, \(source)) to the receiver out of the sender's range")
            },
            MeshLineCase(id: "BFT/SIZE/BV-17", role: .sender, brokenBy: [.limitsTooStrict]) { stage, sender, _, receiver, users in
                let (size, source) = try appliedMeshLimit(stage.context.profile)
                let dictionary = try SizeCase.dictionary(ofJSONSize: size)
                let id: PacketID
                do {
                    id = try await stage.send(from: sender, dictionary: dictionary, to: users[receiver], options: [.meshTransmission, .noEncrypted])
                } catch {  // any refusal fails the case: meshDictionaryTooLarge is wrong here (at the limit it is accepted)
                    return .fail("a mesh dictionary of exactly the limit (\(size) bytes, \(source)) was refused: \(error)")
                }
                guard let packet = await stage.logs[receiver].received(id, within: stage.airTimeout) else {
                    return .fail("the subject's mesh dictionary of exactly the limit (\(size) bytes, \(source)) never reached the receiver through the relay")
                }
                guard packet.dictionary == dictionary, packet.mesh else { return .fail("the mesh dictionary arrived altered or with mesh false") }
                return .pass("the subject's mesh dictionary of exactly the limit (\(size) bytes, \(source)) reached the receiver out of its range through a relay")
            },
            MeshLineCase(id: "BFT/SIZE/BI-06", role: .sender, brokenBy: [.sizeLimitsOffByOne], judgesRefusals: true) { stage, sender, _, receiver, users in
                // The receiver is out of the subject's range: full transmission can only fall
                // back to the mesh, where the applied mesh limit holds.
                let (limit, source) = try appliedMeshLimit(stage.context.profile)
                let dictionary = try SizeCase.dictionary(ofJSONSize: limit + 1)
                let what = "a full-transmission dictionary of \(limit + 1) bytes (mesh limit \(limit), \(source)) to a receiver out of range"
                do {
                    let id = try await stage.send(from: sender, dictionary: dictionary, to: users[receiver], options: [.fullTransmission, .noEncrypted])
                    return .fail("\(what) was accepted (packet \(id)), though falling back to the mesh puts it over the mesh limit")
                } catch {
                    return try stage.judgeRefusal(error, of: what, by: [.meshDictionaryTooLarge])
                }
            },
        ]
    }

    /// The mesh dictionary limit over BLE the profile applies, and which value it is.
    static func appliedMeshLimit(_ profile: Profile) throws -> (bytes: Int, source: String) {
        let applied = try profile.string("bridgefy.limits.mesh_dictionary_ble_applied")
        let key = applied == "mesh_section" ? "bridgefy.limits.mesh_dictionary_bytes" : "bridgefy.limits.ble.mesh_dictionary_bytes"
        return (try profile.int(key), applied)
    }
}
