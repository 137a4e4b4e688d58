import Extraction
import Foundation
import MailDocument

/// Checks a merchant's order email: what a reader finds in it, what is missing, how to fix it.
///
/// ```swift
/// let checker = MerchantEmailChecker(carriers: profiles)
/// let report = checker.check(document: document, extraction: result, expect: .shipping, origin: "ship.eml")
/// print(ReportRenderer.text(report))
/// ```
public struct MerchantEmailChecker: Sendable {
    /// The carriers whose names, tracking links and check digits the checks know.
    public var carriers: [CarrierProfile]
    /// Words that label a tracking number (`tracking number`, `Sendungsnummer`, …), lower case.
    public var trackingLabels: [String]
    let formats: CompiledFormats
    /// The rules, when the checker was made from them (extraction, tracking pages).
    public internal(set) var rules: Rules?

    /// Words that label an order number (`order number`, `Bestellnummer`, …), lower case.
    public var orderNumberLabels: [String]

    /// Order number labels used when the rules give none.
    public static let defaultOrderNumberLabels = ["order number", "order no", "order #", "order"]

    /// Tracking labels used when the rules give none.
    public static let defaultTrackingLabels = [
        "tracking", "track your", "sendungsnummer", "sendungsverfolgung", "운송장", "송장",
        "numéro de suivi", "suivi", "seguimiento", "追跡番号",
    ]

    /// A checker that knows the given carriers.
    /// - Parameters:
    ///   - carriers: carrier names, tracking link hosts and tracking number formats.
    ///   - trackingLabels: words that label a tracking number, in any case.
    ///   - orderNumberLabels: words that label an order number, in any case.
    public init(
        carriers: [CarrierProfile] = [],
        trackingLabels: [String] = MerchantEmailChecker.defaultTrackingLabels,
        orderNumberLabels: [String] = MerchantEmailChecker.defaultOrderNumberLabels
    ) {
        self.carriers = carriers
        self.trackingLabels = trackingLabels.map { $0.lowercased() }.filter { !$0.isEmpty }
        self.orderNumberLabels = orderNumberLabels.map { $0.lowercased() }.filter { !$0.isEmpty }
        self.formats = CompiledFormats(carriers)
    }

    /// Kinds that speak about one of the merchant's orders and so need an order number.
    static let orderKinds: Set<EmailKind> = [
        .orderConfirmation, .shippingConfirmation, .deliveryUpdate, .cancellation, .refund,
    ]
    /// Kinds that must carry a tracking number.
    static let shippingKinds: Set<EmailKind> = [.shippingConfirmation, .carrierUpdate]

