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
/// - an attribution line of at most 400 bytes that starts with an opener word ("On", "Am",
///   "Le", "El", "Il giorno", "Em", "Op", "Den", "W dniu", "在", "Στις") or holds an address
///   (`@`), and either ends with a "wrote:" phrase in one of the supported languages
///   (``attributionEndings``: "wrote:", "schrieb:", "a écrit :", "escribió:", "ha scritto:",
///   "escreveu:", "schreef:", "skrev:", "napisał(a):", "şunu yazdı:", "έγραψε:", "написал(а):",
///   "작성:", "写道：", "のメッセージ:", "のメール:" …), or, after an opener, holds the verb
///   before the name and ends with a colon ("Am … schrieb Shop:", "Op … schreef Shop:"); or
///   that holds a time of day and ends with `>:` after an address (Gmail in German, Dutch,
///   Japanese, Russian: "2026年3月3日(火) 10:12 Shop <orders@shop.example>:"), with a verb
///   before the date ("Shop schrieb am 03.03.2026 um 10:12:"), or with a "wrote:" phrase
///   other than the English one (Thunderbird's "… に Shop さんは書きました:", "…에 Shop 이(가)
///   쓴 글:"); up to two lines before it are included when the attribution starts there ("On
///   Fri, …, Shop <" / "orders@shop.example> wrote:"). The text is cut there when the
///   attribution names a date (a time of day, or a year) or, in plain text, `>` lines follow
///   it: "On our blog, Kim wrote:" in a shop's own email, followed by unquoted text, is not;
/// - in plain text only, lines starting with `>` after such an attribution, or two or more
///   that run to the end of the text or to a signature (the whole quote below a top-posted
///   answer), or two or more that start the text (an answer written below or between the
///   quote's lines, cut with it); in an answer by hand (a subject with a reply prefix), any
///   after the writer's own words (an answer interleaved with the quote, cut from the first
///   quoted line); elsewhere `>` lines inside the writer's own text are more likely
///   decoration ("> Track your parcel");
/// - Outlook's header block ("From: … Sent: … Subject: …", "-----Original Message-----"),
///   found by ``ForwardDetector``: in a reply it is the quoted message, not a forward.
public enum ReplyQuote {
    /// The address of the writer of a quoted message, lower-cased, read from its first lines
    /// when they clearly introduce a quote: an attribution that ends with a "wrote:" phrase
    /// ("On …, Shop <orders@shop.example> wrote:", ``attributionEndings``), a line (or up to
    /// three wrapped lines) ending with the address that has the shape of an attribution
    /// (Gmail's "2026年3月3日(火) 10:12 Shop <orders@shop.example>:"), an Outlook header
    /// block's "From: Shop <orders@shop.example>" followed by its "Sent:" or "Date:" line, or
    /// any line naming an address right above a line quoted with `>`. The address is the first
    /// addr-spec (RFC 5322 §3.4.1, in the dot-atom form mail uses) among the first four lines,
    /// within 800 bytes, but in a header block's `To:`, `Cc:` or `Subject:` line
    /// (``ForwardDetector``'s labels). `nil` otherwise: a line a shop's email only seems to
    /// quote from ("2 items shipped to Kim <kim@example.com>:") names no writer.
    /// - Parameter quotedText: a reply's quote, from its attribution or first quoted line.
    public static func writer(ofQuote quotedText: String) -> String? {
        let lines = firstLines(of: quotedText, count: 5).prefix(800)
            .split(separator: "\n", omittingEmptySubsequences: false).prefix(5)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var writer: (address: String, line: Int, isFromField: Bool)?
        for (index, line) in lines.prefix(4).enumerated() where writer == nil {
            let field = ForwardDetector.field(of: Substring(line))?.0
            // A header block's other fields name the recipients, not the writer.
            if let field, field != .from { continue }
            if let address = firstAddress(in: line) { writer = (address, index, field == .from) }
        }
        guard let writer else { return nil }
        let introduces = lines.enumerated().contains { index, line in
            let lowered = Array(line.lowercased().utf8)
            if index <= writer.line + 2,
                attributionEndings.contains(where: {
                    lowered.count >= $0.count && lowered.suffix($0.count).elementsEqual($0)
                })
            {
                return true
            }
            if index == writer.line + 1, line.hasPrefix(">") { return true }
            if index == writer.line, index <= 2,
                (0...index).contains(where: { isAttributionLine(lines[$0...index].joined(separator: " ")) })
            {
                return true
            }
            if writer.isFromField, index > writer.line,
                let field = ForwardDetector.field(of: Substring(line))?.0, field == .sent || field == .date
            {
                return true
            }
            return false
        }
        return introduces ? writer.address : nil
    }

