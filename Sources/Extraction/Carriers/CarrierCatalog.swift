import Foundation
import MailDocument

/// Every carrier the rules know, compiled once for searching.
///
/// Load it once (``load(from:)``) and share it: it is immutable and `Sendable`.
public struct CarrierCatalog: Sendable {
    /// The carriers, in file-name order.
    public let carriers: [CarrierRule]
    let compiled: CompiledCarriers

    /// Reads `rulesDirectory/carriers/*.json5`, compiles every pattern and checks every
    /// format's examples; adds tracking labels from `rulesDirectory/languages/*.json5`
    /// (`trackingNumberLabels`) when present.
    /// - Parameter rulesDirectory: the `rules/` folder.
    /// - Returns: the catalog.
    /// - Throws: ``RulesError`` naming the file and the reason: unreadable JSON5, a bad
    ///   pattern, an example its own format rejects, a duplicate id.
    public static func load(from rulesDirectory: URL) throws(RulesError) -> CarrierCatalog {
        try load(from: rulesDirectory, trackingLabels: nil)
    }

    /// ``load(from:)`` with the languages' tracking labels given when they were read already
    /// (``Rules/load(from:)``), so that the language files are not read twice.
    static func load(from rulesDirectory: URL, trackingLabels: [String]?) throws(RulesError) -> CarrierCatalog
    {
        let folder = rulesDirectory.appendingPathComponent("carriers")
        let files = RulesFile.files(in: folder)
        if files.isEmpty {
            throw RulesError(path: folder.path, reason: "no carrier rules (*.json5) found")
        }
        var rules: [(CarrierRule, String)] = []
        for file in files {
            rules.append((try RulesFile.decode(CarrierRule.self, from: file), file.path))
        }
        return try CarrierCatalog(
            rules: rules,
            extraTrackingLabels: trackingLabels ?? TrackingLabels.fromLanguageRules(in: rulesDirectory))
    }

    /// Builds a catalog from rules already decoded (tests, embedded rules).
    /// - Parameters:
    ///   - carriers: the carriers.
    ///   - extraTrackingLabels: tracking-number labels beyond the built-in ones.
    /// - Throws: ``RulesError`` for a bad pattern, a failing example or a duplicate id.
    public init(carriers: [CarrierRule], extraTrackingLabels: [String] = []) throws(RulesError) {
        try self.init(
            rules: carriers.map { ($0, "carriers/\($0.id).json5") }, extraTrackingLabels: extraTrackingLabels)
    }

    init(rules: [(CarrierRule, String)], extraTrackingLabels: [String]) throws(RulesError) {
        carriers = rules.map(\.0)
        compiled = try CompiledCarriers(rules: rules, extraTrackingLabels: extraTrackingLabels)
    }

    /// The carrier whose sender domain is `domain` or a parent of it.
    /// - Parameter domain: a domain (`mail.ups.com`) or registrable domain (`ups.com`).
    /// - Returns: the first carrier, in file order, that sends from it.
    public func carrier(forSenderDomain domain: String) -> CarrierRule? {
        compiled.carriersForDomain(domain).first.map { carriers[$0] }
    }

    /// The carrier a name refers to: display name, local name, alias or keyword, ignoring case
    /// and surrounding spaces; also `id`. A name several carriers answer to ("DHL") is settled
    /// by the tracking number when one is given: the carrier whose format it fits.
    /// - Parameters:
    ///   - text: a name as written (`Yamato`, `ヤマト運輸`, `fedex`, `DHL`).
    ///   - trackingNumber: the parcel's number, when known.
    /// - Returns: the carrier, or `nil`.
    public func carrier(named text: String, trackingNumber: String? = nil) -> CarrierRule? {
        let key = CompiledCarriers.nameKey(text)
        guard !key.isEmpty else { return nil }
        if let trackingNumber, let candidates = compiled.carriersByName[key], candidates.count > 1 {
            let fitting = Set(
                recognize(trackingNumber).filter { $0.checkDigitValid != false }.map(\.carrierID))
            if let index = candidates.first(where: { fitting.contains(carriers[$0].id) }) {
                return carriers[index]
            }
        }
        if let index = compiled.carrierByName[key] { return carriers[index] }
        if let operatorCarrier = compiled.operatorByName[key] {
            return carrierForOperator(operatorCarrier.carrier, country: operatorCarrier.country)
        }
        return nil
    }