    /// Checks one email.
    /// - Parameters:
    ///   - document: the email as the reader sees it.
    ///   - extraction: what the extractor read from `document`.
    ///   - expect: the kind the merchant says this email is (`--expect`), when given.
    ///   - origin: where the email came from (a path, or `-` for standard input).
    ///   - language: the email's language as a rules code (``Extractor/languageCode(of:)``),
    ///     so that fixes quote words of that language; English when `nil`.
    ///   - limitsReached: the limits the extraction reached in this email
    ///     (``Extractor/extractReportingLimits(_:)``); each is a ``FindingCode/notFullyRead``
    ///     finding.
    ///   - dateAfterCheck: the merchant's Date field when it is after the time of the check and
    ///     so was read as no date (``MailDocument/discardDates(after:)``); a
    ///     ``FindingCode/dateAfterCheck`` finding.
    /// - Returns: the fields found, the findings (errors first) and the Wallet preview.
    public func check(
        document: MailDocument, extraction: ExtractionResult, expect: ExpectedKind? = nil,
        origin: String = "-", language: String? = nil, limitsReached: [DocumentWarning] = [],
        dateAfterCheck: Date? = nil
    ) -> CheckReport {
        // A forwarded email is judged by the original it forwards, as extraction reads it: the
        // merchant's words, links and sender are there, not in the forwarder's note.
        let outer = document
        let document = outer.forwardedOriginal == nil ? outer : Extractor.documentRead(from: outer)
        let text = EmailText(document)
        var findings: [Finding] = []
        let kind = extraction.kind
        for limit in limitsReached {
            findings.append(
                FindingCode.notFullyRead.finding("Part of the email is not read: \(limit.description)."))
        }
        if let dateAfterCheck {
            let written = ISO8601DateFormatter().string(from: dateAfterCheck)
            findings.append(
                FindingCode.dateAfterCheck.finding(
                    "The Date header field (\(written)) is later than the time of this check: readers "
                        + "take the email as undated, and its order gets no date from it.",
                    evidence: written))
        }

        if let expect, !expect.acceptedKinds.contains(kind) {
            findings.append(
                FindingCode.kindUnexpected.finding(
                    "Expected \(Self.describe(expect.emailKind)), but the email reads as \(Self.describe(kind)).",
                    evidence: document.subject,
                    fix: FindingCode.kindUnexpectedFix(
                        expected: expect,
                        phrases: language.flatMap {
                            $0 == "en" ? nil : rules?.language($0)?.kinds[expect.emailKind.rawValue]
                        })))
        } else if expect == nil, kind == .notAnOrder {
            findings.append(
                FindingCode.notAnOrder.finding(
                    "The email does not read as an order, shipping or delivery email.",
                    evidence: document.subject))
        }

        let isOrderEmail = kind != .notAnOrder || expect != nil
        if isOrderEmail {
            findings += merchantFindings(document: document, extraction: extraction, text: text)
            findings += orderNumberFindings(extraction: extraction, text: text, expect: expect)
            findings += shipmentFindings(
                document: document, extraction: extraction, text: text, expect: expect)
            findings += markupFindings(document: document, extraction: extraction, text: text)
        }
        let checkDigits = checkDigitFindings(document: document, extraction: extraction, text: text)
        findings += checkDigits
        if !checkDigits.isEmpty {
            // The tracking number is printed, with a wrong check digit: MO205 says so and how
            // to fix it; "no tracking number was found" would send the merchant looking for
            // something that is there.
            findings.removeAll { $0.code == FindingCode.trackingNumberMissing.code }
        }

        var seen = Set<Finding>()
        findings = findings.filter { seen.insert($0).inserted }
        findings = findings.enumerated().sorted {
            ($0.element.severity, $0.element.code, $0.offset) < (
                $1.element.severity, $1.element.code, $1.offset
            )
        }.map(\.element)

        return CheckReport(
            // The subject shown is the original's, beside the original's sender: as read, else
            // as quoted (a forwarded reply's "Re: …", which is read without its thread's
            // subject), else the email's own.
            origin: origin, subject: document.subject ?? outer.forwardedOriginal?.subject ?? outer.subject,
            senderAddress: document.sender?.address,
            senderDomain: document.sender?.registrableDomain ?? document.sender?.domain, kind: kind,
            expected: expect, fields: foundFields(extraction: extraction, text: text), findings: findings,
            walletOrderJSON: WalletPreview.json(
                extraction: extraction, document: document, carriers: rules?.carriers),
            extraction: extraction, renderedText: text.visible.isEmpty ? nil : text.visible)
    }

