import BlueproofCapture

extension FuzzTargets {
    /// The capture reader, one target per format: the input follows the format's magic, so
    /// the fuzzer spends its time inside that format's records.
    static let captures: [FuzzTarget] = [
        captureTarget("capture-pcap", magic: [0xD4, 0xC3, 0xB2, 0xA1], "a pcap file (libpcap), every record read"),
        captureTarget("capture-pcapng", magic: [0x0A, 0x0D, 0x0D, 0x0A], "a pcapng file (parsed here), every record read"),
        captureTarget("capture-btsnoop", magic: Array("btsnoop".utf8) + [0], "a btsnoop file, every record read"),
    ]

    private static func captureTarget(_ name: String, magic: [UInt8], _ summary: String) -> FuzzTarget {
        FuzzTarget(name, summary) { bytes in
            _ = try? CaptureReader.read(path: scratchFile(name, magic + bytes))
        }
    }
}
