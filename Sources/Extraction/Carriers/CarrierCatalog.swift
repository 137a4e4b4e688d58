import Foundation
import MailDocument

// Temporary stand-in with the agreed signature; replaced by the carriers implementation.

public struct CarrierRule: Sendable, Hashable {
    public var id: String
    public var name: String
    public var localNames: [String]
    public var senderDomains: [String]
    public var keywords: [String]
    public var trackingURLTemplate: String?

    public init(
        id: String, name: String, localNames: [String] = [], senderDomains: [String] = [],
        keywords: [String] = [], trackingURLTemplate: String? = nil
    ) {
        self.id = id
        self.name = name
        self.localNames = localNames
        self.senderDomains = senderDomains
        self.keywords = keywords
        self.trackingURLTemplate = trackingURLTemplate
    }
}

public struct TrackingSearchInput: Sendable {
    public var text: String
    public var links: [Link]
    public var senderDomain: String?
    public var subject: String?

    public init(text: String, links: [Link] = [], senderDomain: String? = nil, subject: String? = nil) {
        self.text = text
        self.links = links
        self.senderDomain = senderDomain
        self.subject = subject
    }
}

public struct TrackingCandidate: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable { case link, labelledText, text, subject }
    public var carrierID: String
    public var carrierName: String
    public var trackingNumber: String
    public var source: Source
    public var checkDigitValid: Bool?
    public var score: Double
    public var context: String
    public var utf8Offset: Int?
    public var trackingURL: String?

    public init(
        carrierID: String, carrierName: String, trackingNumber: String, source: Source,
        checkDigitValid: Bool? = nil, score: Double, context: String, utf8Offset: Int? = nil,
        trackingURL: String? = nil
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
    }
}

public struct CarrierCatalog: Sendable {
    public var carriers: [CarrierRule]

    public init(carriers: [CarrierRule] = []) { self.carriers = carriers }

    public static func load(from rulesDirectory: URL) throws(RulesError) -> CarrierCatalog {
        CarrierCatalog()
    }

    public func carrier(forSenderDomain domain: String) -> CarrierRule? {
        let domain = domain.lowercased()
        return carriers.first { rule in
            rule.senderDomains.contains { domain == $0 || domain.hasSuffix("." + $0) }
        }
    }

    public func carrier(named text: String) -> CarrierRule? {
        let folded = text.lowercased()
        return carriers.first { rule in
            ([rule.name] + rule.localNames).contains { folded.contains($0.lowercased()) }
        }
    }

    public func trackingURL(carrierID: String, trackingNumber: String) -> String? {
        guard let template = carriers.first(where: { $0.id == carrierID })?.trackingURLTemplate else {
            return nil
        }
        return template.replacingOccurrences(of: "{trackingNumber}", with: trackingNumber)
    }

    public func findTrackingNumbers(in input: TrackingSearchInput) -> [TrackingCandidate] {
        []
    }
}
