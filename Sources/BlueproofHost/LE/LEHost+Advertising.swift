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
            try await controller.send(HCILESetAdvertisingEnable(advertisingEnable: false))
            try await controller.send(HCILESetAdvertisingParameters(
                advertisingIntervalMin: parameters.intervalMin, advertisingIntervalMax: parameters.intervalMax,
                advertisingType: parameters.advertisingType))
            try await controller.send(data)
            try await controller.send(scanResponse)
            try await controller.send(HCILESetAdvertisingEnable(advertisingEnable: true))
        } catch {
            throw .command(error)
        }
    }

    /// Stops advertising.
    public func stopAdvertising() async throws(LEHostError) {
        do {
            try await controller.send(HCILESetAdvertisingEnable(advertisingEnable: false))
        } catch {
            throw .command(error)
        }
    }
}
