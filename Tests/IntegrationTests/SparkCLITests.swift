import BlueproofTestSupport
import Crypto
import Foundation
import Testing

/// `blueproof spark listen` and `spark send` in two processes on one btvirt, as two terminals
/// would run them: what arrives is what was sent, byte for byte, and both sides print its
/// SHA-256; the refusals say why.
extension Integration {
    @Suite("blueproof spark")
    struct SparkCLITests {
        /// A listener with its own btvirt, keys and folder; returns it and the `--controller` it printed.
        static func listener(_ folder: WorkFolder, id: String, keys: String? = nil, count: Int? = nil) async throws -> (LiveCLI, String) {
            try RequiredComponent.require(.btvirt, .preload)
            let cli = try RequiredComponent.require(.cli)[0]
            let listen = try LiveCLI(cli, ["spark", "listen", "--id", id, "--keys", keys ?? folder.file("keys"), "--folder", folder.file("received"),
                                           "--work-dir", folder.file("work")] + (count.map { ["--count", "\($0)"] } ?? []))
            let join = await listen.line(within: .seconds(60)) { $0.contains("--controller unix:") }
            let ready = await listen.line(within: .seconds(60)) { $0.hasPrefix("listening as registration id \(id)") }
            guard let controller = join?.split(separator: " ").last.map(String.init), ready != nil else {
                listen.stop()
                throw DidNotStart(what: "blueproof spark listen", lines: listen.lines)
            }
            return (listen, controller)
        }

        static func send(_ folder: WorkFolder, to id: String, controller: String, keys: String? = nil, _ arguments: [String]) async throws
            -> (status: Int32, stdout: String, stderr: String) {
            let cli = try RequiredComponent.require(.cli)[0]
            return try await LiveCLI.run(cli, ["spark", "send", "--to", id, "--keys", keys ?? folder.file("keys"), "--controller", controller] + arguments,
                                         within: .seconds(120))
        }

        static func sha256(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }

