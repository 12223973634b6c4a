/// Decides, synchronously and without I/O, whether a send is accepted.
///
/// Source: bridgefy-ios-sdk-readme.md, "4. Send data", "Operation modes", "Sending options",
/// "Mesh", "Broadcast messages", "Export and import keys", "Connections with Android devices",
/// "Maximum package sizes and throughput". When several rules are broken, the first in this
/// order is reported (choice C9 in docs/transmitter.md):
///
/// 1. no data to send
/// 2. option shape: encryption flags, transmission flags, broadcast combined with direct/full
/// 3. on-demand mode allows direct only
/// 4. broadcast: never encrypted, never binary, no receiver
/// 5. direct/mesh/full need a receiver
/// 6. binary travels direct only (mesh and full refused)
/// 7. encryption needs a secure connection made at least once or an imported key
/// 8. direct needs the receiver in range
/// 9. sizes: binary per link; dictionaries that may enter the mesh (mesh, full, broadcast)
///    against the mesh limit; direct dictionaries against the profile's direct limit, if any.
///    Boundaries are inclusive: a size equal to the limit is accepted.
public struct SendValidator: Hashable, Sendable {
    public var limits: TransmitterLimits

    public init(limits: TransmitterLimits = .documented) {
        self.limits = limits
    }

    /// Validates `request`; never throws and never traps.
    public func validate(_ request: SendRequest) -> SendVerdict {
        switch resolve(request) {
        case .success(let send): .accepted(send)
        case .failure(let error): .refused(error)
        }
    }

    /// Validates `request`, throwing the refusal.
    public func check(_ request: SendRequest) throws(TransmitterError) -> AcceptedSend {
        try resolve(request).get()
    }

    private func resolve(_ request: SendRequest) -> Result<AcceptedSend, TransmitterError> {
        guard let payload = request.payloadKind else { return .failure(.noDataToSend) }
        let options = request.options

        // 2. Option shape.
        if options.contains([.encrypted, .noEncrypted]) { return .failure(.conflictingEncryptionOptions) }
        let encrypted = options.contains(.encrypted)
        let mode: TransmissionMode
        switch Self.transmissionMode(options) {
        case .success(let resolved): mode = resolved
        case .failure(let error): return .failure(error)
        }

        // 3. On-demand: direct only.
        if request.mode == .onDemand && mode != .direct { return .failure(.functionNotAvailableInMode) }

        // 4–5. Broadcast rules; receiver presence.
        if mode == .broadcast {
            if encrypted { return .failure(.encryptedBroadcast) }
            if payload.hasBinary { return .failure(.binaryInBroadcast) }
            if request.hasReceiver { return .failure(.broadcastWithReceiver) }
        } else if !request.hasReceiver {
            return .failure(.missingReceiver)
        }

        // 6. Binary is direct only.
        if payload.hasBinary && (mode == .mesh || mode == .full) { return .failure(.binaryInMesh) }

        // 7. Encryption needs a key.
        if encrypted && !request.canEncryptToReceiver { return .failure(.noSecureConnection) }

        // 8. Direct needs the receiver in range.
        if mode == .direct && !request.receiverInRange { return .failure(.directReceiverNotInRange) }

        // 9. Sizes.
        let link = request.link
        if let binary = request.binarySize, binary > 0, let limit = limits.binary(on: link), binary > limit {
            return .failure(.binaryTooLarge.with(detail: "\(binary) > \(limit) bytes on \(link.rawValue)"))
        }
        var overRecommended = false
        if let size = request.dictionarySize {
            if mode.mayUseMesh {
                let limit = limits.meshDictionary(on: link)
                if size > limit {
                    return .failure(.meshDictionaryTooLarge.with(detail: "\(size) > \(limit) bytes on \(link.rawValue)"))
                }
            } else {
                if let limit = limits.dictionary(on: link), size > limit {
                    return .failure(.dictionaryTooLarge.with(detail: "\(size) > \(limit) bytes on \(link.rawValue)"))
                }
                if let recommended = limits.recommendedDictionary(on: link), size > recommended {
                    overRecommended = true
                }
            }
        }

        let firstHop: AcceptedSend.FirstHop
        switch mode {
        case .direct: firstHop = .direct
        case .full: firstHop = request.receiverInRange ? .direct : .mesh
        case .mesh, .broadcast: firstHop = .mesh
        }
        return .success(AcceptedSend(mode: mode, encrypted: encrypted, firstHop: firstHop, exceedsRecommendedSize: overRecommended))
    }

    /// Resolves the transmission bits of `options` into one mode (step 2 of the order above).
    /// Broadcast may carry the mesh or full bits (both may reach the mesh; the chat tutorial
    /// sends full + broadcast); with direct it is refused (choice C4).
    static func transmissionMode(_ options: SendingOptions) -> Result<TransmissionMode, TransmitterError> {
        if options.contains(.broadcastReceiver) {
            if options.contains(.directTransmission) {
                return .failure(.broadcastOutsideMesh)
            }
            return .success(.broadcast)
        }
        let chosen = [TransmissionMode.direct, .mesh, .full].filter { options.contains($0.option) }
        switch chosen.count {
        case 0: return .failure(.missingTransmissionOption)
        case 1: return .success(chosen[0])
        default: return .failure(.conflictingTransmissionOptions)
        }
    }
}
