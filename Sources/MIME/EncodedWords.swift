import Foundation

/// RFC 2047 encoded-words and the decoding of unstructured header text.
enum EncodedWords {
    /// One run of an unstructured header value.
    private enum Piece {
        case encoded(charset: String, bytes: [UInt8])
        case space([UInt8])
        case text([UInt8])
    }

    /// Decodes an unstructured header value (RFC 2047 §6.2): encoded-words are decoded,
    /// whitespace between two adjacent encoded-words is dropped and kept elsewhere;
    /// adjacent words of one charset are joined as bytes before conversion so a character
    /// split across words survives. Encoded-words glued to text, empty ones and ones
    /// holding spaces are decoded leniently, as mainstream clients do. Raw 8-bit bytes are
    /// read as UTF-8 (RFC 6532) or else guessed.
    /// - Parameter bytes: the unfolded field body.
    /// - Returns: the decoded text.
    static func decode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        if !containsEncodedWordStart(input) {
            return Charsets.decodeRawHeader(input).text
        }
        let pieces = split(input)
        var output = ""
        var index = 0
        while index < pieces.count {
            switch pieces[index] {
            case .text(let text):
                output += Charsets.decodeRawHeader(text).text
                index += 1
            case .space(let space):
                // Dropped between two encoded-words.
                let previousIsWord = index > 0 && isEncoded(pieces[index - 1])
                let nextIsWord = index + 1 < pieces.count && isEncoded(pieces[index + 1])
                if !(previousIsWord && nextIsWord) {
                    output += String(decoding: space, as: UTF8.self)
                }
                index += 1
            case .encoded(let charset, let first):
                var joined = first
                var next = index + 1
                // Join following words of the same charset, skipping the spaces between.
                while next < pieces.count {
                    var candidate = next
                    if case .space = pieces[candidate] { candidate += 1 }
                    guard candidate < pieces.count,
                        case .encoded(let otherCharset, let more) = pieces[candidate],
                        otherCharset == charset
                    else { break }
                    joined += more
                    next = candidate + 1
                }
                output += Charsets.decode(joined, label: charset).text
                index = next
            }
        }
        return output
    }

    /// What decoding the encoded-words of a header field body repairs or guesses, one line each
    /// (empty when nothing): a charset that is unknown or does not fit the bytes (the words are
    /// then read as ``Charsets`` guesses), a word whose encoded text decodes to nothing (it
    /// vanishes from the field), and a decoded text holding U+FFFD or a byte order mark.
    /// - Parameter bytes: the unfolded field body.
    static func problems(in bytes: [UInt8]) -> [String] {
        guard containsEncodedWordStart(bytes) else { return [] }
        var problems: [String] = []
        var start = 0
        while start + 1 < bytes.count {
            guard bytes[start] == UInt8(ascii: "="), bytes[start + 1] == UInt8(ascii: "?"),
                case .word(let charset, let decoded, let end) = parseWord(bytes, at: start)
            else {
                start += 1
                continue
            }
            let word =
                String(decoding: bytes[start..<min(end, start + 60)], as: UTF8.self)
                + (end - start > 60 ? "…" : "")
            let textLength = end - start - charset.utf8.count - 7
            let textStart = start + charset.utf8.count + 5
            let isBase64 = bytes[start + charset.utf8.count + 3] | 0x20 == UInt8(ascii: "b")
            if decoded.isEmpty && textLength > 0 {
                problems.append("encoded-word \(word) holds no decodable text: dropped")
            } else if isBase64,
                bytes[textStart..<(textStart + textLength)].contains(where: { !Self.isBase64Byte($0) })
            {
                problems.append("encoded-word \(word) holds characters outside base64: decoded without them")
            } else if !decoded.isEmpty {
                let result = Charsets.decode(decoded, label: charset)
                if let warning = result.warning {
                    problems.append("encoded-word \(word): \(warning)")
                } else if result.text.unicodeScalars.contains(where: { $0 == "\u{FFFD}" || $0 == "\u{FEFF}" })
                {
                    problems.append("encoded-word \(word): bytes that are not \(charset) text")
                }
            }
            start = end
        }
        return problems
    }

    /// Whether a byte belongs to base64's alphabet or is its padding (RFC 4648 §4).
    static func isBase64Byte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            true
        default: false
        }
    }

    private static func isEncoded(_ piece: Piece) -> Bool {
        if case .encoded = piece { return true }
        return false
    }

    static func containsEncodedWordStart(_ bytes: [UInt8]) -> Bool {
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "=") && bytes[index + 1] == UInt8(ascii: "?") { return true }
            index += 1
        }
        return false
    }

    private static func split(_ input: [UInt8]) -> [Piece] {
        var pieces: [Piece] = []
        var text: [UInt8] = []
        var index = 0
        // Once a search for `?=` failed from some position, no later search can succeed.
        var noTerminatorFrom = Int.max
        func flushText() {
            if !text.isEmpty {
                pieces.append(.text(text))
                text.removeAll(keepingCapacity: true)
            }
        }
        while index < input.count {
            let byte = input[index]
            if byte == 0x20 || byte == 0x09 {
                flushText()
                var end = index
                while end < input.count && (input[end] == 0x20 || input[end] == 0x09) { end += 1 }
                pieces.append(.space(Array(input[index..<end])))
                index = end
                continue
            }
            if byte == UInt8(ascii: "="), index + 1 < input.count, input[index + 1] == UInt8(ascii: "?"),
                index < noTerminatorFrom
            {
                switch parseWord(input, at: index) {
                case .word(let charset, let bytes, let end):
                    flushText()
                    pieces.append(.encoded(charset: charset, bytes: bytes))
                    index = end
                    continue
                case .noTerminator:
                    noTerminatorFrom = index
                case .malformed:
                    break
                }
            }
            text.append(byte)
            index += 1
        }
        flushText()
        return pieces
    }

    enum WordParse {
        case word(charset: String, bytes: [UInt8], end: Int)
        case noTerminator
        case malformed
    }

    /// Parses `=?charset?e?text?=` at `start` (RFC 2047 §2), decoding the text.
    static func parseWord(_ input: [UInt8], at start: Int) -> WordParse {
        var index = start + 2
        let charsetStart = index
        while index < input.count, input[index] != UInt8(ascii: "?") {
            let byte = input[index]
            if byte <= 0x20 || byte >= 0x7F || index - charsetStart > 64 { return .malformed }
            index += 1
        }
        guard index + 2 < input.count, index > charsetStart else { return .malformed }
        let charset = String(decoding: input[charsetStart..<index], as: UTF8.self)
        let encoding = input[index + 1] | 0x20
        guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q"),
            input[index + 2] == UInt8(ascii: "?")
        else { return .malformed }
        let textStart = index + 3
        var end = textStart
        while true {
            guard end + 1 < input.count else { return .noTerminator }
            if input[end] == UInt8(ascii: "?") && input[end + 1] == UInt8(ascii: "=") { break }
            end += 1
        }
        let text = input[textStart..<end]
        let decoded: [UInt8]
        if encoding == UInt8(ascii: "b") {
            decoded = TransferCoding.decodeBase64(text)
        } else {
            decoded = TransferCoding.decodeQEncoding(text)
        }
        return .word(charset: charset, bytes: decoded, end: end + 2)
    }
}
