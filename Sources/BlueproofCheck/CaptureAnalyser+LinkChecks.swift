extension CaptureAnalyser {
    /// CBT/FLOW/BI-01: never more ACL packets in flight than the controller has buffers.
    func credits() -> CaptureCheck {
        let id = "CBT/FLOW/BI-01", title = "ACL packets in flight never exceed the controller's buffers"
        guard aclSent > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "the host sent no ACL data")
        }
        guard let buffers else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "no (LE) Read Buffer Size answer in the capture; \(aclSent) ACL packet(s) sent")
        }
        if !creditViolations.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(creditViolations.count) ACL packet(s) sent with all \(buffers.count) buffer(s) in use",
                                frames: creditViolations.kept)
        }
        var reason = "at most \(mostInFlight) of \(buffers.count) buffer(s) in use (buffers read in frame \(buffers.frame))"
        if aclSentWithoutBuffers > 0 {
            reason += "; \(aclSentWithoutBuffers) packet(s) sent before that are not counted"
        }
        return CaptureCheck(id: id, title: title, verdict: .pass, reason: reason)
    }

    /// No ACL data on a handle before its connection complete or after its disconnection.
    func connectionBounds() -> CaptureCheck {
        let id = "CAP/CONN/BV-01", title = "No ACL data before Connection Complete or after Disconnection Complete"
        let total = aclSent + aclReceived
        if !outsideConnection.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(outsideConnection.count) ACL packet(s) on a handle not connected",
                                frames: outsideConnection.kept)
        }
        guard total > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no ACL data in the capture")
        }
        let unknownFrames = BoundedList.merged(unknownHandleFrames.values)
        let unknown = unknownFrames.count
        if unknown == total {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "no ACL data on a handle whose connection the capture shows (started mid-connection?)",
                                frames: unknownFrames.kept)
        }
        let note = unknown > 0 ? "; \(unknown) on handle(s) never seen connecting, not judged" : ""
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(total - unknown) ACL packet(s), all inside their connection\(note)")
    }

    /// Every fragment the host sends fits the controller's ACL data packet length.
    func fragmentLengths() -> CaptureCheck {
        let id = "CAP/ACL/BV-01", title = "Sent ACL fragments fit the controller's ACL data packet length"
        guard aclSent > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "the host sent no ACL data")
        }
        guard let buffers else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive,
                                reason: "no (LE) Read Buffer Size answer in the capture")
        }
        if !oversizeFragments.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "\(oversizeFragments.count) fragment(s) longer than \(buffers.packetLength) bytes",
                                frames: oversizeFragments.kept)
        }
        return CaptureCheck(id: id, title: title, verdict: .pass,
                            reason: "\(aclSent - aclSentWithoutBuffers) fragment(s) of at most \(buffers.packetLength) bytes")
    }

    /// BFT/SEC/BV-04: the given plaintext never appears in ACL data.
    func plaintextAbsent() -> CaptureCheck {
        let id = "BFT/SEC/BV-04", title = "The plaintext never appears in clear in ACL data"
        let total = aclSent + aclReceived
        if !plaintextFrames.isEmpty {
            return CaptureCheck(id: id, title: title, verdict: .fail,
                                reason: "the plaintext appears in \(plaintextFrames.count) ACL packet(s) or PDU(s)",
                                frames: plaintextFrames.kept)
        }
        guard total > 0 else {
            return CaptureCheck(id: id, title: title, verdict: .inconclusive, reason: "no ACL data in the capture")
        }
        var reason = "not found in \(total) ACL packet(s) nor in the L2CAP PDUs rebuilt from them"
        if recombinationErrors > 0 { reason += " (\(recombinationErrors) fragment(s) could not be rebuilt)" }
        return CaptureCheck(id: id, title: title, verdict: .pass, reason: reason)
    }
}