    /// Checks what can only be seen across several emails of one merchant: that they all
    /// come from the same registrable domain. Carrier emails and emails that are not about an
    /// order are left out.
    /// - Parameter reports: the reports of the emails checked together.
    /// - Returns: one ``FindingCode/senderDomainInconsistent`` finding per merchant whose
    ///   emails come from more than one domain.
    public func crossCheck(_ reports: [CheckReport]) -> [Finding] {
        guard reports.count > 1 else { return [] }
        // Group by merchant name when known; emails without one join the only merchant
        // when there is exactly one.
        var groups: [String: [CheckReport]] = [:]
        var order: [String] = []
        var unnamed: [CheckReport] = []
        // A carrier's email names the shop as shipper but comes from the carrier's domain.
        for report in reports where report.kind != .carrierUpdate && report.kind != .notAnOrder {
            guard let name = report.extraction.merchant?.name?.lowercased(), !name.isEmpty else {
                unnamed.append(report)
                continue
            }
            if groups[name] == nil { order.append(name) }
            groups[name, default: []].append(report)
        }
        if order.count == 1 {
            groups[order[0], default: []] += unnamed
        } else if order.isEmpty {
            order = [""]
            groups[""] = unnamed
        }
        var findings: [Finding] = []
        for key in order {
            let members = groups[key] ?? []
            var domains: [String: [String]] = [:]
            var domainOrder: [String] = []
            for report in members {
                guard let domain = report.senderDomain?.lowercased() else { continue }
                if domains[domain] == nil { domainOrder.append(domain) }
                domains[domain, default: []].append(report.origin)
            }
            guard domainOrder.count > 1 else { continue }
            let name = members.first?.extraction.merchant?.name ?? "the merchant"
            let listing = domainOrder.map { "\($0) (\(domains[$0, default: []].joined(separator: ", ")))" }
            findings.append(
                FindingCode.senderDomainInconsistent.finding(
                    "Emails of \(name) come from \(domainOrder.count) different domains: "
                        + listing.joined(separator: "; ") + ".",
                    evidence: domainOrder.joined(separator: ", ")))
        }
        return findings
    }

    // MARK: - Merchant and order number

    private func merchantFindings(document: MailDocument, extraction: ExtractionResult, text: EmailText)
        -> [Finding]
    {
        guard let name = extraction.merchant?.name, !name.isEmpty else {
            if extraction.kind == .carrierUpdate { return [] }
            let domain = extraction.merchant?.domain ?? document.sender?.registrableDomain
            let detail = domain.map { " (only the domain \($0) is known)" } ?? ""
            return [FindingCode.merchantNotFound.finding("The shop's name could not be read\(detail).")]
        }
        if text.visibleContains(name: name) { return [] }
        let place: String
        if let alt = text.imageAlts.first(where: { EmailText.containsName(name, in: $0) }) {
            place = "only in an image's alt text (\"\(alt)\"), e.g. the logo"
        } else if let senderName = document.sender?.name, EmailText.containsName(name, in: senderName) {
            place = "only in the sender name"
        } else if EmailText.containsName(name, in: text.subject) {
            place = "only in the subject"
        } else if EmailText.containsName(name, in: text.hidden) {
            place = "only in hidden text"
        } else {
            place = "nowhere in the visible text (it was inferred from the sender or markup)"
        }
        return [
            FindingCode.merchantNotInBody.finding(
                "The merchant name \"\(name)\" appears \(place).", evidence: name)
        ]
    }

    private func orderNumberFindings(extraction: ExtractionResult, text: EmailText, expect: ExpectedKind?)
        -> [Finding]
    {
        guard let number = extraction.orderNumber, !number.isEmpty else {
            guard Self.orderKinds.contains(extraction.kind) || expect != nil else { return [] }
            if let hidden = labelledValue(in: text.hidden, labels: orderNumberLabels) {
                return [
                    FindingCode.orderNumberHidden.finding(
                        "The order number \(hidden) appears only in hidden text.", evidence: hidden)
                ]
            }
            return [FindingCode.orderNumberMissing.finding("No order number was found in the email.")]
        }
        if text.visibleContains(number: number) { return [] }
        if text.hiddenContains(number: number) {
            return [
                FindingCode.orderNumberHidden.finding(
                    "The order number \(number) appears only in hidden text.", evidence: number)
            ]
        }
        if text.subjectContains(number: number) {
            return [
                FindingCode.orderNumberOnlyInSubject.finding(
                    "The order number \(number) appears only in the subject, not in the body.",
                    evidence: number)
            ]
        }
        let place =
            text.linksContain(number: number) ? "only inside a link" : "only in markup or an attachment"
        return [
            FindingCode.orderNumberNotInBody.finding(
                "The order number \(number) appears \(place), not in the body text.", evidence: number)
        ]
    }

    // MARK: - Shipments

