/// Every implemented BFT case, in catalogue order within each group.
public enum TransmitterCases {
    public static func all() -> [any TransmitterCase] {
        var cases: [any TransmitterCase] = []
        cases += OptionMatrixCase.all() as [any TransmitterCase]
        cases += SendRuleCase.all() as [any TransmitterCase]
        cases.append(UniquePacketIDCase())
        cases += SizeCase.all() as [any TransmitterCase]
        cases.append(MeshBinaryCase())
        cases += SizeRelayCases.all()
        cases += WiFiSizeCases.all()
        // issue 14: BFT/SIZE with an Android peer
        cases += AndroidPeerSizeCases.all()
        cases += ThroughputCase.all() as [any TransmitterCase]
        cases += DeliveryCases.all() as [any TransmitterCase]
        cases += MeshDiamondCase.all() as [any TransmitterCase]
        cases += SecureCases.all() as [any TransmitterCase]
        cases += SecureAnswerCases.all() as [any TransmitterCase]
        cases += ExpiryRenewalCases.all() as [any TransmitterCase]
        cases += SessionKeyCases.all() as [any TransmitterCase]
        cases += SessionStoreCases.all() as [any TransmitterCase]
        cases += OnDemandCases.all() as [any TransmitterCase]
        cases += OnDemandCapCases.all() as [any TransmitterCase]
        cases += LogCases.all() as [any TransmitterCase]
        cases += MeshLineCase.all() as [any TransmitterCase]
        cases.append(MeshHoldCase())
        cases.append(RelayCaptureCase.make())
        cases.append(HopLimitCase())
        cases.append(PlaintextCase())
        cases += ChatCases.all() as [any TransmitterCase]
        cases += PayloadCases.all() as [any TransmitterCase]
        cases += ConnectionCases.all() as [any TransmitterCase]
        cases += CallRuleCases.all() as [any TransmitterCase]
        cases += ChatAppCases.all() as [any TransmitterCase]
        cases += LifecycleCases.all() as [any TransmitterCase]
        cases += LicenceCases.all() as [any TransmitterCase]
        cases += BackgroundCases.all() as [any TransmitterCase]
        cases += PresenceCases.all() as [any TransmitterCase]
        // issue 15: atkA, active attacks on the receive path
        cases += ImpersonationCases.all() as [any TransmitterCase]
        cases += DecryptionOracleCase.all() as [any TransmitterCase]
        cases += KeyExchangeAttackCases.all() as [any TransmitterCase]
        cases += ReplayCases.all() as [any TransmitterCase]
        cases += ExhaustionCases.all() as [any TransmitterCase]
        cases.append(MetadataCase.make())
        // issue 15: passive observers and the hello
        cases += HelloImpersonationCases.all() as [any TransmitterCase]
        // issue 15: user tracking by a passive scanner
        cases += TrackingCases.all()
        return cases
    }
}
