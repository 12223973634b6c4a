import Foundation

/// Sending ("4. Send data", "Sending options", "Direct and mesh transmission", "Mesh").
extension Transmitter {
    public func transmissionSize(dictionary: [String: TransmitterValue]?, data: Data?) throws(TransmitterError) -> Int {
        try TransmitterPayload(dictionary: dictionary, data: data).transmissionSize
    }

    public func send(dictionary: [String: TransmitterValue]?, data: Data?, to receiver: UserID?, options: SendingOptions) throws(TransmitterError) -> PacketID {
        guard let mode, let identity else { throw .notStarted }
        let payload = try TransmitterPayload(dictionary: dictionary, data: data)
        let inRange = receiver.map { connected.contains($0) } ?? false
        // Only an encrypted send reads the session here: a session that cannot be read refuses it
        // with that `.sessionError`, and no other send.
        var encryptable = false
        if let receiver, options.contains(.encrypted) { encryptable = try canEncrypt(to: receiver) }
        let request = payload.request(
            options: options, hasReceiver: receiver != nil, receiverInRange: inRange,
            canEncryptToReceiver: encryptable, mode: mode, link: firstLink(to: receiver, options: options))
        let accepted: AcceptedSend
        switch SendValidator(limits: configuration.limits).validate(request) {
        case .accepted(let send):
            accepted = send
        case .refused(let error) where error == .encryptedBroadcast && defects.contains(.encryptedBroadcastAllowed):
            accepted = AcceptedSend(mode: .broadcast, encrypted: true, firstHop: .mesh)
        case .refused(let error) where error == .binaryInMesh && defects.contains(.binaryInMeshAllowed):
            accepted = AcceptedSend(mode: SendValidator.transmissionModeOrMesh(options), encrypted: false, firstHop: .mesh)
        case .refused(let error):
            TransmitterLog.log(.debug, "send refused: \(error.name)", user: identity.userID)
            throw error
        }
        let packetID = PacketID()
        if accepted.encrypted, let receiver, !inRange { refreshActivity(receiver) }
        Task { await self.deliver(packetID, payload: payload, to: receiver, accepted: accepted) }
        return packetID
    }

    /// The link whose limits a send is held to: the receiver's, for a direct send (a `DualLink`
    /// answers per peer); the node's own otherwise, as a mesh packet floods every neighbour.
    func firstLink(to receiver: UserID?, options: SendingOptions) -> LinkKind {
        guard let receiver, options.contains(.directTransmission) else { return link.kind }
        return link.kind(to: receiver)
    }

    /// Carries an accepted send out and reports how it went.
    func deliver(_ packetID: PacketID, payload: TransmitterPayload, to receiver: UserID?, accepted: AcceptedSend) async {
        guard mode != nil else {
            emit(.failed(packetID, TransmitterError.notStarted))
            return
        }
        switch accepted.mode {
        case .direct:
            guard let receiver, let frame = makeFrame(packetID, payload: payload, to: receiver, encrypted: accepted.encrypted, mesh: false) else {
                emit(.failed(packetID, .noSecureConnection))
                return
            }
            do throws(LinkError) {
                try await link.send(TransmitterFrame.data(frame).encoded(), to: receiver)
                TransmitterLog.log(.debug, "packet \(packetID) sent direct", user: identity?.userID)
                emit(.sentDirect(packetID))
            } catch {
                emit(.failed(packetID, TransmitterError.directReceiverNotInRange.with(detail: "\(error)")))
            }
        case .full:
            guard let receiver else { return }
            if connected.contains(receiver), let frame = makeFrame(packetID, payload: payload, to: receiver, encrypted: accepted.encrypted, mesh: false) {
                do throws(LinkError) {
                    try await link.send(TransmitterFrame.data(frame).encoded(), to: receiver)
                    emit(.sentDirect(packetID))
                    return
                } catch {
                    TransmitterLog.log(.debug, "packet \(packetID) direct attempt failed", user: identity?.userID)
                }
            }
            if defects.contains(.fullNeverFallsBack) {
                emit(.failed(packetID, TransmitterError.directReceiverNotInRange))
                return
            }
            emit(.fellBackToMesh(packetID))
            await originateMesh(packetID, payload: payload, to: receiver, encrypted: accepted.encrypted)
        case .mesh, .broadcast:
            await originateMesh(packetID, payload: payload, to: accepted.mode == .broadcast ? nil : receiver, encrypted: accepted.encrypted)
        }
    }

    private func originateMesh(_ packetID: PacketID, payload: TransmitterPayload, to receiver: UserID?, encrypted: Bool) async {
        guard let frame = makeFrame(packetID, payload: payload, to: receiver, encrypted: encrypted, mesh: true),
              router != nil else {
            emit(.failed(packetID, .noSecureConnection))
            return
        }
        let actions = router!.originate(frame, neighbours: connected.sorted(), now: now)
        TransmitterLog.meshTrace(packet: packetID, hops: frame.hopsRemaining, peer: nil, action: "originate", user: identity?.userID)
        await perform(actions)
        emit(.addedToMesh(packetID))
    }

    /// Builds, signs and (if encrypted) seals a data frame; nil if the receiver's key is missing
    /// or signing or sealing fails.
    func makeFrame(_ packetID: PacketID, payload: TransmitterPayload, to receiver: UserID?, encrypted: Bool, mesh: Bool) -> DataFrame? {
        guard let identity else { return nil }
        var flags: DataFrame.Flags = []
        if receiver == nil { flags.formUnion([.broadcast, .mesh]) }
        if mesh && !defects.contains(.meshFlagDropped) { flags.insert(.mesh) }
        if defects.contains(.directFlaggedAsMesh) { flags.insert(.mesh) }
        if encrypted, receiver != nil { flags.insert(.encrypted) }
        if payload.dictionary != nil { flags.insert(.hasDictionary) }
        if payload.binary != nil { flags.insert(.hasBinary) }
        var hops = 0
        if flags.contains(.mesh) {
            hops = max(0, configuration.hopLimit - 1) + (defects.contains(.meshLimitOffByOne) ? 1 : 0)
                - (defects.contains(.meshLimitShortByOne) ? 1 : 0)
        }
        var frame = DataFrame(
            flags: flags, hopsRemaining: UInt8(clamping: hops), packetID: packetID,
            sender: defects.contains(.senderMisreported) ? .random() : identity.userID,
            receiver: receiver, expiry: DataFrame.milliseconds(now.addingTimeInterval(configuration.meshExpiry)),
            senderKey: identity.publicKeys.signingKey, payload: payload.encoded())
        let sealing = encrypted && receiver != nil && !defects.contains(.encryptionSkipped)
        if sealing, defects.contains(.encryptedPayloadCorrupted), let last = frame.payload.indices.last { frame.payload[last] ^= 0x20 }
        guard let signature = try? identity.sign(frame.signedBytes) else { return nil }
        frame.signature = signature
        if sealing, let receiver {
            guard let onRecord = keyOnRecord(for: receiver, refused: "packet \(packetID) not sealed"),
                  let key = onRecord, var sealed = try? frame.sealed(to: key) else { return nil }
            if defects.contains(.senderInClear) { (sealed.sender, sealed.senderKey, sealed.signature) = (frame.sender, frame.senderKey, frame.signature) }
            return sealed
        }
        return frame
    }
}

extension SendValidator {
    /// The transmission mode the options name, mesh if they name none validly (defect paths only).
    static func transmissionModeOrMesh(_ options: SendingOptions) -> TransmissionMode {
        (try? transmissionMode(options).get()) ?? .mesh
    }
}
