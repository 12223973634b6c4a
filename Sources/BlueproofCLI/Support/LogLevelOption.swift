import ArgumentParser
import Logging

enum LogLevelOption: String, ExpressibleByArgument, CaseIterable {
    case error, warning, info, debug, trace

    var level: Logger.Level {
        switch self {
        case .error: .error
        case .warning: .warning
        case .info: .info
        case .debug: .debug
        case .trace: .trace
        }
    }

    /// Sends the process's logs to standard error at this level. Call once.
    func bootstrap() {
        let level = self.level
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
