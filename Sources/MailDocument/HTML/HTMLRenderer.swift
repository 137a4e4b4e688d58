import CLibXML2

/// Everything read from one text/html part: visible text with layout, hidden text, links,
/// images, the preheader, and the machine-readable data (JSON-LD blocks, microdata items).
public struct RenderedHTML: Sendable {
    /// Visible text (lines and tab-separated cells) with hidden text kept apart.
    public var text: RenderedText
    /// Anchors in document order; ``Link/position`` counts in ``RenderedText/text``, or in
    /// ``RenderedText/hiddenText`` when ``Link/isHidden``.
    public var links: [Link]
    /// Images in document order with their alt text.
    public var images: [ImageReference]
    /// The hidden preview text shown by mail clients next to the subject, when there is one.
    public var preheader: String?
    /// The document's `<title>`.
    public var title: String?
    /// `<script type="application/ld+json">` contents, unrepaired.
    public var jsonLD: [JSONLDBlock]
    /// Top-level microdata items (`itemscope` not inside another item's property) as JSON
    /// objects: `@type` (the `itemtype` URLs) and one key per `itemprop`, values in arrays.
    public var microdata: [JSONValue]
    /// Inputs refused or cut short.
    public var warnings: [DocumentWarning]
    /// Where the first quote container or quote marker of a mail client starts
    /// (``HTMLQuoteStart``), or `nil` when the HTML has none. Recorded for every part; only a
    /// reply's document is cut there (``MailDocument/isReply``), the rendering never changes.
    public var quoteStart: HTMLQuoteStart?

    public init(
        text: RenderedText, links: [Link] = [], images: [ImageReference] = [], preheader: String? = nil,
        title: String? = nil, jsonLD: [JSONLDBlock] = [], microdata: [JSONValue] = [],
        warnings: [DocumentWarning] = [], quoteStart: HTMLQuoteStart? = nil
    ) {
        self.text = text
        self.links = links
        self.images = images
        self.preheader = preheader
        self.title = title
        self.jsonLD = jsonLD
        self.microdata = microdata
        self.warnings = warnings
        self.quoteStart = quoteStart
    }
}

/// Where a reply's quoted earlier message starts in rendered HTML, as the mail client that
/// wrote the reply marked it in the markup rather than in the text.
///
/// Recognised, on visible elements only (a quote container inside hidden content marks
/// nothing a reader sees):
/// - Apple Mail, Thunderbird, Proton Mail: `<blockquote type="cite">` (the
///   `type` attribute compared without case; a `<blockquote>` without it is layout or a
///   testimonial, not a quote);
/// - Gmail: `<div class="gmail_quote">` (also `class="gmail_quote gmail_quote_container"`,
///   holding the `gmail_attr` attribution and the quote) and `<blockquote class="gmail_quote">`;
/// - Yahoo Mail: `<div class="yahoo_quoted">`;
/// - Proton Mail: `class="protonmail_quote"` on a `<div>` or `<blockquote>`;
/// - Tutanota: `<blockquote class="tutanota_quote">`;
/// - Outlook on the web (and replies drafted through Microsoft Graph) and Outlook's mobile
///   apps: `<div id="appendonsend">` (an empty element right after the writer's text) and
///   `<div id="divRplyFwdMsg">` (the "From: … Sent: …" block, after a `<hr>`); Outlook.com's
///   older `<hr id="stopSpelling">`; Outlook for Mac's `<span id="OLK_SRC_BODY_SECTION">`;
///   the quoted message follows these to the end (Outlook for Windows marks its quote with a
///   bordered `<div>` holding the header fields, which the text's header block finds);
/// - Zimbra: `<hr data-marker="__DIVIDER__">`, before the quoted header fields and message.
///
/// Class names are whole tokens of the `class` attribute, compared with case (`x_gmail_quote`
/// does not match); `id` and `data-marker` values are compared without ASCII case.
///
/// Not recognised, on purpose: Thunderbird's `<div class="moz-cite-prefix">` (a top-posted
/// answer is written inside it, above the attribution), Outlook's
/// `<div id="mail-editor-reference-message-container">` (an answer interleaved with the
/// quote is written inside it), Zimbra's `<div data-marker="__QUOTED_TEXT__">` (found
/// wrapping whole emails whose HTML was copied from a quoted one), and `gmail_extra`.
public struct HTMLQuoteStart: Sendable, Hashable {
    /// The UTF-8 offset in ``RenderedText/text`` where the quote starts: the length of the
    /// visible text written before the quote's first element. The quote's own first line
    /// starts after the line break that follows this offset.
    public var offset: Int
    /// The UTF-8 offset in ``RenderedText/hiddenText`` at the same point: hidden text, hidden
    /// links and hidden images from this offset on lie in the quote.
    public var hiddenOffset: Int
    /// The markup that marked the quote, e.g. `blockquote type="cite"`,
    /// `div class="gmail_quote"`, `div id="appendonsend"`.
    public var markup: String
    /// Whether ``RenderedHTML/preheader`` was found in the quote (the quoted message's
    /// preview text, not the reply's).
    public var holdsPreheader: Bool

