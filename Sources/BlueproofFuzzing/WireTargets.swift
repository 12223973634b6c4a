import BlueproofWire

extension FuzzTargets {
    /// The codecs of HCI, L2CAP, ATT, SMP and advertising data (Core Vol 3 and 4).
    static let wire: [FuzzTarget] = [
        FuzzTarget("h4", "H4 deframer, fed in pieces, then every packet decoded and described as inspect prints it") { bytes in
            // The first byte picks the piece size, so the deframer also sees packets split anywhere;
            // the rest is the stream.
            let piece = max(1, Int(bytes.first ?? 1))
            let stream = Array(bytes.dropFirst())
            var deframer = H4Deframer()
            var offset = 0
            while offset < stream.count {
                let end = min(stream.count, offset + piece)
                deframer.append(stream[offset..<end])
                offset = end
                while let packet = try? deframer.next() { _ = packet.describe().line }
            }
        },
        FuzzTarget("att", "an ATT PDU (Vol 3, Part F §3.4)") { bytes in
            _ = try? ATTPDU(bytes: bytes)
        },
        FuzzTarget("l2cap", "an L2CAP basic frame, its LE signaling command and a K-frame's SDU header (Vol 3, Part A)") { bytes in
            if let frame = try? L2CAPBasicFrame(bytes: bytes) { _ = try? L2CAPSignal(payload: frame.payload) }
            _ = try? L2CAPSignal(payload: bytes)
            _ = try? L2CAPKFrame.splitFirst(bytes)
        },
        FuzzTarget("smp", "an SMP command (Vol 3, Part H §3)") { bytes in
            _ = try? SMPCommand(payload: bytes)
        },
        FuzzTarget("advertising-data", "advertising data and every accessor scan and the transmitter use (Core Supplement, Part A)") { bytes in
            guard let data = try? AdvertisingData(bytes: bytes) else { return }
            _ = data.flags
            _ = try? data.serviceUUIDs()
            _ = try? data.localName
            _ = try? data.txPowerLevel
            _ = try? data.appearance
            _ = try? data.serviceData
            for manufacturer in (try? data.manufacturerSpecificData) ?? [] {
                if let beacon = try? IBeacon(manufacturerData: manufacturer) { _ = beacon.idString }
            }
        },
    ]
}