        @Test("a file, a text and standard input reach the listener whole; both sides print the same SHA-256, the sender shows progress",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(4)))
        func fileTextAndStream() async throws {
            let folder = try WorkFolder("spark-cli")
            defer { folder.cleanUp() }
            var generator = SystemRandomNumberGenerator()
            let payload = (0..<2_000_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(payload).write(to: URL(fileURLWithPath: folder.file("payload.bin")))
            let (listen, controller) = try await Self.listener(folder, id: "7", count: 3)
            defer { listen.stop() }

            let file = try await Self.send(folder, to: "7", controller: controller, ["--file", folder.file("payload.bin"), "--metadata", "a photo"])
            #expect(file.status == 0, "\(file.stderr)")
            let digest = Self.sha256(payload)
            #expect(file.stdout.contains("sent file \"payload.bin\": 2000000 bytes in ") && file.stdout.contains("SHA-256 \(digest)"), "\(file.stdout)")
            #expect(file.stderr.contains("• file \"payload.bin\": 50% ") && file.stderr.contains("• file \"payload.bin\": 100% "),
                    "progress as it goes: \(file.stderr)")
            let saved = folder.file("received/payload.bin")
            #expect(await listen.line(within: .seconds(30)) {
                $0.hasPrefix("file \"payload.bin\" from ") && $0.contains(": 2000000 bytes in ") && $0.contains("SHA-256 \(digest), saved as \(saved)")
            } != nil, "\(listen.lines.joined(separator: "\n"))")
            // Compared as a Bool: a failed comparison would print two 2 MB arrays.
            let whole = FileManager.default.contents(atPath: saved).map(Array.init) == payload
            #expect(whole, "the saved file is not the file sent")
            #expect(listen.lines.contains { $0.hasPrefix("offer from ") && $0.hasSuffix("metadata \"a photo\"") }, "\(listen.lines)")

            let text = "hello spark, €"
            let sent = try await Self.send(folder, to: "7", controller: controller, ["--text", text])
            #expect(sent.status == 0 && sent.stdout.contains("sent data \"text\": \(text.utf8.count) bytes"), "\(sent.stdout)\n\(sent.stderr)")
            #expect(await listen.line(within: .seconds(30)) { $0.hasPrefix("data \"text\" from ") && $0.hasSuffix(": \(text)") } != nil,
                    "\(listen.lines.joined(separator: "\n"))")

            let cli = try RequiredComponent.require(.cli)[0]
            let stream = try LiveCLI(cli, ["spark", "send", "--to", "7", "--keys", folder.file("keys"), "--controller", controller,
                                           "--stream", "--description", "typed"])
            defer { stream.stop() }
            #expect(await listen.line(within: .seconds(60)) { $0.hasPrefix("stream \"typed\" from ") && $0.hasSuffix("opened") } != nil,
                    "\(listen.lines.joined(separator: "\n"))\n\(stream.lines.joined(separator: "\n"))")
            let typed = ["first line", "second line, after the channel opened"]
            for line in typed { stream.type(line) }
            stream.endInput()
            #expect(await stream.exit(within: .seconds(60)) == 0, "\(stream.lines.joined(separator: "\n"))")
            let bytes = Array(typed.map { $0 + "\n" }.joined().utf8)
            #expect(stream.stdout.contains("sent stream \"typed\": \(bytes.count) bytes in ") && stream.stdout.contains("SHA-256 \(Self.sha256(bytes))"),
                    "\(stream.stdout)")
            let closed = await listen.line(within: .seconds(30)) { $0.hasPrefix("stream from ") && $0.contains("closed by the peer") }
            #expect(closed?.contains(": \(bytes.count) bytes in ") == true && closed?.contains("SHA-256 \(Self.sha256(bytes))") == true,
                    "\(listen.lines.joined(separator: "\n"))")
            let path = closed.flatMap { $0.components(separatedBy: "saved as ").last } ?? ""
            let typedWhole = FileManager.default.contents(atPath: path).map(Array.init) == bytes
            #expect(typedWhole, "the saved stream \(path) is not what was typed")
            #expect(await listen.exit(within: .seconds(30)) == 0, "--count 3 ends the listener")
        }

        @Test("a sender killed mid-file: the listener fails that file, keeps no part of it, and takes the next sender",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func senderKilledMidFile() async throws {
            let folder = try WorkFolder("spark-cli-kill")
            defer { folder.cleanUp() }
            try Data(repeating: 0x5A, count: 20_000_000).write(to: URL(fileURLWithPath: folder.file("big.bin")))
            let (listen, controller) = try await Self.listener(folder, id: "8")
            defer { listen.stop() }
            let cli = try RequiredComponent.require(.cli)[0]
            let sender = try LiveCLI(cli, ["spark", "send", "--to", "8", "--keys", folder.file("keys"), "--controller", controller,
                                           "--file", folder.file("big.bin")])
            #expect(await sender.line(within: .seconds(60)) { $0.hasPrefix("• file \"big.bin\": 20% ") } != nil, "\(sender.lines.joined(separator: "\n"))")
            sender.kill()
            let next = try await Self.send(folder, to: "8", controller: controller, ["--text", "after"])
            #expect(next.status == 0, "the listener did not take the next sender: \(next.stderr)")
            #expect(await listen.line(within: .seconds(30)) { $0.hasPrefix("file \"big.bin\" from ") && $0.hasSuffix("failed: the link was lost") } != nil,
                    "\(listen.lines.joined(separator: "\n"))")
            #expect(await listen.line(within: .seconds(30)) { $0.hasPrefix("data \"text\" from ") && $0.hasSuffix(": after") } != nil,
                    "\(listen.lines.joined(separator: "\n"))")
            let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.file("received"))) ?? []
            #expect(left.isEmpty, "a part of the killed transfer was left: \(left)")
        }

        @Test("refusals: a key not exchanged (exit 1, names the key directory), no listener heard (exit 1), metadata over 4096 bytes or no such file (exit 2)",
              .requires(.btvirt, .preload, .cli), .timeLimit(.minutes(3)))
        func refusals() async throws {
            let folder = try WorkFolder("spark-cli-refusals")
            defer { folder.cleanUp() }
            let (listen, controller) = try await Self.listener(folder, id: "9", keys: folder.file("listener-keys"))
            defer { listen.stop() }
            let noKey = try await Self.send(folder, to: "9", controller: controller, ["--text", "hi"])
            #expect(noKey.status == 1 && noKey.stderr.contains("no key for registration id 9 in \(folder.file("keys"))"), "\(noKey.stderr)")
            // A sender that offered anyway would have the listener decline it (it holds no key
            // for that sender either); the next sender's text comes after, so by then it shows.
            let barrier = try await Self.send(folder, to: "9", controller: controller, keys: folder.file("listener-keys"), ["--text", "barrier"])
            #expect(barrier.status == 0, "\(barrier.stderr)")
            #expect(await listen.line(within: .seconds(30)) { $0.hasSuffix(": barrier") } != nil, "\(listen.lines.joined(separator: "\n"))")
            #expect(listen.lines.filter { $0.hasPrefix("offer from ") || $0.contains("keyError") }.count == 1,
                    "an offer left without the key: \(listen.lines.joined(separator: "\n"))")
            let nobody = try await Self.send(folder, to: "10", controller: controller, ["--text", "hi", "--scan-timeout", "2"])
            #expect(nobody.status == 1 && nobody.stderr.contains("no Spark listener with registration id 10 was heard within 2.0 s"), "\(nobody.stderr)")
            let long = try await Self.send(folder, to: "9", controller: controller, ["--text", "hi", "--metadata", String(repeating: "€", count: 1366)])
            #expect(long.status == 2 && long.stderr.contains("--metadata is 4098 bytes of UTF-8; an offer carries at most 4096"), "\(long.stderr)")
            let missing = try await Self.send(folder, to: "9", controller: controller, ["--file", folder.file("absent.bin")])
            #expect(missing.status == 2 && missing.stderr.contains("--file \(folder.file("absent.bin")): no such file"), "\(missing.stderr)")
        }

        @Test("interop: a Bumble peer that speaks the Spark format from docs/spark-wire.md finds spark listen, offers, and its file arrives whole",
              .requires(.btvirt, .preload, .bumble, .cli), .timeLimit(.minutes(3)))
        func bumbleSender() async throws {
            try RequiredComponent.require(.bumble)
            let folder = try WorkFolder("spark-cli-bumble")
            defer { folder.cleanUp() }
            let (listen, controller) = try await Self.listener(folder, id: "77", count: 1)
            defer { listen.stop() }
            let size = 300_000
            let sent = try await BumblePeer.withPeer("spark-send", transport: controller, log: folder.file("bumble.log"),
                                                     arguments: ["--to", "77", "--id", "23307", "--keys", folder.file("keys"), "--bytes", "\(size)"]) { peer in
                _ = try await peer.next(event: "accepted", within: .seconds(60))
                let sent = try await peer.next(event: "sent", within: .seconds(60))
                _ = try await peer.next(event: "done", within: .seconds(30))
                return sent
            }
            let bytes = (0..<size).map { UInt8($0 % 251) }
            let digest = Self.sha256(bytes)
            #expect(sent.string("sha256") == digest, "\(sent)")
            #expect(await listen.line(within: .seconds(30)) {
                $0.hasPrefix("file \"bumble.bin\" from 23307 #1: \(size) bytes in ") && $0.contains("SHA-256 \(digest)")
            } != nil, "\(listen.lines.joined(separator: "\n"))")
            #expect(listen.lines.contains("offer from 23307 #1, metadata \"from bumble\""), "\(listen.lines.joined(separator: "\n"))")
            let whole = FileManager.default.contents(atPath: folder.file("received/bumble.bin")).map(Array.init) == bytes
            #expect(whole, "the file Bumble sent is not the one saved")
            #expect(await listen.line(within: .seconds(30)) { $0 == "ended from 23307 #1: ended by the peer" } != nil,
                    "Bumble's end, after its file: \(listen.lines.joined(separator: "\n"))")
        }
    }
}
