import Foundation

/// Finds where a reply's quoted earlier message starts in its rendered text.
///
/// A reply (a message with `In-Reply-To` or `References`, RFC 5322 §3.6.4) carries the
/// message it answers below the writer's own text: after an attribution line ("On Fri, 20 Nov
/// 2026 at 21:00, Shop <orders@shop.example> wrote:", "Am … schrieb …:", "Le … a écrit :",
/// "… 님이 작성:", "… 写道：") or as lines quoted with `>` (RFC 3676 §4.5). What is quoted was
/// written by someone else, usually the shop whose email is already in the mailbox, so it is
/// not read as the reply's own content.
///
/// What is recognised:
/// - an attribution line: at most 400 bytes, holding a digit (the date) and ending with a
///   "wrote:" phrase in one of the supported languages, or with `>:` after an address (the
///   form Gmail uses in Japanese and Chinese); the line before is included when the
///   attribution starts there ("On Fri, …, Shop <" / "orders@shop.example> wrote:");
/// - in plain text only, two lines in a row that start with `>` (a single such line, or one
///   in HTML text, is more likely decoration such as "> Track your parcel").
///
/// Outlook's header-block replies ("From: … Sent: … Subject: …") are read by
/// ``ForwardDetector`` as an inline original with its own sender, and are not handled here.
public enum ReplyQuote {
    /// Endings of attribution lines, lower-cased.
    static let attributionEndings = [
        "wrote:", "wrote：", "schrieb:", "geschrieben:", "a écrit :", "a écrit:", "a\u{A0}écrit\u{A0}:",
        "a écrit\u{A0}:", "a écrit\u{202F}:", "escribió:", "ha scritto:", "escreveu:", "schreef:", "작성:",
        "写道：", "写道:", "寫道：",
        "寫道:", "のメッセージ:", "のメッセージ：",
    ].map { Array($0.utf8) }

    /// Words an attribution starts with when it runs over two lines, lower-cased, with the
    /// space after them.
    static let attributionOpeners = ["on ", "am ", "le ", "el ", "il ", "em ", "op ", "den ", "w dniu "].map {
        Array($0.utf8)
    }

