import BlueproofHost
import BlueproofWire
import Testing

/// The bearer with manual time: every instant is `t0` plus an offset.
@Suite struct ATTBearerTests {
    let t0 = Duration.zero
    func at(_ seconds: Double) -> Duration { t0 + .seconds(seconds) }

    @Test func mtuStartsAt23AndTheClientSideExchangeTakesTheSmaller() {
        var bearer = ATTBearer(rxMTU: 517)
        #expect(bearer.mtu == 23)
        let (id, sent) = bearer.request(pdu("02 0502"), now: t0)
        #expect(sent == [.send(pdu("02 0502"))])
        #expect(bearer.receive(pdu("03 f700"), now: at(1)) == [.response(for: id, pdu("03 f700"))])
        #expect(bearer.mtu == 247)
    }

    @Test func mtuNeverFallsBelow23() {
        var bearer = ATTBearer()
        _ = bearer.request(pdu("02 0502"), now: t0)
        _ = bearer.receive(pdu("03 0a00"), now: t0)
        #expect(bearer.mtu == 23)
        var server = ATTBearer(rxMTU: 10)
        #expect(server.rxMTU == 23)
        #expect(server.receive(pdu("02 0502"), now: t0) == [.send(pdu("03 1700"))])
        #expect(server.mtu == 23)
    }

    @Test func theServerSideAnswersExchangeMTUItself() {
        var bearer = ATTBearer(rxMTU: 185)
        #expect(bearer.receive(pdu("02 6400"), now: t0) == [.send(pdu("03 b900"))])
        #expect(bearer.mtu == 100)
        var larger = ATTBearer(rxMTU: 185)
        _ = larger.receive(pdu("02 0502"), now: t0)
        #expect(larger.mtu == 185)
    }

    @Test func oneRequestAtATime() {
        var bearer = ATTBearer()
        let (first, a1) = bearer.request(pdu("0a 0300"), now: t0)
        let (second, a2) = bearer.request(pdu("0a 0500"), now: at(1))
        #expect(a1 == [.send(pdu("0a 0300"))])
        #expect(a2.isEmpty)
        #expect(bearer.queuedCount == 1)
        #expect(bearer.receive(pdu("0b 41"), now: at(2)) == [.response(for: first, pdu("0b 41")), .send(pdu("0a 0500"))])
        // The second request's transaction starts when it is sent.
        #expect(bearer.deadline == at(32))
        #expect(bearer.receive(pdu("0b 42"), now: at(3)) == [.response(for: second, pdu("0b 42"))])
        #expect(bearer.deadline == nil)
        #expect(!bearer.hasOutstandingRequest)
    }

    @Test func errorResponsesMatchByRequestOpcode() {
        var bearer = ATTBearer()
        let (id, _) = bearer.request(pdu("0a 0300"), now: t0)
        #expect(bearer.receive(pdu("01 0c 0300 0b"), now: t0) == [.violation(.unexpectedResponse(pdu("01 0c 0300 0b")))])
        #expect(bearer.receive(pdu("0d 00"), now: t0) == [.violation(.unexpectedResponse(pdu("0d 00")))])
        #expect(bearer.hasOutstandingRequest)
        #expect(bearer.receive(pdu("01 0a 0300 02"), now: t0) == [.response(for: id, pdu("01 0a 0300 02"))])
    }