    /// The carrier with this id, including a postal operator id (`upu-at`).
    /// - Parameter id: the carrier id.
    /// - Returns: the carrier, or `nil`.
    public func carrier(id: String) -> CarrierRule? {
        if let index = compiled.carrierByID[id] { return carriers[index] }
        if let (index, country) = compiled.operatorCarrier(for: id) {
            return carrierForOperator(index, country: country)
        }
        return nil
    }

    /// The carrier's tracking page for a number, from its `trackingURLTemplate`.
    /// - Parameters:
    ///   - carrierID: a carrier id (or postal operator id such as `upu-at`).
    ///   - trackingNumber: the number, spaces removed.
    /// - Returns: the URL string, or `nil` when the carrier has no template.
    public func trackingURL(carrierID: String, trackingNumber: String) -> String? {
        let template: String?
        if let index = compiled.carrierByID[carrierID] {
            template = carriers[index].trackingURLTemplate
        } else if let (index, country) = compiled.operatorCarrier(for: carrierID) {
            template =
                carriers[index].operatorTrackingURLTemplates?[country] ?? carriers[index].trackingURLTemplate
        } else {
            template = nil
        }
        guard let template else { return nil }
        return Self.fillTemplate(template, number: trackingNumber)
    }

    /// The template with every `{number}` replaced by the number, percent-encoded except
    /// for alphanumerics (Foundation's `alphanumerics`).
    static func fillTemplate(_ template: String, number: String) -> String {
        if let filled = asciiFilledTemplate(template, number: number) { return filled }
        let allowed = CharacterSet.alphanumerics
        let encoded = number.addingPercentEncoding(withAllowedCharacters: allowed) ?? number
        return template.replacingOccurrences(of: "{number}", with: encoded)
    }

    /// ``fillTemplate(_:number:)`` by bytes for an ASCII template and a number of ASCII
    /// letters and digits (which percent-encoding leaves as they are; in ASCII text a
    /// literal search finds what Foundation's search finds), or nil.
    static func asciiFilledTemplate(_ template: String, number: String) -> String? {
        var template = template
        var number = number
        // Both strings' bytes are read where the strings keep them, and the URL is written
        // straight into its string: its length is known once the placeholders are counted.
        return template.withUTF8 { bytes -> String? in
            number.withUTF8 { number -> String? in
                guard bytes.allSatisfy({ $0 < 0x80 }), number.allSatisfy(KeywordScanner.isAlphanumeric) else {
                    return nil
                }
                let placeholder = placeholderBytes
                // Whether `{number}` starts at `index` (its eight bytes lie inside the template).
                func placeholderAt(_ index: Int) -> Bool {
                    guard index + placeholder.count <= bytes.count else { return false }
                    for offset in 0..<placeholder.count where bytes[index + offset] != placeholder[offset] {
                        return false
                    }
                    return true
                }
                // The placeholders, read left to right as the filling below reads them.
                var placeholders = 0
                var index = 0
                while index < bytes.count {
                    if bytes[index] == placeholder[0], placeholderAt(index) {
                        placeholders += 1
                        index += placeholder.count
                    } else {
                        index += 1
                    }
                }
                guard placeholders > 0 else { return String(decoding: bytes, as: UTF8.self) }
                let length = bytes.count + placeholders * (number.count - placeholder.count)
                guard length > 0 else { return "" }
                return String(unsafeUninitializedCapacity: length) { buffer in
                    var written = 0
                    var index = 0
                    while index < bytes.count {
                        if bytes[index] == placeholder[0], placeholderAt(index) {
                            for byte in number {
                                buffer[written] = byte
                                written += 1
                            }
                            index += placeholder.count
                        } else {
                            buffer[written] = bytes[index]
                            written += 1
                            index += 1
                        }
                    }
                    return written
                }
            }
        }
    }