    /// The UTF-8 offset in `text` where the quoted earlier message starts, or `nil` when
    /// there is none.
    /// - Parameters:
    ///   - text: A rendered text (``RenderedText/text``): lines separated by `\n`.
    ///   - isPlainText: Whether `text` is a text/plain rendition, where `>` quoting is read.
    public static func quoteStart(in text: String, isPlainText: Bool) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            var lines: [Range<Int>] = []
            var start = 0
            for index in 0..<bytes.count where bytes[index] == 0x0A {
                lines.append(start..<index)
                start = index + 1
            }
            lines.append(start..<bytes.count)
            for (number, line) in lines.enumerated() {
                let trimmed = trimmedRange(bytes, line)
                if isPlainText, isQuoted(bytes, trimmed), number + 1 < lines.count,
                    isQuoted(bytes, trimmedRange(bytes, lines[number + 1]))
                {
                    return attributionStart(before: number, lines: lines, bytes: bytes) ?? line.lowerBound
                }
                if isAttribution(bytes, trimmed) {
                    return twoLineStart(of: number, lines: lines, bytes: bytes)
                }
            }
            return nil
        }
    }

    /// Whether a subject starts with a forward prefix (`Fwd:`, `FW:`, `WG:`, `TR:`, `RV:`,
    /// `I:`, `Doorst:`, `转发:`, `轉寄:`, `전달:`), after any reply prefixes: such a message
    /// passes an original on rather than answering it.
    public static func hasForwardPrefix(_ subject: String) -> Bool {
        var rest = Substring(subject)
        for _ in 0..<8 {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard let colon = rest.firstIndex(where: { $0 == ":" || $0 == "：" }),
                rest.distance(from: rest.startIndex, to: colon) <= 8
            else { return false }
            let prefix = subjectPrefix(rest[..<colon])
            if forwardPrefixes.contains(prefix) { return true }
            guard replyPrefixes.contains(prefix) else { return false }
            rest = rest[rest.index(after: colon)...]
        }
        return false
    }

    /// Whether a subject starts with a reply prefix (`Re:`, `AW:`, `Antw:`, `SV:`, `R:`,
    /// `RIF:`, `Réf:`, `答复:`, `回复:`, `답장:`, `返信:` …) and no forward prefix follows.
    public static func hasReplyPrefix(_ subject: String) -> Bool {
        let rest = Substring(subject).drop { $0 == " " || $0 == "\t" }
        guard let colon = rest.firstIndex(where: { $0 == ":" || $0 == "：" }),
            rest.distance(from: rest.startIndex, to: colon) <= 8
        else { return false }
        let prefix = subjectPrefix(rest[..<colon])
        return replyPrefixes.contains(prefix) && !hasForwardPrefix(subject)
    }

    /// The text before a subject's colon, lower-cased, without spaces and tabs around it
    /// (trimmed by hand: a shared `CharacterSet` is not to be asked from several threads).
    private static func subjectPrefix(_ text: Substring) -> String {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        var end = trimmed.endIndex
        while end > trimmed.startIndex {
            let before = trimmed.index(before: end)
            guard trimmed[before] == " " || trimmed[before] == "\t" else { break }
            end = before
        }
        return trimmed[..<end].lowercased()
    }

    static let forwardPrefixes: Set<String> = [
        "fwd", "fw", "wg", "tr", "rv", "i", "doorst", "enc", "转发", "轉寄", "전달", "転送",
    ]
    static let replyPrefixes: Set<String> = [
        "re", "aw", "antw", "sv", "vs", "r", "rif", "réf", "res", "答复", "回复", "回覆", "답장", "返信",
    ]

    private static func trimmedRange(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    private static func isQuoted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        !range.isEmpty && bytes[range.lowerBound] == UInt8(ascii: ">")
    }

    /// Whether a trimmed line reads as an attribution line.
    private static func isAttribution(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count >= 6, range.count <= 400 else { return false }
        let line = bytes[range]
        guard line.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) || line.contains(UInt8(ascii: "@")) else {
            return false
        }
        if line.last == UInt8(ascii: ":"), line.dropLast().last == UInt8(ascii: ">"),
            line.contains(UInt8(ascii: "@"))
        {
            return true
        }
        return attributionEndings.contains { ending in
            ending.count <= line.count && lowered(line.suffix(ending.count)).elementsEqual(ending)
        }
    }

    private static func lowered(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// The start of the attribution ending on line `number`: the line before when the
    /// attribution starts there and not on line `number`.
    private static func twoLineStart(of number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        let own = trimmedRange(bytes, lines[number])
        guard number > 0, !startsWithOpener(bytes, own) else { return lines[number].lowerBound }
        let previous = trimmedRange(bytes, lines[number - 1])
        guard !previous.isEmpty, previous.count <= 300, startsWithOpener(bytes, previous) else {
            return lines[number].lowerBound
        }
        return lines[number - 1].lowerBound
    }

    /// The start of an attribution just above the first quoted line, if there is one (blank
    /// lines may stand between).
    private static func attributionStart(
        before number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>
    )
        -> Int?
    {
        var index = number - 1
        while index >= 0, trimmedRange(bytes, lines[index]).isEmpty, number - index <= 2 { index -= 1 }
        guard index >= 0, isAttribution(bytes, trimmedRange(bytes, lines[index])) else { return nil }
        return twoLineStart(of: index, lines: lines, bytes: bytes)
    }

    private static func startsWithOpener(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let line = bytes[range]
        return attributionOpeners.contains { opener in
            opener.count <= line.count && lowered(line.prefix(opener.count)).elementsEqual(opener)
        }
    }
}

extension RenderedText {
    /// The text before a UTF-8 offset (a line start), with the spans that lie before it
    /// (clipped), and the hidden text unchanged.
    func prefix(upTo offset: Int) -> RenderedText {
        let utf8 = Array(text.utf8)
        let end = min(max(offset, 0), utf8.count)
        var kept = utf8[..<end]
        // The quoted message's separator line is not part of the reply.
        while kept.last == 0x0A { kept = kept.dropLast() }
        let spans = self.spans.compactMap { span -> TextSpan? in
            guard span.range.lowerBound < kept.count else { return nil }
            var clipped = span
            clipped.range = span.range.lowerBound..<min(span.range.upperBound, kept.count)
            return clipped
        }
        return RenderedText(
            text: String(decoding: kept, as: UTF8.self), spans: spans, hiddenText: hiddenText,
            hiddenSpans: hiddenSpans)
    }

    /// The text from a UTF-8 offset on.
    func suffix(from offset: Int) -> String {
        let utf8 = Array(text.utf8)
        return String(decoding: utf8[min(max(offset, 0), utf8.count)...], as: UTF8.self)
    }
}
