import Extraction

/// The kind of email a merchant says it is checking (`--expect`).
public enum ExpectedKind: String, Codable, Sendable, Hashable, CaseIterable {
    case confirmation, shipping, delivery

    /// The email kinds that satisfy this expectation.
    public var acceptedKinds: Set<EmailKind> {
        switch self {
        case .confirmation: [.orderConfirmation]
        case .shipping: [.shippingConfirmation]
        case .delivery: [.deliveryUpdate]
        }
    }

    /// The kind a reader should have read, as the extraction JSON names it.
    public var emailKind: EmailKind {
        switch self {
        case .confirmation: .orderConfirmation
        case .shipping: .shippingConfirmation
        case .delivery: .deliveryUpdate
        }
    }
}

/// One value read from the email, with where it was found and how sure the reader is.
public struct FoundField: Codable, Sendable, Hashable {
    /// The field as the extraction JSON names it, e.g. `orderNumber`, `shipments[0].trackingNumber`.
    public var field: String
    /// The value as a person reads it.
    public var value: String
    /// Where it was found: `order`, `markup`, `link`, `label`, `pattern`, `subject`, `sender`,
    /// `rules`, `body`, or `hidden` (hidden text).
    public var source: String?
    /// The text around the value.
    public var snippet: String?
    /// How sure the reader is, 0–1.
    public var confidence: Double?
    /// Where in the document (part path and DOM path), when known.
    public var location: String?

    public init(
        field: String, value: String, source: String? = nil, snippet: String? = nil,
        confidence: Double? = nil, location: String? = nil
    ) {
        self.field = field
        self.value = value
        self.source = source
        self.snippet = snippet
        self.confidence = confidence
        self.location = location
    }
}

/// What checking one email found: the fields read, the findings, and the Wallet preview.
public struct CheckReport: Sendable {
    /// Where the email came from, e.g. `confirmation.eml` or `-`.
    public var origin: String
    public var subject: String?
    /// The sender's address.
    public var senderAddress: String?
    /// The sender's registrable domain, e.g. `example.com`.
    public var senderDomain: String?
    /// The kind read.
    public var kind: EmailKind
    /// The kind the merchant expected, when given.
    public var expected: ExpectedKind?
    /// The values read, in a stable order (merchant, order, shipments, dates, items, total).
    public var fields: [FoundField]
    /// What is wrong or could be better, errors first.
    public var findings: [Finding]
    /// The Wallet `order.json` this email would produce, pretty-printed; `nil` when the email
    /// gives no order.
    public var walletOrderJSON: String?
    /// The extraction the report is based on.
    public var extraction: ExtractionResult
    /// The email's visible text as rendered, shown in the HTML report when the email has no HTML.
    public var renderedText: String?
    /// The email's HTML body, shown in the HTML report's preview.
    public var emailHTML: String?

    public init(
        origin: String, subject: String? = nil, senderAddress: String? = nil, senderDomain: String? = nil,
        kind: EmailKind, expected: ExpectedKind? = nil, fields: [FoundField] = [], findings: [Finding] = [],
        walletOrderJSON: String? = nil, extraction: ExtractionResult, renderedText: String? = nil
    ) {
        self.origin = origin
        self.subject = subject
        self.senderAddress = senderAddress
        self.senderDomain = senderDomain
        self.kind = kind
        self.expected = expected
        self.fields = fields
        self.findings = findings
        self.walletOrderJSON = walletOrderJSON
        self.extraction = extraction
        self.renderedText = renderedText
    }

    /// Whether any finding is an error (the command exits 1 when any report has one).
    public var hasErrors: Bool { findings.contains { $0.severity == .error } }

    /// How many findings of a severity.
    public func count(_ severity: Severity) -> Int { findings.filter { $0.severity == severity }.count }

    /// The value of a field, when found.
    public func value(of field: String) -> String? { fields.first { $0.field == field }?.value }
}

/// An input that could not be checked because it could not be read as an email: a file that
/// is not there or is not mail, an empty file, a message over the size limit. The reports list
/// each one, as `scan` lists what it skips.
public struct SkippedInput: Sendable, Hashable {
    /// The path as given, or `path#N` for the `N`-th message of an mbox.
    public var origin: String
    /// Where the message starts in its file, in bytes (0 for a file of one message; in an
    /// mbox, the byte after its `From ` line); `nil` when there is no such place (an mbox
    /// without that message, a file that could not be opened).
    public var byteOffset: Int?
    /// Why it could not be read, e.g. `empty file`.
    public var reason: String

    public init(origin: String, byteOffset: Int? = nil, reason: String) {
        self.origin = origin
        self.byteOffset = byteOffset
        self.reason = reason
    }
}
