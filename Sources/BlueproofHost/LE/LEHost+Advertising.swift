import BlueproofWire

extension LEHost {
    /// Starts legacy advertising (Vol 4, Part E §7.8.5–§7.8.9); data longer than a legacy PDU
    /// holds is refused before anything reaches the controller. Connectable advertising stops
    /// when a central connects; the connection arrives on ``incomingConnections()``.
    public func startAdvertising(_ parameters: LEAdvertisingParameters) async throws(LEHostError) {
        try parameters.validate()
        let data: HCILESetAdvertisingData, scanResponse: HCILESetScanResponseData
        do {
            data = try HCILESetAdvertisingData(advertisingData: parameters.data)
            scanResponse = try HCILESetScanResponseData(scanResponseData: parameters.scanResponse)
        } catch {
            throw .malformedAdvertisingData(error)
        }
        do {
            try await disableAdvertising()
            try await controller.send(HCILESetAdvertisingParameters(
                advertisingIntervalMin: parameters.intervalMin, advertisingIntervalMax: parameters.intervalMax,
                advertisingType: parameters.advertisingType))
            try await controller.send(data)
            try await controller.send(scanResponse)
            try await controller.send(HCILESetAdvertisingEnable(advertisingEnable: true))
            advertising = true
        } catch {
            throw .command(error)
        }
    }

    /// Stops advertising; nothing to do when it is not running.
    public func stopAdvertising() async throws(LEHostError) {
        do {
            try await disableAdvertising()
        } catch {
            throw .command(error)
        }
    }

    /// Disables advertising if this host enabled it and no connection stopped it since. Only
    /// then: btvirt answers Command Disallowed to a disable while advertising is off.
    private func disableAdvertising() async throws(HCICommandError) {
        guard advertising else { return }
        try await controller.send(HCILESetAdvertisingEnable(advertisingEnable: false))
        advertising = false
    }
}
