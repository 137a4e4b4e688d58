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
    init(_ path: String) {
        bytes = Array(path.utf8)
        display = path
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
