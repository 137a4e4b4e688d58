import Foundation

/// What the checker knows about one carrier: the names that count as naming it, the hosts
/// of its tracking links, and its tracking number formats with their check digits.
public struct CarrierProfile: Sendable {
    public var id: String
    /// The display name, e.g. `UPS`.
    public var name: String
    /// Every name that counts as naming the carrier in text (display name, local names,
    /// aliases, keywords).
    public var names: [String]
    /// Hosts (or parent domains) of the carrier's tracking links, e.g. `ups.com`.
    public var linkHosts: [String]
    public var formats: [TrackingNumberFormat]

    public init(
        id: String, name: String, names: [String] = [], linkHosts: [String] = [],
        formats: [TrackingNumberFormat] = []
    ) {
        self.id = id
        self.name = name
        self.names = names.isEmpty ? [name] : names
        self.linkHosts = linkHosts.map { $0.lowercased() }
        self.formats = formats
    }
}

/// One tracking number format, checked against its check digit.
public struct TrackingNumberFormat: Sendable {
    public var id: String
    /// Human-readable name, e.g. `UPS 1Z`.
    public var name: String
    /// ICU regular expression for the whole number (spaces removed) with `payload` and
    /// `check` groups when the format has a check digit.
    public var pattern: String
    /// Distinctive enough to stand alone (a prefix and a check digit): a failing match is
    /// reported wherever it appears, not only next to a tracking label.
    public var isDistinctive: Bool
    /// Whether `check` is the right check character for `payload`; `nil` when the format
    /// has no check digit.
    public var validate: (@Sendable (_ payload: String, _ check: String) -> Bool)?

    public init(
        id: String, name: String, pattern: String, isDistinctive: Bool,
        validate: (@Sendable (_ payload: String, _ check: String) -> Bool)?
    ) {
        self.id = id
        self.name = name
        self.pattern = pattern
        self.isDistinctive = isDistinctive
        self.validate = validate
    }
}

/// The result of matching one candidate number against the carrier formats.
struct FormatMatch {
    var carrier: String
    var format: String
    var isDistinctive: Bool
    /// `nil` when the format has no check digit.
    var checkDigitValid: Bool?
}

/// Carrier formats compiled once per checker.
struct CompiledFormats: @unchecked Sendable {
    // NSRegularExpression is immutable after creation and safe to share across threads.
    private var entries: [(carrier: String, format: TrackingNumberFormat, regex: NSRegularExpression)] = []

    init(_ carriers: [CarrierProfile]) {
        for carrier in carriers {
            for format in carrier.formats {
                guard let regex = try? NSRegularExpression(pattern: "^(?:" + format.pattern + ")$") else {
                    continue
                }
                entries.append((carrier.name, format, regex))
            }
        }
    }

    /// Every format the whole candidate matches, with its check digit verdict.
    func matches(_ candidate: String) -> [FormatMatch] {
        guard candidate.utf16.count <= 64 else { return [] }
        let whole = NSRange(location: 0, length: candidate.utf16.count)
        let text = candidate as NSString
        var result: [FormatMatch] = []
        for entry in entries {
            guard let match = entry.regex.firstMatch(in: candidate, range: whole) else { continue }
            var valid: Bool?
            if let validate = entry.format.validate {
                let payloadRange = match.range(withName: "payload")
                let checkRange = match.range(withName: "check")
                if payloadRange.location != NSNotFound, checkRange.location != NSNotFound {
                    valid = validate(text.substring(with: payloadRange), text.substring(with: checkRange))
                }
            }
            result.append(
                FormatMatch(
                    carrier: entry.carrier, format: entry.format.name,
                    isDistinctive: entry.format.isDistinctive,
                    checkDigitValid: valid))
        }
        return result
    }
}
