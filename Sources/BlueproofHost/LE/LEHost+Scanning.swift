import BlueproofWire

extension LEHost {
    /// Starts scanning (Vol 4, Part E §7.8.10–§7.8.11, or §7.8.64–§7.8.65 on controllers with
    /// extended scanning) if no scan runs yet, and returns every advertisement seen from now
    /// on. Scanning stops when the last stream is dropped. A scan already running keeps its
    /// parameters.
    public func scan(_ parameters: LEScanParameters = LEScanParameters()) async throws(LEHostError) -> AsyncStream<LEAdvertisement> {
        let (stream, continuation) = AsyncStream.makeStream(of: LEAdvertisement.self)
        let wasScanning = !scanners.isEmpty
        let id = subscriberID()
        scanners[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopScanning(id) }
        }
        guard !wasScanning else { return stream }
        do {
            try await enableScanning(parameters)
        } catch {
            scanners[id] = nil
            continuation.finish()
            throw error
        }
        return stream
    }

    func enableScanning(_ parameters: LEScanParameters) async throws(LEHostError) {
        let scanType: LEScanType = parameters.active ? .active : .passive
        switch commandSet {
        case .legacy:
            try await run(HCILESetScanParameters(scanType: scanType, scanInterval: parameters.interval,
                                                 scanWindow: parameters.window, ownAddressType: ownAddressType))
            try await run(HCILESetScanEnable(scanEnable: true, filterDuplicates: parameters.filterDuplicates))
        case .extended:
            try await run(HCILESetExtendedScanParameters(ownAddressType: ownAddressType, le1M: .init(
                scanType: scanType, scanInterval: parameters.interval, scanWindow: parameters.window)))
            try await run(HCILESetExtendedScanEnable(
                enable: true, filterDuplicates: parameters.filterDuplicates ? .enabled : .disabled))
        }
        scanParameters = parameters
    }

    private func stopScanning(_ id: UInt64) async {
        guard scanners.removeValue(forKey: id) != nil, scanners.isEmpty else { return }
        scanParameters = nil
        do {
            try await disableScanning()
        } catch {
            logger.debug("could not stop scanning: \(error)")
        }
    }

    /// LE Set Scan Enable off (§7.8.11, or §7.8.65).
    func disableScanning() async throws(LEHostError) {
        switch commandSet {
        case .legacy: try await run(HCILESetScanEnable(scanEnable: false))
        case .extended: try await run(HCILESetExtendedScanEnable(enable: false))
        }
    }

    func advertisementSeen(_ advertisement: LEAdvertisement) {
        for scanner in scanners.values { scanner.yield(advertisement) }
    }
}

extension LEHost {
    /// Scans and reports devices (advertising data and scan response merged, Vol 3, Part C
    /// §9.2) that advertise one of `services` (every device when empty), each time what is known
    /// about one changes. Scanning stops when the stream is dropped.
    public func discover(services: Set<BluetoothUUID> = [], _ parameters: LEScanParameters = LEScanParameters())
        async throws(LEHostError) -> AsyncStream<LEDiscoveredDevice> {
        let reports = try await scan(parameters)
        let (stream, continuation) = AsyncStream.makeStream(of: LEDiscoveredDevice.self)
        let task = Task {
            var list = LEDeviceList(services: services)
            for await report in reports {
                if let device = list.add(report) { continuation.yield(device) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
