import Foundation

/// Cleans a text/plain body into ``RenderedText`` and finds the bare URLs in it.
///
/// Lines are kept; within a line, invisible filler (zero-width characters, soft hyphens) is
/// removed, odd spaces (NBSP, thin spaces) become spaces, and runs of whitespace collapse
/// to one space; where a tab or a run of two or more spaces stood is kept in
/// ``RenderedText/wideGaps`` (text/plain tables are laid out with spaces). More than one blank
/// line in a row becomes one. Each line is one span,
/// located `line N` (1-based, in the original text).
///
/// Control characters other than TAB, LF, CR, VT and FF — NUL included — are read as nothing,
/// as a reader sees them (see ``TextSink``): `Order\u{0}number` reads `Ordernumber`, which
/// the label rules read as `Order number`. A NUL never ends a line.
///
/// Escape sequences, control sequences and control strings, 7-bit (ESC `[`, ESC `]` …) and
/// 8-bit (C1 U+009B, U+009D …) alike, are read as a terminal reads them (ECMA-48), each within
/// its line: `ESC[1m12345ESC[0m` reads `12345`; a control string such as an OSC 8 hyperlink's
/// start and end keeps the words beside it apart (`Order 12345ESC]8;;URL ESC\Track` reads
/// `Order 12345 Track`); one that does not end on its line loses its introducer only, and the
/// text after it stays (``TextSink/controlFunction(at:eightBit:_:)``).
public enum PlainTextRenderer {
    /// Renders a text/plain body.
    ///
    /// - Parameters:
    ///   - text: The decoded body (any line endings).
    ///   - partPath: The body-part path recorded in every span.
    /// - Returns: The cleaned text and the URLs found in it (with redirect wrappers unwrapped).
    public static func render(text: String, partPath: String) -> (text: RenderedText, links: [Link]) {
        var sink = TextSink(capacity: text.utf8.count)
        sink.readsC1Introducers = true
        sink.recordsWideGaps = true
        var lineNumber = 0
        var bytes = Array(text.utf8)
        // NUL ends a C string below: read as nothing, it goes first.
        if bytes.contains(0) {
            bytes.removeAll { $0 == 0 }
        }
        bytes.append(0)
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            let count = buffer.count - 1
            while start <= count {
                var end = start
                while end < count, buffer[end] != 0x0A, buffer[end] != 0x0D, buffer[end] != 0 { end += 1 }
                let terminator = buffer[end]
                buffer[end] = 0
                lineNumber += 1
                sink.request(.newline)
                let before = sink.pending
                if let range = sink.appendText(base + start, preformatted: false) {
                    sink.spans.append(
                        TextSpan(range: range, partPath: partPath, location: "line \(lineNumber)"))
                } else if before >= .newline {
                    sink.request(.blankLine)
                }
                buffer[end] = terminator
                if end >= count { break }
                if terminator == 0x0D, end + 1 < count, buffer[end + 1] == 0x0A { end += 1 }
                start = end + 1
            }
        }
        let rendered = sink.finish()
        let links = findURLs(in: rendered)
        var result = RenderedText(text: rendered, spans: sink.spans)
        result.wideGaps = sink.wideGaps
        return (result, links)
    }

    /// Bare `http://`, `https://` and `www.` URLs in text, trailing punctuation left out.
    ///
    /// - Parameter text: Rendered text.
    /// - Returns: One ``Link`` per URL, positioned by UTF-8 offset, origin ``TextOrigin/plain``.
    public static func findURLs(in text: String) -> [Link] {
        let bytes = Array(text.utf8)
        var links: [Link] = []
        var index = 0
        while index < bytes.count {
            let startsURL =
                matches(bytes, index, "http://") || matches(bytes, index, "https://")
                || matches(bytes, index, "www.")
            let boundary =
                index == 0 || !(isWordByte(bytes[index - 1]) || bytes[index - 1] == UInt8(ascii: "/"))
            guard startsURL, boundary else {
                index += 1
                continue
            }
            var end = index
            while end < bytes.count, !isURLTerminator(bytes[end]) { end += 1 }
            while end > index, isTrailingPunctuation(bytes[end - 1]) { end -= 1 }
            let url = String(decoding: bytes[index..<end], as: UTF8.self)
            if url.utf8.count > 8, links.count < 10_000 {
                let href = url.lowercased().hasPrefix("www.") ? "http://" + url : url
                links.append(
                    Link(
                        href: href, target: RedirectUnwrapper.unwrap(href), text: url, position: index,
                        origin: .plain))
            }
            index = max(end, index + 1)
        }
        return links
    }

    private static func matches(_ bytes: [UInt8], _ index: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] | 0x20 != start[offset] | 0x20 { return false }
        return true
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    private static func isURLTerminator(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") || byte >= 0x80
    }

    private static func isTrailingPunctuation(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";")
            || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: ")")
            || byte == UInt8(ascii: "]")
    }
}
