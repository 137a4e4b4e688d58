import CZlib

/// Builds small zip archives in memory for tests (PKWARE APPNOTE 6.3 §4.3).
struct ZipFixture {
    struct Member {
        var name: String
        var data: [UInt8]
        var deflate: Bool
    }

    var members: [Member] = []

    mutating func add(_ name: String, _ text: String, deflate: Bool = true) {
        members.append(Member(name: name, data: Array(text.utf8), deflate: deflate))
    }

    func archive() -> [UInt8] {
        var output: [UInt8] = []
        var directory: [UInt8] = []
        for member in members {
            let crc = member.data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
            let body = member.deflate ? ZipFixture.rawDeflate(member.data) : member.data
            let offset = output.count
            let name = Array(member.name.utf8)
            output +=
                le32(0x0403_4B50) + le16(20) + le16(0) + le16(member.deflate ? 8 : 0) + le16(0) + le16(0)
            output += le32(crc) + le32(UInt32(body.count)) + le32(UInt32(member.data.count))
            output += le16(UInt16(name.count)) + le16(0) + name + body
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(member.deflate ? 8 : 0)
            directory +=
                le16(0) + le16(0) + le32(crc) + le32(UInt32(body.count)) + le32(UInt32(member.data.count))
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            directory += le32(UInt32(offset)) + name
        }
        let directoryOffset = output.count
        output += directory
        output +=
            le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(members.count)) + le16(UInt16(members.count))
        output += le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return output
    }

    static func rawDeflate(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 16)
        var source = input
        var produced = 0
        source.withUnsafeMutableBufferPointer { sourceBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = sourceBuffer.baseAddress
                stream.avail_in = uInt(sourceBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                _ = deflate(&stream, Z_FINISH)
                produced = outputBuffer.count - Int(stream.avail_out)
            }
        }
        return Array(output[..<produced])
    }

    private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
