import BlueproofAsync
import BlueproofCapture
import BlueproofWire
import Foundation

/// A controller's ACL credit ceiling, read from the sender's capture of a transfer: the
/// controller returns buffers (Number Of Completed Packets, Core Vol 4, Part E §7.7.19) in
/// bursts at its own cadence (Rootcanal 1.10.0: every few milliseconds), so with all its
/// buffers in use the most it carries is `bufferCount` packets per burst interval.
///
/// Events closer than ``burstGap`` (2 ms; Rootcanal cycles in about 5) belong to one burst. The ceiling counts a full burst
/// (every buffer) per median interval between bursts; the observed rate is what the
/// transfer actually got back.
struct CreditCadence: Encodable, Sendable {
    static let burstGap: Int64 = 2000

    /// LE ACL buffers: bytes per packet and packets.
    var bufferSize: Int
    var bufferCount: Int
    var events: Int
    var bursts: Int
    var completedPackets: Int
    /// Median time between the starts of consecutive bursts.
    var medianBurstIntervalMs: Double
    /// Median packets returned per burst.
    var medianBurstPackets: Int
    /// Packets per second with every buffer returned every burst interval.
    var ceilingPacketsPerSecond: Double
    /// What the transfer got back, first burst to last.
    var observedPacketsPerSecond: Double
    /// ``ceilingPacketsPerSecond`` in full ACL packets: the raw byte ceiling.
    var ceilingACLBytesPerSecond: Double
    /// ACL packets one unit of payload takes (``PayloadFraming``).
    var packetsPerPDU: Int
    /// Payload bytes per second at the ceiling, ``packetsPerPDU`` packets per unit.
    var ceilingPayloadBytesPerSecond: Double

    static func measure(capture path: String, aclBuffers: (size: Int, count: Int),
                        framing: PayloadFraming = .notification(chunk: BumbleBenchRun.packetSize)) throws -> CreditCadence {
        let file = try CaptureReader.read(path: path)
        var bursts: [(start: Int64, packets: Int)] = []
        var lastEvent: Int64?
        var events = 0
        for record in file.records where record.direction == .received && record.packet.type == .event {
            guard case let .numberOfCompletedPackets(event)? = try? HCIEvent(payload: record.packet.payload) else { continue }
            let completed = event.handles.reduce(0) { $0 + Int($1.numCompletedPackets) }
            guard completed > 0 else { continue }
            events += 1
            if let lastEvent, record.timestampMicros - lastEvent < burstGap, !bursts.isEmpty {
                bursts[bursts.count - 1].packets += completed
            } else {
                bursts.append((record.timestampMicros, completed))
            }
            lastEvent = record.timestampMicros
        }
        guard bursts.count >= 3, aclBuffers.size > 0, aclBuffers.count > 0 else {
            throw BenchError.run("too few Number Of Completed Packets events (\(events)) to time the controller's credits")
        }
        let intervals = zip(bursts.dropFirst(), bursts).map { Double($0.start - $1.start) / 1e6 }
        let interval = median(intervals) ?? 0
        let ceiling = Double(aclBuffers.count) / interval
        let span = Double(bursts[bursts.count - 1].start - bursts[0].start) / 1e6
        let observed = Double(bursts.dropFirst().reduce(0) { $0 + $1.packets }) / span
        let perPDU = framing.packets(aclBuffers.size)
        return CreditCadence(
            bufferSize: aclBuffers.size, bufferCount: aclBuffers.count, events: events, bursts: bursts.count,
            completedPackets: bursts.reduce(0) { $0 + $1.packets }, medianBurstIntervalMs: interval * 1000,
            medianBurstPackets: Int(median(bursts.map { Double($0.packets) }) ?? 0),
            ceilingPacketsPerSecond: ceiling, observedPacketsPerSecond: observed,
            ceilingACLBytesPerSecond: ceiling * Double(aclBuffers.size), packetsPerPDU: perPDU,
            ceilingPayloadBytesPerSecond: ceiling / Double(perPDU) * Double(framing.payload))
    }
}

/// How a benchmark's payload is cut into ACL packets, for its ceiling: one unit carries
/// `payload` bytes in `packets(bufferSize)` packets.
struct PayloadFraming: Sendable {
    var payload: Int
    var packets: @Sendable (Int) -> Int
    /// How the report names one unit.
    var unit: String

    /// A GATT notification: 4 bytes L2CAP + 3 bytes ATT + `chunk`, in one PDU.
    static func notification(chunk: Int) -> PayloadFraming {
        PayloadFraming(payload: chunk, packets: { size in (4 + 3 + chunk + size - 1) / size }, unit: "\(chunk + 7)-byte PDU")
    }

    /// An SDU of `sdu` bytes (its `payload` bytes the data carried) on a credit-based channel
    /// whose receiver's MPS is `mps`: a 2-byte SDU length, then K-frames of 4 + up to `mps`
    /// bytes (Core Vol 3, Part A §3.4), each cut into buffers.
    static func creditBasedSDU(_ sdu: Int, payload: Int, mps: Int) -> PayloadFraming {
        PayloadFraming(payload: payload, packets: { size in
            var left = sdu + 2
            var packets = 0
            while left > 0 {
                let frame = min(left, mps)
                packets += (4 + frame + size - 1) / size
                left -= frame
            }
            return packets
        }, unit: "\(sdu)-byte SDU at MPS \(mps)")
    }
}