    /// The first word of `text` of 10 to 30 letters and digits, with at least 8 digits, that
    /// looks like a template's placeholder (``CarrierCatalog/looksLikePlaceholder(_:)``).
    static func placeholderTrackingNumber(in text: String) -> String? {
        for word in text.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        where (10...30).contains(word.count) && word.count(where: \.isNumber) >= 8 {
            if CarrierCatalog.looksLikePlaceholder(String(word)) { return String(word) }
        }
        return nil
    }

    private func shipmentFindings(
        document: MailDocument, extraction: ExtractionResult, text: EmailText, expect: ExpectedKind?
    ) -> [Finding] {
        let shipments = (extraction.shipments ?? []).filter { !($0.trackingNumber ?? "").isEmpty }
        let needsTracking = Self.shippingKinds.contains(extraction.kind) || expect == .shipping
        if shipments.isEmpty {
            guard needsTracking else { return [] }
            if let hidden = hiddenTrackingNumber(in: text.hidden) {
                return [
                    FindingCode.trackingNumberHidden.finding(
                        "The tracking number \(hidden) appears only in hidden text.", evidence: hidden)
                ]
            }
            // A test email with a made-up number ("SF1234567890123"): say why it is not taken.
            if let placeholder = Self.placeholderTrackingNumber(in: text.visible) {
                return [
                    FindingCode.trackingNumberMissing.finding(
                        "No tracking number was found in this shipping email: \(placeholder) looks like a "
                            + "placeholder (its digits count up or repeat), which readers never take for a "
                            + "parcel's number.",
                        evidence: placeholder,
                        fix:
                            "Test with a real tracking number of the carrier, or one of its published sample "
                            + "numbers (e.g. UPS 1Z999AA10123456784).")
                ]
            }
            return [
                FindingCode.trackingNumberMissing.finding(
                    "No tracking number was found in this shipping email.")
            ]
        }
        var findings: [Finding] = []
        for shipment in shipments {
            guard let number = shipment.trackingNumber else { continue }
            if !text.visibleContains(number: number) {
                if text.hiddenContains(number: number) {
                    findings.append(
                        FindingCode.trackingNumberHidden.finding(
                            "The tracking number \(number) appears only in hidden text.", evidence: number))
                } else {
                    let place: String
                    if text.linksContain(number: number) {
                        place = "only inside a link"
                    } else if text.imagesContain(number: number) {
                        place = "only in an image"
                    } else if text.subjectContains(number: number) {
                        place = "only in the subject"
                    } else {
                        place = "only in markup or an attachment"
                    }
                    findings.append(
                        FindingCode.trackingNumberNotAsText.finding(
                            "The tracking number \(number) appears \(place), not as text in the body.",
                            evidence: number))
                }
            }
            let profile = shipment.carrier.flatMap { carrierProfile(named: $0) }
            let names = (profile?.names ?? []) + (shipment.carrier.map { [$0] } ?? [])
            let named = names.contains { text.visibleContains(name: $0) }
            if !named {
                let message =
                    shipment.carrier.map {
                        "The tracking number \(number) is there, but the carrier (\($0)) is not named in the body."
                    } ?? "The tracking number \(number) is there, but no carrier is named."
                findings.append(FindingCode.carrierNotNamed.finding(message, evidence: number))
            }
            if !hasTrackingLink(number: number, profile: profile, document: document) {
                findings.append(
                    FindingCode.trackingLinkMissing.finding(
                        "No link leads to the tracking page of \(number).", evidence: number))
            }
        }
        return findings
    }

    /// A number in hidden text that a carrier format accepts (check digit valid, or labelled
    /// when the format has none).
    private func hiddenTrackingNumber(in hidden: String) -> String? {
        for candidate in numberCandidates(in: hidden, labelled: true) {
            let number = EmailText.compact(candidate.number)
            guard number.count >= 8, !Self.isPlaceholder(number) else { continue }
            let matches = formats.matches(number)
            if matches.contains(where: { $0.checkDigitValid == true })
                || (candidate.isRelevant && matches.contains { $0.checkDigitValid == nil })
            {
                return number
            }
        }
        return nil
    }

