import Foundation
import MIME

// CONTRACT TYPES: the Extraction stage codes against these names. Fields may be added.

/// What extraction reads: one email as a careful person sees it, plus the machine-readable
/// data senders embed in it.
public struct MailDocument: Sendable {
    public var subject: String?
    /// The sender (From, else Sender), with domains resolved.
    public var sender: Sender?
    public var recipients: [MailAddress]
    /// The first Reply-To mailbox, with domains resolved (RFC 5322 §3.6.2): a platform that
    /// sends for many shops often names the shop's own address here.
    public var replyTo: Sender?
    /// The Date header field.
    public var date: Date?
    /// The zone the Date header field was written in (RFC 5322 §3.3), so that "today" and
    /// "tomorrow" in the body are read on the sender's calendar day; `nil` when unknown
    /// (the day is then read in UTC).
    public var dateTimeZone: TimeZone?
    public var messageID: String?
    /// The message identifiers of In-Reply-To (RFC 5322 §3.6.4), with angle brackets: not
    /// empty when the message answers another.
    public var inReplyTo: [String] = []
    /// The message identifiers of References (RFC 5322 §3.6.4), oldest first, with angle
    /// brackets: not empty when the message follows others in a thread.
    public var references: [String] = []
    /// Visible text of the preferred text/plain part, when there is one.
    public var plainText: RenderedText?
    /// Visible text of the preferred text/html part, when there is one.
    public var htmlText: RenderedText?
    /// The hidden preheader text of the HTML part, when there is one.
    public var preheader: String?
    /// Links in document order (HTML anchors, then bare URLs in plain text).
    public var links: [Link]
    /// Images with their alt text, in document order.
    public var images: [ImageReference]
    /// schema.org objects from JSON-LD and microdata, normalized.
    public var structuredData: [SchemaObject]
    /// Wallet orders attached as `.order` bundles.
    public var attachedOrders: [AttachedOrder]
    /// Other attachments, listed.
    public var attachments: [AttachmentSummary]
    /// The `<title>` of the HTML part, when it has one.
    public var htmlTitle: String?
    /// Raw JSON-LD blocks as found in the HTML, before repair (for inspection and evidence).
    public var jsonLDBlocks: [JSONLDBlock] = []
    /// What was repaired, skipped or refused while building the document.
    public var warnings: [DocumentWarning] = []
    /// How the forwarded original was found, when there is one.
    public var forwardStyle: ForwardStyle?
    /// The forwarded original, when this email forwards one (inline or message/rfc822).
    public var forwardedOriginal: MailDocument? {
        get { forwarded.first }
        set { forwarded = newValue.map { [$0] } ?? [] }
    }
    private var forwarded: [MailDocument] = []

    public init(
        subject: String? = nil, sender: Sender? = nil, recipients: [MailAddress] = [],
        date: Date? = nil, messageID: String? = nil, plainText: RenderedText? = nil,
        htmlText: RenderedText? = nil, preheader: String? = nil, links: [Link] = [],
        images: [ImageReference] = [], structuredData: [SchemaObject] = [],
        attachedOrders: [AttachedOrder] = [], attachments: [AttachmentSummary] = [],
        forwardedOriginal: MailDocument? = nil
    ) {
        self.subject = subject
        self.sender = sender
        self.recipients = recipients
        self.date = date
        self.messageID = messageID
        self.plainText = plainText
        self.htmlText = htmlText
        self.preheader = preheader
        self.links = links
        self.images = images
        self.structuredData = structuredData
        self.attachedOrders = attachedOrders
        self.attachments = attachments
        self.forwardedOriginal = forwardedOriginal
    }
}

/// The sender of an email with its domain and registrable domain (public suffix list).
public struct Sender: Sendable, Hashable {
    public var name: String?
    public var address: String
    /// Lower-cased domain of the addr-spec, e.g. `mail.shop.example.co.uk`.
    public var domain: String?
    /// The registrable domain (eTLD+1) from the public suffix list, e.g. `example.co.uk`.
    public var registrableDomain: String?

    public init(name: String?, address: String, domain: String?, registrableDomain: String?) {
        self.name = name
        self.address = address
        self.domain = domain
        self.registrableDomain = registrableDomain
    }
}

