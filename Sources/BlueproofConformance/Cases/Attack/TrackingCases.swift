import BlueproofTransmitter

/// User tracking by a passive scanner (breaking-bridgefy-2021, "Privacy: user tracking";
/// docs/security.md "Tracking by a passive observer"). The SDK readme's "Session" keeps one user
/// id per device for good; a scanner that never connects must not be able to follow that user
/// by what the subject advertises, across restarts (BV-02) or over time (BV-03). The subject
/// alone runs a transmitter; node 1 is a ``PassiveScanner``. An identifier is the advertiser's
/// address or an AD structure's payload (the flags aside). The address always counts: it
/// follows the device, whoever uses it. An AD structure the profile declares constant (every
/// device of the implementation advertises it alike: ``constantsKey``) names no one. One that
/// links the runs and that a second user of the same device shows alike, undeclared, leaves
/// the case inconclusive: one device cannot tell a constant of the implementation from an
/// identifier of the device (the broken variant `stableDeviceIdentifier`).
enum TrackingCases {
    static func all() -> [any TransmitterCase] { [RestartTrackingCase(), RotationTrackingCase()] }

    /// How long an identifier may stay on the air. The documents are silent; 15 minutes is the
    /// Core's recommended private address lifetime (Vol 3, Part C, Appendix A, TGAP(private_addr_int)).
    static let rotationBound = Duration.seconds(15 * 60)
    /// How long after the subject's clock moved its advertising may take to change: a timer
    /// firing and a few HCI commands, heard within the proxy's 100 ms repeats; 10 s leaves room
    /// for a loaded machine without holding every run for the whole air timeout.
    static let rotationShowsWithin = Duration.seconds(10)

    /// For BV-03: the subject and the scanner in range behind the radio proxy, which repeats each
    /// advertiser's reports at its interval, so what the subject still advertises after its clock
    /// moved is heard (bare btvirt reports only when advertising or scanning is enabled,
    /// docs/radio-proxy.md). BV-02 needs no proxy (each run starts advertising afresh), so it
    /// also runs against `--dut`, where no proxy can stand in front of the implementation.
    static let rotationScenario = """
        seed: 1
        advertising-interval: 100ms
        sensitivity: -80
        nodes:
          - name: subject
          - name: scanner
        links:
          - between: [subject, scanner]
            fixed: -50
        """

    /// One view of the subject by the scanner, in `what` (for the names in a failure).
    static func view(_ stage: TransmitterStage, _ scanner: PassiveScanner, _ what: String) async throws -> Set<ObservedIdentifier> {
        let view = try await scanner.view(what, within: stage.preconditionTimeout, clock: stage.context.clock)
        stage.context.log.note("scanner, \(what): \(view.sorted(by: { $0.description < $1.description }).map(\.description).joined(separator: "; "))")
        return view
    }

    /// Stops the subject, destroys its session and starts it again as another user (whose id
    /// must differ from `user`); returns that user's view.
    static func otherUser(_ stage: TransmitterStage, _ scanner: PassiveScanner, than user: UserID) async throws -> Set<ObservedIdentifier> {
        try await stage.stopSubject()
        do {
            try await stage.subject.destroySession()
        } catch {
            throw StageFailure(.freshSession, "the subject could not destroy its session: \(error)")
        }
        guard try await stage.start(0) != user else { throw StageFailure(.freshSession, "the subject kept user \(user) after its session was destroyed") }
        return try await view(stage, scanner, "as another user")
    }

    /// The profile key listing the AD structures every device of the implementation advertises
    /// alike, as `TYPE:HEX` (``ObservedIdentifier/init(declared:)``).
    static let constantsKey = "bridgefy.tracking.constant_advertising"

