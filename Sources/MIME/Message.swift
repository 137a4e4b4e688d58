import Foundation

/// A parsed Internet message (RFC 5322) with its MIME structure (RFC 2045–2049).
///
/// Parsing never aborts on malformed input that still has a recognisable header
/// section: what can be decoded is decoded and every repair is recorded in ``warnings``.
public struct Message: Sendable {
    /// The message's header section, in order.
    public var header: Header
    /// The top-level body part; for a single-part message it holds the whole body.
    public var root: BodyPart
    /// Everything that was repaired, guessed or skipped while parsing, in order.
    public var warnings: [MIMEWarning]

    public init(header: Header, root: BodyPart, warnings: [MIMEWarning]) {
        self.header = header
        self.root = root
        self.warnings = warnings
    }
}

/// One header field: its name and its unfolded value.
public struct HeaderField: Sendable, Hashable {
    /// The field name as written (compare case-insensitively).
    public var name: String
    /// The unfolded field body as raw bytes (CRLF + WSP removed, RFC 5322 §2.2.3).
    public var rawValue: [UInt8]

    public init(name: String, rawValue: [UInt8]) {
        self.name = name
        self.rawValue = rawValue
    }
}

/// An ordered header section (RFC 5322 §2.2).
public struct Header: Sendable, Hashable {
    public var fields: [HeaderField]

    public init(fields: [HeaderField] = []) {
        self.fields = fields
    }
}

/// A media type with its parameters (RFC 2045 §5.1, RFC 2231).
public struct MediaType: Sendable, Hashable {
    /// Lower-cased top-level type, e.g. `text`.
    public var type: String
    /// Lower-cased subtype, e.g. `html`.
    public var subtype: String
    /// Parameters with lower-cased names and decoded values (RFC 2231 continuations joined).
    public var parameters: [String: String]

    public init(type: String, subtype: String, parameters: [String: String] = [:]) {
        self.type = type
        self.subtype = subtype
        self.parameters = parameters
    }

    /// `type/subtype`, lower-cased.
    public var essence: String { "\(type)/\(subtype)" }
}

/// A Content-Transfer-Encoding value (RFC 2045 §6).
public enum TransferEncoding: Sendable, Hashable {
    case sevenBit, eightBit, binary, quotedPrintable, base64
    /// A value this parser does not know; the body is treated as 8bit.
    case unknown(String)
}

/// A mailbox: an optional display name and an addr-spec (RFC 5322 §3.4).
public struct MailAddress: Sendable, Hashable, Codable {
    /// The decoded display name, when one was given.
    public var name: String?
    /// The addr-spec, `local-part@domain`.
    public var address: String
    /// The group this mailbox was listed in (RFC 5322 §3.4 `group`), if any.
    public var group: String?

    public init(name: String? = nil, address: String, group: String? = nil) {
        self.name = name
        self.address = address
        self.group = group
    }

    /// The domain of the addr-spec, lower-cased; `nil` when there is no `@`, nothing after it,
    /// or when it holds a control character (C0 such as ESC, DEL, C1) or white space, which no
    /// domain holds (RFC 5322 §3.4.1 `dot-atom`, RFC 1035 §2.3.1): such an addr-spec names no
    /// host, so it gives no sender domain.
    public var domain: String? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let domain = address[address.index(after: at)...]
        guard !domain.isEmpty, MailAddress.isDomainText(domain) else { return nil }
        return domain.lowercased()
    }

    /// Whether `text` may be a domain as far as its characters go: no control character
    /// (Unicode general category Cc: U+0000–U+001F, U+007F–U+009F) and no white space.
    /// - Parameter text: a domain, e.g. the part of an addr-spec after `@`.
    /// - Returns: `false` when any such character is in `text`.
    public static func isDomainText(_ text: some StringProtocol) -> Bool {
        // Printable ASCII, as nearly every domain is: nothing more to look at.
        if text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { return true }
        return !text.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
        }
    }
}

/// Something the parser repaired, guessed or skipped.
public struct MIMEWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The body-part path (`1.2`) the warning is about, or `nil` for the header section.
    public var partPath: String?
    /// The byte offset in the message where the problem was seen, when known.
    public var byteOffset: Int?
    /// A one-line description.
    public var message: String

    public init(partPath: String? = nil, byteOffset: Int? = nil, message: String) {
        self.partPath = partPath
        self.byteOffset = byteOffset
        self.message = message
    }

    public var description: String {
        var prefix = ""
        if let partPath { prefix += "part \(partPath): " }
        if let byteOffset { prefix += "byte \(byteOffset): " }
        return prefix + message
    }
}

/// Why a message could not be parsed at all.
public struct MIMEError: Error, Sendable, Hashable, CustomStringConvertible {
    public var byteOffset: Int?
    public var reason: String

    public init(byteOffset: Int? = nil, reason: String) {
        self.byteOffset = byteOffset
        self.reason = reason
    }

    public var description: String {
        if let byteOffset { return "byte \(byteOffset): \(reason)" }
        return reason
    }
}
