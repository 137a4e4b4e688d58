import Foundation

/// A path as the file system holds it: bytes, which need not be UTF-8 (a Maildir written by an
/// old mail server may hold Latin-1 names), and the text that reports show for it.
///
/// Every call that reaches the file system (`stat(2)`, `open(2)`, `opendir(3)`) takes
/// ``bytes``, so a name that is not UTF-8 opens like any other; ``display`` is for people.
struct FileSystemPath: Sendable, Hashable {
    /// The path's bytes, without a terminating NUL.
    let bytes: [UInt8]
    /// The path as reports show it: ``bytes`` read as UTF-8, each byte that is not part of a
    /// well-formed UTF-8 sequence (Unicode §3.9, D92) written `\xHH` (two upper-case hex
    /// digits): `caf\xE9.eml` for the Latin-1 bytes `63 61 66 E9 2E 65 6D 6C`.
    let display: String

    /// A path given as text (a command-line argument): its UTF-8 bytes.
    ///
    /// A command-line argument whose bytes are not UTF-8 reaches Swift with U+FFFD in their
    /// place; its own bytes are taken from the process's `argv` instead
    /// (``CommandLineBytes``). A path as reports show it — not UTF-8 (`caf\xE9.eml`,
    /// ``display``), or with a control character escaped on one line (`a\tb.eml`,
    /// `a\u{1B}b.eml`, ``TerminalText/oneLine(_:)``) — names the file of the bytes it stands
    /// for when no file has the name as written.
    init(_ path: String) {
        if path.unicodeScalars.contains("\u{FFFD}"), let raw = CommandLineBytes.argument(decodedAs: path) {
            self.init(bytes: raw)
        } else if path.contains("\\"), let raw = Self.unescaped(path), raw != Array(path.utf8),
            !Self.exists(Array(path.utf8)), Self.exists(raw)
        {
            self.init(bytes: raw)
        } else {
            self.init(bytes: Array(path.utf8), display: path)
        }
    }

    private init(bytes: [UInt8], display: String) {
        self.bytes = bytes
        self.display = display
    }

