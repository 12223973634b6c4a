import BlueproofCapture
import BlueproofHost
import BlueproofWire

extension CaptureAnalyser {
    mutating func handle(_ event: HCIEvent) {
        switch event {
        case let .commandComplete(complete):
            readBuffers(complete)
        case let .numberOfCompletedPackets(completed):
            for entry in completed.handles {
                let handle = entry.connectionHandle & 0x0FFF
                inFlight[handle] = max(0, (inFlight[handle] ?? 0) - Int(entry.numCompletedPackets))
            }
        case let .disconnectionComplete(disconnection):
            guard disconnection.status == .success else { return }
            let handle = disconnection.connectionHandle & 0x0FFF
            open[handle] = nil
            // The controller frees the buffers of a closed connection (Vol 4, Part E §4.3).
            inFlight[handle] = nil
            classicHandles.remove(handle)
            attMTU[handle] = nil
            mtuRequest = mtuRequest.filter { $0.key.handle != handle }
            for direction in [CaptureDirection.sent, .received] {
                recombiners[direction]?.close(handle: handle)
                pduStart[Way(handle: handle, direction: direction)] = nil
            }
        case let .connectionComplete(complete) where complete.status == .success && complete.linkType == .acl:
            // A BR/EDR ACL link (Vol 4, Part E §7.7.3): its data is inside a connection too,
            // and uses the shared ACL buffers, never the LE ones (§7.8.2).
            connected(complete.connectionHandle)
            classicHandles.insert(complete.connectionHandle & 0x0FFF)
        case let .le(meta):
            switch meta {
            case let .connectionComplete(complete) where complete.status == .success:
                connected(complete.connectionHandle)
            case let .enhancedConnectionComplete(complete) where complete.status == .success:
                connected(complete.connectionHandle)
            case let .enhancedConnectionCompleteV2(complete) where complete.base.status == .success:
                connected(complete.base.connectionHandle)
            default:
                return
            }
        default:
            return
        }
    }

    private mutating func connected(_ rawHandle: UInt16) {
        let handle = rawHandle & 0x0FFF
        open[handle] = frame
        everConnected.insert(handle)
        // Data seen on this handle before it connected was data before connection complete.
        if let early = unknownHandleFrames.removeValue(forKey: handle) {
            outsideConnection = BoundedList.merged([outsideConnection, early])
        }
    }

    private mutating func readBuffers(_ complete: HCICommandCompleteEvent) {
        guard let read = BufferSizeAnswer(complete) else { return }
        if read.shared {
            sharedBuffers = Buffers(packetLength: read.length, count: read.count, frame: frame)
        } else {
            setLE(length: read.length, count: read.count)
        }
    }

    /// The buffers ACL data on `handle` uses: the shared ACL buffers on a BR/EDR link, else
    /// ``buffers``.
    private func buffers(for handle: UInt16) -> Buffers? {
        classicHandles.contains(handle) ? sharedBuffers : buffers
    }

    /// LE buffers of 0 mean the LE traffic shares the ACL buffers (Vol 4, Part E §7.8.2).
    private mutating func setLE(length: Int, count: Int) {
        leBuffers = length == 0 || count == 0 ? nil : Buffers(packetLength: length, count: count, frame: frame)
    }

    mutating func handle(_ packet: HCIACLPacket, direction: CaptureDirection) {
        let handle = packet.handle & 0x0FFF
        if open[handle] == nil {
            if everConnected.contains(handle) {
                outsideConnection.append(frame)
            } else {
                unknownHandleFrames[handle, default: BoundedList()].append(frame)
            }
        }
        if direction == .sent {
            aclSent += 1
            if let buffers = buffers(for: handle) {
                if packet.data.count > buffers.packetLength { oversizeFragments.append(frame) }
                inFlight[handle, default: 0] += 1
                let classic = classicHandles.contains(handle)
                let total = inFlight.reduce(0) { $0 + (classicHandles.contains($1.key) == classic ? $1.value : 0) }
                mostInFlight = max(mostInFlight, total)
                if total > buffers.count { creditViolations.append(frame) }
            } else {
                aclSentWithoutBuffers += 1
            }
        } else {
            aclReceived += 1
        }
        if let plaintext = options.plaintext, packet.data.containsRun(plaintext) { plaintextFrames.append(frame) }
        recombine(packet, handle: handle, direction: direction)
    }

    private mutating func recombine(_ packet: HCIACLPacket, handle: UInt16, direction: CaptureDirection) {
        let way = Way(handle: handle, direction: direction)
        if packet.packetBoundary.startsPDU || pduStart[way] == nil { pduStart[way] = frame }
        let pdu: [UInt8]?
        do throws(L2CAPRecombinationError) {
            pdu = try recombiners[direction, default: L2CAPRecombiner()].receive(packet)
        } catch {
            recombinationErrors += 1
            if case let .startWhileIncomplete(_, _, _, newStart) = error, case let .complete(bytes) = newStart {
                pdu = bytes
            } else {
                pdu = nil
            }
        }
        guard let pdu else { return }
        let first = pduStart.removeValue(forKey: way) ?? frame
        if let plaintext = options.plaintext, pdu.containsRun(plaintext), plaintextFrames.last != frame {
            plaintextFrames.append(frame)
        }
        guard let frameL2CAP = try? L2CAPBasicFrame(bytes: pdu), frameL2CAP.channelID == .att else { return }
        attPDU(frameL2CAP.payload, way: way, firstFrame: first)
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs as a contiguous run (an empty needle never does).
    func containsRun(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}

/// The ACL buffers a successful Command Complete of (LE) Read Buffer Size (v2) reports
/// (Core Vol 4, Part E §7.4.5, §7.8.2): `shared` for the BR/EDR (and, lacking LE ones, LE) buffers.
struct BufferSizeAnswer {
    var shared: Bool
    var length: Int
    var count: Int

    init?(_ complete: HCICommandCompleteEvent) {
        switch complete.commandOpcode {
        case .leReadBufferSize:
            guard let values = try? complete.decodeReturnParameters(as: HCILEReadBufferSize.self),
                  values.status == .success else { return nil }
            (shared, length, count) = (false, Int(values.leACLDataPacketLength), Int(values.totalNumLEACLDataPackets))
        case .leReadBufferSizeV2:
            guard let values = try? complete.decodeReturnParameters(as: HCILEReadBufferSizeV2.self),
                  values.status == .success else { return nil }
            (shared, length, count) = (false, Int(values.leACLDataPacketLength), Int(values.totalNumLEACLDataPackets))
        case .readBufferSize:
            guard let values = try? complete.decodeReturnParameters(as: HCIReadBufferSize.self),
                  values.status == .success else { return nil }
            (shared, length, count) = (true, Int(values.aclDataPacketLength), Int(values.totalNumACLDataPackets))
        default:
            return nil
        }
    }
}
