import Extraction
import Foundation
import MIME
import MailDocument

extension CarrierProfile {
    /// The checker's view of a carrier from its rules file (`rules/carriers/<id>.json5`).
    /// - Parameter rule: the carrier rule.
    public init(rule: CarrierRule) {
        var hosts = rule.urlPatterns.map(\.host)
        if let template = rule.trackingURLTemplate,
            let host = URLComponents(string: template.replacingOccurrences(of: "{number}", with: "0"))?.host
        {
            hosts.append(host.hasPrefix("www.") ? String(host.dropFirst(4)) : host)
        }
        var formats: [TrackingNumberFormat] = []
        for format in rule.formats {
            var validate: (@Sendable (String, String) -> Bool)?
            if let algorithm = format.checkDigit {
                validate = { payload, check in CheckDigit.isValid(payload, check: check, algorithm: algorithm)
                }
            }
            formats.append(
                TrackingNumberFormat(
                    id: format.id, name: format.name, pattern: format.pattern,
                    isDistinctive: format.context == .none, validate: validate))
        }
        self.init(
            id: rule.id, name: rule.name, names: rule.allNames, linkHosts: Array(Set(hosts)).sorted(),
            formats: formats)
    }
}

extension MerchantEmailChecker {
    /// A checker that knows the carriers and tracking labels of the rules, and reads emails
    /// with an ``Extractor`` over the same rules: its tracking labels are those the
    /// extractor's tracking search reads (``TrackingLabels/tracking``) and the languages'.
    /// - Parameter rules: the rules (``Rules/load(from:)``).
    public init(rules: Rules) {
        let labels =
            Self.defaultTrackingLabels + TrackingLabels.tracking
            + rules.languages.flatMap(\.trackingNumberLabels)
        let orderLabels = Self.defaultOrderNumberLabels + rules.languages.flatMap(\.labels.orderNumber)
        self.init(
            carriers: rules.carriers.carriers.map(CarrierProfile.init(rule:)),
            trackingLabels: Array(Set(labels.map { $0.lowercased() })).sorted(),
            orderNumberLabels: Array(Set(orderLabels.map { $0.lowercased() })).sorted())
        self.rules = rules
    }

    /// Checks one email from its bytes: parses it, builds the document, extracts, checks.
    ///
    /// Use a checker made with ``init(rules:)``: without rules nothing is extracted.
    /// - Parameters:
    ///   - bytes: the message (RFC 5322), any line endings.
    ///   - origin: where it came from (a path, or `-`).
    ///   - expect: the kind the merchant expects, when given.
    /// - Returns: the report, with the email's HTML body for the HTML report.
    /// - Throws: ``MIMEError`` when the bytes are not a message at all.
    public func check(messageBytes bytes: [UInt8], origin: String, expect: ExpectedKind? = nil)
        throws(MIMEError)
        -> CheckReport
    {
        let message = try Message(bytes: bytes)
        return check(message: message, origin: origin, expect: expect)
    }

    /// Checks one parsed email; see ``check(messageBytes:origin:expect:)``.
    /// - Parameter now: the time of the check: a Date field more than a day after it is read as
    ///   no date, as `scan` reads it (``MailDocument/discardDates(after:)``), and is a
    ///   ``FindingCode/dateAfterCheck`` finding.
    public func check(message: Message, origin: String, expect: ExpectedKind? = nil, now: Date = Date())
        -> CheckReport
    {
        var document = MailDocument(message: message)
        // The merchant's own Date field: the original's, when the email forwards one.
        let merchantDate = (document.forwardedOriginal ?? document).date
        let latest = MailDocument.latestPlausibleDate(readingAt: now)
        document.discardDates(after: latest)
        let extractor = rules.map(Extractor.init(rules:))
        let extracted = extractor?.extractReportingLimits(document)
        var extraction = extracted?.result ?? ExtractionResult(kind: .notAnOrder)
        extraction.source = origin
        if extraction.messageID == nil { extraction.messageID = message.messageID }
        var report = check(
            document: document, extraction: extraction, expect: expect, origin: origin,
            language: extractor?.languageCode(of: document),
            limitsReached: document.warnings.filter(\.isLimit) + (extracted?.warnings ?? []),
            dateAfterCheck: merchantDate.flatMap { $0 > latest ? $0 : nil })
        report.emailHTML = message.htmlBody?.text
        return report
    }
}
