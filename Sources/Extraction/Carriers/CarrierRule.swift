import Foundation

/// One carrier as `rules/carriers/<id>.json5` describes it: names, sender domains, tracking
/// number formats, tracking links.
///
/// ```json5
/// {
///   id: "ups", name: "UPS", localNames: ["유피에스"], aliases: ["United Parcel Service"],
///   senderDomains: ["ups.com"], keywords: ["UPS"],
///   trackingURLTemplate: "https://www.ups.com/track?tracknum={number}",
///   urlPatterns: [{ host: "ups.com", pattern: "[?&](?:tracknum|trackNums)=(?<number>[0-9A-Za-z]+)" }],
///   formats: [{ id: "ups-1z", name: "UPS 1Z", pattern: "1Z(?<payload>[0-9A-Z]{15})(?<check>[0-9A-Z])",
///               length: 18, checkDigit: { algorithm: "mod10", weights: [1, 2] }, context: "none",
///               examples: ["1Z5R89390357567127"], counterexamples: ["1Z5R89390357567128"] }],
/// }
/// ```
public struct CarrierRule: Sendable, Decodable, Hashable {
    /// Stable identifier, the file's base name by convention (`ups`, `cj-logistics`).
    public var id: String
    /// The display name written into results (`UPS`, `CJ대한통운`).
    public var name: String
    /// Names in other scripts or languages (`CJ대한통운`, `クロネコヤマト`).
    public var localNames: [String]
    /// Other names people use (`United Parcel Service`, `Deutsche Post DHL`).
    public var aliases: [String]
    /// Domains the carrier's own emails come from; subdomains match too.
    public var senderDomains: [String]
    /// Tracking number formats.
    public var formats: [TrackingFormat]
    /// Link to the carrier's tracking page, with `{number}` where the number goes.
    public var trackingURLTemplate: String?
    /// Links that are tracking links of this carrier, capturing the number.
    public var urlPatterns: [TrackingURLPattern]
    /// Words that name the carrier in text (brand names); all-capital ASCII keywords match
    /// case-sensitively, others ignore case. Names and local names count too.
    public var keywords: [String]
    /// For a carrier that stands for many postal operators (UPU S10): ISO 3166 country code →
    /// the operator's display name. Formats capture the country in a `country` group.
    public var operators: [String: String]?
    /// Tracking page templates per operator country, `{number}` where the number goes.
    public var operatorTrackingURLTemplates: [String: String]?

    enum CodingKeys: String, CodingKey {
        case id, name, localNames, aliases, senderDomains, formats, trackingURLTemplate, urlPatterns,
            keywords, operators, operatorTrackingURLTemplates
    }

