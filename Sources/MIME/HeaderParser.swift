import Foundation

/// Splits a header section into fields (RFC 5322 §2.2, §3.6; obsolete syntax §4.5).
enum HeaderParser {
    struct Result {
        var header: Header
        /// Index of the first body byte (after the blank line), or the end.
        var bodyStart: Int
        /// Whether the section ended with a blank line.
        var foundBlankLine: Bool
        var warnings: [MIMEWarning]
    }

    /// Parses the header section of `bytes[range]`, whose lines end in LF or CRLF.
    ///
    /// Folded lines are unfolded (CRLF removed, the blank kept, RFC 5322 §2.2.3); blanks
    /// before the colon are tolerated (§4.5.5); an mbox `From ` line before the first
    /// field is skipped (``FromLine/startsSeparator(_:)``: not `From  :`, which is a field);
    /// a line that is neither a field nor a continuation ends the section, as it does for
    /// mainstream parsers.
    static func parse(
        _ bytes: [UInt8], range: Range<Int>, limits: MIMELimits, partPath: String?
    ) -> Result {
        var fields: [HeaderField] = []
        var warnings: [MIMEWarning] = []
        var currentName: String?
        var currentValue: [UInt8] = []
        var headerBytes = 0
        var limitReported = false
        var index = range.lowerBound
        let end = range.upperBound
        var foundBlank = false
        var eightBitReported = false
        var fieldTruncated = false

        func finishField() {
            guard let name = currentName else { return }
            if fieldTruncated {
                fieldTruncated = false
                warnings.append(
                    MIMEWarning(
                        partPath: partPath,
                        message: "header \(name) longer than \(limits.maxLineLength) bytes: the rest dropped")
                )
            }
            var value = currentValue[...]
            while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
            while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
            if fields.count < limits.maxHeaderFields {
                if !eightBitReported, value.contains(where: { $0 >= 0x80 }),
                    String(validating: value, as: UTF8.self) == nil
                {
                    eightBitReported = true
                    warnings.append(
                        MIMEWarning(
                            partPath: partPath,
                            message: "header \(name) has raw 8-bit bytes that are not UTF-8: charset guessed")
                    )
                }
                fields.append(HeaderField(name: name, rawValue: Array(value)))
            } else if !limitReported {
                limitReported = true
                warnings.append(
                    MIMEWarning(
                        partPath: partPath,
                        message: "more than \(limits.maxHeaderFields) header fields: the rest ignored"))
            }
            currentName = nil
            currentValue.removeAll(keepingCapacity: true)
        }

        bytes.withUnsafeBufferPointer { buffer in
            var isFirstLine = true
            while index < end {
                let lineStart = index
                var lineEnd = lineStart
                if let base = buffer.baseAddress,
                    let found = memchr(base + lineStart, 0x0A, end - lineStart)
                {
                    lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    index = lineEnd + 1
                } else {
                    lineEnd = end
                    index = end
                }
                var contentEnd = lineEnd
                if contentEnd > lineStart && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                if contentEnd == lineStart {
                    foundBlank = true
                    break
                }
                headerBytes += lineEnd - lineStart + 1
                if headerBytes > limits.maxHeaderBytes {
                    if !limitReported {
                        limitReported = true
                        warnings.append(
                            MIMEWarning(
                                partPath: partPath, byteOffset: lineStart,
                                message:
                                    "header section longer than \(limits.maxHeaderBytes) bytes: the rest ignored"
                            ))
                    }
                    finishField()
                    continue
                }
                let first = buffer[lineStart]
                if first == 0x20 || first == 0x09 {
                    if currentName != nil {
                        let room = max(0, limits.maxLineLength - currentValue.count)
                        let take = min(room, contentEnd - lineStart)
                        currentValue.append(contentsOf: buffer[lineStart..<(lineStart + take)])
                        if take < contentEnd - lineStart { fieldTruncated = true }
                    } else if isFirstLine {
                        // A message starting with a blank-led line: treat as a continuation of nothing.
                        warnings.append(
                            MIMEWarning(
                                partPath: partPath, byteOffset: lineStart,
                                message: "header section starts with a continuation line: ignored"))
                    }
                    isFirstLine = false
                    continue
                }
                // An mbox separator line left before the first field is skipped; `From  : Shop`
                // (white space before the colon, §4.5) is the From field.
                if isFirstLine && FromLine.startsSeparator(buffer[lineStart..<contentEnd]) {
                    isFirstLine = false
                    continue
                }
                isFirstLine = false
                // A field name: printable ASCII except colon (RFC 5322 §3.6.8), blanks
                // before the colon tolerated.
                var colon = lineStart
                var nameEnd = lineStart
                var valid = true
                while colon < contentEnd {
                    let byte = buffer[colon]
                    if byte == UInt8(ascii: ":") { break }
                    if byte == 0x20 || byte == 0x09 {
                        // Only blanks may follow until the colon.
                    } else if byte > 0x20 && byte < 0x7F {
                        if nameEnd != colon {
                            valid = false
                            break
                        }
                        nameEnd = colon + 1
                    } else {
                        valid = false
                        break
                    }
                    colon += 1
                }
                if !valid || colon >= contentEnd || nameEnd == lineStart {
                    // Not a field: the body starts here.
                    finishField()
                    warnings.append(
                        MIMEWarning(
                            partPath: partPath, byteOffset: lineStart,
                            message: "line in header section is not a field: body starts there"))
                    index = lineStart
                    foundBlank = false
                    return
                }
                finishField()
                currentName = String(decoding: buffer[lineStart..<nameEnd], as: UTF8.self)
                let valueEnd = min(contentEnd, colon + 1 + limits.maxLineLength)
                fieldTruncated = valueEnd < contentEnd
                currentValue.append(contentsOf: buffer[(colon + 1)..<valueEnd])
            }
        }
        finishField()
        return Result(
            header: Header(fields: fields), bodyStart: min(index, end), foundBlankLine: foundBlank,
            warnings: warnings)
    }
}