    /// The AD structures the profile declares constant; an entry not of the form `TYPE:HEX` is a
    /// profile error (the case errs, naming it).
    static func declaredConstants(_ stage: TransmitterStage) throws -> Set<ObservedIdentifier> {
        let profile = stage.context.profile
        var declared: Set<ObservedIdentifier> = []
        for entry in try profile.strings(constantsKey) {
            guard let identifier = ObservedIdentifier(declared: entry) else {
                throw ProfileAccessError.wrongType(key: constantsKey, expected: "TYPE:HEX AD structure (ff:ffff00)", found: entry, profile: profile.path)
            }
            declared.insert(identifier)
        }
        return declared
    }

    /// The AD structures two users of the subject's device both show (never its address).
    static func shared(_ views: Set<ObservedIdentifier>...) -> Set<ObservedIdentifier> {
        views.dropFirst().reduce(views.first ?? []) { $0.intersection($1) }.filter { $0.kind != .address }
    }

    /// Of the identifiers that link two runs, less those the profile declares: those that track
    /// the user, and those another user of the same device showed alike (undecided: a constant
    /// of the implementation or an identifier of the device).
    static func classify(_ linking: Set<ObservedIdentifier>, sameDevice: Set<ObservedIdentifier>, declared: Set<ObservedIdentifier>)
        -> (tracked: Set<ObservedIdentifier>, undecided: Set<ObservedIdentifier>) {
        let open = linking.subtracting(declared)
        return (open.subtracting(sameDevice), open.intersection(sameDevice))
    }

    /// The verdict on the identifiers that link `runs`: a failure naming those that track the
    /// user, else inconclusive naming the undecided ones, else nil (nothing links the runs).
    static func outcome(_ linking: Set<ObservedIdentifier>, sameDevice: Set<ObservedIdentifier>, declared: Set<ObservedIdentifier>,
                        runs: String, stage: TransmitterStage, scanner: PassiveScanner) -> CaseOutcome? {
        let (tracked, undecided) = classify(linking, sameDevice: sameDevice, declared: declared)
        if !tracked.isEmpty {
            return .fail("a scanner that never connects links the subject \(runs) by \(names(tracked))",
                         findings: findings(tracked, runs: runs, stage: stage, scanner: scanner))
        }
        guard undecided.isEmpty else {
            return .inconclusive("\(names(undecided)) linked the subject \(runs), and a second user of the same device showed it alike: "
                                 + "a constant of the implementation or an identifier of the device, which one device cannot tell apart "
                                 + "(declare what every device of the implementation advertises in the profile's \(constantsKey))",
                                 findings: findings(undecided, runs: runs, stage: stage, scanner: scanner))
        }
        return nil
    }

    private static func names(_ identifiers: Set<ObservedIdentifier>) -> String {
        identifiers.map(\.description).sorted().joined(separator: ", ")
    }

    /// Each identifier, the runs it was heard in and the scanner's capture frames holding it
    /// (the first few).
    private static func findings(_ identifiers: Set<ObservedIdentifier>, runs: String, stage: TransmitterStage, scanner: PassiveScanner) -> [Finding] {
        let capture = scanner.node < stage.context.captures.count ? stage.context.captures[scanner.node] : nil
        let evidence = capture.flatMap { try? CaptureEvidence(path: $0) }
        return identifiers.sorted { $0.description < $1.description }.map { identifier in
            let frames = evidence?.advertisingReports
                .filter { CaptureEvidence.identifiers(address: $0.address, data: $0.data).contains(identifier) }
                .prefix(5).map(\.frame) ?? []
            return Finding("\(identifier), heard \(runs)", capture: capture, frames: Array(frames))
        }
    }
}

/// A tracking case: the subject the only transmitter, node 1 the scanner; over controllers only.
protocol TrackingCase: TransmitterCase {
    func check(_ stage: TransmitterStage, scanner: PassiveScanner) async throws -> CaseOutcome
}

extension TrackingCase {
    var nodes: Int { 1 }
    var brokenBy: Set<Defect> { [.stableAdvertisedUserId, .stableAdvertisingAddress] }
    var judgesCaptures: Bool { true }
    var needs: CaseNeeds { CaseNeeds(controllers: 2, transmitters: 1) }

