import CZlib

/// Opens a Wallet `.order` bundle (a zip archive) in memory and decodes its `order.json`.
///
/// Reads the central directory (PKWARE APPNOTE 6.3 §4.3.12, end record §4.3.16), then each
/// needed entry's local header (§4.3.7); entries are stored (method 0) or deflated (method 8,
/// RFC 1951, through zlib's raw `inflate`). Nothing is written to disk. Hostile archives are
/// bounded: entry count, each entry's and the total uncompressed size, and the compression
/// ratio; CRC-32 is checked.
public enum OrderBundleReader {
    /// Bounds applied while reading an archive.
    public struct Limits: Sendable, Hashable {
        public var maxEntries = 1_000
        public var maxEntrySize = 8 << 20
        public var maxTotalSize = 32 << 20
        /// Largest uncompressed/compressed ratio accepted for entries above 64 KB.
        public var maxCompressionRatio = 200

        public init() {}
    }

    /// Why a bundle could not be read.
    public struct ReadError: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String

        public init(_ reason: String) {
            self.reason = reason
        }

        public var description: String { reason }
    }

    /// One archive member as listed in the central directory.
    public struct Entry: Sendable, Hashable {
        public var name: String
        public var method: UInt16
        public var compressedSize: Int
        public var uncompressedSize: Int
        public var crc32: UInt32
        public var localHeaderOffset: Int
    }

    /// Whether an attachment is a Wallet order bundle, by media type or file name.
    ///
    /// - Parameters:
    ///   - contentType: The attachment's media type essence.
    ///   - filename: Its file name, if any.
    /// - Returns: `true` for `application/vnd.apple.finance.order` or a `.order` name.
    public static func isOrderBundle(contentType: String, filename: String?) -> Bool {
        if contentType.lowercased() == "application/vnd.apple.finance.order" { return true }
        return filename?.lowercased().hasSuffix(".order") ?? false
    }

    /// Reads a bundle and decodes its `order.json`.
    ///
    /// - Parameters:
    ///   - bytes: The archive.
    ///   - limits: Size bounds.
    /// - Returns: The decoded `order.json`.
    /// - Throws: ``ReadError`` when the archive is damaged, over a limit, or has no valid
    ///   `order.json`.
    public static func readOrder(_ bytes: [UInt8], limits: Limits = Limits()) throws(ReadError) -> JSONValue {
        let entries = try listEntries(bytes, limits: limits)
        guard
            let entry = entries.first(where: { $0.name == "order.json" || $0.name.hasSuffix("/order.json") })
        else {
            throw ReadError("no order.json in the bundle")
        }
        let data = try extract(entry, from: bytes, limits: limits)
        let result = JSONLDRepair.parse(String(decoding: data, as: UTF8.self))
        guard result.error == nil, result.values.count == 1, case .object = result.values[0] else {
            throw ReadError("order.json is not a JSON object: \(result.error ?? "unexpected shape")")
        }
        return result.values[0]
    }

    /// Lists the archive's entries from its central directory.
    ///
    /// - Throws: ``ReadError`` when there is no end record or the directory is damaged or too large.
    public static func listEntries(_ bytes: [UInt8], limits: Limits = Limits()) throws(ReadError) -> [Entry] {
        guard bytes.count >= 22 else { throw ReadError("too short for a zip archive") }
        // The end of central directory record is within the last 64 KB + 22 bytes.
        var end = -1
        var position = bytes.count - 22
        let lowest = max(0, bytes.count - 22 - 65_535)
        while position >= lowest {
            if readUInt32(bytes, position) == 0x0605_4B50 {
                end = position
                break
            }
            position -= 1
        }
        guard end >= 0 else { throw ReadError("no end of central directory record") }
        let count = Int(readUInt16(bytes, end + 10))
        let directorySize = Int(readUInt32(bytes, end + 12))
        let directoryOffset = Int(readUInt32(bytes, end + 16))
        guard count <= limits.maxEntries else { throw ReadError("\(count) entries exceed the limit") }
        guard directoryOffset + directorySize <= end else {
            throw ReadError("central directory out of bounds")
        }
        var entries: [Entry] = []
        var offset = directoryOffset
        for _ in 0..<count {
            guard offset + 46 <= end, readUInt32(bytes, offset) == 0x0201_4B50 else {
                throw ReadError("damaged central directory")
            }
            let flags = readUInt16(bytes, offset + 8)
            let method = readUInt16(bytes, offset + 10)
            let crc = readUInt32(bytes, offset + 16)
            let compressed = Int(readUInt32(bytes, offset + 20))
            let uncompressed = Int(readUInt32(bytes, offset + 24))
            let nameLength = Int(readUInt16(bytes, offset + 28))
            let extraLength = Int(readUInt16(bytes, offset + 30))
            let commentLength = Int(readUInt16(bytes, offset + 32))
            let localOffset = Int(readUInt32(bytes, offset + 42))
            guard offset + 46 + nameLength <= end else { throw ReadError("damaged central directory") }
            guard flags & 1 == 0 else { throw ReadError("encrypted entries are not supported") }
            let name = String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            entries.append(
                Entry(
                    name: name, method: method, compressedSize: compressed, uncompressedSize: uncompressed,
                    crc32: crc, localHeaderOffset: localOffset))
            offset += 46 + nameLength + extraLength + commentLength
        }
        let total = entries.reduce(0) { $0 + $1.uncompressedSize }
        guard total <= limits.maxTotalSize else {
            throw ReadError("uncompressed size \(total) exceeds the limit")
        }
        return entries
    }

    /// Extracts one entry's bytes.
    ///
    /// - Throws: ``ReadError`` when the entry is damaged, over a limit, or uses a method
    ///   other than stored or deflate.
    public static func extract(_ entry: Entry, from bytes: [UInt8], limits: Limits = Limits())
        throws(ReadError)
        -> [UInt8]
    {
        guard entry.uncompressedSize <= limits.maxEntrySize else {
            throw ReadError("\(entry.name): \(entry.uncompressedSize) bytes exceed the limit")
        }
        if entry.uncompressedSize > 65_536,
            entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maxCompressionRatio
        {
            throw ReadError("\(entry.name): compression ratio too high")
        }
        let local = entry.localHeaderOffset
        guard local >= 0, local + 30 <= bytes.count, readUInt32(bytes, local) == 0x0403_4B50 else {
            throw ReadError("\(entry.name): damaged local header")
        }
        let dataStart = local + 30 + Int(readUInt16(bytes, local + 26)) + Int(readUInt16(bytes, local + 28))
        guard dataStart + entry.compressedSize <= bytes.count else {
            throw ReadError("\(entry.name): data out of bounds")
        }
        let compressed = bytes[dataStart..<(dataStart + entry.compressedSize)]
        let output: [UInt8]
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw ReadError("\(entry.name): size mismatch")
            }
            output = Array(compressed)
        case 8:
            output = try inflateRaw(compressed, expectedSize: entry.uncompressedSize, name: entry.name)
        default:
            throw ReadError("\(entry.name): compression method \(entry.method) not supported")
        }
        let crc = output.withUnsafeBufferPointer { buffer in
            UInt32(CZlib.crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
        guard crc == entry.crc32 else { throw ReadError("\(entry.name): CRC-32 mismatch") }
        return output
    }

    /// Inflates raw deflate data into exactly `expectedSize` bytes, never more.
    private static func inflateRaw(_ input: ArraySlice<UInt8>, expectedSize: Int, name: String)
        throws(ReadError)
        -> [UInt8]
    {
        var output = [UInt8](repeating: 0, count: expectedSize)
        var stream = z_stream()
        let initStatus = inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { throw ReadError("\(name): zlib could not start") }
        defer { inflateEnd(&stream) }
        var status: Int32 = Z_OK
        var produced = 0
        var input = Array(input)
        input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                status = inflate(&stream, Z_FINISH)
                produced = outputBuffer.count - Int(stream.avail_out)
            }
        }
        // Z_BUF_ERROR with a full buffer means the entry holds more than it declared.
        guard status == Z_STREAM_END else { throw ReadError("\(name): inflate failed (\(status))") }
        guard produced == expectedSize else { throw ReadError("\(name): size mismatch") }
        return output
    }

    private static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        guard offset >= 0, offset + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
            | UInt32(bytes[offset + 3]) << 24
    }
}
