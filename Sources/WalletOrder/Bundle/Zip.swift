import CZlib
import Foundation

/// Writes and reads the zip container of a `.order` file (PKWARE APPNOTE 6.3.10 §4.3):
/// local headers, raw deflate data, central directory, end record. No zip64, no encryption.
enum Zip {
    /// Bounds the reader holds any archive to, whatever its headers claim.
    struct Limits: Sendable {
        var maxEntries = 1000
        var maxEntrySize = 16 << 20
        var maxTotalSize = 32 << 20
        /// Largest uncompressed/compressed ratio accepted for an entry over 1 MB.
        var maxRatio = 200
    }

    struct Entry: Sendable, Hashable {
        var name: String
        var data: Data
    }

    enum ReadError: Error, Hashable, CustomStringConvertible {
        case malformed(String)
        case unsafeName(String)
        case limit(String)
        case unsupported(String)

        var description: String {
            switch self {
            case .malformed(let reason): return "not a valid zip archive: \(reason)"
            case .unsafeName(let name):
                return "unsafe entry name \(name.debugDescription): "
                    + "an absolute path, \"..\", a control character, a backslash or more than 4 levels"
            case .limit(let reason): return "archive exceeds a safety limit: \(reason)"
            case .unsupported(let reason): return "unsupported zip feature: \(reason)"
            }
        }
    }

    // MARK: Writing

    /// A zip archive of `entries`, in the given order, with a fixed timestamp so the same
    /// files always give the same bytes.
    static func archive(_ entries: [Entry]) -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32Of(entry.data)
            let deflated = deflateRaw(entry.data)
            let (method, payload): (UInt16, Data) =
                if let deflated, deflated.count < entry.data.count { (8, deflated) } else { (0, entry.data) }
            let offset = UInt32(truncatingIfNeeded: out.count)
            let flags: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800
            out.append(le32: 0x0403_4B50)
            out.append(le16: 20)
            out.append(le16: flags)
            out.append(le16: method)
            out.append(le16: 0)  // time 00:00:00
            out.append(le16: 0x21)  // date 1980-01-01
            out.append(le32: crc)
            out.append(le32: UInt32(truncatingIfNeeded: payload.count))
            out.append(le32: UInt32(truncatingIfNeeded: entry.data.count))
            out.append(le16: UInt16(truncatingIfNeeded: name.count))
            out.append(le16: 0)
            out.append(contentsOf: name)
            out.append(payload)