    /// The bytes of `{number}`, the placeholder of a tracking URL template.
    private static let placeholderBytes: [UInt8] = Array("{number}".utf8)

    private func carrierForOperator(_ index: Int, country: String) -> CarrierRule? {
        let base = carriers[index]
        guard let name = base.operators?[country] else { return nil }
        var rule = base
        rule.id = "\(base.id)-\(country.lowercased())"
        rule.name = name
        rule.localNames = []
        rule.aliases = []
        rule.keywords = []
        rule.trackingURLTemplate = base.operatorTrackingURLTemplates?[country] ?? base.trackingURLTemplate
        return rule
    }
}

/// Where a tracking number was found.
public enum TrackingSource: String, Sendable, Hashable, Codable {
    /// A carrier's tracking link (or a tracking link with the number in it).
    case link
    /// Text with a tracking label right before it.
    case labelledText
    /// Text, matched by pattern and check digit with carrier context.
    case text
    /// The subject line.
    case subject
}

/// What ``CarrierCatalog/findTrackingNumbers(in:)`` reads.
public struct TrackingSearchInput: Sendable {
    /// The visible text (rendered HTML or plain text).
    public var text: String
    /// The links, after redirect unwrapping (``Link/target`` is read).
    public var links: [Link]
    /// The sender's domain or registrable domain.
    public var senderDomain: String?
    public var subject: String?

    public init(text: String, links: [Link] = [], senderDomain: String? = nil, subject: String? = nil) {
        self.text = text
        self.links = links
        self.senderDomain = senderDomain
        self.subject = subject
    }
}

/// A tracking number found in a document, with its carrier and the evidence for it.
public struct TrackingCandidate: Sendable, Hashable {
    public var carrierID: String
    /// The carrier's display name (`UPS`, `CJ대한통운`, or a postal operator's name).
    public var carrierName: String
    /// The number as printed, spaces and hyphens removed.
    public var trackingNumber: String
    /// The most trusted place it was found.
    public var source: TrackingSource
    /// Whether the check digit holds; `nil` when the format has none.
    public var checkDigitValid: Bool?
    /// Confidence 0–1.
    public var score: Double
    /// The text around it (at most about 120 characters).
    public var context: String
    /// UTF-8 offset in the searched text, when found there.
    public var utf8Offset: Int?
    /// The tracking link it came from, else `nil`.
    public var trackingURL: String?
    /// The format that matched (`ups-1z`), `nil` for a link that matched no format.
    public var formatID: String?

    public init(
        carrierID: String, carrierName: String, trackingNumber: String, source: TrackingSource,
        checkDigitValid: Bool?, score: Double, context: String, utf8Offset: Int? = nil,
        trackingURL: String? = nil, formatID: String? = nil
    ) {
        self.carrierID = carrierID
        self.carrierName = carrierName
        self.trackingNumber = trackingNumber
        self.source = source
        self.checkDigitValid = checkDigitValid
        self.score = score
        self.context = context
        self.utf8Offset = utf8Offset
        self.trackingURL = trackingURL
        self.formatID = formatID
    }
}

/// A format a number fits, ignoring context (``CarrierCatalog/recognize(_:)``).
public struct TrackingRecognition: Sendable, Hashable {
    public var carrierID: String
    public var carrierName: String
    public var formatID: String
    /// `nil` when the format has no check digit.
    public var checkDigitValid: Bool?
    public var context: TrackingContextRequirement
    public var fallback: Bool
}
