import Foundation

// PLACEHOLDER SIGNATURES: the MIME work replaces these bodies; the signatures are the
// contract the MailDocument stage codes against.

/// Limits that keep a hostile message from exhausting memory or the stack.
public struct MIMELimits: Sendable, Hashable {
    public var maxNestingDepth: Int = 32
    public var maxHeaderFields: Int = 2_000
    public var maxHeaderBytes: Int = 1 << 20
    public var maxParts: Int = 2_000
    public init() {}
    public static let `default` = MIMELimits()
}

extension Message {
    /// Parses one message from its bytes (LF, CRLF or bare CR line endings).
    /// - Throws: ``MIMEError`` when no header section can be recognised at all.
    public init(bytes: [UInt8], limits: MIMELimits = .default) throws(MIMEError) {
        throw MIMEError(reason: "not implemented yet")
    }

    public var subject: String? { header["Subject"] }
    public var from: [MailAddress] { [] }
    public var to: [MailAddress] { [] }
    public var cc: [MailAddress] { [] }
    public var replyTo: [MailAddress] { [] }
    public var date: Date? { nil }
    public var messageID: String? { nil }
    public var inReplyTo: [String] { [] }
    public var references: [String] { [] }
    /// The preferred text/plain body (multipart/alternative rules, RFC 2046 §5.1.4).
    public var textBody: BodyPart? { nil }
    /// The preferred text/html body.
    public var htmlBody: BodyPart? { nil }
    /// Parts that are attachments (not the chosen text bodies, not containers).
    public var attachments: [BodyPart] { [] }
    /// Every part, depth first, including the root, not descending into encapsulated messages.
    public var allParts: [BodyPart] { [] }
}

extension Header {
    /// The first field of that name, its value unfolded and RFC 2047-decoded.
    public subscript(name: String) -> String? { nil }
    /// All fields of that name, decoded.
    public func values(_ name: String) -> [String] { [] }
}

extension BodyPart {
    /// The body with its transfer encoding undone.
    public func decodedBytes() -> [UInt8] { Array(rawBody) }
}
