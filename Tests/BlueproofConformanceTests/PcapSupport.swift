import BlueproofCapture

/// Writes records to a pcap the way the runner's captures are written.
func writePcap(_ records: [CaptureRecord], to path: String) throws {
    let writer = try PcapWriter(path: path)
    for record in records { writer.record(record) }
    writer.close()
}
