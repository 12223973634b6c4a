import BlueproofChat
import BlueproofTransmitter

/// A deliberate fault of a broken variant of the reference transmitter (issue 6, "Every case
/// can fail"). Faults of the transmitter's insides are `TransmitterDefects` of the engine; the
/// faults a caller can see at the API boundary are made by `DefectiveTransmitter`, a wrapper.
public enum Defect: String, CaseIterable, Sendable, Codable {
    // Engine (TransmitterDefects).
    case encryptedBroadcastAllowed, expiryNotRefreshed, binaryInMeshAllowed, fullNeverFallsBack, broadcastFlagDropped
    case meshFlagDropped, directFlaggedAsMesh, senderMisreported, encryptedPayloadCorrupted, meshNeverRelays, relayDeliversEverything
    case encryptionSkipped, logLevelIgnored, onDemandUncapped
    case meshSkipsReceiver, meshNeverHolds, expiryEarly, expiryLate, relayDropsAtLimit, hopLimitIgnored, meshLimitOffByOne
    case meshLimitShortByOne
    case sessionNotPersisted
    /// A different key imported for a user with a key on record replaces it, unreported.
    case keyReplacedSilently
    // The subject's configuration.
    /// On-demand mode allows one connection fewer than documented.
    case onDemandCapTooLow
    // Limits given to the engine.
    case sizeLimitsOffByOne, limitsTooStrict
    // API boundary (DefectiveTransmitter).
    case emptyPayloadAccepted, binaryInBroadcastAllowed, unencryptedRefused, encryptionRefused, broadcastRefused
    case missingReceiverAccepted, broadcastWithReceiverAccepted, unknownKeyAccepted, onDemandAllowsMesh, packetIDReused
    case directNeverConfirmed, directNeverFails, secureConnectionNeverCompletes, secureConnectionToAnyone
    case keyNotStored, keyAlwaysExists, keyNotValidated, expirationLimitIgnored, expiryImmediate, expiryNeverLapses
    case hasSessionAlwaysFalse, sessionNotDestroyed, publicKeyNotBase64, publicKeyRandomised
    case onDemandAutoConnects, onDemandNeverConnects, connectToAnyone
    case hasSessionAlwaysTrue, failureNamesOtherPacket, directDictionaryMeshLimited, encryptedBinaryLimitStrict
    /// Every refusal (send, connect, disconnect, secure connection) still happens, but is
    /// reported as `sessionError`: the reason is wrong, the refusal is not.
    case refusesForWrongReason
    /// Reports no event at all (never connected, never received): a device that never answers.
    case mute
    /// Reports no `log` event: its log shows nothing at any level.
    case logSilent
    // issue 14: BFT/SIZE (Wi-Fi), BFT/DLV, BFT/SEC, BFT/SES, BFT/OND
    /// Direct dictionaries over Wi-Fi are held to BLE's recommended size (the limits given to the engine).
    case wifiDictionaryLimited
    /// Binary data over Wi-Fi is held to BLE's limit (the limits given to the engine).
    case wifiBinaryLimited
    /// The mesh has no duplicate cache: every copy is delivered and forwarded (engine).
    case noDuplicateCache
    /// A broadcast goes out as a mesh packet to one connected user only (API boundary).
    case broadcastToOnePeer
    /// The app's answer to shouldConnectSecurelyWithUser is taken and ignored (API boundary).
    case secureAnswerIgnored
    /// Every connection, a reconnection included, starts a new secure connection (API boundary).
    case handshakeOnEveryConnection
    /// Every connection is reported secure as it is made, with no handshake (API boundary).
    case connectionReportedSecure
    /// Once a secure connection lapsed, encrypted sends to that user stay refused (API boundary).
    case expiryPermanent
    /// An expiration limit set while a secure connection exists is read back but not applied (API boundary).
    case limitSparesExisting
    /// The expiration limit before any set is one more than the implementation's own default (API boundary).
    case expirationDefaultWrong
    /// A start that fails on a damaged session destroys it and starts on a new one (API boundary).
    case damagedSessionReplaced
    /// On-demand connections closed still count against the cap (API boundary).
    case onDemandCapCountsClosed
    /// disconnectFromUser returns without disconnecting (API boundary).
    case disconnectIgnored
    /// The session lapses a year after it was first started on, by the transmitter's clock (API boundary).
    case sessionExpiresInAYear
    // The chat app run over node 0 (ChatDefects).
    case chatPeerInfoShownAsMessage, chatMessageTakenAsPeerInfo, chatNameLengthWrong
    // issue 14: BFT/PAY, BFT/CON, BFT/LOG, BFT/OPT/BV-19, BFT/KEY/BV-06, BFT/LIFE, CHAT/APP
    /// Floating-point dictionary values leave as integers; binary dictionary values as base64 text.
    case floatsSentAsIntegers, binaryValuesSentAsText
    /// A dictionary and data sent together leave as two packets (the send names the dictionary's).
    case dataSentApart
    /// A received packet without a dictionary (without data) is reported with an empty one.
    case receivedDictionaryNeverNil, receivedDataNeverNil
    /// A dictionary value with no JSON form is left out and the rest sent.
    case unencodableValueDropped
    /// Connections are made but not reported; reported under another id; disconnections not reported.
    case connectionUnreported, connectedUserMisnamed, disconnectionUnreported
    /// Automatic mode keeps one connection and drops every other (engine).
    case automaticSinglePeer
    /// A refused send returns a packet id; the refusal comes afterwards as didFailForPacket.
    case validationDeferred
    /// Raw log levels: outside 0-3 taken as the nearest level; r taken as 3 - r.
    case rawLogLevelUnbounded, rawLogLevelsReversed
    /// The level is info until set; every start after the first puts error back.
    case logDefaultInfo, restartResetsLogLevel
    /// Each instance has its own log level (not process-wide).
    case logLevelPerInstance
    /// The chat app (ChatDefects): no name sent on a secure connection; broadcasts without the
    /// sender's name; a disconnection leaves the peer online.
    case chatIdentityNotSent, chatBroadcastWithoutSender, chatDisconnectionIgnored
    /// Start without a mode runs on-demand; start on-demand runs automatic.
    case defaultModeOnDemand, onDemandStartsAutomatic
    /// stop reports stopped and keeps the links; every stop destroys the session; saveState saves nothing.
    case stopKeepsLinks, restartNewIdentity, saveStateNoop
    /// A certificate given is not used; "none" is not used; a certificate given is replaced by none.
    case licenceIgnored, startsWithoutLicence, offlineLicenceIgnored
    /// Background mode reads on by default; is enabled with nothing declared; does not keep the
    /// links in the background; is cleared by start.
    case backgroundModeOnByDefault, backgroundModeUnchecked, backgroundModeNotKept, startClearsBackgroundMode
    /// Advertises and scans from creation, before any start; user ids read as text that is no UUID.
    case presentBeforeStart, userIDNotUUID
    /// The need to reach the network to validate the licence is never reported as an event.
    case networkNeedUnreported
    // issue 14: BFT/SES/BV-04
    /// The session is kept with the app's own data (removed with it), not in device storage.
    case sessionInAppData
    // issue 15: atkA, active attacks on the receive path (engine)
    /// A data frame may claim any sender id: the id is not checked against the carried key.
    case senderNotBoundToKey
    /// A data frame's key is compared with the one on record (keyConflict) before its signature is checked.
    case keyConflictBeforeSignature
    /// A key exchange frame's key is taken without checking that it derives the user id it names.
    case keyNotBoundToUser
    /// A frame that does not decode leaves the receiver taking no further frame (a crash).
    case malformedFrameStopsReceiver
    /// A payload nested past the depth limit leaves the receiver taking no further frame (a crash).
    case nestedPayloadStopsReceiver
    /// The ids of delivered packets live in memory only: a packet replayed after a restart is delivered again.
    case replayStateNotPersisted
    /// No replay guard, only the mesh's in-memory duplicate cache, which a flood of fresh ids flushes.
    case replayGuardOff
    /// A secure connection is reported when the keyRequest is sent, with no keyResponse.
    case secureWithoutResponse
    /// A keyResponse's key is taken without checking that it derives the user id it names.
    case responseKeyNotBoundToUser
    /// An encrypted frame names its sender in the clear header (and so does not follow the wire).
    case senderInClear
    /// A sealed frame's sender is not checked once opened: an encrypted frame may claim anyone.
    case sealedSenderUnchecked
    /// A sealed frame that does not authenticate is answered with a keyRequest: how the
    /// opening failed shows on the air (an oracle).
    case openFailureAnswered
    /// A sealed frame that does not open still marks its packet id seen: an altered copy
    /// gets the genuine frame dropped as a duplicate.
    case failedOpeningMarksSeen
    /// A sealed frame's body is decrypted without checking its tag: an altered copy opens.
    case tagUnchecked
    // issue 15: passive observers and the hello
    /// A peer is whoever the link names: hellos are not checked (engine).
    case unsignedHello
    // issue 15: user tracking by a passive scanner, in what the BLE link puts on the air
    /// The scan response carries the user id, as the first version's did.
    case stableAdvertisedUserId
    /// Advertises from the controller's public address for good, not a rotating random one.
    case stableAdvertisingAddress
    /// Rotates its address but advertises the controller's public address in a second
    /// manufacturer entry of the scan response, whoever uses the device.
    case stableDeviceIdentifier
    // issue 14: BFT/SIZE with an Android peer (BV-03, BV-14), in the node's links (DualLink)
    /// Sends over Wi-Fi peer-to-peer to every peer it reaches there, Android ones too.
    case wifiToAndroidPeer
    /// Sends to an Android peer over BLE but sizes its packets by the Wi-Fi limits.
    case wifiLimitsToAndroidPeer
    // issue 18: Bluenet (DefectiveBluenet, at the library's API boundary)
    /// startScanning publishes only Crownstones; startScanningForCrownstones publishes every device.
    case bluenetScanAllCrownstonesOnly, bluenetCrownstoneFilterIgnored
    /// startScanningForService publishes every device; stopScanning leaves the events flowing.
    case bluenetServiceFilterIgnored, bluenetPublishesAfterStop
    /// isReady never fulfils; other devices' service data leaves as signed bytes (-128...127).
    case bluenetNeverReady, bluenetServiceDataSigned
    /// The stringified advertisement lacks the rssi; crownstoneId is read big-endian.
    case bluenetStringifyDropsRSSI, bluenetCrownstoneIdBigEndian
    /// A failed connect is never settled; disconnect with nothing connected is rejected.
    case bluenetConnectNeverGivesUp, bluenetDisconnectNeedsConnection
    /// setSwitchState(1) writes off and 0 writes on; a value between is rounded and written.
    case bluenetSwitchInverted, bluenetDimmingAccepted
    /// off(id) reports the subscription ended and leaves it delivering.
    case bluenetOffIgnored
    /// connect while connected keeps the current link and connects the new device beside it.
    case bluenetConnectKeepsCurrent
    /// iBeacon idStrings join the major as ":Maj." ; every other ranging round is not published;
    /// enterRegion names the tracked UUID instead of the group id.
    case bluenetIdStringMisjoined, bluenetRangingEveryOtherRound, bluenetRegionNamedByUUID
    /// exitRegion is never published.
    case bluenetRegionNeverLeft
    // issue 18: Bluenet iBeacons (BLN/BCN BI-01, BI-02, BV-01, BV-02)
    /// Manufacturer data of any company and type with an iBeacon's length is read as an iBeacon;
    /// every iBeacon heard is ranged, tracked or not.
    case bluenetIBeaconAnyCompany, bluenetRangesUntracked
    /// The proximity UUID is read byte-reversed; major and minor are read little-endian.
    case bluenetIBeaconUUIDReversed, bluenetMajorMinorLittleEndian
    // issue 18: Bluenet Localization (BLN/LOC)
    /// currentLocation "unknown" each round of 3 beacons before any fingerprint; a prediction
    /// from 2 beacons; none from fewer than 4.
    case bluenetLocationBeforeFingerprint, bluenetPredictsWithTwoBeacons, bluenetNeedsFourBeacons
    /// exitLocation before exitRegion; exitLocation never published; currentLocation only on a change.
    case bluenetExitLocationOnRegionExit, bluenetExitLocationMissing, bluenetCurrentLocationOnChangeOnly
    /// abortCollectingFingerprint pauses; finalize drops the collection; resume starts a new one.
    case bluenetAbortKeepsSamples, bluenetFinalizeDiscards, bluenetResumeRestarts
    /// A loaded fingerprint keeps each beacon's last sample only; loadFingerprint stores nothing.
    case bluenetFingerprintKeepsLastSample, bluenetLoadedFingerprintIgnored
    // issue 18: Bluenet disconnect unanswered (BLN/CONN/BI-02)
    /// A disconnect whose disconnection is never confirmed is never settled.
    case bluenetDisconnectNeverGivesUp
    // issue 18: Bluenet connect while connected, the current link's end unconfirmed (BLN/CONN/BI-04)
    /// A connect whose dropping of the current device ends in the disconnect timeout is never settled.
    case bluenetSwitchNeverGivesUp
    // issue 18: the Advertisement's own fields (BLN/SCAN/BV-08)
    /// An advertisement's rssi is published as text ("-65"), in its JSON and stringified alike.
    case bluenetRSSIAsText
    // issue 18: Bluenet ranging beside a stranger (BLN/BCN/BI-02)
    /// Once any UUID is tracked, every iBeacon heard is ranged, whatever its UUID.
    case bluenetTrackingRangesEvery
    // issue 18: a device's advertisements once its scan response was heard (BLN/SCAN/BV-01)
    /// Every other advertisement of a device is published without its service data, as if the
    /// advertising report were published alone, its scan response not merged in.
    case bluenetScanResponseNotMerged
    // issue 18: the ranged packet's rssi (BLN/BCN/BV-01)
    /// A ranged packet's rssi is 0 (CoreLocation's "unknown") although the beacon was heard.
    case bluenetRangedRSSIZero
    // issue 18: entered once (BLN/BCN/BV-05, BLN/LOC/BV-03)
    /// enterRegion, and enterLocation, published again every ranging round while inside.
    case bluenetRegionEnteredEveryRound, bluenetLocationEnteredEveryRound
    // issue 18: one round, one array (BLN/LOC/BV-01)
    /// Each ranging round is published as one iBeaconAdvertisement per beacon heard.
    case bluenetRangingPerBeacon
    // issue 18: what a collected fingerprint holds (BLN/LOC/BV-04)
    /// A finalized fingerprint keeps each beacon's last sample only; or its RSSI values as magnitudes (65 for -65 dBm).
    case bluenetFinalizeKeepsLastRound, bluenetFingerprintRSSIMagnitude
    // issue 18: Bluenet connect behind the radio proxy (BLN/CONN/BV-01, BV-02)
    /// connect gives up after 2 s, not 3; a connect while one is pending leaves that one pending.
    case bluenetConnectTimeoutShort, bluenetConnectLeavesPending
    // issue 18: Bluenet connect to a device that answers too late (BLN/CONN/BI-01)
    /// connect gives up after 6 s, not 3.
    case bluenetConnectTimeoutLong
    // issue 18: a connect that aborted a pending one (BLN/CONN/BV-02)
    /// connect's timeout runs from the call, not from the start of its attempt once the
    /// aborted one was given up.
    case bluenetConnectTimeoutFromCall
    // issue 18: the timeouts judged against the harness's own timer (BLN/CONN/BI-02, BI-04)
    /// disconnect gives up after 4 s, not 2; connect while connected is rejected (failed) at
    /// once, without waiting for the current device's disconnection.
    case bluenetDisconnectTimeoutLong, bluenetSwitchGivesUpAtOnce

