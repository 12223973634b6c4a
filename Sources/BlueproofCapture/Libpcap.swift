import CPcap
import Glibc

// The only file in blueproof that touches libpcap pointers (to write pcap files; reading is parsed
// in Swift, PcapSource). Everything it hands out is plain Swift values; the handles never leave it.

/// An open pcap file being written: `pcap_open_dead` + `pcap_dump_open`, microsecond stamps.
///
/// Not thread-safe and not Sendable: ``PcapWriter`` keeps it inside a `Mutex`.
final class LibpcapDumper {
    private var pcap: OpaquePointer?
    private var dumper: OpaquePointer?

    /// Largest snapshot length libpcap accepts for a file (its MAXIMUM_SNAPLEN); far above the
    /// largest H4 packet (1 + 4 + 65535 bytes of ACL plus the 4-byte pseudo-header).
    static let snapshotLength: Int32 = 262_144

    init(path: String, linkType: Int32) throws(CaptureError) {
        guard let pcap = pcap_open_dead_with_tstamp_precision(
            linkType, Self.snapshotLength, UInt32(PCAP_TSTAMP_PRECISION_MICRO)
        ) else {
            throw .cannotCreate(path: path, reason: "pcap_open_dead failed for link type \(linkType)")
        }
        guard let dumper = pcap_dump_open(pcap, path) else {
            let reason = String(cString: pcap_geterr(pcap))
            pcap_close(pcap)
            throw .cannotCreate(path: path, reason: reason)
        }
        self.pcap = pcap
        self.dumper = dumper
        // Put the file header on disk now, so even a run killed before its first packet
        // leaves a valid (empty) capture.
        pcap_dump_flush(dumper)
    }

    /// Appends one record and, when `flush` is set, flushes it to the kernel. Returns false
    /// when the flush failed.
    func write(timestampMicros: Int64, bytes: [UInt8], flush: Bool) -> Bool {
        guard let dumper else { return false }
        let (seconds, micros) = timestampMicros.quotientAndRemainder(dividingBy: 1_000_000)
        // Floor division, so times before 1970 still get 0 <= tv_usec < 1_000_000.
        let tvSec = micros < 0 ? seconds - 1 : seconds
        let tvUsec = micros < 0 ? micros + 1_000_000 : micros
        var header = pcap_pkthdr()
        header.ts.tv_sec = .init(tvSec)
        header.ts.tv_usec = .init(tvUsec)
        header.caplen = UInt32(bytes.count)
        header.len = UInt32(bytes.count)
        bytes.withUnsafeBufferPointer { buffer in
            pcap_dump(UnsafeMutablePointer<UInt8>(dumper), &header, buffer.baseAddress)
        }
        return !flush || pcap_dump_flush(dumper) == 0
    }

    /// Flushes what is buffered and closes the file. Returns false when the flush failed.
    @discardableResult
    func close() -> Bool {
        let flushed = dumper.map { pcap_dump_flush($0) == 0 } ?? true
        if let dumper { pcap_dump_close(dumper) }
        if let pcap { pcap_close(pcap) }
        dumper = nil
        pcap = nil
        return flushed
    }

    deinit { close() }
}
