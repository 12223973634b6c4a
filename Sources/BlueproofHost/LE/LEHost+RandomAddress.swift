import BlueproofWire

// issue 15: user tracking by a passive scanner
extension LEHost {
    /// Takes `address` as this host's random device address (LE Set Random Address, Vol 4,
    /// Part E §7.8.4) and advertises, scans and initiates from it from now on (own address
    /// type random; on extended controllers advertising set 0 takes it too, §7.8.52). A
    /// controller may refuse §7.8.4 while advertising or scanning run, so both are stopped
    /// around it and enabled again as they were; initiating cannot be: a connection attempt
    /// under way throws ``LEHostError/connectionInProgress``. Connections already made keep
    /// the address they were made with. The caller picks the address (Vol 6, Part B §1.3.2:
    /// static, top bits 11, or non-resolvable private, top bits 00).
    public func useRandomAddress(_ address: BDAddress) async throws(LEHostError) {
        try await changingOwnAddress { () throws(LEHostError) in
            try await run(HCILESetRandomAddress(randomAddress: address))
            randomAddress = address
        }
    }

    /// Advertises, scans and initiates from the controller's public address again (own address
    /// type public), as before any ``useRandomAddress(_:)``.
    public func usePublicAddress() async throws(LEHostError) {
        guard randomAddress != nil else { return }
        try await changingOwnAddress { () throws(LEHostError) in randomAddress = nil }
    }

    /// Runs `change` with advertising and scanning stopped, then enables them again as they were,
    /// whether the change took or not: a refused change (a controller may refuse §7.8.4 while
    /// another task enabled advertising between these steps) must leave the node neither silent
    /// nor deaf. The first failure is thrown once both were tried again.
    private func changingOwnAddress(_ change: () async throws(LEHostError) -> Void) async throws(LEHostError) {
        guard pendingConnection == nil else { throw .connectionInProgress }
        let advertised = advertising ? advertisingParameters : nil
        let scanned = scanParameters
        var failure: LEHostError?
        var scanningStopped = false
        do throws(LEHostError) {
            if advertised != nil { try await stopAdvertising() }
            if scanned != nil {
                scanningStopped = true
                try await disableScanning()
            }
            try await change()
        } catch {
            failure = error
        }
        if let scanned, scanningStopped, scanParameters == scanned {
            do throws(LEHostError) { try await enableScanning(scanned) } catch { failure = failure ?? error }
        }
        if let advertised, advertisingParameters == nil {
            do throws(LEHostError) { try await startAdvertising(advertised) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }
}
