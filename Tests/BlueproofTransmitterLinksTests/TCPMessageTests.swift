import BlueproofTransmitter
@testable import BlueproofTransmitterLinks
import Testing

@Suite("TCP link messages and addresses")
struct TCPMessageTests {
    @Test("messages: u32 big-endian length, kind octet, body")
    func encoding() {
        let user = UserID("6655a16c-8209-46c4-9c51-21d8df3efb95")!
        #expect(TCPMessage.hello(user).encoded == [0, 0, 0, 17, 0] + user.bytes)
        #expect(TCPMessage.open.encoded == [0, 0, 0, 1, 1])
        #expect(TCPMessage.close.encoded == [0, 0, 0, 1, 2])
        #expect(TCPMessage.frame([9, 8, 7]).encoded == [0, 0, 0, 4, 3, 9, 8, 7])
        #expect(TCPMessage(body: [3]) == .frame([]))
        #expect(TCPMessage(body: [0] + user.bytes) == .hello(user))
        #expect(TCPMessage(body: [0, 1, 2]) == nil, "a hello must carry 16 bytes")
        #expect(TCPMessage(body: [4]) == nil)
        #expect(TCPMessage(body: []) == nil)
    }

    @Test("addresses: host:port, IPv4 or localhost, typed refusals")
    func addresses() throws {
        #expect(try TCPAddress("127.0.0.1:7000") == TCPAddress(port: 7000))
        #expect(try TCPAddress("localhost:1").host == "127.0.0.1")
        #expect(throws: TCPAddressError.missingPort("127.0.0.1")) { try TCPAddress("127.0.0.1") }
        #expect(throws: TCPAddressError.badPort("127.0.0.1:0")) { try TCPAddress("127.0.0.1:0") }
        #expect(throws: TCPAddressError.badPort("127.0.0.1:70000")) { try TCPAddress("127.0.0.1:70000") }
        #expect(throws: TCPAddressError.badHost("example.org:80")) { try TCPAddress("example.org:80") }
        #expect(throws: TCPAddressError.badHost("1.2.3.256:80")) { try TCPAddress("1.2.3.256:80") }
    }
}
