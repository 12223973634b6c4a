/// An HCI status or error code (Core Vol 1, Part F §1.3). An open set.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = HCIStatus(rawValue: 0x00)
    public static let unknownCommand = HCIStatus(rawValue: 0x01)
    public static let unknownConnectionIdentifier = HCIStatus(rawValue: 0x02)
    public static let hardwareFailure = HCIStatus(rawValue: 0x03)
    public static let pageTimeout = HCIStatus(rawValue: 0x04)
    public static let authenticationFailure = HCIStatus(rawValue: 0x05)
    public static let memoryCapacityExceeded = HCIStatus(rawValue: 0x07)
    public static let connectionTimeout = HCIStatus(rawValue: 0x08)
    public static let connectionLimitExceeded = HCIStatus(rawValue: 0x09)
    public static let commandDisallowed = HCIStatus(rawValue: 0x0C)
    public static let connectionAlreadyExists = HCIStatus(rawValue: 0x0B)
    public static let unsupportedFeature = HCIStatus(rawValue: 0x11)
    public static let invalidParameters = HCIStatus(rawValue: 0x12)
    public static let remoteUserTerminated = HCIStatus(rawValue: 0x13)
    public static let remoteLowResources = HCIStatus(rawValue: 0x14)
    public static let remotePowerOff = HCIStatus(rawValue: 0x15)
    public static let localHostTerminated = HCIStatus(rawValue: 0x16)
    public static let unsupportedRemoteFeature = HCIStatus(rawValue: 0x1A)
    public static let unspecifiedError = HCIStatus(rawValue: 0x1F)
    public static let lmpResponseTimeout = HCIStatus(rawValue: 0x22)
    public static let instantPassed = HCIStatus(rawValue: 0x28)
    public static let controllerBusy = HCIStatus(rawValue: 0x3A)
    public static let unacceptableConnectionParameters = HCIStatus(rawValue: 0x3B)
    public static let advertisingTimeout = HCIStatus(rawValue: 0x3C)
    public static let connectionTerminatedMICFailure = HCIStatus(rawValue: 0x3D)
    public static let connectionFailedToBeEstablished = HCIStatus(rawValue: 0x3E)
    public static let unknownAdvertisingIdentifier = HCIStatus(rawValue: 0x42)
    public static let operationCancelledByHost = HCIStatus(rawValue: 0x44)

    public var name: String? {
        switch self {
        case .success: "Success"
        case .unknownCommand: "Unknown HCI Command"
        case .unknownConnectionIdentifier: "Unknown Connection Identifier"
        case .hardwareFailure: "Hardware Failure"
        case .pageTimeout: "Page Timeout"
        case .authenticationFailure: "Authentication Failure"
        case .memoryCapacityExceeded: "Memory Capacity Exceeded"
        case .connectionTimeout: "Connection Timeout"
        case .connectionLimitExceeded: "Connection Limit Exceeded"
        case .connectionAlreadyExists: "Connection Already Exists"
        case .commandDisallowed: "Command Disallowed"
        case .unsupportedFeature: "Unsupported Feature or Parameter Value"
        case .invalidParameters: "Invalid HCI Command Parameters"
        case .remoteUserTerminated: "Remote User Terminated Connection"
        case .remoteLowResources: "Remote Device Terminated Connection due to Low Resources"
        case .remotePowerOff: "Remote Device Terminated Connection due to Power Off"
        case .localHostTerminated: "Connection Terminated By Local Host"
        case .unsupportedRemoteFeature: "Unsupported Remote Feature"
        case .unspecifiedError: "Unspecified Error"
        case .lmpResponseTimeout: "LMP/LL Response Timeout"
        case .instantPassed: "Instant Passed"
        case .controllerBusy: "Controller Busy"
        case .unacceptableConnectionParameters: "Unacceptable Connection Parameters"
        case .advertisingTimeout: "Advertising Timeout"
        case .connectionTerminatedMICFailure: "Connection Terminated due to MIC Failure"
        case .connectionFailedToBeEstablished: "Connection Failed to be Established"
        case .unknownAdvertisingIdentifier: "Unknown Advertising Identifier"
        case .operationCancelledByHost: "Operation Cancelled by Host"
        default: nil
        }
    }

    public var description: String {
        "\(name ?? "Unknown status") (0x\(hex(rawValue)))"
    }
}
