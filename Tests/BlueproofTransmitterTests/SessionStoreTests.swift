import BlueproofTransmitter
import Foundation
import Testing

@Suite("Session store")
struct SessionStoreTests {
    @Test("no session until first use; loadOrCreate creates one and load reads it back equal")
    func createOnFirstUse() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        #expect(!store.exists)
        #expect(try store.load() == nil)
        let created = try store.loadOrCreate()
        #expect(store.exists)
        #expect(created.knownKeys.isEmpty)
        #expect(created.secureConnections.isEmpty)
        #expect(created.secureConnectionExpirationLimit == 604_800)
        #expect(try store.load() == created)
        #expect(try store.loadOrCreate() == created)
    }

    @Test("the session file is 0600 and a directory the store creates is 0700")
    func permissions() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = SessionStore(directory: folder.url.appendingPathComponent("a/b/transmitter", isDirectory: true))
        _ = try store.loadOrCreate()
        #expect(try SessionStore.mode(of: store.directory) == 0o700)
        #expect(try SessionStore.mode(of: store.sessionFile) == 0o600)
        try store.writeFile(named: "mesh-state", contents: [1, 2, 3])
        #expect(try SessionStore.mode(of: store.directory.appendingPathComponent("mesh-state")) == 0o600)
        _ = try store.update { $0.secureConnectionExpirationLimit = 60 }
        #expect(try SessionStore.mode(of: store.sessionFile) == 0o600)
        // No temporary files are left beside the session.
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
        #expect(names == ["mesh-state", "session.json", "session.lock"])
    }

    @Test("a second store on the same directory sees the same identity and updates")
    func sharedBetweenStores() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let first = folder.store()
        let second = folder.store()
        let created = try first.loadOrCreate()
        #expect(try second.loadOrCreate().identity == created.identity)
        let peer = try #require(IdentityFixtures.bob)
        let seen = Date(timeIntervalSinceReferenceDate: 812_345_678.123_456_7)
        let updated = try second.update {
            $0.knownKeys[peer.userID] = peer.publicKeys
            $0.secureConnections[peer.userID] = seen
            $0.secureConnectionExpirationLimit = 3_600
        }
        let reread = try #require(try first.load())
        #expect(reread == updated)
        #expect(reread.knownKeys[peer.userID] == peer.publicKeys)
        #expect(reread.secureConnections[peer.userID] == seen)
        #expect(reread.secureConnectionExpirationLimit == 3_600)
    }

    @Test("a reloaded identity still opens what was sealed to it and signs for its public key")
    func identitySurvivesReload() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let original = try folder.store().loadOrCreate().identity
        let sealed = try PacketSealer.seal([9, 8, 7], to: original.publicKeys, associatedData: [1])
        let reloaded = try #require(try folder.store().load()).identity
        #expect(try PacketSealer.open(sealed, with: reloaded, associatedData: [1]) == [9, 8, 7])
        #expect(PacketSealer.verify(signature: try reloaded.sign([5]), of: [5], by: original.publicKeys))
    }

    @Test("destroy removes the session and the next loadOrCreate makes a new user id")
    func destroy() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let before = try store.loadOrCreate()
        try store.writeFile(named: "mesh-state", contents: [4])
        try store.destroy()
        #expect(!store.exists)
        #expect(try store.load() == nil)
        let after = try store.loadOrCreate()
        #expect(after.identity.userID != before.identity.userID)
        #expect(after.identity.publicKeys != before.identity.publicKeys)
        try store.destroy()
        try store.destroy()  // destroying nothing is not an error
        #expect(!store.exists)
    }

    @Test("an update whose change throws writes nothing")
    func failedUpdate() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let before = try store.loadOrCreate()
        let bytes = try Data(contentsOf: store.sessionFile)
        #expect(throws: TransmitterError.publicKeyConflict) {
            try store.update { record throws(TransmitterError) in
                record.secureConnectionExpirationLimit = 1
                throw .publicKeyConflict
            }
        }
        #expect(try Data(contentsOf: store.sessionFile) == bytes)
        #expect(try store.load() == before)
    }

    @Test("the session file is versioned JSON with the documented fields")
    func fileFormat() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let record = try store.loadOrCreate()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: store.sessionFile)) as? [String: Any])
        #expect(Set(json.keys) == ["format", "version", "userID", "encryptionPrivateKey", "signingPrivateKey",
                                   "knownKeys", "secureConnectionExpirationLimit", "secureConnections"])
        #expect(json["format"] as? String == "blueproof-transmitter-session")
        #expect((json["version"] as? NSNumber)?.intValue == 1)
        #expect(json["userID"] as? String == record.identity.userID.description)
        let signing = try #require((json["signingPrivateKey"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(signing.count == 32)
    }

    /// Damaged session files, each of which `load` must refuse.
    static func corruptions(of valid: Data) -> [(String, Data)] {
        let text = String(decoding: valid, as: UTF8.self)
        func replacing(_ old: String, _ new: String) -> Data { Data(text.replacingOccurrences(of: old, with: new).utf8) }
        return [
            ("garbage", Data("\u{0}\u{1}not json at all".utf8)),
            ("empty", Data()),
            ("truncated JSON", valid.prefix(valid.count / 2)),
            ("missing its closing brace", valid.dropLast(1)),
            ("wrong version", replacing("\"version\" : 1", "\"version\" : 2")),
            ("wrong format", replacing("blueproof-transmitter-session", "something-else")),
            ("bad user id", replacing("\"userID\" : \"", "\"userID\" : \"x")),
            ("array instead of object", Data("[]".utf8)),
        ]
    }

    @Test("a corrupt session is a sessionError naming the file, and the file is left byte-identical")
    func corruptSession() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        _ = try store.loadOrCreate()
        let valid = try Data(contentsOf: store.sessionFile)
        for (name, damaged) in Self.corruptions(of: valid) {
            #expect(damaged != valid, "\(name) changed nothing")
            try damaged.write(to: store.sessionFile)
            for (call, run) in [("load", { _ = try store.load() }), ("loadOrCreate", { _ = try store.loadOrCreate() }),
                                ("update", { _ = try store.update { $0.secureConnectionExpirationLimit = 5 } })] as [(String, () throws -> Void)] {
                do {
                    try run()
                    Issue.record("\(name): \(call) accepted a corrupt session")
                } catch let error as TransmitterError {
                    #expect(error == .sessionError, "\(name) \(call)")
                    #expect(error.detail?.contains(store.sessionFile.path) == true, "\(name) \(call): \(error)")
                }
                #expect(try Data(contentsOf: store.sessionFile) == damaged, "\(name): \(call) changed the file")
            }
            #expect(store.exists)
        }
    }

    @Test("a corrupt peer key in the session is refused without echoing key material")
    func corruptPeerKey() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        let peer = try #require(IdentityFixtures.bob)
        _ = try store.update { $0.knownKeys[peer.userID] = peer.publicKeys }
        let text = try String(contentsOf: store.sessionFile, encoding: .utf8)
        let damaged = text.replacingOccurrences(of: peer.publicKeys.base64, with: "AAAA" + peer.publicKeys.base64.dropFirst(4))
        #expect(damaged != text)
        try Data(damaged.utf8).write(to: store.sessionFile)
        do {
            _ = try store.load()
            Issue.record("a damaged peer key loaded")
        } catch {
            #expect(error == .sessionError)
            #expect(error.detail?.contains(String(peer.publicKeys.base64.prefix(40))) == false)
            #expect(error.detail?.contains(peer.userID.description) == true)
        }
    }

    @Test("updates from concurrent tasks on two stores lose no change")
    func concurrentUpdates() async throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let stores = [folder.store(), folder.store()]
        _ = try stores[0].loadOrCreate()
        let perTask = 20
        let users = (0..<(4 * perTask)).map { _ in UserID.random() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                let store = stores[worker % 2]
                let mine = Array(users[(worker * perTask)..<((worker + 1) * perTask)])
                group.addTask {
                    for (index, user) in mine.enumerated() {
                        _ = try store.update {
                            $0.secureConnections[user] = Date(timeIntervalSinceReferenceDate: Double(index))
                            $0.secureConnectionExpirationLimit += 1
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(try stores[1].load())
        #expect(Set(final.secureConnections.keys) == Set(users))
        #expect(final.secureConnectionExpirationLimit == 604_800 + users.count)
    }

    @Test("a reader never sees a half-written session while another store rewrites it")
    func readersSeeWholeFiles() async throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let writer = folder.store()
        let reader = folder.store()
        let initial = try writer.loadOrCreate()
        let writes = 150
        async let written: Void = Task.detached {
            for _ in 0..<writes {
                _ = try writer.update { $0.secureConnectionExpirationLimit += 1 }
            }
        }.value
        let seen = try await Task.detached {
            var limits: [Int] = []
            for _ in 0..<(writes * 2) {
                let record = try #require(try reader.load())
                #expect(record.identity == initial.identity)
                limits.append(record.secureConnectionExpirationLimit)
            }
            return limits
        }.value
        try await written
        // Each read gives a whole record: one written before it, never a mix or a torn file.
        #expect(seen == seen.sorted())
        #expect(seen.allSatisfy { (604_800...(604_800 + writes)).contains($0) })
        #expect(try reader.load()?.secureConnectionExpirationLimit == 604_800 + writes)
    }

    @Test("named files round trip atomically; bad names are refused")
    func namedFiles() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let store = folder.store()
        #expect(try store.readFile(named: "mesh-state") == nil)
        try store.writeFile(named: "mesh-state", contents: Array(0...255))
        #expect(try store.readFile(named: "mesh-state") == Array(0...255))
        try store.writeFile(named: "mesh-state", contents: [])
        #expect(try store.readFile(named: "mesh-state") == [])
        #expect(!store.exists, "a named file is not a session")
        for name in ["", ".hidden", "../escape", "a/b", "session.json", "session.lock", "sp ace"] {
            #expect(throws: TransmitterError.sessionError, "\(name)") { try store.writeFile(named: name, contents: [1]) }
            #expect(throws: TransmitterError.sessionError, "\(name)") { try store.readFile(named: name) }
        }
    }

    @Test("the default directory follows XDG_DATA_HOME, else HOME")
    func defaultDirectory() {
        #expect(SessionStore.defaultDirectory(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path
                == "/data/blueproof/transmitter")
        #expect(SessionStore.defaultDirectory(environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/share/blueproof/transmitter")
        // The XDG specification ignores a relative XDG_DATA_HOME.
        #expect(SessionStore.defaultDirectory(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).path
                == "/home/u/.local/share/blueproof/transmitter")
    }

    @Test("a path that is a file, not a directory, is a sessionError")
    func directoryIsAFile() throws {
        let folder = try SessionTestFolder()
        defer { folder.cleanUp() }
        let file = folder.url.appendingPathComponent("plain")
        try Data([1]).write(to: file)
        let store = SessionStore(directory: file)
        #expect(throws: TransmitterError.sessionError) { try store.loadOrCreate() }
        #expect(try Data(contentsOf: file) == Data([1]))
    }
}
