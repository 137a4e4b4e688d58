import Foundation

/// Builds the part tree of a message (RFC 2045, RFC 2046 §5): multipart bodies,
/// encapsulated messages and decoded text.
struct BodyParser {
    let limits: MIMELimits
    var warnings: [MIMEWarning] = []
    var partCount = 0

    init(limits: MIMELimits) {
        self.limits = limits
    }

    mutating func warn(_ path: String?, _ message: String, at offset: Int? = nil) {
        guard warnings.count < limits.maxWarnings else { return }
        warnings.append(MIMEWarning(partPath: path, byteOffset: offset, message: message))
        if warnings.count == limits.maxWarnings {
            warnings.append(MIMEWarning(partPath: path, message: "too many warnings: the rest dropped"))
        }
    }

    /// Parses a whole message (header and body) from `bytes`.
    mutating func parseMessage(
        _ bytes: [UInt8], path: String, depth: Int, boundaries: [[UInt8]], requireHeader: Bool
    ) throws(MIMEError) -> Message {
        let firstWarning = warnings.count
        let section = HeaderParser.parse(
            bytes, range: 0..<bytes.count, limits: limits, partPath: path == "1" ? nil : path)
        var bodyStart = section.bodyStart
        if section.header.fields.isEmpty {
            if requireHeader && BodyParser.looksBinary(bytes) {
                throw MIMEError(
                    byteOffset: 0, reason: "binary data with no header field: not an Internet message")
            }
            warn(path == "1" ? nil : path, "no header section: the whole text read as body")
            bodyStart = section.foundBlankLine ? section.bodyStart : 0
        } else {
            for warning in section.warnings {
                warn(warning.partPath, warning.message, at: warning.byteOffset)
            }
            // Encoded-words (RFC 2047) of the fields a reader shows: what their decoding guessed.
            for field in section.header.fields
            where Self.shownFields.contains(where: { ASCII.equalsIgnoringCase($0, field.name) }) {
                for problem in EncodedWords.problems(in: field.rawValue) {
                    warn(path == "1" ? nil : path, "\(field.name): \(problem)")
                }
            }
        }
        let root = parsePart(
            bytes, header: section.header, body: bodyStart..<bytes.count, path: path, depth: depth,
            parentIsDigest: false, boundaries: boundaries)
        return Message(header: section.header, root: root, warnings: Array(warnings[firstWarning...]))
    }

    /// The header fields whose encoded-words are checked for repairs: those a reader shows.
    static let shownFields = ["Subject", "From", "To", "Cc", "Reply-To", "Sender"]

    /// Whether the first kilobyte holds NUL bytes or mostly control bytes: data, not text.
    static func looksBinary(_ bytes: [UInt8]) -> Bool {
        let head = bytes.prefix(1024)
        var control = 0
        for byte in head {
            if byte == 0 { return true }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x1B && byte != 0x0C {
                control += 1
            }
        }
        return control * 10 > head.count
    }