    public init(
        id: String, name: String, localNames: [String] = [], aliases: [String] = [],
        senderDomains: [String] = [], formats: [TrackingFormat] = [], trackingURLTemplate: String? = nil,
        urlPatterns: [TrackingURLPattern] = [], keywords: [String] = [], operators: [String: String]? = nil,
        operatorTrackingURLTemplates: [String: String]? = nil
    ) {
        self.id = id
        self.name = name
        self.localNames = localNames
        self.aliases = aliases
        self.senderDomains = senderDomains
        self.formats = formats
        self.trackingURLTemplate = trackingURLTemplate
        self.urlPatterns = urlPatterns
        self.keywords = keywords
        self.operators = operators
        self.operatorTrackingURLTemplates = operatorTrackingURLTemplates
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        localNames = try container.decodeIfPresent([String].self, forKey: .localNames) ?? []
        aliases = try container.decodeIfPresent([String].self, forKey: .aliases) ?? []
        senderDomains = (try container.decodeIfPresent([String].self, forKey: .senderDomains) ?? [])
            .map { $0.lowercased() }
        formats = try container.decodeIfPresent([TrackingFormat].self, forKey: .formats) ?? []
        trackingURLTemplate = try container.decodeIfPresent(String.self, forKey: .trackingURLTemplate)
        urlPatterns = try container.decodeIfPresent([TrackingURLPattern].self, forKey: .urlPatterns) ?? []
        keywords = try container.decodeIfPresent([String].self, forKey: .keywords) ?? []
        operators = try container.decodeIfPresent([String: String].self, forKey: .operators)
        operatorTrackingURLTemplates = try container.decodeIfPresent(
            [String: String].self, forKey: .operatorTrackingURLTemplates)
        if id.isEmpty || id.contains(where: { !($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw DecodingError.dataCorruptedError(
                forKey: .id, in: container, debugDescription: "id must be letters, digits and '-'")
        }
    }

    /// Every name the carrier goes by: display name, local names, aliases, keywords.
    public var allNames: [String] { [name] + localNames + aliases + keywords }
}

/// How much surrounding evidence a format needs before a match counts.
public enum TrackingContextRequirement: String, Sendable, Hashable, Decodable {
    /// Distinctive enough alone (a prefix and a check digit: UPS `1Z…`, UPU S10).
    case none
    /// A tracking label nearby, or any sign of this carrier.
    case label
    /// A sign of this carrier: named nearby, its sender domain, its tracking link, or a
    /// tracking label with the carrier named elsewhere in the email.
    case carrier
}

/// One tracking number format of a carrier.
public struct TrackingFormat: Sendable, Decodable, Hashable {
    /// Stable identifier (`ups-1z`).
    public var id: String
    /// Human-readable name (`UPS 1Z`).
    public var name: String
    /// ICU regular expression matching the whole number with spaces removed. When the
    /// format has a check digit, the groups `payload` and `check` name the protected part
    /// and the check character; a `country` group names the S10 country.
    public var pattern: String
    /// Shortest and longest length of a match, in characters.
    public var minLength: Int
    public var maxLength: Int
    /// The check digit, when the format has one.
    public var checkDigit: CheckDigitAlgorithm?
    /// What context a match needs; defaults to `label` with a check digit, else `carrier`.
    public var context: TrackingContextRequirement
    /// A fallback format loses to any other carrier's match of the same number.
    public var fallback: Bool
    /// Valid numbers of this format (tests check them).
    public var examples: [String]
    /// Numbers that look alike but must not be accepted (tests check them).
    public var counterexamples: [String]

    enum CodingKeys: String, CodingKey {
        case id, name, pattern, length, minLength, maxLength, checkDigit, context, fallback, examples,
            counterexamples
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? id
        pattern = try container.decode(String.self, forKey: .pattern)
        let length = try container.decodeIfPresent(Int.self, forKey: .length)
        guard let minimum = try container.decodeIfPresent(Int.self, forKey: .minLength) ?? length else {
            throw DecodingError.keyNotFound(
                CodingKeys.length,
                .init(codingPath: container.codingPath, debugDescription: "length or minLength is required"))
        }
        minLength = minimum
        maxLength = try container.decodeIfPresent(Int.self, forKey: .maxLength) ?? length ?? minimum
        guard minLength >= 4, maxLength >= minLength, maxLength <= TrackingFormat.longest else {
            throw DecodingError.dataCorruptedError(
                forKey: .length, in: container,
                debugDescription: "lengths must satisfy 4 ≤ minLength ≤ maxLength ≤ \(TrackingFormat.longest)"
            )
        }
        checkDigit = try container.decodeIfPresent(CheckDigitAlgorithm.self, forKey: .checkDigit)
        context =
            try container.decodeIfPresent(TrackingContextRequirement.self, forKey: .context)
            ?? (checkDigit == nil ? .carrier : .label)
        fallback = try container.decodeIfPresent(Bool.self, forKey: .fallback) ?? false
        examples = try container.decodeIfPresent([String].self, forKey: .examples) ?? []
        counterexamples = try container.decodeIfPresent([String].self, forKey: .counterexamples) ?? []
        if checkDigit != nil, !(pattern.contains("(?<payload>") && pattern.contains("(?<check>")) {
            throw DecodingError.dataCorruptedError(
                forKey: .pattern, in: container,
                debugDescription: "a format with a check digit needs (?<payload>…) and (?<check>…) groups")
        }
    }

    /// The longest tracking number any format may describe.
    public static let longest = 40
}

/// A link that is a carrier's tracking link, with the number in it.
public struct TrackingURLPattern: Sendable, Decodable, Hashable {
    /// The host or a parent domain (`ups.com` matches `www.ups.com`).
    public var host: String
    /// ICU regular expression over the rest of the URL (path, query, fragment) with a
    /// `number` group; several numbers separated by `,` in the group are all read.
    public var pattern: String

    public init(host: String, pattern: String) {
        self.host = host.lowercased()
        self.pattern = pattern
    }

    enum CodingKeys: String, CodingKey { case host, pattern }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decode(String.self, forKey: .host).lowercased()
        pattern = try container.decode(String.self, forKey: .pattern)
        if !pattern.contains("(?<number>") {
            throw DecodingError.dataCorruptedError(
                forKey: .pattern, in: container, debugDescription: "a URL pattern needs a (?<number>…) group")
        }
    }
}
