@testable import BlueproofConformance
import BlueproofTransmitter
import Logging
import Testing

/// Broken variants beyond the one each case names in `brokenBy` (TransmitterCaseTests runs
/// that one): every way issue 12 found a case could pass a broken implementation, each shown to
/// fail now; and variants that break a neighbouring rule, shown not to fail a case that does
/// not check that rule (two cases with one script would fail together).
@Suite("Transmitter cases against further broken variants")
struct TransmitterCaseVariantTests {
    struct Variant: Sendable, CustomTestStringConvertible {
        let id: String
        let defects: Set<Defect>
        let verdict: Verdict
        var testDescription: String { "\(id) with \(defects.map(\.rawValue).sorted().joined(separator: "+")): \(verdict)" }
    }

    static let variants: [Variant] = [
        // A session reported before any start.
        Variant(id: "BFT/SES/BV-01", defects: [.hasSessionAlwaysTrue], verdict: .fail),
        // The failure must name the packet that failed.
        Variant(id: "BFT/DLV/BI-01", defects: [.failureNamesOtherPacket], verdict: .fail),
        // A relay that reports its own copy of a broadcast with broadcast false (only its own
        // report: the copy it forwards keeps the flag).
        Variant(id: "BFT/DLV/BV-10", defects: [.broadcastFlagDropped], verdict: .fail),
        // BV-06 judges the delivery, not the mesh flag (BV-05's rule): it no longer shares BV-05's script.
        Variant(id: "BFT/DLV/BV-06", defects: [.meshFlagDropped], verdict: .pass),
        // Expiry bounded on both sides.
        Variant(id: "BFT/SEC/BI-03", defects: [.expiryLate], verdict: .fail),
        Variant(id: "BFT/SEC/BI-03", defects: [.expiryEarly], verdict: .fail),
        Variant(id: "BFT/SEC/BI-03", defects: [.expiryImmediate], verdict: .fail),
        Variant(id: "BFT/SEC/BV-07", defects: [.expiryImmediate], verdict: .fail),
        // The chat app must not take a chat message that carries the sender's name for peer information.
        Variant(id: "CHAT/APP/BV-07", defects: [.chatMessageTakenAsPeerInfo], verdict: .fail),
        // The key must not change from one call to the next either.
        Variant(id: "BFT/KEY/BV-02", defects: [.publicKeyRandomised], verdict: .fail),
        // Sealing must not count against the binary limit, and what arrives must be what was sent.
        Variant(id: "BFT/SIZE/BV-15", defects: [.encryptedPayloadCorrupted], verdict: .fail),
        // A relay that never forwards fails the hold-and-forward case too.
        Variant(id: "BFT/DLV/BV-04", defects: [.meshNeverRelays], verdict: .fail),
        // A key never stored cannot conflict: the different key is taken without a word too.
        Variant(id: "BFT/KEY/BI-03", defects: [.keyNotStored], verdict: .fail),
        // The hop limit bounded from below: a packet stopped one hop short.
        Variant(id: "BFT/DLV/BI-05", defects: [.meshLimitShortByOne], verdict: .fail),
    ]

    @Test("a further broken variant gets the verdict its rule calls for", .serialized, arguments: Self.variants)
    func variant(_ variant: Variant) async throws {
        let item = try #require(TransmitterCaseTests.cases.first { $0.id.rawValue == variant.id })
        let outcome = try await TransmitterCaseTests.run(item, defects: variant.defects)
        #expect(outcome.verdict == variant.verdict, "\(variant.testDescription): got \(outcome.verdict) \(outcome.reason)")
    }

    /// The BFT/LOG cases' check of what the subject printed (`blueproof run` captures the
    /// reference's console): a subject whose `log` events claim lines it never printed, or that
    /// printed above the level, fails; without a console nothing more is judged.
    @Test("the LOG cases fail a subject that reports lines it never printed, or prints above the level")
    func printedLines() {
        typealias Line = LogCases.Line
        let reported = [Line(level: .error, text: "licence refused"), Line(level: .info, text: "started")]
        #expect(LogCases.judgePrinted(reported, printed: nil, level: .info) == nil)
        #expect(LogCases.judgePrinted(reported, printed: reported, level: .info) == nil)
        let silent = LogCases.judgePrinted(reported, printed: [], level: .info)
        #expect(silent?.verdict == .fail)
        #expect(silent?.reason.contains("never printed: licence refused") == true, "\(String(describing: silent))")
        let chatty = LogCases.judgePrinted(reported, printed: reported + [Line(level: .debug, text: "hop 3")], level: .info)
        #expect(chatty?.verdict == .fail)
        #expect(chatty?.reason.contains("at info a debug line was printed") == true, "\(String(describing: chatty))")
    }

    @Test("the console capture keeps each printed line with its user")
    func console() {
        let console = TransmitterConsole()
        let user = UserID.random()
        var logger = Logger(label: "test") { _ in console.handler() }
        logger.logLevel = .trace
        logger.info("started", metadata: ["user": "\(user)"])
        logger.debug("someone else's", metadata: ["user": "\(UserID.random())"])
        #expect(console.lines(for: user) == [TransmitterConsole.Line(user: user.description, level: .info, text: "started")])
    }
}
