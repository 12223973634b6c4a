import CPcap

// The only file in blueproof that touches libpcap pointers. Everything it hands out is plain
// Swift values; the pcap_t / pcap_dumper_t handles never leave it.

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

    /// Appends one record and flushes it to the kernel. Returns false when the flush failed.
    func write(timestampMicros: Int64, bytes: [UInt8]) -> Bool {
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
        return pcap_dump_flush(dumper) == 0
    }

    func close() {
        if let dumper { pcap_dump_close(dumper) }
        if let pcap { pcap_close(pcap) }
        dumper = nil
        pcap = nil
    }

    deinit { close() }
}

/// Everything libpcap could read from a pcap or pcapng file, as plain values.
struct LibpcapContents {
    struct Frame {
        var timestampMicros: Int64
        var bytes: [UInt8]
    }

    var linkType: Int32
    var frames: [Frame]
    /// libpcap's message when reading stopped with an error before the end of the file.
    var stopMessage: String?
}

enum LibpcapReader {
    /// Reads every frame with `pcap_open_offline` / `pcap_next_ex`. Throws only when the file
    /// cannot be opened; an error mid-file ends the frames and sets `stopMessage`.
    static func readAll(path: String) throws(LibpcapOpenFailure) -> LibpcapContents {
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        let opened = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            pcap_open_offline_with_tstamp_precision(
                path, UInt32(PCAP_TSTAMP_PRECISION_MICRO), buffer.baseAddress)
        }
        guard let pcap = opened else {
            let message = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw LibpcapOpenFailure(message: message)
        }
        defer { pcap_close(pcap) }

        var contents = LibpcapContents(linkType: pcap_datalink(pcap), frames: [], stopMessage: nil)
        while true {
            var headerPointer: UnsafeMutablePointer<pcap_pkthdr>?
            var dataPointer: UnsafePointer<UInt8>?
            let status = pcap_next_ex(pcap, &headerPointer, &dataPointer)
            if status == 1, let header = headerPointer?.pointee {
                let count = Int(header.caplen)
                let bytes = count == 0 || dataPointer == nil
                    ? [] : Array(UnsafeBufferPointer(start: dataPointer, count: count))
                let micros = Int64(header.ts.tv_sec) * 1_000_000 + Int64(header.ts.tv_usec)
                contents.frames.append(.init(timestampMicros: micros, bytes: bytes))
            } else if status == PCAP_ERROR_BREAK {
                break  // end of file
            } else {
                contents.stopMessage = String(cString: pcap_geterr(pcap))
                break
            }
        }
        return contents
    }
}

struct LibpcapOpenFailure: Error {
    var message: String
}