    public init(offset: Int, hiddenOffset: Int, markup: String, holdsPreheader: Bool = false) {
        self.offset = offset
        self.hiddenOffset = hiddenOffset
        self.markup = markup
        self.holdsPreheader = holdsPreheader
    }
}

/// Renders HTML email to text the way a careful reader sees it, through libxml2's HTML parser.
///
/// The input is UTF-8 already (the MIME stage converted the charset), so the parser is told
/// to ignore `<meta charset>` (`HTML_PARSE_IGNORE_ENC`) and never decodes twice. NUL bytes are
/// removed first (libxml2 stops at them) and Outlook's downlevel-revealed conditional markers
/// (`<![if !mso]>`, `<![endif]>`) are dropped; `<!--[if mso]>…<![endif]-->` blocks are
/// comments and are skipped, so the text is what non-Outlook clients show.
///
/// Depth: libxml2 2.9 stops building the tree at 256 nested elements unless
/// `XML_PARSE_HUGE` is given, silently dropping everything after that point. The renderer
/// passes `XML_PARSE_HUGE` (which also lifts libxml2's 10 MB text-node limit) and bounds the
/// input size itself (``Options/maxInputBytes``); the tree is walked iteratively, and
/// libxml2 2.9.14 frees deep trees iteratively too, so 100,000 nested elements use heap, not
/// stack.
public enum HTMLRenderer {
    /// Limits that keep a hostile part from costing unbounded time or memory.
    public struct Options: Sendable, Hashable {
        /// Larger HTML is cut to this many bytes (with a warning) before parsing.
        public var maxInputBytes: Int = 16 << 20
        /// Links beyond this count are dropped (with a warning).
        public var maxLinks: Int = 20_000
        /// Images beyond this count are dropped.
        public var maxImages: Int = 20_000
        /// Microdata items beyond this count are dropped.
        public var maxMicrodataItems: Int = 2_000
        /// JSON-LD blocks beyond this count are dropped.
        public var maxJSONLDBlocks: Int = 200
        /// The most steps the HTML may cost libxml2, counted by ``HTMLCost``: searches of its
        /// stack of open elements (one step per element looked at) and comparisons of each
        /// attribute of a start tag with the tag's earlier ones (n × (n − 1) / 2 for n
        /// attributes). The HTML is cut (with a warning) before the tag that would pass it.
        /// 50 million steps take libxml2 0.2–1 s (measured on stray end tags under 20,000 open
        /// elements; one tag with 40,000 attributes, 800 million comparisons, took 5.5 s).
        /// Ordinary email costs a few steps per tag: every HTML part of `Corpus/` and of the
        /// public MIME corpora stays under 10,000.
        public var maxParserSteps: Int = 50_000_000
        /// The most nodes the HTML may give libxml2's tree, counted by ``HTMLCost``: each start
        /// tag, attribute, comment, processing instruction and end tag that closes nothing
        /// counts one. The HTML is cut (with a warning) before the markup that would pass it.
        /// 100,000 elements of `<b>x</b>` cost about 40 MB of memory (libxml2's tree and the
        /// rendered spans); 20 MB of them took 1 GB before this limit. The largest of the 217
        /// HTML parts of `Corpus/`, the examples and the public MIME corpora counts about 1,900
        /// (774 elements, 1,109 attributes). 100,000 nested elements stay within it.
        public var maxNodes: Int = 150_000

        public init() {}
    }

    /// The libxml2 options used for every parse (HTML 4 parser, recovering, no network).
    public static let parseOptions: Int32 = Int32(
        HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue
            | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | XML_PARSE_HUGE.rawValue
    )

