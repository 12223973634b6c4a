import BlueproofSpark

/// SPK/CONN: offering, answering and ending data connections ("Listening For Data
/// Connections", "Starting A Data Connection", "Sending Data").
enum SparkConnectionCases {
    static let all: [SparkCase] = [declined, secondOffer, keyError, metadataOver, available, accepted, several,
                                   metadata(SparkLimits.maxMetadataBytes - 1, "SPK/CONN/BV-04"), metadata(SparkLimits.maxMetadataBytes, "SPK/CONN/BV-05")]

    /// How the subject's connection `id` first settled: accepted, or ended with a reason by a side.
    enum Settled: Sendable, Equatable {
        case accepted
        case ended(SparkEndReason, SparkSide)
    }

    /// How incoming or outgoing `id` first settled; with `available`, an incoming offer made
    /// available counts as `.accepted` (its application may accept it).
    static func settled(_ id: SparkConnectionID, available: Bool = false) -> @Sendable (SparkEvent) -> Settled? {
        { event in
            switch event {
            case .accepted(id): .accepted
            case .available(id): available ? .accepted : nil
            case .ended(id, let reason, let side): .ended(reason, side)
            default: nil
            }
        }
    }

    /// A decline ends the connection on both sides: the subject as caller takes the tester's
    /// decline as the end, never as an accept; as callee its decline ends it at the tester.
    static let declined = SparkCase("SPK/CONN/BI-01", brokenBy: .declineTakenAsAccept) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let (out, incoming) = try await stage.subjectOffers(0, metadata: "decline me")
        try await tester.perform { try $0.decline(incoming) }
        let caller = try await stage.expectSubject("an answer to its offer", settled(out))
        guard caller == .ended(.declined, .remote) else {
            return .fail("the subject, declined by the callee, reported \(caller) for its offer instead of ended (declined by the peer)")
        }
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID) }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        _ = try await stage.expectSubject("incomingDataConnectionAvailable") { $0 == .available(theirs) ? true : nil }
        try await stage.subject.decline(theirs)
        let callee = try await stage.expectSubject("the end of the connection it declined", settled(theirs))
        let atTester = try await stage.expectTester(0, "an answer to its offer", settled(offered))
        guard callee == .ended(.declined, .local), atTester == .ended(.declined, .remote) else {
            return .fail("the subject declining an offer: it reported \(callee), the caller received \(atTester)")
        }
        return .pass("a decline ended the connection on both sides, the subject calling and called")
    }

    /// The sample app, holding one connection, ends a second offer at once (`busy`), reporting
    /// it offered but never available.
    static let secondOffer = SparkCase("SPK/CONN/BI-02", application: .sample, brokenBy: .secondOfferKept) { stage in
        try await stage.link(0)
        _ = try await stage.testerCalls(0)
        let tester = stage.testers[0]
        let second = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "second") }
        let theirs = stage.mirror(second, peer: tester.registrationID)
        let outcome = try await stage.expectSubject("the second offer made available or ended", settled(theirs, available: true))
        guard outcome == .ended(.busy, .local) else {
            return .fail(outcome == .accepted ? "the single-connection app made a second offer available while it held a connection"
                                              : "the second offer ended with \(outcome), not busy by the app")
        }
        let atTester = try await stage.expectTester(0, "an answer to its second offer", settled(second))
        guard atTester == .ended(.busy, .remote) else { return .fail("the second caller received \(atTester), not ended (busy)") }
        return .pass("holding one connection, the sample app ended the second offer (busy) at once")
    }

    /// Keys not exchanged: the subject's own offer fails with the key error before anything is
    /// sent, and a caller whose key it does not hold is declined with the key error.
    static let keyError = SparkCase("SPK/CONN/BI-03", brokenBy: .keyUnchecked) { stage in
        try await stage.link(0, keys: false)
        let tester = stage.testers[0]
        do {
            let id = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "no key")
            return .fail("startDataConnection to a peer whose key the subject does not hold returned \(id) instead of the key error")
        } catch let error as SparkError {
            guard case .keyError = error else { return .fail("startDataConnection without the peer's key failed with \(error), not the key error") }
        }
        await tester.perform { $0.recordKey(stage.subject.keyID, for: stage.subject.registrationID) }
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "unsynchronized") }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        let atSubject = try await stage.expectSubject("an offer it holds no key for made available or ended", settled(theirs, available: true))
        guard atSubject == .ended(.keyError, .local) else {
            return .fail("an offer from a caller whose key the subject does not hold was \(atSubject == .accepted ? "made available" : "\(atSubject)"), not declined with the key error")
        }
        let atTester = try await stage.expectTester(0, "an answer to an offer the subject holds no key for", settled(offered))
        guard atTester == .ended(.keyError, .remote) else { return .fail("the caller the subject holds no key for received \(atTester)") }
        let received = tester.events.events.filter { if case .offered = $0 { true } else { false } }
        guard received.isEmpty else { return .fail("the subject's refused offer still reached the peer: \(received)") }
        return .pass("without keys exchanged the subject's offer failed with the key error and nothing was sent; a caller it holds no key for was declined (key error)")
    }

    /// Metadata one byte over 4096 is refused by the API and never sent.
    static let metadataOver = SparkCase("SPK/CONN/BI-04", brokenBy: .metadataUnbounded) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let over = String(repeating: "m", count: SparkLimits.maxMetadataBytes + 1)
        do {
            let id = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: over)
            return .fail("startDataConnection with \(over.utf8.count) bytes of metadata returned \(id) instead of refusing")
        } catch let error as SparkError {
            guard case .metadataTooLarge = error else { return .fail("metadata over the limit was refused with \(error), not metadataTooLarge") }
        }
        let after = try await stage.subject.startDataConnection(to: tester.registrationID, metadata: "after")
        let marker = stage.mirror(after, peer: stage.subject.registrationID)
        _ = try await stage.expectTester(0, "the offer made after the refused one") { $0 == .offered(marker, metadata: "after") ? true : nil }
        let sent = tester.events.events.contains { if case .offered(_, let metadata) = $0 { metadata == over } else { false } }
        guard !sent else { return .fail("the refused offer still reached the peer") }
        return .pass("\(over.utf8.count) bytes of metadata were refused (metadataTooLarge) and nothing was sent")
    }

    /// An offer is reported offered with its metadata, then available once set up, without
    /// the application's help; the application's accept reaches the caller.
    static let available = SparkCase("SPK/CONN/BV-01", brokenBy: .setupNeverCompletes) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "bv-01") }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        _ = try await stage.expectSubject("incomingDataConnectionOffered with the caller's metadata") { $0 == .offered(theirs, metadata: "bv-01") ? true : nil }
        _ = try await stage.expectSubject("incomingDataConnectionAvailable once set up") { $0 == .available(theirs) ? true : nil }
        let events = stage.subject.events.events
        guard let offeredAt = events.firstIndex(of: .offered(theirs, metadata: "bv-01")), let availableAt = events.firstIndex(of: .available(theirs)),
              offeredAt < availableAt else {
            return .fail("the subject reported the connection available before it reported the offer")
        }
        try await stage.subject.accept(theirs)
        _ = try await stage.expectTester(0, "dataConnectionAccepted") { $0 == .accepted(offered) ? true : nil }
        return .pass("the offer was reported offered with its metadata, then available, and accepted")
    }

    /// The callee's accept gives the caller `dataConnectionAccepted`: the subject as caller
    /// reports it before anything else on the connection, and as callee its accept reaches the caller.
    static let accepted = SparkCase("SPK/CONN/BV-02", brokenBy: .acceptUnreported) { stage in
        try await stage.link(0)
        let tester = stage.testers[0]
        let (out, incoming) = try await stage.subjectOffers(0, metadata: "")
        try await tester.perform { try $0.accept(incoming) }
        let channel = try await tester.perform { try $0.createDataChannel(incoming, description: "after accept") }
        let first = try await stage.expectSubject("dataConnectionAccepted, or the callee's channel") { event -> Bool? in
            switch event {
            case .accepted(out): true
            case .channelOpened(out, channel, _, .remote): false
            default: nil
            }
        }
        guard first else { return .fail("the subject reported the callee's channel on its connection but never dataConnectionAccepted") }
        _ = try await stage.testerCalls(0)
        return .pass("accepted by the callee, the subject reported dataConnectionAccepted; its own accept reached its caller")
    }

    /// The API holds connections with two users at once.
    static let several = SparkCase("SPK/CONN/BV-03", testers: 2, brokenBy: .severalRefused) { stage in
        try await stage.link(0)
        try await stage.link(1)
        let first = try await stage.testerCalls(0)
        let tester = stage.testers[1]
        let offered = try await tester.perform { try $0.startDataConnection(to: stage.subject.registrationID, metadata: "second user") }
        let theirs = stage.mirror(offered, peer: tester.registrationID)
        let made = try await stage.expectSubject("the second user's offer made available or ended", settled(theirs, available: true))
        guard made == .accepted else { return .fail("holding a connection with one user, the API ended a second user's offer: \(made)") }
        try await stage.subject.accept(theirs)
        _ = try await stage.expectTester(1, "dataConnectionAccepted") { $0 == .accepted(offered) ? true : nil }
        let ended = stage.subject.events.events.filter { if case .ended(first.subject, _, _) = $0 { true } else { false } }
        guard ended.isEmpty else { return .fail("accepting a second user's connection ended the first: \(ended)") }
        // Not only by its own account: the first user saw no end either.
        let endedThere = stage.testers[0].events.events.filter { if case .ended(first.tester, _, _) = $0 { true } else { false } }
        guard endedThere.isEmpty else { return .fail("accepting a second user's connection ended the first, as its user saw: \(endedThere)") }
        return .pass("two connections with two users were accepted and live at once")
    }

    /// Metadata of `bytes` (at or under the limit) is accepted and arrives whole.
    static func metadata(_ bytes: Int, _ id: CaseID) -> SparkCase {
        SparkCase(id, brokenBy: .metadataLimitLow) { stage in
            try await stage.link(0)
            let text = String(repeating: "m", count: bytes)
            let out: SparkConnectionID
            do { out = try await stage.subject.startDataConnection(to: stage.testers[0].registrationID, metadata: text) } catch let error as SparkError {
                return .fail("startDataConnection with \(bytes) bytes of metadata (the limit is \(SparkLimits.maxMetadataBytes)) was refused: \(error)")
            }
            let incoming = stage.mirror(out, peer: stage.subject.registrationID)
            _ = try await stage.expectTester(0, "the offer with its \(bytes) bytes of metadata") { $0 == .offered(incoming, metadata: text) ? true : nil }
            return .pass("\(bytes) bytes of metadata were accepted and arrived whole")
        }
    }
}