    /// The engine defect this is, if it lives in the engine.
    public var engine: TransmitterDefects? {
        switch self {
        case .encryptedBroadcastAllowed: .encryptedBroadcastAllowed
        case .expiryNotRefreshed: .expiryNotRefreshed
        case .binaryInMeshAllowed: .binaryInMeshAllowed
        case .fullNeverFallsBack: .fullNeverFallsBack
        case .broadcastFlagDropped: .broadcastFlagDropped
        case .meshFlagDropped: .meshFlagDropped
        case .directFlaggedAsMesh: .directFlaggedAsMesh
        case .senderMisreported: .senderMisreported
        case .encryptedPayloadCorrupted: .encryptedPayloadCorrupted
        case .meshNeverRelays: .meshNeverRelays
        case .relayDeliversEverything: .relayDeliversEverything
        case .encryptionSkipped: .encryptionSkipped
        case .logLevelIgnored: .logLevelIgnored
        case .onDemandUncapped: .onDemandUncapped
        case .meshSkipsReceiver: .meshSkipsReceiver
        case .meshNeverHolds: .meshNeverHolds
        case .expiryEarly: .expiryEarly
        case .expiryLate: .expiryLate
        case .relayDropsAtLimit: .relayDropsAtLimit
        case .hopLimitIgnored: .hopLimitIgnored
        case .meshLimitOffByOne: .meshLimitOffByOne
        case .meshLimitShortByOne: .meshLimitShortByOne
        case .sessionNotPersisted: .sessionNotPersisted
        case .keyReplacedSilently: .keyReplacedSilently
        case .noDuplicateCache: .noDuplicateCache
        case .automaticSinglePeer: .automaticSinglePeer
        // issue 15: atkA
        case .senderNotBoundToKey: .senderNotBoundToKey
        case .keyConflictBeforeSignature: .keyConflictBeforeSignature
        case .keyNotBoundToUser: .keyNotBoundToUser
        case .malformedFrameStopsReceiver: .malformedFrameStopsReceiver
        case .nestedPayloadStopsReceiver: .nestedPayloadStopsReceiver
        case .replayStateNotPersisted: .replayStateNotPersisted
        case .replayGuardOff: .replayGuardOff
        case .secureWithoutResponse: .secureWithoutResponse
        case .responseKeyNotBoundToUser: .responseKeyNotBoundToUser
        case .senderInClear: .senderInClear
        case .sealedSenderUnchecked: .sealedSenderUnchecked
        case .openFailureAnswered: .openFailureAnswered
        case .failedOpeningMarksSeen: .failedOpeningMarksSeen
        case .tagUnchecked: .tagUnchecked
        // issue 15: passive observers and the hello
        case .unsignedHello: .unsignedHello
        default: nil
        }
    }
}

extension Defect {
    /// The chat app's defect this is, if it lives in the chat app.
    public var chat: ChatDefects? {
        switch self {
        case .chatPeerInfoShownAsMessage: .peerInfoShownAsMessage
        case .chatMessageTakenAsPeerInfo: .messageTakenAsPeerInfo
        case .chatNameLengthWrong: .nameLengthWrong
        case .chatIdentityNotSent: .identityNotSent
        case .chatBroadcastWithoutSender: .broadcastWithoutSender
        case .chatDisconnectionIgnored: .disconnectionIgnored
        default: nil
        }
    }
}

extension Set<Defect> {
    /// The chat app's share of these defects.
    public var chat: ChatDefects {
        reduce(into: []) { defects, defect in
            if let chat = defect.chat { defects.insert(chat) }
        }
    }

    /// The engine's share of these defects.
    public var engine: TransmitterDefects {
        reduce(into: []) { defects, defect in
            if let engine = defect.engine { defects.insert(engine) }
        }
    }
}
