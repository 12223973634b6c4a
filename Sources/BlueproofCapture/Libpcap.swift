import CPcap
import Glibc

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

/// A pcap or pcapng file read through libpcap (`pcap_fopen_offline` + `pcap_next_ex`), one
/// frame at a time, handed out as plain values.
///
/// Not Sendable: one reader walks it. It owns its `pcap_t` (and so the file), closed at deinit.
final class LibpcapReader {
    struct Frame {
        /// Microseconds since the Unix epoch, clamped (``CaptureRecord/isTimestampInRange``).
        var timestampMicros: Int64
        /// The captured length the record declares.
        var length: Int
        /// The captured bytes; empty when ``length`` is over the limit given to ``next(maximumLength:)``.
        var bytes: [UInt8]
    }

    /// The file's link type (`DLT_` value).
    let linkType: Int32
    private let pcap: OpaquePointer

    /// Reads the file open on `descriptor`, from its first byte. Takes the descriptor over: it
    /// is closed with the reader, or at once when libpcap refuses the file.
    init(descriptor: Int32) throws(LibpcapFailure) {
        guard let file = fdopen(descriptor, "rb") else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw LibpcapFailure(message: reason)
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        let opened = errorBuffer.withUnsafeMutableBufferPointer { buffer in
            pcap_fopen_offline_with_tstamp_precision(file, UInt32(PCAP_TSTAMP_PRECISION_MICRO), buffer.baseAddress)
        }
        guard let opened else {
            fclose(file)  // libpcap closes the file only once it has opened it
            throw LibpcapFailure(message: String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                                                 as: UTF8.self))
        }
        pcap = opened
        linkType = pcap_datalink(opened)
    }

    /// The next frame; nil at the end of the file. Throws libpcap's message when reading fails
    /// (a cut or corrupt record). Copies nothing of a frame longer than `maximumLength`.
    func next(maximumLength: Int) throws(LibpcapFailure) -> Frame? {
        var headerPointer: UnsafeMutablePointer<pcap_pkthdr>?
        var dataPointer: UnsafePointer<UInt8>?
        let status = pcap_next_ex(pcap, &headerPointer, &dataPointer)
        if status == PCAP_ERROR_BREAK { return nil }  // end of file
        guard status == 1, let header = headerPointer?.pointee else {
            throw LibpcapFailure(message: String(cString: pcap_geterr(pcap)))
        }
        let length = Int(header.caplen)
        let micros = CaptureRecord.clampedMicros(seconds: Int64(header.ts.tv_sec), microseconds: Int64(header.ts.tv_usec))
        guard length <= maximumLength, length > 0, let dataPointer else {
            return Frame(timestampMicros: micros, length: length, bytes: [])
        }
        return Frame(timestampMicros: micros, length: length, bytes: Array(UnsafeBufferPointer(start: dataPointer, count: length)))
    }

    deinit { pcap_close(pcap) }
}

/// libpcap's message when it refused a file or a record.
struct LibpcapFailure: Error {
    var message: String
}
