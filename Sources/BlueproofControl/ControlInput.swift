import BlueproofTransmitter

/// What a server makes of a client's bytes before it acts on them: cut into lines
/// (``LineSplitter``), each decoded as a request and its fields read as the commands read them.
/// Public for the `control-line` fuzz target (docs/fuzzing.md); errors are the refusals a
/// client would get.
public enum ControlInput {
    /// Feeds `bytes` in pieces of `piece` bytes, as reads would bring them; returns how many
    /// lines were requests whose fields all read. Stops at the first over-long line, as the
    /// server closes the client there.
    @discardableResult
    public static func read(_ bytes: [UInt8], piece: Int) -> Int {
        var splitter = LineSplitter()
        var requests = 0
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + max(1, piece))
            guard let lines = try? splitter.feed(Array(bytes[offset..<end])) else { return requests }
            offset = end
            for line in lines where !line.isEmpty {
                if (try? fields(of: ControlCoding.decode(ControlRequest.self, from: line))) != nil { requests += 1 }
            }
        }
        return requests
    }

    /// Reads every field a command may use, as `ControlServer` does.
    private static func fields(of request: ControlRequest) throws(TransmitterError) {
        if let user = request.user { _ = try ControlCoding.userID(user, field: "user") }
        if let to = request.to { _ = try ControlCoding.userID(to, field: "to") }
        let data = try ControlCoding.binary(request.data)
        let dictionary = ControlJSON.unwrap(request.dictionary)
        if dictionary != nil || data != nil { _ = try TransmitterPayload(dictionary: dictionary, data: data) }
    }
}
