import BlueproofTransfer

/// A megabyte through the transfer roles, byte-exact (corebluetooth-transfer-sample.md,
/// "Overview": the data goes in chunks however long it is, as fast as the link takes it):
/// - CBT/CHUNK/BV-07: the sample's direction on the run's backend as it is;
/// - CBT/FLOW/BV-02: behind controller buffers of 27 bytes x 20 (a 512-byte chunk is 19
///   fragments, some of them waiting for credits);
/// - CBT/FLOW/BV-03: behind one 192-byte buffer (btvirt's own);
/// - CBT/ROLE/BV-04: reversed, the central writing the megabyte to the peripheral with Write
///   Without Response ("Overview": the transfer goes either way).
/// Judged on the message the receiver completed (its SHA-256 against the payload's), on the
/// proxy's log for the buffers (the stimulus), and for the sender in our hands on its capture:
/// BlueproofCheck's credit count (CBT/FLOW/BI-01) and, reversed, the central's Write Commands.
struct MegabyteCase: ConformanceCase {
    enum Variant: Sendable {
        case plain, smallBuffers, oneBuffer, reversed
    }

    let id: CaseID
    let variant: Variant
    static let size = 1 << 20
    /// One 192-byte packet per 30 ms connection event on Rootcanal: some 6 KB/s, 1 MB in about
    /// three minutes (btvirt takes about two seconds).
    static let oneBufferTimeout: Duration = .seconds(300)

    init(_ variant: Variant) {
        self.variant = variant
        id = switch variant {
        case .plain: "CBT/CHUNK/BV-07"
        case .smallBuffers: "CBT/FLOW/BV-02"
        case .oneBuffer: "CBT/FLOW/BV-03"
        case .reversed: "CBT/ROLE/BV-04"
        }
    }

    var needs: CaseNeeds {
        switch variant {
        case .plain: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange, dutNode: 0)
        case .smallBuffers: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.faulted([("peripheral", "buffer-size: {length: 27, count: 20}")]), dutNode: 0)
        case .oneBuffer: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.faulted([("peripheral", "buffer-size: {length: 192, count: 1}")]),
                                   dutNode: 0, timeout: Self.oneBufferTimeout)
        // The implementation under test plays the sample's direction only.
        case .reversed: CaseNeeds(controllers: 2, radioScenario: TransferScenarios.closeRange)
        }
    }

    func run(_ context: CaseContext) async throws -> CaseOutcome {
        let payload = TransferExchange.payload(Self.size)
        let profile = TransferExchange.transferProfile(context)
        if variant == .reversed { return try await reversed(context, payload: payload, profile: profile) }
        let exchange = await TransferExchange.run(context, .send(payload), .receive(reply: .echoPrefix), profile: profile)
        let buffers = context.radio?.faultLog.filter { $0.kind == .bufferSize } ?? []
        if variant != .plain, buffers.isEmpty {
            return .error("the radio proxy never shrank the peripheral's buffers: \(context.radio?.faultLog.map(\.description) ?? [])")
        }
        guard exchange.centralReady != nil else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        guard case let .success(received) = exchange.central else {
            return .fail("the megabyte never completed at the central: \(exchange.centralText) (the sender: \(exchange.peripheralText))")
        }
        if let difference = TransferExchange.difference(sent: payload, received: received.payload ?? []) {
            return .fail(difference)
        }
        let credits = context.isDevice(0) ? nil : CreditsCase.judge(try CaptureEvidence(path: context.captures[0]))
        if let credits, credits.verdict == .fail { return credits }
        let behind = buffers.first.map { " behind \($0.detail)" } ?? ""
        return .pass("\(payload.count) bytes arrived byte-exact\(behind) (SHA-256 \(received.sha256.prefix(16))…, \(received.chunks) chunks)",
                     findings: credits?.findings ?? [])
    }

    /// The central writes the payload; the peripheral must complete it byte-exact, and the
    /// central's capture must hold a Write Command for every chunk.
    /// The central's writes are queued long before a slow link (Rootcanal) has carried them, so
    /// both roles wait as long as an ATT transaction may take (Core Vol 3, Part F §3.3.3).
    private func reversed(_ context: CaseContext, payload: [UInt8], profile: TransferProfile) async throws -> CaseOutcome {
        var patient = profile
        patient.idleTimeout = .seconds(30)
        let exchange = await TransferExchange.run(context, .receive(reply: .bytes(Array("got it".utf8))), .send(payload), profile: patient)
        guard let ready = exchange.centralReady else {
            return .error("the central never subscribed: \(exchange.centralText)")
        }
        guard case let .success(received) = exchange.peripheral else {
            return .fail("the megabyte the central wrote never completed at the peripheral: \(exchange.peripheralText) "
                         + "(the central: \(exchange.centralText))")
        }
        if let difference = TransferExchange.difference(sent: payload, received: received.payload ?? []) {
            return .fail("written by the central: \(difference)")
        }
        let capture = try CaptureEvidence(path: context.captures[1])
        let commands = capture.attFrames(sent: 0x52)
        let chunks = (payload.count + ready.chunkSize - 1) / ready.chunkSize
        guard commands.count >= chunks else {
            return .fail("the central's capture holds \(commands.count) Write Command(s), not one for each of \(chunks) chunks",
                         findings: [Finding("Write Commands", capture: capture.path, frames: Array(commands.prefix(20)))])
        }
        return .pass("\(payload.count) bytes written by the central in \(commands.count) Write Commands arrived byte-exact at the peripheral")
    }
}
