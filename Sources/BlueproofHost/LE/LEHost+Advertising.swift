import BlueproofWire

extension LEHost {
    /// Starts advertising (Vol 4, Part E §7.8.5–§7.8.9, or advertising set 0 with legacy PDUs
    /// through §7.8.53–§7.8.56 on controllers with extended advertising); data longer than a
    /// legacy PDU holds is refused before anything reaches the controller. Connectable
    /// advertising stops when a central connects; the connection arrives on
    /// ``incomingConnections()``.
    public func startAdvertising(_ parameters: LEAdvertisingParameters) async throws(LEHostError) {
        try parameters.validate()
        try await disableAdvertising()
        switch commandSet {
        case .legacy: try await startLegacyAdvertising(parameters)
        case .extended: try await startExtendedAdvertising(parameters)
        }
        advertising = true
        advertisingParameters = parameters
    }

    /// Stops advertising; nothing to do when it is not running.
    public func stopAdvertising() async throws(LEHostError) {
        advertisingParameters = nil
        try await disableAdvertising()
    }

    /// After connecting as central: advertising that was running goes on (a connection as
    /// central does not end it, Vol 6, Part B §4.4.2), but btvirt stops it on any connection,
    /// which would leave this node unreachable to every peer not yet connected (a mesh of more
    /// than two never forms). Enabled again with the same parameters; harmless where it still
    /// ran. A failure is logged, not thrown: the connection stands.
    func restoreAdvertisingAfterConnecting() async {
        guard advertising, let parameters = advertisingParameters else { return }
        do {
            try await startAdvertising(parameters)
        } catch {
            logger.debug("could not restore advertising after connecting as central: \(error)")
        }
    }

    private func startLegacyAdvertising(_ parameters: LEAdvertisingParameters) async throws(LEHostError) {
        let data = try encode { () throws(WireError) in try HCILESetAdvertisingData(advertisingData: parameters.data) }
        let scanResponse = try encode { () throws(WireError) in
            try HCILESetScanResponseData(scanResponseData: parameters.scanResponse)
        }
        try await run(HCILESetAdvertisingParameters(
            advertisingIntervalMin: parameters.intervalMin, advertisingIntervalMax: parameters.intervalMax,
            advertisingType: parameters.advertisingType, ownAddressType: ownAddressType))
        try await run(data)
        try await run(scanResponse)
        try await run(HCILESetAdvertisingEnable(advertisingEnable: true))
    }

    /// Advertising set 0 sending legacy PDUs, so legacy scanners see it too.
    private func startExtendedAdvertising(_ parameters: LEAdvertisingParameters) async throws(LEHostError) {
        let properties: LEAdvertisingEventProperties = switch parameters.advertisingType {
        case .advInd: .legacyAdvInd
        case .advScanInd: [.legacy, .scannable]
        default: .legacyAdvNonconnInd
        }
        let set = Self.advertisingSet
        let data = try encode { () throws(WireError) in
            try HCILESetExtendedAdvertisingData(advertisingHandle: set, advertisingData: parameters.data)
        }
        let scanResponse = try encode { () throws(WireError) in
            try HCILESetExtendedScanResponseData(advertisingHandle: set, scanResponseData: parameters.scanResponse)
        }
        try await run(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: set, advertisingEventProperties: properties,
            primaryAdvertisingIntervalMin: LEExtendedAdvertisingInterval(rawValue: UInt32(parameters.intervalMin.rawValue)),
            primaryAdvertisingIntervalMax: LEExtendedAdvertisingInterval(rawValue: UInt32(parameters.intervalMax.rawValue)),
            ownAddressType: ownAddressType))
        // An advertising set takes its random address on its own (§7.8.52), after its parameters.
        if let randomAddress { try await run(HCILESetAdvertisingSetRandomAddress(advertisingHandle: set, randomAddress: randomAddress)) }
        try await run(data)
        if properties.contains(.scannable) { try await run(scanResponse) }
        try await run(HCILESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: set)]))
    }

    /// The one advertising set this host uses.
    static let advertisingSet: UInt8 = 0

    /// Disables advertising if this host enabled it and no connection stopped it since. Only
    /// then: btvirt answers Command Disallowed to a disable while advertising is off.
    private func disableAdvertising() async throws(LEHostError) {
        guard advertising || advertisingMayRun else { return }
        do {
            switch commandSet {
            case .legacy: try await run(HCILESetAdvertisingEnable(advertisingEnable: false))
            case .extended:
                try await run(HCILESetExtendedAdvertisingEnable(enable: false, sets: [.init(advertisingHandle: Self.advertisingSet)]))
            }
        } catch .command(.failed(_, .commandDisallowed)) {
            // It had stopped already: btvirt refuses to disable what is not enabled (it stops
            // advertising when any connection is made, as central too), where the
            // specification has the command succeed with no effect.
        }
        advertising = false
        advertisingMayRun = false
    }

    /// Builds a command from advertising data; data the command refuses is malformed.
    private func encode<C>(_ make: () throws(WireError) -> C) throws(LEHostError) -> C {
        do {
            return try make()
        } catch {
            throw .malformedAdvertisingData(error)
        }
    }
}