    /// The bytes of a path written as reports write one: each `\xHH` (two hex digits) is the
    /// byte HH (``display``); `\n`, `\r`, `\t` and `\u{H…}` (one to six hex digits, a Unicode
    /// scalar) are that character in UTF-8 (``TerminalText/oneLine(_:)``). Any other backslash
    /// is itself. `nil` when there is no escape.
    static func unescaped(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count)
        var index = 0
        var found = false
        func hex(_ byte: UInt8) -> UInt32? {
            switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            case 0x61...0x66: UInt32(byte - 0x61 + 10)
            default: nil
            }
        }
        func byte(_ offset: Int) -> UInt8 { index + offset < utf8.count ? utf8[index + offset] : 0 }
        while index < utf8.count {
            guard utf8[index] == UInt8(ascii: "\\") else {
                output.append(utf8[index])
                index += 1
                continue
            }
            var escaped: [UInt8]?
            var length = 0
            switch byte(1) {
            case UInt8(ascii: "x"):
                if let high = hex(byte(2)), let low = hex(byte(3)) {
                    (escaped, length) = ([UInt8(high << 4 | low)], 4)
                }
            case UInt8(ascii: "n"): (escaped, length) = ([0x0A], 2)
            case UInt8(ascii: "r"): (escaped, length) = ([0x0D], 2)
            case UInt8(ascii: "t"): (escaped, length) = ([0x09], 2)
            case UInt8(ascii: "u") where byte(2) == UInt8(ascii: "{"):
                var value: UInt32 = 0
                var digits = 0
                while digits < 6, let digit = hex(byte(3 + digits)) {
                    value = value << 4 | digit
                    digits += 1
                }
                if digits > 0, byte(3 + digits) == UInt8(ascii: "}"), let scalar = Unicode.Scalar(value) {
                    (escaped, length) = (Array(String(Character(scalar)).utf8), 4 + digits)
                }
            default:
                break
            }
            if let escaped {
                output += escaped
                index += length
                found = true
            } else {
                output.append(utf8[index])
                index += 1
            }
        }
        return found ? output : nil
    }

    /// Whether `lstat(2)` finds something at the path of these bytes.
    private static func exists(_ bytes: [UInt8]) -> Bool {
        var status = stat()
        return FileSystemPath(bytes: bytes, display: "").withCString { lstat($0, &status) } == 0
    }

    /// A path of any bytes; a NUL byte, which no path holds, is dropped.
    init(bytes: [UInt8]) {
        let bytes = bytes.contains(0) ? bytes.filter { $0 != 0 } : bytes
        self.bytes = bytes
        display = Self.escaped(bytes)
    }

    /// `name` inside the folder at this path, joined by one `/`.
    func appending(_ name: [UInt8]) -> FileSystemPath {
        if bytes.isEmpty || bytes.last == UInt8(ascii: "/") { return FileSystemPath(bytes: bytes + name) }
        return FileSystemPath(bytes: bytes + [UInt8(ascii: "/")] + name)
    }

    /// The last component's bytes (after the last `/`; the whole path when there is none).
    var lastComponent: ArraySlice<UInt8> {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return bytes[...] }
        return bytes[(slash + 1)...]
    }

    /// The folder that holds the last component (`.` when the path has no `/`).
    var parent: FileSystemPath {
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return FileSystemPath(".") }
        return FileSystemPath(bytes: slash == 0 ? [UInt8(ascii: "/")] : Array(bytes[..<slash]))
    }

    /// Calls `body` with the path as a NUL-terminated C string.
    func withCString<Result>(_ body: (UnsafePointer<CChar>) throws -> Result) rethrows -> Result {
        try (bytes + [0]).withUnsafeBufferPointer { buffer in
            try buffer.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) }
        }
    }

    /// `bytes` as UTF-8 text, with `\xHH` for each byte of an ill-formed sequence.
    static func escaped(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var output = ""
        var index = 0
        while index < bytes.count {
            let length = wellFormedSequenceLength(bytes, at: index)
            if length > 0 {
                output += String(decoding: bytes[index..<(index + length)], as: UTF8.self)
                index += length
            } else {
                output += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return output
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode Table 3-7), or 0.
    private static func wellFormedSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        func byte(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }
        func isContinuation(_ byte: UInt8) -> Bool { (0x80...0xBF).contains(byte) }
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return isContinuation(byte(1)) ? 2 : 0
        case 0xE0...0xEF:
            let low: UInt8 = first == 0xE0 ? 0xA0 : 0x80
            let high: UInt8 = first == 0xED ? 0x9F : 0xBF
            return (low...high).contains(byte(1)) && isContinuation(byte(2)) ? 3 : 0
        case 0xF0...0xF4:
            let low: UInt8 = first == 0xF0 ? 0x90 : 0x80
            let high: UInt8 = first == 0xF4 ? 0x8F : 0xBF
            return (low...high).contains(byte(1)) && isContinuation(byte(2)) && isContinuation(byte(3))
                ? 4 : 0
        default: return 0
        }
    }

    /// The names in the folder at this path (`opendir(3)`, `readdir(3)`), as bytes, without
    /// `.` and `..`, in byte order (code point order for UTF-8 names); `errno` when the folder
    /// cannot be opened.
    func listFolder() -> Result<[[UInt8]], SystemError> {
        guard let folder = withCString({ opendir($0) }) else { return .failure(SystemError(code: errno)) }
        defer { closedir(folder) }
        var names: [[UInt8]] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { return .failure(SystemError(code: errno)) }
                break
            }
            // The name is read in place, up to its NUL: `readdir` allocates each entry only as
            // long as its name (`d_reclen`), so copying the whole `d_name` array would read past
            // the entry.
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let start = UnsafeRawPointer(entry).advanced(by: offset).assumingMemoryBound(to: CChar.self)
            let name = Array(UnsafeRawBufferPointer(start: start, count: strlen(start)))
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        names.sort { $0.lexicographicallyPrecedes($1) }
        return .success(names)
    }
}

/// An `errno` value from a failed system call.
struct SystemError: Error {
    let code: Int32
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The process's command-line arguments as bytes (`argv`), for the arguments whose bytes are not
/// UTF-8: Swift's `CommandLine.arguments` holds them with U+FFFD in place of each byte that is
/// not part of a well-formed sequence.
enum CommandLineBytes {
    /// Every argument's bytes, read once.
    static let arguments: [[UInt8]] = (0..<Int(CommandLine.argc)).map { index in
        guard let argument = CommandLine.unsafeArgv[index] else { return [] }
        return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }

    /// The bytes of the one argument that decodes to `text` (U+FFFD for each ill-formed byte),
    /// or whose first bytes do (the file of an origin `FILE#N` given as one argument), when
    /// exactly one does.
    static func argument(decodedAs text: String) -> [UInt8]? {
        var matches: [[UInt8]] = []
        for argument in arguments {
            let decoded = String(decoding: argument, as: UTF8.self)
            if decoded == text {
                matches.append(argument)
            } else if decoded.hasPrefix(text) {
                // The shortest prefix of the bytes that decodes to the text.
                for length in 1...argument.count
                where String(decoding: argument[..<length], as: UTF8.self) == text {
                    matches.append(Array(argument[..<length]))
                    break
                }
            }
        }
        return matches.count == 1 ? matches[0] : nil
    }
}