    /// Parses one part whose header is already split off.
    mutating func parsePart(
        _ bytes: [UInt8], header: Header, body: Range<Int>, path: String, depth: Int, parentIsDigest: Bool,
        boundaries: [[UInt8]]
    ) -> BodyPart {
        partCount += 1
        var contentType: MediaType
        var typeWasGiven = false
        if let raw = header.rawValue("Content-Type") {
            if let parsed = ParameterParser.mediaType(raw) {
                contentType = parsed
                typeWasGiven = true
            } else {
                contentType = MediaType(type: "text", subtype: "plain", parameters: [:])
                let parameters = ParameterParser.parse(raw).parameters
                contentType.parameters = parameters
                warn(
                    path,
                    "media type \"\(String(decoding: raw.prefix(80), as: UTF8.self))\" in Content-Type is not type/subtype: text/plain assumed"
                )
            }
        } else if parentIsDigest {
            contentType = MediaType(type: "message", subtype: "rfc822")
        } else {
            contentType = MediaType(type: "text", subtype: "plain", parameters: [:])
        }

        var transferEncoding = TransferEncoding.sevenBit
        if let raw = header.rawValue("Content-Transfer-Encoding") {
            transferEncoding = TransferCoding.parse(raw)
            if case .unknown(let value) = transferEncoding, !TransferCoding.isUUEncode(value) {
                warn(path, "unknown Content-Transfer-Encoding \"\(value)\": treated as 8bit")
            }
        }

        var disposition: String?
        var filename: String?
        if let raw = header.rawValue("Content-Disposition") {
            let parsed = ParameterParser.parse(raw)
            let value = ASCII.lowercasedTrimmed(Array(parsed.value.utf8))
            if !value.isEmpty { disposition = value }
            filename = parsed.parameters["filename"]
        }
        if filename == nil || filename?.isEmpty == true { filename = contentType.parameters["name"] }
        if filename?.isEmpty == true { filename = nil }
        var contentID: String?
        if let raw = header.rawValue("Content-ID") {
            var bytes = ASCII.trim(raw)
            if bytes.first == UInt8(ascii: "<") { bytes = bytes.dropFirst() }
            if bytes.last == UInt8(ascii: ">") { bytes = bytes.dropLast() }
            let value = String(decoding: bytes, as: UTF8.self)
            if !value.isEmpty { contentID = value }
        }

        // Sniffing for parts without a Content-Type.
        if !typeWasGiven && !parentIsDigest {
            if let boundary = implicitBoundary(bytes, body: body) {
                warn(path, "body has MIME boundaries but no multipart Content-Type: read as multipart/mixed")
                contentType = MediaType(
                    type: "multipart", subtype: "mixed", parameters: ["boundary": boundary])
            } else if looksLikeHTML(bytes, body: body) {
                warn(path, "body without Content-Type is HTML: read as text/html")
                contentType = MediaType(type: "text", subtype: "html", parameters: [:])
            }
        }

        var part = BodyPart(
            path: path, header: header, contentType: contentType, transferEncoding: transferEncoding,
            disposition: disposition, filename: filename, contentID: contentID, rawBody: bytes[body])

        switch contentType.type {
        case "multipart":
            guard let boundary = contentType.parameters["boundary"], !boundary.isEmpty else {
                warn(path, "multipart without a boundary: read as text/plain")
                part.contentType = MediaType(
                    type: "text", subtype: "plain", parameters: contentType.parameters)
                decodeText(&part)
                return part
            }
            guard depth < limits.maxNestingDepth else {
                warn(path, "nesting deeper than \(limits.maxNestingDepth): children not parsed")
                return part
            }
            let delimiter = Array("--\(boundary)".utf8)
            if boundaries.contains(delimiter) {
                warn(path, "multipart reuses an enclosing part's boundary: its parts are read as siblings")
                return part
            }
            part.children = parseMultipart(
                bytes, body: body, delimiter: delimiter, path: path, depth: depth,
                isDigest: contentType.subtype == "digest", boundaries: boundaries + [delimiter])
        case "message" where ["rfc822", "global"].contains(contentType.subtype):
            guard depth < limits.maxNestingDepth else {
                warn(path, "nesting deeper than \(limits.maxNestingDepth): message not parsed")
                return part
            }
            let inner: [UInt8]
            switch transferEncoding {
            case .base64, .quotedPrintable:
                var repairs = Base64Repairs()
                inner = TransferCoding.decode(bytes[body], encoding: transferEncoding, repairs: &repairs)
                for warning in repairs.warnings { warn(path, warning) }
            default: inner = Array(bytes[body])
            }
            if inner.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                warn(path, "message/rfc822 part is empty")
                return part
            }
            let nested = try? parseMessage(
                inner, path: path + ".1", depth: depth + 1, boundaries: boundaries, requireHeader: false)
            part.encapsulatedMessage = nested
        case "text":
            decodeText(&part)
        default:
            break
        }
        return part
    }

    /// Splits a multipart body at its delimiter lines (RFC 2046 §5.1.1).
    mutating func parseMultipart(
        _ bytes: [UInt8], body: Range<Int>, delimiter: [UInt8], path: String, depth: Int, isDigest: Bool,
        boundaries: [[UInt8]]
    ) -> [BodyPart] {
        var ranges: [Range<Int>] = []
        var partStart: Int?
        var closed = false
        var lineStart = body.lowerBound
        let end = body.upperBound
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            while lineStart < end {
                let lineEnd: Int
                if let found = memchr(base + lineStart, 0x0A, end - lineStart) {
                    lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                } else {
                    lineEnd = end
                }
                if lineEnd - lineStart >= delimiter.count && buffer[lineStart] == 0x2D
                    && buffer[lineStart + 1] == 0x2D
                    && memcmp(base + lineStart, delimiter, delimiter.count) == 0
                {
                    var rest = lineStart + delimiter.count
                    var isClose = false
                    if rest + 1 < lineEnd && buffer[rest] == 0x2D && buffer[rest + 1] == 0x2D {
                        isClose = true
                        rest += 2
                    }
                    var onlyBlanks = true
                    while rest < lineEnd {
                        let byte = buffer[rest]
                        if byte != 0x20 && byte != 0x09 && byte != 0x0D {
                            onlyBlanks = false
                            break
                        }
                        rest += 1
                    }
                    if onlyBlanks {
                        // The line break before a delimiter belongs to the delimiter.
                        var contentEnd = lineStart
                        if contentEnd > body.lowerBound && buffer[contentEnd - 1] == 0x0A {
                            contentEnd -= 1
                            if contentEnd > body.lowerBound && buffer[contentEnd - 1] == 0x0D {
                                contentEnd -= 1
                            }
                        }
                        if let start = partStart {
                            ranges.append(start..<max(start, contentEnd))
                        }
                        if isClose {
                            closed = true
                            partStart = nil
                            break
                        }
                        partStart = min(lineEnd + 1, end)
                    }
                }
                lineStart = lineEnd + 1
            }
        }
        if let start = partStart {
            ranges.append(start..<end)
            warn(path, "multipart has no closing boundary")
        } else if ranges.isEmpty {
            warn(path, "multipart body has no boundary line")
        }
        _ = closed
        var children: [BodyPart] = []
        for (offset, range) in ranges.enumerated() {
            guard partCount < limits.maxParts else {
                warn(path, "more than \(limits.maxParts) parts: the rest skipped")
                break
            }
            let childPath = "\(path).\(offset + 1)"
            let section = HeaderParser.parse(bytes, range: range, limits: limits, partPath: childPath)
            for warning in section.warnings {
                // A part that starts straight with its body is common and harmless.
                if warning.message.hasPrefix("line in header section") && section.header.fields.isEmpty {
                    continue
                }
                warn(warning.partPath, warning.message, at: warning.byteOffset)
            }
            var bodyStart = section.bodyStart
            if section.header.fields.isEmpty && !section.foundBlankLine {
                bodyStart = range.lowerBound
            }
            children.append(
                parsePart(
                    bytes, header: section.header, body: bodyStart..<range.upperBound, path: childPath,
                    depth: depth + 1, parentIsDigest: isDigest, boundaries: boundaries))
        }
        return children
    }

    /// Undoes the transfer encoding and charset of a text part, then `format=flowed`.
    mutating func decodeText(_ part: inout BodyPart) {
        var repairs = Base64Repairs()
        let decoded = TransferCoding.decode(part.rawBody, encoding: part.transferEncoding, repairs: &repairs)
        for warning in repairs.warnings { warn(part.path, warning) }
        if decoded.isEmpty, repairs.warnings.isEmpty, part.transferEncoding == .base64,
            part.rawBody.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D })
        {
            warn(part.path, "base64 body holds no data: nothing but `=` padding")
        }
        let label = part.contentType.parameters["charset"]
        let result = Charsets.decode(decoded, label: label)
        if let warning = result.warning { warn(part.path, warning) }
        var text = TextNormalizer.lineFeeds(result.text)
        if part.contentType.subtype == "plain",
            part.contentType.parameters["format"]?.lowercased() == "flowed"
        {
            let deleteSpace = part.contentType.parameters["delsp"]?.lowercased() == "yes"
            text = FlowedText.unwrap(text, deleteSpace: deleteSpace)
        }
        part.text = text
        part.charset = result.charset
    }

    /// A body that starts with `--token` followed by a MIME header line, in a part that
    /// declared no Content-Type: the boundary token.
    private func implicitBoundary(_ bytes: [UInt8], body: Range<Int>) -> String? {
        var index = body.lowerBound
        while index < body.upperBound && (bytes[index] == 0x0A || bytes[index] == 0x0D) { index += 1 }
        guard index + 3 < body.upperBound, bytes[index] == 0x2D, bytes[index + 1] == 0x2D else { return nil }
        var lineEnd = index
        while lineEnd < body.upperBound && bytes[lineEnd] != 0x0A && lineEnd - index < 200 { lineEnd += 1 }
        var tokenEnd = lineEnd
        while tokenEnd > index + 2 && (bytes[tokenEnd - 1] == 0x0D || bytes[tokenEnd - 1] == 0x20) {
            tokenEnd -= 1
        }
        guard tokenEnd > index + 2, lineEnd < body.upperBound else { return nil }
        let next = lineEnd + 1
        let prefix = Array("content-".utf8)
        guard next + prefix.count < body.upperBound else { return nil }
        for (offset, byte) in prefix.enumerated() where bytes[next + offset] | 0x20 != byte {
            return nil
        }
        let token = bytes[(index + 2)..<tokenEnd]
        if token.contains(0x20) { return nil }
        return String(decoding: token, as: UTF8.self)
    }

    private func looksLikeHTML(_ bytes: [UInt8], body: Range<Int>) -> Bool {
        var index = body.lowerBound
        while index < body.upperBound, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        let head = bytes[index..<min(body.upperBound, index + 15)].map { $0 | 0x20 }
        for marker in ["<html", "<!doctype html", "<head", "<body"] {
            let markerBytes = Array(marker.utf8).map { $0 | 0x20 }
            if head.starts(with: markerBytes) { return true }
        }
        return false
    }
}

