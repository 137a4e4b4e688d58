// The merchant email checker: findings, fixes, the Wallet preview and the HTML report.

/// How much a finding matters to a merchant gating a template release.
public enum Severity: String, Codable, Sendable, Hashable, CaseIterable, Comparable {
    /// Readers will miss or misread the order: fix before sending.
    case error
    /// Some readers will miss something, or the email reads less reliably.
    case warning
    /// A suggestion.
    case info

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// One thing wrong with an email, or to improve: a stable code, what is wrong, how to fix it.
public struct Finding: Codable, Sendable, Hashable {
    /// The stable code, e.g. `MO101` (see ``FindingCode``).
    public var code: String
    public var severity: Severity
    /// One line saying what is wrong.
    public var message: String
    /// One line saying how to fix it.
    public var fix: String
    /// The text from the email the finding is about, when there is one.
    public var evidence: String?

    public init(code: String, severity: Severity, message: String, fix: String, evidence: String? = nil) {
        self.code = code
        self.severity = severity
        self.message = message
        self.fix = fix
        self.evidence = evidence
    }
}

/// The finding codes: each with its severity, a title, and the fix suggested.
///
/// Codes are stable: a code is never reused for a different problem. `MO1xx` are about the
/// merchant and the order number, `MO2xx` about shipments, `MO3xx` about hidden text, `MO4xx`
/// about consistency across several emails, `MO5xx` about schema.org markup, `MO6xx` about
/// the kind of email, `MO7xx` about what a reader leaves unread or reads as absent.
public struct FindingCode: Sendable, Hashable {
    public var code: String
    public var severity: Severity
    /// A short title, e.g. "Merchant name not visible in the body".
    public var title: String
    /// The fix suggested.
    public var fix: String

    /// A finding of this code with its message and evidence.
    /// - Parameters:
    ///   - message: one line saying what is wrong in this email.
    ///   - evidence: the text the finding is about.
    ///   - fix: how to fix it in this email, when more precise than the code's ``fix``.
    /// - Returns: the finding.
    public func finding(_ message: String, evidence: String? = nil, fix: String? = nil) -> Finding {
        Finding(code: code, severity: severity, message: message, fix: fix ?? self.fix, evidence: evidence)
    }

    public static let merchantNotFound = FindingCode(
        code: "MO100", severity: .error, title: "Merchant not identified",
        fix: "Write the shop's name as text in the body (e.g. \"Thank you for shopping at Example Shop\") "
            + "and send from the shop's own domain.")
    public static let merchantNotInBody = FindingCode(
        code: "MO101", severity: .warning, title: "Merchant name not visible as text in the body",
        fix: "Write the shop's name as text in the body, not only in the logo image or the sender name.")
    public static let orderNumberOnlyInSubject = FindingCode(
        code: "MO102", severity: .warning, title: "Order number only in the subject",
        fix: "Repeat the order number in the body next to a label, e.g. \"Order number: A-10023\".")
    public static let orderNumberMissing = FindingCode(
        code: "MO103", severity: .error, title: "Order number missing",
        fix: "Print the order number in the body next to a label, e.g. \"Order number: A-10023\".")
    public static let orderNumberNotInBody = FindingCode(
        code: "MO104", severity: .warning, title: "Order number only in markup or an attachment",
        fix: "Print the order number as text in the body as well, next to a label such as \"Order number:\".")
    public static let trackingNumberMissing = FindingCode(
        code: "MO201", severity: .error, title: "Shipping email without a tracking number",
        fix: "Print the tracking number as text in the body, e.g. \"Tracking number: 1Z999AA10123456784\".")
    public static let trackingNumberNotAsText = FindingCode(
        code: "MO202", severity: .error, title: "Tracking number not written as text",
        fix: "Print the tracking number as text in the body, not only inside a link or an image.")
    public static let carrierNotNamed = FindingCode(
        code: "MO203", severity: .warning, title: "Carrier not named",
        fix: "Name the carrier next to the tracking number, e.g. \"Carrier: UPS\".")
    public static let trackingLinkMissing = FindingCode(
        code: "MO204", severity: .warning, title: "No tracking link",
        fix: "Link the tracking number to the carrier's tracking page.")
    public static let checkDigitInvalid = FindingCode(
        code: "MO205", severity: .error, title: "Tracking number fails its carrier's check digit",
        fix: "Check the template inserts the full tracking number, with no digit missing, added or changed.")
    public static let orderNumberHidden = FindingCode(
        code: "MO301", severity: .error, title: "Order number only in hidden text",
        fix: "Show the order number in visible text; hidden text (display:none, font-size:0, preheaders) "
            + "is ignored by readers and penalised by spam filters.")
    public static let trackingNumberHidden = FindingCode(
        code: "MO302", severity: .error, title: "Tracking number only in hidden text",
        fix: "Show the tracking number in visible text; hidden text (display:none, font-size:0, preheaders) "
            + "is ignored by readers and penalised by spam filters.")
    public static let senderDomainInconsistent = FindingCode(
        code: "MO401", severity: .warning, title: "Sender domain differs across the merchant's emails",
        fix: "Send every order email from the same registrable domain, so readers link them to one shop.")
    public static let markupAbsent = FindingCode(
        code: "MO501", severity: .info, title: "No schema.org order markup",
        fix: "Add a JSON-LD <script type=\"application/ld+json\"> with a schema.org Order "
            + "(or ParcelDelivery for shipping emails).")
    public static let markupMissingProperty = FindingCode(
        code: "MO502", severity: .warning, title: "schema.org markup missing a required property",
        fix: "Add the missing property to the markup.")
    public static let markupUnknownStatus = FindingCode(
        code: "MO503", severity: .warning, title: "Unknown schema.org OrderStatus",
        fix: "Use one of the schema.org OrderStatus values, e.g. \"https://schema.org/OrderInTransit\".")
    public static let markupTrackingNumberDiffers = FindingCode(
        code: "MO504", severity: .error, title: "Tracking number in markup differs from the text",
        fix: "Fill the markup's trackingNumber from the same value the body prints.")
    public static let markupOrderNumberDiffers = FindingCode(
        code: "MO505", severity: .error, title: "Order number in markup differs from the text",
        fix: "Fill the markup's orderNumber from the same value the body prints.")
    public static let markupNotValidJSON = FindingCode(
        code: "MO506", severity: .warning, title: "JSON-LD block is not valid JSON",
        fix: "Generate the JSON-LD with a JSON encoder: no trailing commas, comments, single quotes or "
            + "unescaped quotes.")
    public static let kindUnexpected = FindingCode(
        code: "MO601", severity: .error, title: "Not the kind of email expected",
        fix: "Use words readers recognise for the kind given with --expect in the subject and a heading "
            + "(e.g. \"Your order has shipped\" for a shipping confirmation); see the kinds in rules/languages."
    )

