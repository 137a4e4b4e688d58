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
///
/// Text printed here often comes from email (names, subjects, file names), so control
/// characters a terminal would act on — ESC sequences, BEL, the C1 controls of ISO 6429 —
/// and the bidirectional overrides that reorder what a reader sees (U+202A–U+202E,
/// U+2066–U+2069) are shown as `\u{1B}` instead of being written raw; tab, line feed and
/// carriage return pass through. JSON output gets JSON's own escape (`\u001b`), so that it
/// stays valid JSON (RFC 8259 §7) and safe on a terminal.
enum Console {
    /// Writes `text` to standard output.
    /// - Parameter json: `text` is JSON: escapes are JSON escapes (they can only fall inside
    ///   strings, since JSON's own syntax is ASCII).
    static func out(_ text: String, json: Bool = false) {
        FileHandle.standardOutput.write(Data(neutralized(text, json: json).utf8))
    }

    static func line(_ text: String, json: Bool = false) { out(text + "\n", json: json) }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((neutralized(text) + "\n").utf8))
    }

    /// `text` with every C0 control but tab, line feed and carriage return, DEL, every C1
    /// control (U+0080–U+009F) and the bidirectional embeddings, overrides and isolates
    /// written as `\u{XX}` (for JSON: `\u00xx`).
    static func neutralized(_ text: String, json: Bool = false) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: !json)
                let escape =
                    json ? "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex : "\\u{\(hex)}"
                result.append(contentsOf: escape.unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
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

/// Why a file operation failed, as a few plain words (`permission denied`, `no such file or
/// directory`): the system's reason (`strerror(3)`) when Foundation wraps one, never the
/// `NSError` dump.
/// - Parameter path: the file read, looked at when Foundation gives no reason (a folder read
///   as a file).
func fileErrorReason(_ error: any Error, path: String? = nil) -> String {
    let nsError = error as NSError
    if nsError.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(nsError.code))).lowercased()
    }
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
        underlying.domain == NSPOSIXErrorDomain
    {
        return String(cString: strerror(Int32(underlying.code))).lowercased()
    }
    switch nsError.code {
    case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue:
        return "no such file or directory"
    case CocoaError.fileReadNoPermission.rawValue, CocoaError.fileWriteNoPermission.rawValue:
        return "permission denied"
    case CocoaError.fileWriteOutOfSpace.rawValue: return "no space left on device"
    case CocoaError.fileWriteVolumeReadOnly.rawValue: return "read-only file system"
    default:
        if let path {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                return "it is a folder, not a file"
            }
            if access(path, R_OK) != 0 { return String(cString: strerror(errno)).lowercased() }
        }
        if let description = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return description }
        return nsError.localizedDescription
    }
}