    @Test func aResponseWithNothingOutstandingIsAViolation() {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("13"), now: t0) == [.violation(.unexpectedResponse(.writeResponse))])
        #expect(bearer.receive(pdu("01 12 0300 03"), now: t0) == [.violation(.unexpectedResponse(pdu("01 12 0300 03")))])
    }

    @Test func unknownRequestsAreAnsweredOnlyByErrors() {
        var bearer = ATTBearer()
        let (id, sent) = bearer.request(pdu("3f 01"), now: t0)
        #expect(sent == [.send(pdu("3f 01"))])
        // An unknown opcode with the command flag is a command for the local server, not an answer.
        #expect(bearer.receive(pdu("40 00"), now: t0) == [.deliverRequest(pdu("40 00"))])
        #expect(bearer.receive(pdu("01 3f 0000 06"), now: t0) == [.response(for: id, pdu("01 3f 0000 06"))])
    }

    @Test func aTimeoutKillsTheBearer() {
        var bearer = ATTBearer()
        let (first, _) = bearer.request(pdu("0a 0300"), now: t0)
        let (second, _) = bearer.request(pdu("0a 0500"), now: t0)
        #expect(bearer.deadline == at(30))
        #expect(bearer.tick(now: at(29.999)).isEmpty)
        #expect(bearer.tick(now: at(30)) == [.timedOut, .failed(first, .transactionTimeout), .failed(second, .bearerClosed)])
        #expect(bearer.isDead)
        #expect(bearer.deadline == nil)
        // Nothing more is sent or received (Vol 3, Part F §3.3.3).
        let (third, late) = bearer.request(pdu("0a 0700"), now: at(31))
        #expect(late == [.failed(third, .bearerClosed)])
        #expect(bearer.receive(pdu("0b 41"), now: at(31)).isEmpty)
        #expect(bearer.receive(pdu("0a 0300"), now: at(31)).isEmpty)
        #expect(bearer.command(pdu("52 0300 01")).isEmpty)
        #expect(bearer.notify(handle: 3, value: [1]).isEmpty)
        #expect(bearer.indicate(handle: 3, value: [1], now: at(31)).isEmpty)
        #expect(bearer.tick(now: at(100)).isEmpty)
    }

    @Test func aLateResponseAfterTheDeadlineStillTimesOut() {
        var bearer = ATTBearer()
        let (id, _) = bearer.request(pdu("0a 0300"), now: t0)
        #expect(bearer.receive(pdu("0b 41"), now: at(30.5)) == [.timedOut, .failed(id, .transactionTimeout)])
    }

    @Test func indicationsGoOneAtATime() {
        var bearer = ATTBearer()
        #expect(bearer.indicate(handle: 8, value: [1], now: t0) == [.send(pdu("1d 0800 01"))])
        #expect(bearer.indicate(handle: 8, value: [2], now: at(1)).isEmpty)
        #expect(bearer.hasOutstandingIndication)
        #expect(bearer.deadline == at(30))
        #expect(bearer.receive(pdu("1e"), now: at(5)) == [.send(pdu("1d 0800 02"))])
        #expect(bearer.deadline == at(35))
        #expect(bearer.receive(pdu("1e"), now: at(6)).isEmpty)
        #expect(bearer.receive(pdu("1e"), now: at(7)) == [.violation(.unexpectedConfirmation)])
        // Notifications are never held back.
        #expect(bearer.notify(handle: 12, value: [3]) == [.send(pdu("1b 0c00 03"))])
    }

    @Test func anUnconfirmedIndicationTimesOut() {
        var bearer = ATTBearer()
        _ = bearer.indicate(handle: 8, value: [1], now: t0)
        #expect(bearer.tick(now: at(30)) == [.timedOut])
        #expect(bearer.isDead)
    }

    @Test func inboundRequestsAndCommandsAreDelivered() {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("0a 0300"), now: t0) == [.deliverRequest(pdu("0a 0300"))])
        #expect(bearer.respond(pdu("0b 41")) == [.send(pdu("0b 41"))])
        #expect(bearer.respond(pdu("0b 41")).isEmpty)
        #expect(bearer.receive(pdu("52 0300 01"), now: t0) == [.deliverRequest(pdu("52 0300 01"))])
        #expect(bearer.receive(pdu("7f"), now: t0) == [.deliverRequest(pdu("7f"))])
        #expect(bearer.receive(pdu("3f"), now: t0) == [.deliverRequest(pdu("3f"))])
        #expect(bearer.receive(pdu("0a 0500"), now: t0)
            == [.violation(.requestBeforeResponse(pdu("0a 0500"))), .deliverRequest(pdu("0a 0500"))])
    }

    @Test func inboundNotificationsAndIndications() {
        var bearer = ATTBearer()
        #expect(bearer.receive(pdu("1b 0c00 0102"), now: t0) == [.notification(handle: 12, value: [1, 2])])
        #expect(bearer.confirm().isEmpty)
        #expect(bearer.receive(pdu("1d 0800 01"), now: t0) == [.indication(handle: 8, value: [1])])
        #expect(bearer.receive(pdu("1d 0800 02"), now: t0)
            == [.violation(.indicationBeforeConfirmation(pdu("1d 0800 02"))), .indication(handle: 8, value: [2])])
        #expect(bearer.confirm() == [.send(.handleValueConfirmation)])
        #expect(bearer.confirm().isEmpty)
    }

    @Test func malformedBytes() throws {
        var bearer = ATTBearer()
        let request = bearer.receive(bytes: attBytes("0a 03"), now: t0)
        #expect(request.count == 2)
        #expect(request.last == .send(pdu("01 0a 0000 04")))
        guard case .violation(.malformed(bytes: [0x0A, 0x03], _)) = request.first else {
            Issue.record("\(request)")
            return
        }
        let response = bearer.receive(bytes: attBytes("13 00"), now: t0)
        #expect(response.count == 1)
        #expect(bearer.receive(bytes: [], now: t0).count == 1)
        #expect(bearer.receive(bytes: attBytes("0a 0300"), now: t0) == [.deliverRequest(pdu("0a 0300"))])
    }

    @Test func closeFailsEverything() {
        var bearer = ATTBearer()
        let (first, _) = bearer.request(pdu("0a 0300"), now: t0)
        let (second, _) = bearer.request(pdu("0a 0500"), now: t0)
        #expect(bearer.close() == [.failed(first, .bearerClosed), .failed(second, .bearerClosed)])
        #expect(bearer.close().isEmpty)
        #expect(bearer.isDead)
    }

    @Test func onlyRequestsAreRequests() {
        var bearer = ATTBearer()
        let (id, actions) = bearer.request(pdu("52 0300 01"), now: t0)
        #expect(actions == [.failed(id, .notARequest)])
        #expect(bearer.command(pdu("52 0300 01")) == [.send(pdu("52 0300 01"))])
    }
}