extension Header {
    /// The raw (unfolded, undecoded) value of the first field named `name`.
    public func rawValue(_ name: String) -> [UInt8]? {
        for field in fields where ASCII.equalsIgnoringCase(field.name, name) {
            return field.rawValue
        }
        return nil
    }

    /// Whether a field of that name is present.
    public func contains(_ name: String) -> Bool { rawValue(name) != nil }
}

extension Header {
    /// The names of the header fields only an Internet message has, lower-cased: the
    /// originator, destination, identification, informational and trace fields of RFC 5322
    /// §3.6 (`from`, `to`, `message-id`, `subject`, `received` …), `delivered-to`, and RFC 2045's
    /// `mime-version`. A line that starts with one of them and `:` starts a header field, where
    /// one that starts with any other name (`Phone: +1 555 0100`) may be text.
    public static let messageFieldNames: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "bcc", "message-id", "in-reply-to", "references", "subject",
        "comments", "keywords", "date", "return-path", "received", "mime-version", "delivered-to",
    ]

    /// Whether `name` (any case) names a field only an Internet message has: one of
    /// ``messageFieldNames``, a resent field (`Resent-From`, RFC 5322 §3.6.6), a MIME field
    /// (`Content-Type`, RFC 2045), a list field (`List-Id`, RFC 2919/2369) or an extension
    /// field (`X-Mailer`).
    public static func isMessageFieldName(_ name: String) -> Bool {
        let name = name.lowercased()
        return messageFieldNames.contains(name) || name.hasPrefix("resent-") || name.hasPrefix("content-")
            || name.hasPrefix("x-") || name.hasPrefix("list-")
    }

    /// Whether the header holds at least one field an Internet message has
    /// (``isMessageFieldName(_:)``): text whose first lines merely look like fields (a README,
    /// a JSON file whose `{"key":` reads as a field name) holds none.
    public var holdsMessageField: Bool {
        fields.contains { Header.isMessageFieldName($0.name) }
    }
}
