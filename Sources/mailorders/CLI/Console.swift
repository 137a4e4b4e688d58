import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Exit codes shared by every subcommand.
enum ExitCode {
    /// Everything was read and nothing is wrong.
    static let success: Int32 = 0
    /// The run finished but something was skipped, mismatched or found wrong.
    static let partial: Int32 = 1
    /// A fatal error: unwritable output, a corrupt database, unreadable rules.
    static let fatal: Int32 = 2
    /// The command line did not fit (EX_USAGE, sysexits.h).
    static let usage: Int32 = 64
}

/// Writing to standard output and standard error without buffering surprises.
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ text: String) { out(text + "\n") }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Whether standard error is a terminal (for the progress bar).
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether colour may be used on standard error: a terminal, and `NO_COLOR` unset
    /// (https://no-color.org).
    static var useColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        return standardErrorIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
            && environment["TERM"] != "dumb"
    }
}
