/// The implemented cases, by id. Every id must be in the catalogue (checked by a test and by
/// the runner, which refuses to start otherwise).
public struct CaseRegistry: Sendable {
    public var cases: [any ConformanceCase]

    public init(_ cases: [any ConformanceCase]) { self.cases = cases }

    /// Every implemented case: the transfer cases, then the transmitter cases.
    public static func standard(profile: Profile) -> CaseRegistry {
        CaseRegistry(transfer(profile: profile).cases + TransmitterCases.all() + [NotApplicableCase.simulator]
            // issue 17: the SPK cases
            + SparkCases.all()
            // issue 18: Bluenet
            + BluenetCases.all())
    }

    /// The transfer cases (CBT), built for `profile`'s RSSI gate and maximum (the radio
    /// proxy's scenarios report those numbers; the roles keep their own).
    public static func transfer(profile: Profile) -> CaseRegistry {
        let gate = (try? profile.int("transfer.rssi_gate_dbm")) ?? -50
        let maximum = (try? profile.int("transfer.rssi_max_dbm")) ?? 0
        return CaseRegistry([
            ChunkSizeCase(),
            EndOfMessageCase(),
            MarkerPayloadCase(),
            TextValuesCase(),
            GATTDatabaseCase(),
            GateAtThresholdCase(gate: gate),
            GateRefusalCase(.belowGate, gate: gate),
            GateRefusalCase(.notAvailable, gate: gate),
            GateRefusalCase(.aboveMaximum, gate: gate, maximum: maximum),
            GateWalkInCase(gate: gate),
            CreditsCase(),
            FlowResumeCase(),
            SubscriptionCase(),
            WriteBackCase(),
            WriteCommandCase(),
            RoleSwapCase(),
            CleanupCase(),
            // issue 14: the CBT cases the runner lacked
            NotApplicableCase.chunkBelowMarker, PayloadLimitCase(), EmptyPayloadCase(), MessageBoundaryCase(), MarkerLengthsCase(),
            MegabyteCase(.plain), NotificationPDUCase(), MegabyteCase(.smallBuffers), MegabyteCase(.oneBuffer),
            SingleConnectionCase(), AdvertisedServiceCase(), CharacteristicPropertiesCase(), SampleUUIDsCase(),
            AdvertisingOffCase(), DuplicateReportsCase(),
            GateAtThresholdCase(gate: gate, above: 10), GateAtThresholdCase(unavailableWithGate: gate),
            GateWalkInCase(gate: gate, swings: true), NotApplicableCase.gateSetting,
            MegabyteCase(.reversed), InteropPayloadCase(.central), InteropPayloadCase(.peripheral),
            MidTransferCutCase(.peripheralLeaves), MidTransferCutCase(.connectionTimeout), StalledUpdatesCase(),
        ])
    }

    public var ids: [CaseID] { cases.map(\.id) }

    public func lookup(_ id: CaseID) -> (any ConformanceCase)? { cases.first { $0.id == id } }

    /// Ids registered here but absent from `catalogue`.
    public func uncatalogued(in catalogue: Catalogue) -> [CaseID] {
        let known = Set(catalogue.entries.map(\.id))
        return ids.filter { !known.contains($0) }
    }
}