/// Line-ending normalisation of decoded text.
enum TextNormalizer {
    /// Turns CRLF and bare CR into LF.
    static func lineFeeds(_ text: String) -> String {
        var text = text
        // memchr over the contiguous UTF-8: the generic `utf8.contains` walks byte by byte.
        let hasCarriageReturn = text.withUTF8 { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return memchr(base, 0x0D, buffer.count) != nil
        }
        guard hasCarriageReturn else { return text }
        // Runs between carriage returns are found with memchr and copied with memcpy; output
        // never outgrows input (CRLF → LF, CR → LF).
        return text.withUTF8 { input in
            String(unsafeUninitializedCapacity: input.count) { output in
                guard let source = input.baseAddress, let target = output.baseAddress else { return 0 }
                let count = input.count
                var write = 0
                var read = 0
                while read < count {
                    let found = memchr(source + read, 0x0D, count - read)
                    let runEnd =
                        found.map { source.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
                    let length = runEnd - read
                    if length > 0 {
                        (target + write).update(from: source + read, count: length)
                        write += length
                    }
                    guard runEnd < count else { break }
                    target[write] = 0x0A
                    write += 1
                    read = runEnd + 1
                    if read < count && source[read] == 0x0A { read += 1 }
                }
                return write
            }
        }
    }
}

/// `format=flowed` text (RFC 3676 §4): soft line breaks joined, space-stuffing removed.
enum FlowedText {
    /// Unwraps flowed lines; `deleteSpace` is the `DelSp=yes` parameter (§4.2).
    static func unwrap(_ text: String, deleteSpace: Bool) -> String {
        var output: [String] = []
        var current = ""
        var currentDepth = -1
        var open = false
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, rawLine) in lines.enumerated() {
            var line = Substring(rawLine)
            var depth = 0
            while line.first == ">" {
                depth += 1
                line = line.dropFirst()
            }
            if line.first == " " { line = line.dropFirst() }
            let isSignature = line == "-- "
            let isFlowed = !isSignature && line.last == " " && index < lines.count - 1
            if open && depth != currentDepth {
                output.append(prefix(currentDepth) + current)
                current = ""
                open = false
            }
            var content = String(line)
            if isFlowed && deleteSpace { content.removeLast() }
            current += content
            currentDepth = depth
            if isFlowed {
                open = true
            } else {
                output.append(prefix(depth) + current)
                current = ""
                open = false
            }
        }
        if open { output.append(prefix(currentDepth) + current) }
        return output.joined(separator: "\n")
    }

    private static func prefix(_ depth: Int) -> String {
        depth > 0 ? String(repeating: ">", count: depth) + " " : ""
    }
}