/// Rendered visible text with layout: lines, and tab-separated table cells.
public struct RenderedText: Sendable {
    /// The text: lines separated by `\n`, table cells within a row by `\t`.
    public var text: String
    /// Spans of ``text`` with where each came from, in order, covering all of ``text``
    /// except the separators.
    public var spans: [TextSpan]
    /// Text the sender hid from view (inline `display:none`, `font-size:0`, the `hidden`
    /// attribute, …), one hidden block per line, kept apart from ``text``.
    public var hiddenText: String
    /// Spans of ``hiddenText`` with where each came from.
    public var hiddenSpans: [TextSpan]
    /// In a reply, the quoted earlier message cut from the end of ``text``, found by its
    /// attribution line or quoted block (``ReplyQuote``) or, in HTML, by its mail client's
    /// quote markup (``HTMLQuoteStart``): kept for inspection, not read for fields. Empty
    /// otherwise.
    public var quotedText = ""
    /// In a text/plain rendition, the UTF-8 offset in ``text`` of each space that stands for a
    /// tab, a run of two or more spaces or an ideographic space (U+3000) in the body
    /// (``PlainTextRenderer``), in order: where a table laid out with spaces has its cell
    /// boundaries ("Mug      1   $12.00", "湯呑み　2点　¥3,980"). Empty for
    /// HTML, and for text cut from another rendition.
    public var wideGaps: [Int] = []

    public init(text: String, spans: [TextSpan] = [], hiddenText: String = "", hiddenSpans: [TextSpan] = []) {
        self.text = text
        self.spans = spans
        self.hiddenText = hiddenText
        self.hiddenSpans = hiddenSpans
    }

    /// The lines of ``text``.
    public var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// Appends another rendition of the same kind (the next inline text part of a
    /// multipart/mixed) as a paragraph of its own: a blank line, then its text; its spans,
    /// hidden text and wide gaps follow, moved by the UTF-8 length before it.
    /// - Parameter next: the rendition to append.
    /// - Returns: the UTF-8 offset in ``text`` where `next`'s text now starts (to move its
    ///   links by).
    @discardableResult
    public mutating func append(paragraph next: RenderedText) -> Int {
        if next.text.isEmpty && next.hiddenText.isEmpty { return text.utf8.count }
        if !text.isEmpty { text += "\n\n" }
        let offset = text.utf8.count
        text += next.text
        spans += Self.moved(next.spans, by: offset)
        wideGaps += next.wideGaps.map { $0 + offset }
        if !next.hiddenText.isEmpty {
            if !hiddenText.isEmpty { hiddenText += "\n" }
            let hiddenOffset = hiddenText.utf8.count
            hiddenText += next.hiddenText
            hiddenSpans += Self.moved(next.hiddenSpans, by: hiddenOffset)
        }
        return offset
    }

    /// Spans with their ranges moved `offset` UTF-8 bytes on.
    private static func moved(_ spans: [TextSpan], by offset: Int) -> [TextSpan] {
        spans.map { span in
            var span = span
            span.range = (span.range.lowerBound + offset)..<(span.range.upperBound + offset)
            return span
        }
    }
}

/// Where a piece of rendered text came from.
public struct TextSpan: Sendable, Hashable {
    /// UTF-8 byte range in ``RenderedText/text``.
    public var range: Range<Int>
    /// The body-part path (`1.2`).
    public var partPath: String
    /// A DOM path for HTML (`html/body/table[1]/tr[3]/td[2]`), or `line N` for plain text.
    public var location: String

    public init(range: Range<Int>, partPath: String, location: String) {
        self.range = range
        self.partPath = partPath
        self.location = location
    }
}

/// A hyperlink.
public struct Link: Sendable, Hashable {
    /// The href as written.
    public var href: String
    /// The target after unwrapping click-tracker redirects (equals `href` when none).
    public var target: String
    /// The visible anchor text (or the image alt text of a linked image).
    public var text: String
    /// UTF-8 offset in the rendered HTML text (or plain text) where the anchor starts.
    public var position: Int
    /// Whether the anchor is in hidden content.
    public var isHidden: Bool
    /// Whether the link was found in the HTML part (an anchor) or the plain text (a bare URL);
    /// ``position`` counts in that text (in ``RenderedText/hiddenText`` when ``isHidden``).
    public var origin: TextOrigin