    func check(_ stage: TransmitterStage) async throws -> CaseOutcome {
        guard let scanner = PassiveScanner(stage, node: 1) else {
            return .notApplicable("judged by a scanner on a controller of the runner's own (node 1): the case must run over controllers")
        }
        return try await check(stage, scanner: scanner)
    }
}

/// BFT/ATK/BV-02: the subject runs, stops and starts again on its saved session (same user);
/// nothing it advertised in the first run may be heard in the second, but what another user of
/// the implementation shows alike.
struct RestartTrackingCase: TrackingCase {
    let id: CaseID = "BFT/ATK/BV-02"

    func check(_ stage: TransmitterStage, scanner: PassiveScanner) async throws -> CaseOutcome {
        let declared = try TrackingCases.declaredConstants(stage)
        let user = try await stage.start(0)
        let first = try await TrackingCases.view(stage, scanner, "in the first run")
        try await stage.stopSubject()
        let again = try await stage.start(0)
        guard again == user else { throw StageFailure(.start, "the subject restarted as \(again), not on its session as \(user)") }
        let second = try await TrackingCases.view(stage, scanner, "after a restart on its session")
        let other = try await TrackingCases.otherUser(stage, scanner, than: user)
        if let outcome = TrackingCases.outcome(first.intersection(second), sameDevice: TrackingCases.shared(first, second, other), declared: declared,
                                               runs: "in the run before and the run after a restart on its session", stage: stage, scanner: scanner) {
            return outcome
        }
        return .pass("nothing the subject advertised before its restart on its session was heard after it, but the \(declared.count) AD structures "
                     + "the profile declares constant (\(first.count) and \(second.count) identifiers heard)")
    }
}

/// BFT/ATK/BV-03: within one run, nothing the subject advertises may still be heard once
/// ``TrackingCases/rotationBound`` has passed on its clock. Judged only where the provider can
/// move the subject's clock (the reference's injected clock); an implementation under test is
/// not waited on for 15 minutes of real time, and the case says so.
struct RotationTrackingCase: TrackingCase {
    let id: CaseID = "BFT/ATK/BV-03"
    var needs: CaseNeeds { CaseNeeds(controllers: 2, radioScenario: TrackingCases.rotationScenario, transmitters: 1) }

    func check(_ stage: TransmitterStage, scanner: PassiveScanner) async throws -> CaseOutcome {
        let declared = try TrackingCases.declaredConstants(stage)
        let user = try await stage.start(0)
        let some = try await TrackingCases.view(stage, scanner, "as one user")
        let before = try await TrackingCases.otherUser(stage, scanner, than: user)
        let span = TrackingCases.rotationBound + .seconds(60)
        guard try await stage.moveSubjectClock(span) else {
            return .notApplicable("rotation not judged: the subject's clock cannot be moved, and \(TrackingCases.rotationBound) of real time is not waited")
        }
        let old = before.subtracting(declared)
        let sameDevice = TrackingCases.shared(some, before)
        // The subject may change what it advertises a moment after its clock moved: the first
        // view free of the old identifiers that would track it ends the wait (an undecided one,
        // which a second user showed alike, may stay: it is judged apart; and the proxy may
        // still repeat the old address's reports for a while, so a later view can be older).
        let tracking = old.subtracting(sameDevice)
        let after = try await scanner.view("after \(span) on the subject's clock", within: TrackingCases.rotationShowsWithin, clock: stage.context.clock,
                                           keepLast: true) { $0.isDisjoint(with: tracking) }
        if let outcome = TrackingCases.outcome(after.intersection(old), sameDevice: sameDevice, declared: declared,
                                               runs: "before and \(span) after on the subject's clock, within one run", stage: stage, scanner: scanner) {
            return outcome
        }
        return .pass("none of the \(old.count) identifiers the subject advertised (the \(declared.count) the profile declares constant aside) was heard after \(span) on its clock")
    }
}
