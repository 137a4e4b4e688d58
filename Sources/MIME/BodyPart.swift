import Foundation

/// One body part of a MIME message (RFC 2045), possibly a multipart container or an
/// encapsulated `message/rfc822`.
public struct BodyPart: Sendable {
    /// The part's position in the tree as dot-separated 1-based indexes: `1`, `1.2`, `1.2.1`.
    public var path: String
    /// The part's own header fields.
    public var header: Header
    /// The Content-Type, defaulted as RFC 2045 §5.2 says (`text/plain; charset=us-ascii`,
    /// or `message/rfc822` inside `multipart/digest`).
    public var contentType: MediaType
    /// The Content-Transfer-Encoding.
    public var transferEncoding: TransferEncoding
    /// `inline` or `attachment` (lower-cased), when a Content-Disposition was given.
    public var disposition: String?
    /// The decoded file name (RFC 2231 / RFC 2047), from `filename` or else `name`.
    public var filename: String?
    /// The Content-ID without angle brackets.
    public var contentID: String?
    /// Child parts of a multipart/* part, in order.
    public var children: [BodyPart]
    /// For text/* parts: the decoded text (transfer encoding undone, charset converted,
    /// `format=flowed` unwrapped). `nil` for other parts.
    public var text: String?
    /// The charset actually used to decode ``text`` (after alias mapping or detection).
    public var charset: String?
    /// The body as it appears in the message, transfer encoding still applied.
    public var rawBody: ArraySlice<UInt8>
    /// The encapsulated message of a `message/rfc822` part.
    public var encapsulatedMessage: Message? {
        get { encapsulated.first }
        set { encapsulated = newValue.map { [$0] } ?? [] }
    }
    private var encapsulated: [Message] = []

    public init(
        path: String, header: Header, contentType: MediaType, transferEncoding: TransferEncoding,
        disposition: String? = nil, filename: String? = nil, contentID: String? = nil,
        children: [BodyPart] = [], text: String? = nil, charset: String? = nil,
        rawBody: ArraySlice<UInt8> = [], encapsulatedMessage: Message? = nil
    ) {
        self.path = path
        self.header = header
        self.contentType = contentType
        self.transferEncoding = transferEncoding
        self.disposition = disposition
        self.filename = filename
        self.contentID = contentID
        self.children = children
        self.text = text
        self.charset = charset
        self.rawBody = rawBody
        self.encapsulatedMessage = encapsulatedMessage
    }
}