    /// The first `count` lines of `text` (up to and with the `count`-th line feed that is a
    /// character of its own, not part of a CR LF), found among its UTF-8 bytes: what is split
    /// into lines is no longer than what is read of it.
    static func firstLines(of text: String, count: Int) -> Substring {
        let utf8 = text.utf8
        var seen = 0
        var previous: UInt8 = 0
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0A && previous != 0x0D {
                seen += 1
                if seen == count { return text[..<utf8.index(after: index)] }
            }
            previous = byte
            index = utf8.index(after: index)
        }
        return text[...]
    }

    /// The words that introduce a quoted message whose writer has no address in them: its
    /// attribution ("On Tue, 3 Mar 2026, Shop wrote:", "2026/03/03 10:12 に Shop さんは書きました:",
    /// up to three lines of it), or the value of a header block's `From:` field followed by
    /// its `Sent:` or `Date:` ("From: Shop" / "Sent: Tuesday, 3 March 2026 10:12"). `nil` when
    /// the quote does not start with either: a quote made only of `>` lines names no one.
    ///
    /// The caller compares these words with the names of the people a reply goes to.
    /// - Parameter quotedText: a reply's quote, from its attribution or first quoted line.
    public static func introduction(ofQuote quotedText: String) -> String? {
        var lines: [String] = []
        for line in quotedText.prefix(800).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty && lines.isEmpty { continue }
            if trimmed.isEmpty || trimmed.hasPrefix(">") || lines.count == 5 { break }
            lines.append(trimmed)
        }
        // A marker line above a header block ("-----Original Message-----", "_____").
        if let marker = lines.first, marker.hasPrefix("--") || marker.hasPrefix("__") { lines.removeFirst() }
        guard let first = lines.first else { return nil }
        if let (field, value) = ForwardDetector.field(of: Substring(first)), field == .from {
            let dated = lines.dropFirst().contains { line in
                guard let field = ForwardDetector.field(of: Substring(line))?.0 else { return false }
                return field == .sent || field == .date
            }
            return dated && !value.isEmpty ? String(value) : nil
        }
        for end in 0..<min(lines.count, 3) {
            let joined = lines[...end].joined(separator: " ")
            if isAttributionLine(joined) { return joined }
        }
        return nil
    }

    /// Whether one line, trimmed, has the shape of an attribution line.
    static func isAttributionLine(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { isAttribution($0, trimmedRange($0, 0..<$0.count)) }
    }

    /// The first addr-spec written in `line`, lower-cased.
    private static func firstAddress(in line: String) -> String? {
        for token in line.utf8.split(whereSeparator: { !isAddressByte($0) }) {
            guard let at = token.firstIndex(of: UInt8(ascii: "@")), at != token.startIndex else { continue }
            let domain = token[token.index(after: at)...]
            guard domain.contains(UInt8(ascii: ".")), !domain.contains(UInt8(ascii: "@")),
                domain.last != UInt8(ascii: "."), domain.first != UInt8(ascii: ".")
            else { continue }
            return String(decoding: token, as: UTF8.self).lowercased()
        }
        return nil
    }

    /// A byte of an address written as mail shows it: the dot-atom text of RFC 5322 §3.2.3
    /// without the rarer symbols, and `@`.
    private static func isAddressByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "+"), UInt8(ascii: "@"):
            return true
        default:
            return byte >= 0x80
        }
    }

    /// Endings of attribution lines, lower-cased: Gmail's, Apple Mail's, Outlook's and
    /// Thunderbird's "wrote:" in their languages (Polish "napisał(a):", Turkish "şunu yazdı:",
    /// Greek "έγραψε:", Russian "написал(а):", Thunderbird's Japanese "さんは書きました:" and
    /// Korean "이(가) 쓴 글:" among them).
    static let attributionEndings = [
        "wrote:", "wrote：", "schrieb:", "geschrieben:", "a écrit :", "a écrit:", "a\u{A0}écrit\u{A0}:",
        "a écrit\u{A0}:", "a écrit\u{202F}:", "escribió:", "ha scritto:", "escreveu:", "schreef:", "작성:",
        "写道：", "写道:", "寫道：",
        "寫道:", "のメッセージ:", "のメッセージ：", "のメール:", "のメール：", "skrev:", "napisał:",
        "napisał(a):", "napisała:", "pisze:", "şunu yazdı:", "yazdı:", "έγραψε:", "написал(а):", "написал:",
        "написала:", "пишет:", "geschreven:", "さんは書きました:", "さんは書きました：", "이(가) 쓴 글:", "님이 쓴 글:", "kirjoitti:",
    ].map { Array($0.utf8) }

    /// The English ending, which shops' own text uses too ("Our founder wrote:"): a line with
    /// it needs an opener or an address to be an attribution.
    static let englishEndings = ["wrote:", "wrote："].map { Array($0.utf8) }

    /// Words an attribution starts with, lower-cased, with the space after them.
    static let attributionOpeners = [
        "on ", "am ", "le ", "el ", "il ", "em ", "op ", "den ", "w dniu ", "dnia ", "在 ", "στις ", "Στις ",
    ].map {
        Array($0.utf8)
    }

    /// Verbs that come before the writer's name ("Am … schrieb Shop:"), lower-cased, with
    /// the spaces around them.
    static let attributionVerbs = [" schrieb ", " schreef ", " wrote ", " skrev ", " napisał "].map {
        Array($0.utf8)
    }

    /// Verbs that come after the writer's name and before the date, lower-cased, with the
    /// spaces around them: Thunderbird's "Shop schrieb am 03.03.2026 um 10:12:" and "Shop
    /// wrote on 3/3/26 10:12:" (`mailnews.reply_header_authorwroteondate`), and Apple Mail's
    /// Polish "Wiadomość napisana przez Shop <…> w dniu 03.03.2026, o godz. 10:12:".
    static let verbsBeforeDate = [
        " schrieb am ", " schreef op ", " wrote on ", " a écrit le ", " escribió el ", " skrev den ",
        " ha scritto il ", "napisana przez ",
    ].map { Array($0.utf8) }

    /// The UTF-8 offset in `text` where the quoted earlier message starts, or `nil` when
    /// there is none.
    /// - Parameters:
    ///   - text: A rendered text (``RenderedText/text``): lines separated by `\n`.
    ///   - isPlainText: Whether `text` is a text/plain rendition, where `>` quoting is read.
    ///   - isAnswer: Whether the message's subject starts with a reply prefix ("Re:", "AW:",
    ///     ``hasReplyPrefix(_:)``): someone answering by hand. In plain text its `>` lines after
    ///     words of its own are a quote too, however few and whatever follows them: an answer
    ///     written between the quote's lines ("Hi," / "> Your order … has shipped" / "It has
    ///     not arrived"), cut from the first of them. A message of a thread without the prefix
    ///     (a shop's next email) keeps such lines, which are more likely decoration.
    public static func quoteStart(in text: String, isPlainText: Bool, isAnswer: Bool = false) -> Int? {
        quote(in: text, isPlainText: isPlainText, isAnswer: isAnswer)?.start
    }

    /// Where the quoted earlier message starts (``quoteStart(in:isPlainText:isAnswer:)``), and
    /// whether it was found as an answer written between the quote's lines: `>` lines after
    /// the writer's own words under a reply prefix, with no attribution and no quote running to
    /// the end. Only then can the writer's words go on after it
    /// (``answerLines(afterQuoteAt:in:)``).
    static func quote(in text: String, isPlainText: Bool, isAnswer: Bool = false)
        -> (start: Int, isInterleaved: Bool)?
    {
        var text = text
        return text.withUTF8 { bytes -> (start: Int, isInterleaved: Bool)? in
            var lines: [Range<Int>] = []
            var start = 0
            for index in 0..<bytes.count where bytes[index] == 0x0A {
                lines.append(start..<index)
                start = index + 1
            }
            lines.append(start..<bytes.count)
            var wroteBefore = false
            // Lines before this one belong to a quoted run known not to run to the end: asked
            // once per run, the search stays linear.
            var knownRunEnd = 0
            for (number, line) in lines.enumerated() {
                let trimmed = trimmedRange(bytes, line)
                defer { if !trimmed.isEmpty { wroteBefore = true } }
                func runsToTheEnd() -> Bool {
                    guard number >= knownRunEnd else { return false }
                    return quoteRunsToTheEnd(from: number, lines: lines, bytes: bytes, runEnd: &knownRunEnd)
                }
                if isPlainText, isQuoted(bytes, trimmed),
                    let start = attributionStart(before: number, lines: lines, bytes: bytes)
                        ?? (runsToTheEnd() ? line.lowerBound : nil)
                        ?? (!wroteBefore && quotedRun(from: number, lines: lines, bytes: bytes) >= 2
                            ? line.lowerBound : nil)
                {
                    return (start, false)
                }
                if isPlainText, isQuoted(bytes, trimmed), isAnswer, wroteBefore {
                    return (line.lowerBound, true)
                }
                if isAttribution(bytes, trimmed) {
                    let first = attributionFirstLine(of: number, lines: lines, bytes: bytes)
                    let firstLine = lineNumber(startingAt: first, before: number, lines: lines)
                    if attributionHolds(
                        from: firstLine, to: number, lines: lines, bytes: bytes, isPlainText: isPlainText)
                    {
                        return (first, false)
                    }
                    continue
                }
                // An attribution wrapped over up to three lines: "On …, Shop Customer" /
                // "Service Team <orders@shop.example>" / "wrote:".
                if endsLikeAttribution(bytes, trimmed), number > 0 {
                    let first = attributionFirstLine(of: number, lines: lines, bytes: bytes)
                    let firstLine = lineNumber(startingAt: first, before: number, lines: lines)
                    if first < lines[number].lowerBound,
                        attributionHolds(
                            from: firstLine, to: number, lines: lines, bytes: bytes, isPlainText: isPlainText)
                    {
                        return (first, false)
                    }
                }
                // Gmail wraps its text/plain attribution: "pon., 3 mar 2026 o 10:12 Shop
                // <orders@shop.example>" / "napisał(a):", "2026年3月3日(火) 10:12 Shop <" /
                // "orders@shop.example>:". The line and the one or two before it, read as one.
                if number > 0, endsLikeAttribution(bytes, trimmed) || endsWithAddressColon(bytes, trimmed),
                    let first = wrappedAttributionStart(
                        endingOn: number, lines: lines, bytes: bytes, isPlainText: isPlainText)
                {
                    return (first, false)
                }
            }
            return nil
        }
    }

    /// The writer's own lines after an answer's first quoted line
    /// (``quote(in:isPlainText:isAnswer:)`` with `isInterleaved`), as UTF-8 ranges of `text`
    /// in order: a shop's support answer written between the customer's quoted questions
    /// ("> Where is my parcel?" / "It left our warehouse today: 1Z…").
    ///
    /// Quoted (`>`) and blank lines are the quote's. So is a line that may continue a quoted
    /// line wrapped by a client that dropped its `>`: right below it, with no blank line, when
    /// the quoted line does not end a sentence (`.`, `!`, `?`, `:`, `。`, `！`, `？`, `：`). The
    /// walk stops at an attribution line (a deeper quote follows it) and at a signature
    /// delimiter (`--`, RFC 3676 §4.3).
    static func answerLines(afterQuoteAt start: Int, in text: String) -> [Range<Int>] {
        var text = text
        return text.withUTF8 { bytes -> [Range<Int>] in
            var answers: [Range<Int>] = []
            var lineStart = min(max(start, 0), bytes.count)
            var previousQuoted: Range<Int>?
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                let trimmed = trimmedRange(bytes, lineStart..<lineEnd)
                defer { lineStart = lineEnd + 1 }
                if trimmed.isEmpty {
                    previousQuoted = nil
                    continue
                }
                if isQuoted(bytes, trimmed) {
                    previousQuoted = trimmed
                    continue
                }
                let line = bytes[trimmed]
                if line.elementsEqual("--".utf8) || isAttribution(bytes, trimmed) { break }
                if let quoted = previousQuoted, !endsSentence(bytes[quoted]) { continue }
                previousQuoted = nil
                answers.append(trimmed)
            }
            return answers
        }
    }

    /// The writer's own lines in an answer whose quote, under an attribution line ("On … Jamie
    /// Rivera <jamie@…> wrote:"), the writer answers between its lines: the attribution (up to
    /// three lines, the last ending with a colon) is followed, after blank lines, by a quoted
    /// (`>`) line, and ``answerLines(afterQuoteAt:in:)`` reads on from there. Empty when the
    /// attribution is not followed by a quoted line (a quote without `>` stays cut whole).
    /// - Parameter start: the UTF-8 offset where the attribution starts.
    static func answerLines(afterAttributionAt start: Int, in text: String) -> [Range<Int>] {
        let utf8 = Array(text.utf8)
        var lineStart = min(max(start, 0), utf8.count)
        var attributionLines = 0
        var attributionEnded = false
        while lineStart < utf8.count {
            var lineEnd = lineStart
            while lineEnd < utf8.count, utf8[lineEnd] != 0x0A { lineEnd += 1 }
            var last = lineEnd
            while last > lineStart, [0x20, 0x09, 0x0D].contains(utf8[last - 1]) { last -= 1 }
            var first = lineStart
            while first < last, utf8[first] == 0x20 || utf8[first] == 0x09 { first += 1 }
            if !attributionEnded {
                attributionLines += 1
                guard attributionLines <= 3 else { return [] }
                attributionEnded =
                    last > first
                    && (utf8[last - 1] == UInt8(ascii: ":")
                        || utf8[lineStart..<last].suffix(3).elementsEqual("：".utf8))
            } else if first < last {
                guard utf8[first] == UInt8(ascii: ">") else { return [] }
                return answerLines(afterQuoteAt: lineStart, in: text)
            }
            lineStart = lineEnd + 1
        }
        return []
    }

    /// Whether a line ends a sentence: `.`, `!`, `?`, `:` or their ideographic forms, before
    /// closing quotes or brackets.
    private static func endsSentence(_ line: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        var end = line.endIndex
        while end > line.startIndex, [0x22, 0x27, 0x29, 0x5D].contains(line[end - 1]) { end -= 1 }
        guard end > line.startIndex else { return false }
        if [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: ":")].contains(
            line[end - 1])
        {
            return true
        }
        let tail = line[line.startIndex..<end]
        return ["。", "！", "？", "："].contains { tail.suffix($0.utf8.count).elementsEqual($0.utf8) }
    }

    /// The start of the attribution line that ends at `offset`, the start of a quote the
    /// HTML marks (``HTMLQuoteStart``), when that line is one: Thunderbird writes its
    /// attribution ("Juniper & Pine wrote:", "Jordan Lee schrieb:") above the
    /// `<blockquote type="cite">`, Tutanota its own ("… by orders@shop.example:") above the
    /// `<blockquote class="tutanota_quote">`.
    ///
    /// Right above a quote container, a line of at most 400 bytes is an attribution when it
    /// ends with a colon and either ends with a "wrote:" phrase (``attributionEndings``) or
    /// holds an address (`@`); no opener word is needed there.
    /// - Parameters:
    ///   - offset: A UTF-8 offset in `text` that ends a line (``HTMLQuoteStart/offset``).
    ///   - text: A rendered text (``RenderedText/text``).
    /// - Returns: The UTF-8 offset where that line starts, or `nil`.
    public static func attributionLineStart(endingAt offset: Int, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes -> Int? in
            let end = min(max(offset, 0), bytes.count)
            var start = end
            while start > 0, bytes[start - 1] != 0x0A, end - start <= 400 { start -= 1 }
            guard start == 0 || bytes[start - 1] == 0x0A else { return nil }
            let line = trimmedRange(bytes, start..<end)
            guard line.count >= 6, line.count <= 400 else { return nil }
            let colon =
                bytes[line.upperBound - 1] == UInt8(ascii: ":")
                || bytes[line].suffix(3).elementsEqual("：".utf8)
            guard colon else { return nil }
            let attributed = endsLikeAttribution(bytes, line) || bytes[line].contains(UInt8(ascii: "@"))
            return attributed ? start : nil
        }
    }

    /// What a subject's first prefix says the message is.
    public enum SubjectPrefix: Sendable, Equatable {
        /// A reply prefix (`Re:`, `AW:`, `SV:`, `回复:`, `답장:` …): the message answers another.
        case reply
        /// A forward prefix (`Fwd:`, `FW:`, `WG:`, `TR:`, `RV:`, `I:`, `Doorst:`, `转发:`,
        /// `転送:`, `전달:` …): the message passes an original on.
        case forward
    }

    /// What the first prefix of a subject says, after the bracketed tags mail systems add
    /// ("[EXT] Re: …"), or `nil` when it starts with neither kind of prefix.
    ///
    /// The first (outermost) prefix is what the message is, whatever follows it: each client
    /// adds its prefix in front of the subject it answers or forwards. `Re: Fw: Your order` is a
    /// reply to a forward (a reply); `WG: AW: Ihre Bestellung` is a forward of a reply (a
    /// forward).
    public static func firstPrefix(of subject: String) -> SubjectPrefix? {
        if let decided = bytesFirstPrefix(of: subject) { return decided }
        return characterFirstPrefix(of: subject)
    }

    /// ``firstPrefix(of:)`` told from the subject's bytes, as most subjects are: nil when the
    /// bytes do not decide (or the subject is not stored contiguously); else the outcome.
    ///
    /// - No colon (`:`, or the full-width `：`, EF BC 9A in UTF-8), no prefix.
    /// - Without a tag first, the colon stands among the first 9 characters (36 bytes) after
    ///   the spaces.
    /// - ASCII after the spaces: ``asciiFirstPrefix(_:from:)``.
    /// - Otherwise, when the first nine scalars after the spaces are standalone
    ///   (``SimpleScalars/isStandalone(_:)``), each is a character of its own: when none of them is a colon,
    ///   the subject has no prefix.
    static func bytesFirstPrefix(of subject: String) -> SubjectPrefix?? {
        let decided = subject.utf8.withContiguousStorageIfAvailable { bytes -> SubjectPrefix?? in
            func isColonByte(_ byte: UInt8) -> Bool { byte == UInt8(ascii: ":") || byte == 0x9A }
            guard bytes.contains(where: isColonByte) else { return .some(nil) }
            var start = 0
            while start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
            guard start < bytes.count else { return nil }
            let first = bytes[start]
            guard first != UInt8(ascii: "["), first != UInt8(ascii: "*") else { return nil }
            guard bytes[start..<min(bytes.count, start + 36)].contains(where: isColonByte) else {
                return .some(nil)
            }
            if let decided = asciiFirstPrefix(bytes, from: start) { return decided }
            // The first nine scalars after the spaces (the space before them is a character of
            // its own when the first is standalone).
            var scalars = subject.unicodeScalars[subject.utf8.index(subject.startIndex, offsetBy: start)...]
                .makeIterator()
            for _ in 0..<9 {
                guard let scalar = scalars.next() else { return nil }
                guard SimpleScalars.isStandalone(scalar), scalar != ":", scalar != "：" else { return nil }
            }
            return .some(nil)
        }
        if let decided { return decided }
        return bytesFirstPrefix(of: String(decoding: Array(subject.utf8), as: UTF8.self))
    }

    /// ``firstPrefix(of:)`` character by character, for any subject.
    static func characterFirstPrefix(of subject: String) -> SubjectPrefix? {
        let rest = withoutTags(Substring(subject)).drop { $0 == " " || $0 == "\t" }
        // A prefix has at most 8 characters before its colon.
        guard let colon = rest.prefix(9).firstIndex(where: { $0 == ":" || $0 == "：" }) else { return nil }
        let prefix = subjectPrefix(rest[..<colon])
        if forwardPrefixes.contains(prefix) { return .forward }
        if replyPrefixes.contains(prefix) { return .reply }
        return nil
    }

    /// ``firstPrefix(of:)`` read from the bytes, for a subject whose first byte after its
    /// spaces and tabs (at `start`) is not `[` or `*` (no tag), when that byte and the nine
    /// after it, or all of them when fewer, are ASCII other than a carriage return: each of
    /// those bytes is then a character of its own (no combining mark follows the last that
    /// could join it), so the first nine characters are the first nine bytes, full-width
    /// letters are none of them, and lower-casing changes A–Z only.
    /// - Returns: nil when the bytes do not decide; else the outcome.
    static func asciiFirstPrefix(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> SubjectPrefix?? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        for index in start..<min(bytes.count, start + 10) where bytes[index] >= 0x80 || bytes[index] == 0x0D {
            return nil
        }
        // A prefix has at most 8 characters before its colon.
        var colon = start
        let limit = min(bytes.count, start + 9)
        while colon < limit && bytes[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < limit else { return .some(nil) }
        var end = colon
        while end > start && isSpace(bytes[end - 1]) { end -= 1 }
        var prefix: [UInt8] = []
        prefix.reserveCapacity(end - start)
        for byte in bytes[start..<end] {
            prefix.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte)
        }
        // A count after it ("Re[2]", "Re(3)", "RE^2") is not part of it.
        if let open = prefix.firstIndex(where: {
            $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "(") || $0 == UInt8(ascii: "^")
        }), open != 0,
            prefix[(open + 1)...].allSatisfy({
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "]")
                    || $0 == UInt8(ascii: ")")
            })
        {
            prefix.removeSubrange(open...)
        }
        let text = String(decoding: prefix, as: UTF8.self)
        if forwardPrefixes.contains(text) { return .forward }
        if replyPrefixes.contains(text) { return .reply }
        return .some(nil)
    }

    /// Whether a subject's first prefix is a forward prefix (`Fwd:`, `FW:`, `WG:`, `TR:`, `RV:`,
    /// `I:`, `Doorst:`, `转发:`, `轉寄:`, `전달:`, `転送:`): such a message passes an original on
    /// rather than answering it. `WG: AW: …` is one; `Re: Fwd: …`, a reply to a forward, is not
    /// (``firstPrefix(of:)``).
    public static func hasForwardPrefix(_ subject: String) -> Bool {
        firstPrefix(of: subject) == .forward
    }

    /// Whether a subject's first prefix is a reply prefix (`Re:`, `AW:`, `Antw:`, `SV:`, `R:`,
    /// `RIF:`, `Réf:`, `答复:`, `回复:`, `답장:`, `返信:` …), whatever follows it: `Re: Fwd: …`
    /// is a reply; `WG: AW: …`, a forward of a reply, is not (``firstPrefix(of:)``).
    public static func hasReplyPrefix(_ subject: String) -> Bool {
        firstPrefix(of: subject) == .reply
    }

    /// The subject without the tags mail systems put before it ("[EXT] Re: …", "[Shop] Re: …",
    /// "*EXTERNAL* RE: …"): up to three, each in brackets or asterisks and at most 24
    /// characters.
    private static func withoutTags(_ subject: Substring) -> Substring {
        var rest = subject
        for _ in 0..<3 {
            let trimmed = rest.drop { $0 == " " || $0 == "\t" }
            guard let open = trimmed.first, open == "[" || open == "*" else { break }
            let closing: Character = open == "[" ? "]" : "*"
            guard let close = trimmed.dropFirst().firstIndex(of: closing),
                trimmed.distance(from: trimmed.startIndex, to: close) <= 24
            else { break }
            rest = trimmed[trimmed.index(after: close)...]
        }
        return rest
    }

    /// The text before a subject's colon, lower-cased, without spaces and tabs around it
    /// (trimmed by hand: a shared `CharacterSet` is not to be asked from several threads),
    /// and without a count after it ("Re[2]", "Re(3)", "RE^2").
    private static func subjectPrefix(_ text: Substring) -> String {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        var end = trimmed.endIndex
        while end > trimmed.startIndex {
            let before = trimmed.index(before: end)
            guard trimmed[before] == " " || trimmed[before] == "\t" else { break }
            end = before
        }
        // Full-width Latin letters ("ＲＥ") read as their ASCII forms.
        let narrowed = String(
            String.UnicodeScalarView(
                trimmed[..<end].unicodeScalars.map { scalar in
                    (0xFF21...0xFF5A).contains(scalar.value)
                        ? Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar : scalar
                }))
        var prefix = narrowed.lowercased()
        if let open = prefix.firstIndex(where: { $0 == "[" || $0 == "(" || $0 == "^" }),
            open != prefix.startIndex,
            prefix[prefix.index(after: open)...].allSatisfy({
                $0.isASCII && ($0.isNumber || $0 == "]" || $0 == ")")
            })
        {
            prefix = String(prefix[..<open])
        }
        return prefix
    }

    static let forwardPrefixes: Set<String> = [
        "fwd", "fw", "wg", "tr", "rv", "i", "doorst", "enc", "转发", "轉寄", "전달", "転送", "πρθ", "пересл",
    ]
    static let replyPrefixes: Set<String> = [
        "re", "aw", "antw", "antwort", "sv", "svar", "vs", "r", "rif", "réf", "réf.", "ref", "res", "resp",
        "réponse", "odp", "ynt", "vá", "válasz", "회신", "答复", "回复", "回覆",
        "답장", "返信", "απ", "σχετ", "ответ", "отв", "rép", "rép.",
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

    /// Whether a trimmed line has the shape of an attribution line (``isDated(_:_:)`` tells
    /// whether it also names a date).
    private static func isAttribution(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count >= 6, range.count <= 400 else { return false }
        let line = bytes[range]
        let opener = startsWithOpener(bytes, range)
        let address = line.contains(UInt8(ascii: "@"))
        let last = line.last ?? 0
        let colon = last == UInt8(ascii: ":") || line.suffix(3).elementsEqual("：".utf8)
        guard colon else { return false }
        // Gmail in German, Dutch, Japanese, Russian …: "2026年3月3日(火) 10:12 Shop
        // <orders@shop.example>:", "пн, 3 мар. 2026 г. в 10:12, Shop <orders@shop.example>:":
        // the address in angle brackets ends the line, and the date has a time of day.
        if last == UInt8(ascii: ":"), line.dropLast().last == UInt8(ascii: ">"), address,
            holdsTimeOfDay(bytes, range)
        {
            return true
        }
        // Thunderbird's "Shop schrieb am 03.03.2026 um 10:12:": the verb after the name.
        if holdsTimeOfDay(bytes, range), contains(bytes, range, anyOf: verbsBeforeDate) { return true }
        if endsLikeAttribution(bytes, range) {
            if opener || address { return true }
            // Thunderbird's "2026/03/03 10:12 に Shop さんは書きました:", "26. 3. 3. 오전 10:12에
            // Shop 이(가) 쓴 글:", "Shop 於 2026/3/3 10:12 寫道:": no opener or address, a time.
            let english = englishEndings.contains { ending in
                ending.count <= line.count && equalIgnoringASCIICase(line.suffix(ending.count), ending)
            }
            return !english && holdsTimeOfDay(bytes, range)
        }
        // "Am 29.11.26 um 10:00 schrieb Shop:": the verb before the name.
        return opener && contains(bytes, range, anyOf: attributionVerbs)
    }

    /// Whether the line ends with `>:`, as Gmail's attributions that end with the address do.
    private static func endsWithAddressColon(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool
    {
        range.count >= 2 && bytes[range.upperBound - 1] == UInt8(ascii: ":")
            && bytes[range.upperBound - 2] == UInt8(ascii: ">")
    }

    /// The start of an attribution wrapped over line `number` and the one or two lines before
    /// it (none blank or quoted), read as one line, when it holds (``attributionHolds(from:to:lines:bytes:isPlainText:)``).
    private static func wrappedAttributionStart(
        endingOn number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>, isPlainText: Bool
    ) -> Int? {
        let end = trimmedRange(bytes, lines[number]).upperBound
        for first in stride(from: number - 1, through: max(number - 2, 0), by: -1) {
            let line = trimmedRange(bytes, lines[first])
            guard !line.isEmpty, !isQuoted(bytes, line), line.count <= 300 else { return nil }
            if isAttribution(bytes, line.lowerBound..<end),
                attributionHolds(
                    from: first, to: number, lines: lines, bytes: bytes, isPlainText: isPlainText)
            {
                return lines[first].lowerBound
            }
        }
        return nil
    }

    /// Whether the line holds one of `words` (lower-cased), compared without ASCII case.
    private static func contains(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, anyOf words: [[UInt8]]
    )
        -> Bool
    {
        words.contains { word in
            range.count >= word.count
                && (range.lowerBound...(range.upperBound - word.count)).contains {
                    equalIgnoringASCIICase(bytes[$0..<($0 + word.count)], word)
                }
        }
    }

    /// Whether the line holds a time of day ("10:12", "9:00"): one or two digits, a colon,
    /// two digits, and no digit after them.
    private static func holdsTimeOfDay(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        func isDigit(_ index: Int) -> Bool {
            range.contains(index) && bytes[index] >= 0x30 && bytes[index] <= 0x39
        }
        for index in range where bytes[index] == UInt8(ascii: ":") {
            if isDigit(index - 1), isDigit(index + 1), isDigit(index + 2), !isDigit(index + 3) { return true }
        }
        return false
    }

    /// Whether the line names a date the way mail clients write an attribution's: a time of
    /// day, or a year (four digits from 1970 to 2099 standing alone: "2026", "2026年").
    /// "On Monday, Kim wrote:" and "On your card, Sam <sam@example.org> wrote:" do not.
    private static func isDated(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        if holdsTimeOfDay(bytes, range) { return true }
        var index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] >= 0x30 && bytes[index] <= 0x39 else {
                index += 1
                continue
            }
            var end = index
            while end < range.upperBound, bytes[end] >= 0x30 && bytes[end] <= 0x39 { end += 1 }
            if end - index == 4 {
                let year = bytes[index..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }
                if (1970...2099).contains(year) { return true }
            }
            index = end
        }
        return false
    }

    /// Whether an attribution (the lines `first...last`) is evidence enough to cut the text
    /// there: it names a date, or, in plain text, quoted lines (`>`) follow it after at most
    /// two blank lines. A line of a shop's own email that only looks like an attribution ("On
    /// our blog, Kim wrote:", a gift message's "Sam <sam@example.org> wrote:") is neither, and
    /// the text after it stays.
    private static func attributionHolds(
        from first: Int, to last: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>,
        isPlainText: Bool
    ) -> Bool {
        if (first...last).contains(where: { isDated(bytes, trimmedRange(bytes, lines[$0])) }) { return true }
        guard isPlainText else { return false }
        var index = last + 1
        while index < lines.count, index - last <= 3 {
            let trimmed = trimmedRange(bytes, lines[index])
            if !trimmed.isEmpty { return isQuoted(bytes, trimmed) }
            index += 1
        }
        return false
    }

    /// Whether a trimmed line ends with one of the ``attributionEndings``.
    private static func endsLikeAttribution(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool
    {
        // Every ending ends with a colon, ASCII or full-width.
        guard let last = range.last, bytes[last] == UInt8(ascii: ":") || bytes[last] == 0x9A else {
            return false
        }
        return attributionEndings.contains { ending in
            ending.count <= range.count
                && equalIgnoringASCIICase(bytes[(range.upperBound - ending.count)..<range.upperBound], ending)
        }
    }

    /// Whether the bytes equal `lowered` (lower-case) with ASCII capitals read as lower case,
    /// compared in place.
    private static func equalIgnoringASCIICase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowered: [UInt8])
        -> Bool
    {
        guard bytes.count == lowered.count else { return false }
        // Compared from the end: the colon all endings share is last, the letters before it
        // tell most of them apart at once.
        let base = bytes.base
        var index = bytes.endIndex
        var other = lowered.count
        while other > 0 {
            index -= 1
            other -= 1
            let byte = base[index]
            if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != lowered[other] { return false }
        }
        return true
    }

    /// The number of the line that starts at `offset`, one of the two lines up to `number`
    /// (``attributionFirstLine(of:lines:bytes:)`` looks no further back); `number` otherwise.
    private static func lineNumber(startingAt offset: Int, before number: Int, lines: [Range<Int>]) -> Int {
        (max(number - 2, 0)...number).first { lines[$0].lowerBound == offset } ?? number
    }

    /// The start of the attribution ending on line `number`: one of the two lines before
    /// when the attribution starts there (an opener) and not on line `number`.
    private static func attributionFirstLine(
        of number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let own = trimmedRange(bytes, lines[number])
        guard !startsWithOpener(bytes, own) else { return lines[number].lowerBound }
        var index = number - 1
        while index >= 0 && number - index <= 2 {
            let previous = trimmedRange(bytes, lines[index])
            guard !previous.isEmpty, previous.count <= 300 else { break }
            if startsWithOpener(bytes, previous) { return lines[index].lowerBound }
            index -= 1
        }
        return lines[number].lowerBound
    }

    /// How many lines quoted with `>` run from line `number` on, blank lines between them
    /// not counted and not ending the run.
    private static func quotedRun(from number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>)
        -> Int
    {
        var quoted = 0
        for line in lines[number...] {
            let trimmed = trimmedRange(bytes, line)
            if trimmed.isEmpty { continue }
            guard isQuoted(bytes, trimmed) else { break }
            quoted += 1
        }
        return quoted
    }

    /// Whether the lines from `number` on are quoted (`>`, at least two) or blank up to the
    /// end of the text, or up to a signature: a `-- ` delimiter line (RFC 3676 §4.3) and what
    /// follows it, or at most three last lines without a digit ("Jamie", "Sent from my phone").
    ///
    /// - Parameter runEnd: Set to the number of the first line after the quoted run (its first
    ///   line that is neither quoted nor blank, or the line count): from any line of the run
    ///   before it, the answer is `false` when it is `false` from `number`.
    private static func quoteRunsToTheEnd(
        from number: Int, lines: [Range<Int>], bytes: UnsafeBufferPointer<UInt8>, runEnd: inout Int
    )
        -> Bool
    {
        var quoted = 0
        var index = number
        while index < lines.count {
            let trimmed = trimmedRange(bytes, lines[index])
            if !trimmed.isEmpty && !isQuoted(bytes, trimmed) { break }
            if !trimmed.isEmpty { quoted += 1 }
            index += 1
        }
        runEnd = index
        guard quoted >= 2 else { return false }
        var tail = 0
        while index < lines.count {
            let trimmed = trimmedRange(bytes, lines[index])
            index += 1
            if trimmed.isEmpty { continue }
            let line = bytes[trimmed]
            if line.elementsEqual("--".utf8) { return true }
            tail += 1
            if tail > 3 || line.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { return false }
        }
        return true
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
        return attributionFirstLine(of: index, lines: lines, bytes: bytes)
    }

    private static func startsWithOpener(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let line = bytes[range]
        return attributionOpeners.contains { opener in
            opener.count <= line.count && equalIgnoringASCIICase(line.prefix(opener.count), opener)
        }
    }
}

extension RenderedText {
    /// The text before a UTF-8 offset (a line start), with the spans and wide gaps that lie
    /// before it (spans clipped), and the hidden text unchanged.
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
        var result = RenderedText(
            text: String(decoding: kept, as: UTF8.self), spans: spans, hiddenText: hiddenText,
            hiddenSpans: hiddenSpans)
        result.wideGaps = wideGaps.filter { $0 < kept.count }
        return result
    }

    /// The UTF-8 offset just past the line breaks at `offset`: where the next line's text
    /// starts when `offset` ends a line.
    func lineStart(after offset: Int) -> Int {
        let utf8 = text.utf8
        var index = utf8.index(utf8.startIndex, offsetBy: min(max(offset, 0), utf8.count))
        var result = utf8.distance(from: utf8.startIndex, to: index)
        while index < utf8.endIndex, utf8[index] == 0x0A {
            index = utf8.index(after: index)
            result += 1
        }
        return result
    }

    /// The text from a UTF-8 offset on.
    func suffix(from offset: Int) -> String {
        let utf8 = Array(text.utf8)
        return String(decoding: utf8[min(max(offset, 0), utf8.count)...], as: UTF8.self)
    }
}