    private static let labelledToken = try? NSRegularExpression(
        pattern: "^[\\s:#.№-]*(?:no\\.?|nr\\.?|number)?[\\s:#.№-]*([A-Za-z0-9][A-Za-z0-9-]{3,39})")

    /// The first value after a label in a text, when it has a digit: `Order #A-10023`.
    func labelledValue(in text: String, labels: [String]) -> String? {
        guard !text.isEmpty, let regex = Self.labelledToken else { return nil }
        let lowered = text.lowercased()
        guard lowered.utf16.count == text.utf16.count else { return nil }
        let nsText = text as NSString
        for label in labels.sorted(by: { $0.count > $1.count }) {
            var searchStart = lowered.startIndex
            while let range = lowered.range(of: label, range: searchStart..<lowered.endIndex) {
                searchStart = range.upperBound
                let offset = NSRange(range, in: lowered).upperBound
                let rest = NSRange(location: offset, length: min(80, nsText.length - offset))
                if let match = regex.firstMatch(in: text, range: rest) {
                    let value = nsText.substring(with: match.range(at: 1))
                    if value.contains(where: \.isNumber) { return value }
                }
            }
        }
        return nil
    }

    private func carrierProfile(named name: String) -> CarrierProfile? {
        carriers.first { profile in
            profile.name.caseInsensitiveCompare(name) == .orderedSame
                || profile.names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    private func hasTrackingLink(number: String, profile: CarrierProfile?, document: MailDocument) -> Bool {
        let key = EmailText.compact(number)
        for link in document.links where !link.isHidden {
            for url in [link.href, link.target] {
                if EmailText.compact(url.removingPercentEncoding ?? url).contains(key) { return true }
                if let profile, let host = URLComponents(string: url)?.host?.lowercased(),
                    profile.linkHosts.contains(where: { host == $0 || host.hasSuffix("." + $0) })
                {
                    return true
                }
            }
        }
        return false
    }

    // MARK: - Check digits

    /// A number that looks like a tracking number, where it was seen.
    private struct NumberCandidate {
        var number: String
        /// Whether a tracking label precedes it, or it is in a carrier's tracking link.
        var isRelevant: Bool
        /// The text just before and just after it (``carrierWindow`` characters each way),
        /// where a carrier named gives the number as that carrier's (``namedCarriers(around:)``).
        var before = ""
        var after = ""
    }

    /// How many numbers of one email are read for a carrier's name beside them.
    private static let maximumNamedLookups = 200

    /// How many characters before and after a number are read for a carrier's name.
    private static let carrierWindow = (before: 60, after: 30)

    /// Words that label another number than a tracking number, lower case: the extractor's
    /// (``TrackingLabels/otherNumbers``) and the order number labels.
    private var otherNumberLabels: [String] { TrackingLabels.otherNumbers + orderNumberLabels }

    /// The carriers (by ``CarrierProfile/name``) named beside a number: in the text before it
    /// after the last label of another number there (`お客様番号`, `order number`, `tel`), or,
    /// when no such label stands before it, in the text after it ("394028173616（ヤマト運輸）").
    /// A number so named is given as that carrier's tracking number, as the extractor reads a
    /// carrier named nearby.
    private func namedCarriers(around candidate: NumberCandidate) -> Set<String> {
        var texts = [candidate.before]
        if let end = Self.lastLabelEnd(otherNumberLabels, in: candidate.before) {
            texts = [String(candidate.before[end...])]
        } else {
            texts.append(candidate.after)
        }
        func isNamed(_ profile: CarrierProfile) -> Bool {
            profile.names.contains { name in texts.contains { EmailText.containsName(name, in: $0) } }
        }
        return Set(carriers.filter(isNamed).map(\.name))
    }

    /// The end of the last occurrence of any of `labels` (lower case) in `text`, ignoring case;
    /// a label that starts or ends with an ASCII letter or digit counts only as a whole word there.
    static func lastLabelEnd(_ labels: [String], in text: String) -> String.Index? {
        func isWordCharacter(_ character: Character?) -> Bool {
            guard let character else { return false }
            return character.isASCII && (character.isLetter || character.isNumber)
        }
        var best: String.Index?
        for label in labels where !label.isEmpty {
            var start = text.startIndex
            while start < text.endIndex,
                let range = text.range(of: label, options: .caseInsensitive, range: start..<text.endIndex)
            {
                start = range.upperBound
                guard !range.isEmpty else { break }
                let before =
                    range.lowerBound > text.startIndex ? text[text.index(before: range.lowerBound)] : nil
                let after = range.upperBound < text.endIndex ? text[range.upperBound] : nil
                if isWordCharacter(label.first) && isWordCharacter(before) { continue }
                if isWordCharacter(label.last) && isWordCharacter(after) { continue }
                if best.map({ range.upperBound > $0 }) ?? true { best = range.upperBound }
            }
        }
        return best
    }

    private static let numberRun: NSRegularExpression? = try? NSRegularExpression(
        pattern:
            "(?<![A-Za-z0-9])[A-Za-z0-9]*[0-9][A-Za-z0-9]*(?:[ \\-][A-Za-z0-9]*[0-9][A-Za-z0-9]*)*(?![A-Za-z0-9])"
    )
    private static let maximumCandidates = 5_000

    private func checkDigitFindings(document: MailDocument, extraction: ExtractionResult, text: EmailText)
        -> [Finding]
    {
        guard !carriers.isEmpty else { return [] }
        var candidates: [NumberCandidate] = []
        for shipment in extraction.shipments ?? [] {
            if let number = shipment.trackingNumber {
                candidates.append(.init(number: number, isRelevant: true))
            }
        }
        candidates += numberCandidates(in: text.visible, labelled: true)
        candidates += numberCandidates(in: text.hidden, labelled: true)
        let trackingURLs = document.links.flatMap { [$0.href, $0.target] }.filter { isCarrierTrackingURL($0) }
        for url in trackingURLs {
            candidates += numberCandidates(in: url.removingPercentEncoding ?? url, labelled: false).map {
                NumberCandidate(number: $0.number, isRelevant: true)
            }
        }

        // The carriers the email is about: named in its text, linked to, or sending it.
        var hosts = trackingURLs.compactMap { URLComponents(string: $0)?.host?.lowercased() }
        if let domain = document.sender?.domain?.lowercased() { hosts.append(domain) }
        let present = Set(
            carriers.filter { profile in
                hosts.contains { Self.host($0, isOneOf: profile.linkHosts) }
                    || profile.names.contains { text.visibleContains(name: $0) }
            }.map(\.name))

        // The order numbers read: a number the extractor took for one is not a tracking number.
        let orderNumbers = Set(
            ([extraction.orderNumber] + (extraction.additionalOrders ?? []).map(\.orderNumber)).compactMap {
                $0.map { EmailText.compact($0).uppercased() }
            })
        var findings: [Finding] = []
        var reported = Set<String>()
        var namedLookups = 0
        for candidate in candidates.prefix(Self.maximumCandidates) {
            let number = EmailText.compact(candidate.number)
            guard number.count >= 8, !reported.contains(number), !Self.isPlaceholder(number) else { continue }
            var matches = formats.matches(number)
            // A number given as a carrier's — its name beside the number — is read against that
            // carrier's formats alone: a Yamato number with a wrong check digit is wrong even
            // with no label before it, and though it has the shape of formats without one.
            // (Looked up only for a number some format's check digit refuses, and for the first
            // ``maximumNamedLookups`` of them: an email has a few numbers, hostile input many.)
            var named = Set<String>()
            if namedLookups < Self.maximumNamedLookups,
                matches.contains(where: { $0.checkDigitValid == false }),
                !orderNumbers.contains(number.uppercased())
            {
                namedLookups += 1
                named = namedCarriers(around: candidate)
            }
            let ofNamed = matches.filter { named.contains($0.carrier) }
            // A labelled number, or one in a tracking link, is read against the formats of the
            // carriers the email is about: a Sagawa number with a wrong check digit is wrong
            // even though it also has the shape of a format without a check digit.
            let ofPresent = matches.filter { present.contains($0.carrier) }
            if !ofNamed.isEmpty {
                matches = ofNamed
            } else if candidate.isRelevant && !ofPresent.isEmpty {
                matches = ofPresent
            }
            guard !matches.isEmpty, !matches.contains(where: { $0.checkDigitValid != false }) else {
                continue
            }
            guard candidate.isRelevant || !ofNamed.isEmpty || matches.contains(where: \.isDistinctive) else {
                continue
            }
            reported.insert(number)
            // A format named after its carrier ("FedEx Express (12)") is named as it is; another
            // gets its carrier's name first ("UPS 1Z").
            let formatNames = Array(
                Set(
                    matches.map { $0.format.hasPrefix($0.carrier) ? $0.format : "\($0.carrier) \($0.format)" }
                )
            ).sorted()
            findings.append(
                FindingCode.checkDigitInvalid.finding(
                    "The tracking number \(number) has the format of \(formatNames.joined(separator: ", ")) "
                        + "but its check digit is wrong.",
                    evidence: candidate.number))
        }
        return findings
    }

    /// A sample number such as `9400100000000000000000`: one character makes up three
    /// quarters of it.
    static func isPlaceholder(_ number: String) -> Bool {
        var counts: [Character: Int] = [:]
        for character in number { counts[character, default: 0] += 1 }
        // One character nearly everywhere, or digits that count up or down as the extractor
        // reads placeholders (`1Z1234567890123456`): MO201 names such a number instead.
        return (counts.values.max() ?? 0) * 4 >= number.count * 3
            || CarrierCatalog.looksLikePlaceholder(number)
    }

    /// Whether a host (lower-cased) is one of `hosts` or a subdomain of one.
    static func host(_ host: String, isOneOf hosts: [String]) -> Bool {
        hosts.contains { host == $0 || host.hasSuffix("." + $0) }
    }

    private func isCarrierTrackingURL(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        return carriers.contains { Self.host(host, isOneOf: $0.linkHosts) }
    }

    /// Runs of digit-bearing groups (`1Z 999 AA1 01 2345 6784`): the whole run with the
    /// separators removed, and each group alone; relevant when a tracking label precedes it.
    private func numberCandidates(in text: String, labelled: Bool) -> [NumberCandidate] {
        guard let regex = Self.numberRun, !text.isEmpty else { return [] }
        let text = Self.narrowingFullWidth(text)
        let nsText = text as NSString
        var result: [NumberCandidate] = []
        var skeletons = CanonicalSkeleton()
        let labels = labelled ? trackingLabels.map { ($0, skeletons.bytes(of: $0)) } : []
        regex.enumerateMatches(in: text, range: NSRange(location: 0, length: nsText.length)) {
            match, _, stop in
            guard let match else { return }
            if result.count >= Self.maximumCandidates {
                stop.pointee = true
                return
            }
            let run = nsText.substring(with: match.range)
            var isRelevant = false
            if labelled {
                let start = max(0, match.range.location - 60)
                let before = nsText.substring(
                    with: NSRange(location: start, length: match.range.location - start)
                )
                .lowercased()
                let window = (before, skeletons.bytes(of: before))
                isRelevant = labels.contains { CanonicalSkeleton.contains(window, $0) }
            }
            // The text around the run, where its carrier may be named.
            var before = ""
            var after = ""
            if labelled {
                let start = max(0, match.range.location - Self.carrierWindow.before)
                before = nsText.substring(
                    with: NSRange(location: start, length: match.range.location - start))
                let end = NSMaxRange(match.range)
                after = nsText.substring(
                    with: NSRange(location: end, length: min(Self.carrierWindow.after, nsText.length - end)))
            }
            let pieces = run.split(whereSeparator: { $0 == " " || $0 == "-" })
            if run.count <= 60 {
                result.append(.init(number: run, isRelevant: isRelevant, before: before, after: after))
            }
            if pieces.count > 1 {
                for piece in pieces where piece.count >= 8 {
                    result.append(
                        .init(number: String(piece), isRelevant: isRelevant, before: before, after: after))
                }
            }
        }
        return result
    }

    /// The text with full-width ASCII forms (`３９４０－２８１７`, common in Japanese email)
    /// and the ideographic space made ASCII, as the extractor reads numbers. Each of them, and
    /// its replacement, is one UTF-16 unit: positions in the text stay where they were.
    static func narrowingFullWidth(_ text: String) -> String {
        guard
            text.unicodeScalars.contains(where: { (0xFF01...0xFF5E).contains($0.value) || $0 == "\u{3000}" })
        else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if (0xFF01...0xFF5E).contains(scalar.value), let narrow = Unicode.Scalar(scalar.value - 0xFEE0) {
                scalars.append(narrow)
            } else {
                scalars.append(scalar == "\u{3000}" ? " " : scalar)
            }
        }
        return String(scalars)
    }

    // MARK: - Fields

    private func foundFields(extraction: ExtractionResult, text: EmailText) -> [FoundField] {
        var fields: [FoundField] = []
        func add(_ field: String, _ value: String?, evidenceField: String? = nil) {
            guard let value, !value.isEmpty else { return }
            let evidence = extraction.evidence?.first { $0.field == (evidenceField ?? field) }
            var source = evidence?.source
            if source == nil {
                if text.visibleContains(number: value) {
                    source = "body"
                } else if text.hiddenContains(number: value) {
                    source = "hidden"
                } else if text.subjectContains(number: value) {
                    source = "subject"
                }
            }
            fields.append(
                FoundField(
                    field: field, value: value, source: source,
                    snippet: evidence?.text ?? text.snippet(around: value), confidence: evidence?.confidence,
                    location: evidence?.location))
        }
        add("kind", extraction.kind.rawValue)
        add("merchant", extraction.merchant?.name ?? extraction.merchant?.domain)
        add("merchant.domain", extraction.merchant?.domain)
        add("orderNumber", extraction.orderNumber)
        if extraction.partialCancellation == true {
            add("partialCancellation", "true", evidenceField: "kind")
        }
        add("orderDate", extraction.orderDate)
        for (index, shipment) in (extraction.shipments ?? []).enumerated() {
            let prefix = "shipments[\(index)]"
            add("\(prefix).carrier", shipment.carrier)
            add("\(prefix).trackingNumber", shipment.trackingNumber)
            add("\(prefix).trackingURL", shipment.trackingURL)
            add("\(prefix).status", shipment.status?.rawValue)
            add("\(prefix).estimatedDelivery", shipment.estimatedDelivery.map(Self.describe))
            add("\(prefix).shippedAt", shipment.shippedAt)
            add("\(prefix).deliveredAt", shipment.deliveredAt)
        }
        for (index, item) in (extraction.lineItems ?? []).enumerated() {
            var value = item.title
            if let quantity = item.quantity { value = "\(quantity) × " + value }
            if let price = item.price { value += " — \(price.amount) \(price.currency)" }
            let field = "lineItems[\(index)]"
            let hasOwnEvidence = extraction.evidence?.contains { $0.field == field } ?? false
            add(field, value, evidenceField: hasOwnEvidence ? field : "lineItems")
        }
        add("total", extraction.total.map { "\($0.amount) \($0.currency)" })
        return fields
    }

    static func describe(_ window: DateWindow) -> String {
        window.from == window.until ? window.from : "\(window.from) – \(window.until)"
    }

    static func describe(_ kind: EmailKind) -> String {
        switch kind {
        case .orderConfirmation: "an order confirmation"
        case .shippingConfirmation: "a shipping confirmation"
        case .deliveryUpdate: "a delivery update"
        case .carrierUpdate: "a carrier update"
        case .cancellation: "a cancellation"
        case .refund: "a refund"
        case .notAnOrder: "not about an order"
        }
    }
}