    public init(
        href: String, target: String, text: String, position: Int, isHidden: Bool = false,
        origin: TextOrigin = .html
    ) {
        self.href = href
        self.target = target
        self.text = text
        self.position = position
        self.isHidden = isHidden
        self.origin = origin
    }
}

/// An image with its alt text.
public struct ImageReference: Sendable, Hashable {
    public var source: String
    public var alt: String?
    public var position: Int
    /// Whether the image is in hidden content.
    public var isHidden: Bool

    public init(source: String, alt: String?, position: Int, isHidden: Bool = false) {
        self.source = source
        self.alt = alt
        self.position = position
        self.isHidden = isHidden
    }
}

/// Which rendered text a position counts in.
public enum TextOrigin: String, Sendable, Hashable {
    case html
    case plain
}

/// A JSON-LD `<script>` block as found in the HTML.
public struct JSONLDBlock: Sendable, Hashable {
    /// The script's text, unrepaired.
    public var text: String
    /// The body-part path (`1.2`).
    public var partPath: String
    /// The DOM path of the `<script>` element.
    public var location: String

    public init(text: String, partPath: String, location: String) {
        self.text = text
        self.partPath = partPath
        self.location = location
    }
}

/// Something repaired, skipped or refused while building a document.
public struct DocumentWarning: Sendable, Hashable, CustomStringConvertible {
    /// The body-part path the warning is about, when it is about one part.
    public var partPath: String?
    /// A one-line description.
    public var message: String
    /// Whether a resource limit left part of the email unread (an HTML part cut at its size
    /// or parser-work limit, links or images past their count): what it held may be missing.
    public var isLimit: Bool

    /// - Parameters:
    ///   - partPath: the body-part path, when the warning is about one part.
    ///   - message: a one-line description.
    ///   - isLimit: a resource limit left part of the email unread (``isLimit``).
    public init(partPath: String? = nil, message: String, isLimit: Bool = false) {
        self.partPath = partPath
        self.message = message
        self.isLimit = isLimit
    }

    public var description: String {
        if let partPath { return "part \(partPath): \(message)" }
        return message
    }
}

/// How a forwarded original was recognised.
public enum ForwardStyle: String, Sendable, Hashable {
    /// A `message/rfc822` attachment.
    case attachedMessage
    /// Gmail's "---------- Forwarded message ---------" block and its translations.
    case gmail
    /// Outlook's "-----Original Message-----" marker or its "From: … Sent: …" header block.
    case outlook
    /// Apple Mail's "Begin forwarded message:" and its translations.
    case appleMail
    /// A bare header block (From, Date or Subject lines) after a separator line.
    case headerBlock
}

/// A JSON value, as decoded from JSON-LD, microdata or an attached `order.json`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

/// A schema.org object normalized to the small model extraction needs.
///
/// `type` is the bare schema.org type (`Order`, `ParcelDelivery`, `Organization`, `Offer`,
/// `Product`, `PostalAddress`, …); `properties` hold the values with synonyms folded
/// (`seller`/`vendor` → `merchant`, `provider` → `carrier`) and nested objects as
/// ``SchemaObject`` values inside ``JSONValue/object``.
public struct SchemaObject: Sendable, Hashable {
    public var type: String
    public var properties: [String: JSONValue]
    /// `jsonld` or `microdata`.
    public var origin: String

    public init(type: String, properties: [String: JSONValue], origin: String) {
        self.type = type
        self.properties = properties
        self.origin = origin
    }
}

/// A Wallet order bundle attached to the email.
public struct AttachedOrder: Sendable, Hashable {
    public var filename: String?
    /// The decoded `order.json`.
    public var order: JSONValue

    public init(filename: String?, order: JSONValue) {
        self.filename = filename
        self.order = order
    }
}

/// An attachment that is not read further.
public struct AttachmentSummary: Sendable, Hashable {
    public var filename: String?
    public var contentType: String
    public var size: Int
    public var contentID: String?

    public init(filename: String?, contentType: String, size: Int, contentID: String? = nil) {
        self.filename = filename
        self.contentType = contentType
        self.size = size
        self.contentID = contentID
    }
}