    /// The fix of ``kindUnexpected`` for an email expected to be of kind `expected`: the
    /// words that make it read as that kind.
    /// - Parameters:
    ///   - expected: the kind given with `--expect`.
    ///   - phrases: that kind's words in the email's language (`kinds` of its
    ///     `rules/languages/<code>.json5`); the first two are quoted. English examples when
    ///     `nil` or empty.
    /// - Returns: one line.
    public static func kindUnexpectedFix(expected: ExpectedKind, phrases: [String]? = nil) -> String {
        var examples: String
        switch expected {
        case .confirmation: examples = "\"Thank you for your order\" or \"Order confirmation\""
        case .shipping: examples = "\"Your order has shipped\" or \"Shipping confirmation\""
        case .delivery: examples = "\"Your package was delivered\" or \"Out for delivery\""
        }
        if let phrases, !phrases.isEmpty {
            examples = phrases.prefix(2).map { "\"\($0)\"" }.joined(separator: " or ")
        }
        let kind = expected.emailKind.rawValue
        return "Use words readers recognise for \(MerchantEmailChecker.describe(expected.emailKind)), e.g. "
            + "\(examples) in the subject and a heading; see `\(kind)` in rules/languages."
    }
    public static let notAnOrder = FindingCode(
        code: "MO602", severity: .warning, title: "Not read as an order email",
        fix: "Say what the email is about in the subject and a heading (\"Order confirmation\", "
            + "\"Your order has shipped\") and print the order number.")

    public static let notFullyRead = FindingCode(
        code: "MO701", severity: .warning, title: "Part of the email past what a reader reads",
        fix: "Keep the rendered text under 2 MB and the item table under 50 rows, and print the order "
            + "number, carrier and tracking number near the top.")
    public static let dateAfterCheck = FindingCode(
        code: "MO702", severity: .warning, title: "Date header field in the future",
        fix: "Set the Date header field from the sending server's clock when the email is sent, with its "
            + "zone offset (RFC 5322 §3.3), e.g. \"Date: Tue, 01 Dec 2026 09:30:00 +0000\".")

    /// Every code, in code order.
    public static let all: [FindingCode] = [
        merchantNotFound, merchantNotInBody, orderNumberOnlyInSubject, orderNumberMissing,
        orderNumberNotInBody, trackingNumberMissing, trackingNumberNotAsText, carrierNotNamed,
        trackingLinkMissing, checkDigitInvalid, orderNumberHidden, trackingNumberHidden,
        senderDomainInconsistent, markupAbsent, markupMissingProperty, markupUnknownStatus,
        markupTrackingNumberDiffers, markupOrderNumberDiffers, markupNotValidJSON, kindUnexpected, notAnOrder,
        notFullyRead, dateAfterCheck,
    ]
}