            central.append(le32: 0x0201_4B50)
            central.append(le16: 0x0314)  // made by: Unix, 2.0
            central.append(le16: 20)
            central.append(le16: flags)
            central.append(le16: method)
            central.append(le16: 0)
            central.append(le16: 0x21)
            central.append(le32: crc)
            central.append(le32: UInt32(truncatingIfNeeded: payload.count))
            central.append(le32: UInt32(truncatingIfNeeded: entry.data.count))
            central.append(le16: UInt16(truncatingIfNeeded: name.count))
            central.append(le16: 0)  // extra
            central.append(le16: 0)  // comment
            central.append(le16: 0)  // disk
            central.append(le16: 0)  // internal attributes
            central.append(le32: 0o100644 << 16)  // regular file, rw-r--r--
            central.append(le32: offset)
            central.append(contentsOf: name)
        }
        let centralOffset = UInt32(truncatingIfNeeded: out.count)
        out.append(central)
        out.append(le32: 0x0605_4B50)
        out.append(le16: 0)
        out.append(le16: 0)
        out.append(le16: UInt16(truncatingIfNeeded: entries.count))
        out.append(le16: UInt16(truncatingIfNeeded: entries.count))
        out.append(le32: UInt32(truncatingIfNeeded: central.count))
        out.append(le32: centralOffset)
        out.append(le16: 0)
        return out
    }

    static func crc32Of(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { raw -> UInt32 in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: Bytef.self) else {
                return UInt32(truncatingIfNeeded: crc32(0, nil, 0))
            }
            return UInt32(truncatingIfNeeded: crc32(0, base, uInt(raw.count)))
        }
    }

    /// Raw deflate (RFC 1951) of `data`, or `nil` if zlib fails.
    static func deflateRaw(_ data: Data) -> Data? {
        var stream = z_stream()
        let initialized = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard initialized == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(data.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = [UInt8](data)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Data(output.prefix(Int(stream.total_out)))
    }

    /// Inflates raw deflate data that must come out at exactly `size` bytes.
    static func inflateRaw(_ data: Data, size: Int) -> Data? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: size + 1)
        var input = [UInt8](data)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> Int32 in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
        return Data(output.prefix(size))
    }

    // MARK: Reading

    /// Reads every entry of a zip archive through its central directory, checking names,
    /// counts, sizes, compression ratios and CRC-32s before trusting anything.
    static func entries(of archive: Data, limits: Limits = Limits()) throws(ReadError) -> [Entry] {
        let bytes = [UInt8](archive)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }

        guard bytes.count >= 22 else { throw .malformed("too short") }
        var end = -1
        var at = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while at >= lowest {
            if bytes[at] == 0x50, bytes[at + 1] == 0x4B, bytes[at + 2] == 5, bytes[at + 3] == 6,
                at + 22 + u16(at + 20) == bytes.count
            {
                end = at
                break
            }
            at -= 1
        }
        guard end >= 0 else { throw .malformed("no end of central directory record") }
        let count = u16(end + 10)
        let centralSize = u32(end + 12)
        let centralOffset = u32(end + 16)
        if u16(end + 4) != 0 || u16(end + 6) != 0 || u16(end + 8) != count {
            throw .unsupported("multi-disk archive")
        }
        if count == 0xFFFF || centralOffset == 0xFFFF_FFFF { throw .unsupported("zip64") }
        guard count <= limits.maxEntries else {
            throw .limit("\(count) entries (at most \(limits.maxEntries))")
        }
        guard centralOffset + centralSize <= end else { throw .malformed("central directory out of bounds") }

        var result: [Entry] = []
        var seen = Set<String>()
        var total = 0
        var cursor = centralOffset
        for _ in 0..<count {
            guard cursor + 46 <= end, u32(cursor) == 0x0201_4B50 else {
                throw .malformed("bad central directory header")
            }
            let flags = u16(cursor + 8)
            let method = u16(cursor + 10)
            let crc = UInt32(truncatingIfNeeded: u32(cursor + 16))
            let compressedSize = u32(cursor + 20)
            let size = u32(cursor + 24)
            let nameLength = u16(cursor + 28)
            let extraLength = u16(cursor + 30)
            let commentLength = u16(cursor + 32)
            let localOffset = u32(cursor + 42)
            let nameEnd = cursor + 46 + nameLength
            guard nameEnd <= end else { throw .malformed("entry name out of bounds") }
            let name = String(decoding: bytes[(cursor + 46)..<nameEnd], as: UTF8.self)
            cursor = nameEnd + extraLength + commentLength

            if flags & 1 != 0 { throw .unsupported("encrypted entry \(name.debugDescription)") }
            if name.hasSuffix("/") {
                guard size == 0 else { throw .malformed("directory entry with data") }
                guard BundlePath.isSafe(String(name.dropLast())) else { throw .unsafeName(name) }
                continue
            }
            guard BundlePath.isSafe(name) else { throw .unsafeName(name) }
            guard seen.insert(name).inserted else {
                throw .malformed("duplicate entry \(name.debugDescription)")
            }
            guard size <= limits.maxEntrySize else { throw .limit("entry \(name) is \(size) bytes") }
            total += size
            guard total <= limits.maxTotalSize else {
                throw .limit("more than \(limits.maxTotalSize) bytes in all")
            }
            if size > 1 << 20, size > compressedSize * limits.maxRatio {
                throw .limit("entry \(name) compresses \(size / max(compressedSize, 1)):1")
            }

            guard localOffset + 30 <= centralOffset, u32(localOffset) == 0x0403_4B50 else {
                throw .malformed("bad local header for \(name)")
            }
            let localNameLength = u16(localOffset + 26)
            let dataStart = localOffset + 30 + localNameLength + u16(localOffset + 28)
            guard localNameLength == nameLength, localOffset + 30 + nameLength <= centralOffset,
                bytes[(localOffset + 30)..<(localOffset + 30 + nameLength)]
                    == bytes[(nameEnd - nameLength)..<nameEnd]
            else {
                throw .malformed("local and central names differ for \(name)")
            }
            guard u16(localOffset + 6) == flags, u16(localOffset + 8) == method else {
                throw .malformed("local and central headers differ for \(name)")
            }
            if flags & 0x08 == 0 {
                guard u32(localOffset + 14) == Int(crc), u32(localOffset + 18) == compressedSize,
                    u32(localOffset + 22) == size
                else { throw .malformed("local and central sizes differ for \(name)") }
            }
            guard dataStart + compressedSize <= centralOffset else {
                throw .malformed("data of \(name) out of bounds")
            }
            let payload = Data(bytes[dataStart..<(dataStart + compressedSize)])
            let data: Data
            switch method {
            case 0:
                guard compressedSize == size else { throw .malformed("stored entry \(name) size mismatch") }
                data = payload
            case 8:
                guard let inflated = inflateRaw(payload, size: size) else {
                    throw .malformed("entry \(name) does not inflate to its declared size")
                }
                data = inflated
            default:
                throw .unsupported("compression method \(method) for \(name)")
            }
            guard crc32Of(data) == crc else { throw .malformed("CRC-32 mismatch for \(name)") }
            result.append(Entry(name: name, data: data))
        }
        return result
    }
}

/// Relative paths inside a bundle.
enum BundlePath {
    /// Whether `path` is a plain relative path that stays inside the bundle: no empty, `.` or
    /// `..` component, no leading `/`, no backslash, no NUL or control character, bounded length.
    static func isSafe(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 255, !path.hasPrefix("/") else { return false }
        if path.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" || $0.value == 0x7F }) {
            return false
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        return components.count <= 4 && components.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        append(UInt8(value & 0xFF))
        append(UInt8(value >> 8))
    }

    fileprivate mutating func append(le32 value: UInt32) {
        append(le16: UInt16(value & 0xFFFF))
        append(le16: UInt16(value >> 16))
    }
}