    /// Renders one HTML part.
    ///
    /// - Parameters:
    ///   - html: The part's decoded text.
    ///   - partPath: The body-part path (`1.2`) recorded in every span.
    ///   - options: Size limits.
    /// - Returns: The rendered text, links, images, preheader and structured-data sources.
    ///   Never fails: unparseable input gives empty text and a warning.
    public static func render(html: String, partPath: String, options: Options = Options()) -> RenderedHTML {
        var warnings: [DocumentWarning] = []
        var bytes = preparedBytes(html: html)
        if bytes.count > options.maxInputBytes {
            warnings.append(
                DocumentWarning(
                    partPath: partPath,
                    message: "text/html part of \(bytes.count) bytes cut to \(options.maxInputBytes) bytes",
                    isLimit: true))
            bytes.removeSubrange(options.maxInputBytes...)
        }
        if let cut = HTMLCost.cut(bytes, maxSteps: options.maxParserSteps, maxNodes: options.maxNodes) {
            let reason =
                switch cut.reason {
                case .parserSteps:
                    "its nesting and attributes would cost the parser more than \(options.maxParserSteps) steps"
                case .nodes:
                    "it has more than \(options.maxNodes) elements, attributes and comments"
                }
            warnings.append(
                DocumentWarning(
                    partPath: partPath,
                    message: "text/html part cut at byte \(cut.offset) of \(bytes.count): \(reason)",
                    isLimit: true))
            bytes.removeSubrange(cut.offset...)
        }
        let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                    htmlReadMemory(chars, Int32(clamping: buffer.count), nil, "UTF-8", parseOptions)
                }
            }
        }
        guard let document else {
            if !bytes.isEmpty {
                warnings.append(
                    DocumentWarning(partPath: partPath, message: "libxml2 could not parse the HTML"))
            }
            return RenderedHTML(text: RenderedText(text: ""), warnings: warnings)
        }
        defer { xmlFreeDoc(document) }
        var walker = DOMWalker(partPath: partPath, options: options, capacity: min(bytes.count / 8, 16_384))
        walker.walk(document)
        var result = walker.finish()
        result.warnings.insert(contentsOf: warnings, at: 0)
        return result
    }

    /// The bytes handed to libxml2: UTF-8 without NUL bytes, a leading byte-order mark,
    /// Outlook's downlevel-revealed conditional markers (`<![if …]>`, `<![endif]>`), or a
    /// terminal's control functions (ECMA-48: `ESC[1m`, `ESC]0;title BEL`, 8-bit CSI U+009B …),
    /// written as bytes or as character references (`&#27;[1m`, `&#x9B;0m`): libxml2 drops the
    /// introducer and would leave `[1m` glued to the word after it ("Order number: [1mA-10023"
    /// read as `1mA-10023`). Each goes whole, as in text/plain (``TextSink``); one that keeps
    /// words apart (a control string) leaves a space.
    public static func preparedBytes(html: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(html.utf8.count)
        html.utf8.withContiguousStorageIfAvailable { input in
            strip(input, into: &output)
        }
            ?? {
                let copy = Array(html.utf8)
                copy.withUnsafeBufferPointer { strip($0, into: &output) }
            }()
        // Almost no markup holds one: looked for before anything is copied again.
        if output.withUnsafeBufferPointer(mayHoldControlFunctions) {
            output = withoutControlFunctions(output)
        }
        return output
    }

    private static func strip(_ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        var index = 0
        let count = input.count
        if count >= 3, input[0] == 0xEF, input[1] == 0xBB, input[2] == 0xBF { index = 3 }
        var runStart = index
        while index < count {
            let byte = input[index]
            if byte == 0 {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                index += 1
                runStart = index
                continue
            }
            if byte == UInt8(ascii: "<"), index + 3 < count, input[index + 1] == UInt8(ascii: "!"),
                input[index + 2] == UInt8(ascii: "["), let end = conditionalMarkerEnd(input, from: index + 3)
            {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                index = end
                runStart = index
                continue
            }
            index += 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<count]))
    }

    /// Whether markup may hold a terminal's control function: an ESC byte, a C1 introducer in
    /// UTF-8 (`C2 90`–`C2 9F`), or a numeric character reference to either (`&#27;`, `&#x9B;`).
    static func mayHoldControlFunctions(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Eight bytes at a time: a word with none of ESC, C2 and "&" is passed over at once.
        // (A byte of the word equals `b` when the word XOR `b` repeated has a zero byte.)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func holds(_ word: UInt64, _ byte: UInt8) -> Bool {
            let x = word ^ (ones &* UInt64(byte))
            return (x &- ones) & ~x & highs != 0
        }
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, let base = bytes.baseAddress {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if !holds(word, 0x1B) && !holds(word, 0xC2) && !holds(word, UInt8(ascii: "&")) {
                    index += 8
                    continue
                }
            }
            switch bytes[index] {
            case 0x1B: return true
            case 0xC2 where index + 1 < bytes.count && (0x90...0x9F).contains(bytes[index + 1]): return true
            case UInt8(ascii: "&"):
                if let (value, _) = numericReference(bytes, at: index),
                    value == 0x1B || (0x90...0x9F).contains(value)
                {
                    return true
                }
            default: break
            }
            index += 1
        }
        return false
    }

    /// Markup without a terminal's control functions (``TextSink/controlFunction(at:eightBit:_:)``,
    /// 7-bit and 8-bit): the numeric character references to C0 and C1 controls are read as
    /// the controls first (`&#27;]0;title&#7;` is an OSC ended by BEL), then each control
    /// function goes whole; one that keeps words apart leaves a space. What is left of the
    /// controls, libxml2 drops.
    static func withoutControlFunctions(_ bytes: [UInt8]) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        bytes.withUnsafeBufferPointer { input in
            var index = 0
            while index < input.count {
                if input[index] == UInt8(ascii: "&"), let (value, end) = numericReference(input, at: index),
                    value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value),
                    value != 0x09, value != 0x0A, value != 0x0D, value != 0
                {
                    if value < 0x80 {
                        decoded.append(UInt8(value))
                    } else {
                        decoded += [0xC2, UInt8(value)]
                    }
                    index = end
                    continue
                }
                decoded.append(input[index])
                index += 1
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(decoded.count)
        decoded.withUnsafeBufferPointer { input in
            func byte(_ index: Int) -> UInt8 { index < input.count ? input[index] : 0 }
            var index = 0
            while index < input.count {
                let value = input[index]
                if value == 0x1B || value == 0xC2,
                    let extent = TextSink.controlFunction(at: index, eightBit: true, byte)
                {
                    if extent.separatesWords { output.append(0x20) }
                    index = extent.end
                    continue
                }
                output.append(value)
                index += 1
            }
        }
        return output
    }

    /// A numeric character reference at `start` (`&#27;`, `&#x1b;`, `&#0027;`; the `;` is
    /// needed here), its value and the index after it; `nil` for anything else or a value past
    /// 0x10FFFF.
    static func numericReference(_ input: UnsafeBufferPointer<UInt8>, at start: Int) -> (Int, Int)? {
        var index = start + 1
        guard index < input.count, input[index] == UInt8(ascii: "#") else { return nil }
        index += 1
        var hex = false
        if index < input.count, input[index] | 0x20 == UInt8(ascii: "x") {
            hex = true
            index += 1
        }
        var value = 0
        let first = index
        while index < input.count, index - first < 8 {
            let byte = input[index]
            let digit: Int
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(byte) - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = Int(byte) - 0x61 + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = Int(byte) - 0x41 + 10
            default: digit = -1
            }
            if digit < 0 { break }
            value = value * (hex ? 16 : 10) + digit
            index += 1
        }
        guard index > first, index < input.count, input[index] == UInt8(ascii: ";"), value <= 0x10FFFF else {
            return nil
        }
        return (value, index + 1)
    }

    /// After `<![`: when an `if …]>` or `endif]>` marker follows, the index just past it.
    private static func conditionalMarkerEnd(_ input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < input.count, input[index] == 0x20 { index += 1 }
        func matches(_ word: String) -> Bool {
            var position = index
            for expected in word.utf8 {
                guard position < input.count, input[position] | 0x20 == expected else { return false }
                position += 1
            }
            return true
        }
        guard matches("if") || matches("endif") else { return nil }
        // The marker ends at the first "]>" within a short distance, never across a tag.
        var position = index
        let limit = min(input.count - 1, index + 200)
        while position < limit {
            if input[position] == UInt8(ascii: "]"), input[position + 1] == UInt8(ascii: ">") {
                return position + 2
            }
            if input[position] == UInt8(ascii: "<") || input[position] == UInt8(ascii: "-") { return nil }
            position += 1
        }
        return nil
    }
}
