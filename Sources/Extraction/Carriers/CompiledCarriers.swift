import Foundation

/// A format with its compiled pattern.
struct CompiledFormat: @unchecked Sendable {
    let carrierIndex: Int
    let format: TrackingFormat
    /// `^(?:pattern)$`; NSRegularExpression is immutable and safe to share.
    let regex: NSRegularExpression
    let hasCountryGroup: Bool
}

/// One format a candidate string fits.
struct FormatMatch {
    let formatIndex: Int
    let checkDigitValid: Bool?
    let country: String?
}

/// Label kinds in the label scanner.
enum LabelKind: Int {
    case tracking = 0
    case otherNumber = 1
    case example = 2
}

/// The catalog's compiled state: patterns, lookup tables, scanners. Immutable after init.
final class CompiledCarriers: @unchecked Sendable {
    let carriers: [CarrierRule]
    let formats: [CompiledFormat]
    /// Format indices by match length.
    let formatsByLength: [[Int]]
    let carrierByID: [String: Int]
    let carrierByName: [String: Int]
    let operatorByName: [String: (carrier: Int, country: String)]
    let senderDomains: [(domain: String, carrier: Int)]
    let urlPatterns: [(carrier: Int, host: String, regex: NSRegularExpression)]
    /// Hosts that belong to a carrier (URL pattern hosts and sender domains).
    let carrierHosts: [(host: String, carrier: Int)]
    let mentionScanner: KeywordScanner
    let labelScanner: KeywordScanner
    /// Label lengths by tag, for preferring the longer of two labels ending together.
    let labelLengths: [Int]

    init(rules: [(CarrierRule, String)], extraTrackingLabels: [String]) throws(RulesError) {
        var formats: [CompiledFormat] = []
        var byLength = Array(repeating: [Int](), count: TrackingFormat.longest + 1)
        var byID: [String: Int] = [:]
        var byName: [String: Int] = [:]
        var operatorByName: [String: (carrier: Int, country: String)] = [:]
        var domains: [(domain: String, carrier: Int)] = []
        var urlPatterns: [(carrier: Int, host: String, regex: NSRegularExpression)] = []
        var hosts: [(host: String, carrier: Int)] = []
        var mentions = KeywordScanner()

        for (carrierIndex, (rule, path)) in rules.enumerated() {
            if byID[rule.id] != nil {
                throw RulesError(path: path, reason: "duplicate carrier id '\(rule.id)'")
            }
            byID[rule.id] = carrierIndex
            for name in [rule.id] + rule.allNames {
                let key = Self.nameKey(name)
                if !key.isEmpty, byName[key] == nil { byName[key] = carrierIndex }
            }
            for (country, name) in rule.operators ?? [:] {
                let key = Self.nameKey(name)
                if operatorByName[key] == nil { operatorByName[key] = (carrierIndex, country.uppercased()) }
            }
            for name in Set(rule.allNames) where name.utf8.count >= 2 {
                let isAcronym = name.utf8.allSatisfy {
                    ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 == UInt8(ascii: "&")
                }
                mentions.add(name, tag: carrierIndex, caseSensitive: isAcronym)
            }
            for domain in rule.senderDomains {
                domains.append((domain, carrierIndex))
                hosts.append((domain, carrierIndex))
            }
            for urlPattern in rule.urlPatterns {
                let regex: NSRegularExpression
                do {
                    regex = try NSRegularExpression(pattern: urlPattern.pattern)
                } catch {
                    throw RulesError(path: path, reason: "URL pattern '\(urlPattern.pattern)': \(error)")
                }
                urlPatterns.append((carrierIndex, urlPattern.host, regex))
                hosts.append((urlPattern.host, carrierIndex))
            }
            for format in rule.formats {
                let regex: NSRegularExpression
                do {
                    regex = try NSRegularExpression(pattern: "^(?:\(format.pattern))$")
                } catch {
                    throw RulesError(path: path, reason: "format '\(format.id)': bad pattern: \(error)")
                }
                let compiled = CompiledFormat(
                    carrierIndex: carrierIndex, format: format, regex: regex,
                    hasCountryGroup: format.pattern.contains("(?<country>"))
                formats.append(compiled)
                for length in format.minLength...format.maxLength {
                    byLength[length].append(formats.count - 1)
                }
            }
        }

        var labels = KeywordScanner()
        var labelLengths: [Int] = []
        func addLabel(_ text: String, _ kind: LabelKind) {
            let lowered = text.lowercased()
            // Short ASCII labels ("tel", "awb", "cap") need word boundaries; longer ones may sit
            // inside compounds ("DHL-Sendungsnummer", "Paketsendungsnummer").
            let boundary = lowered.utf8.count <= 4 || kind == .example
            labels.add(lowered, tag: labelLengths.count * 3 + kind.rawValue, wordBoundary: boundary)
            labelLengths.append(lowered.utf8.count)
        }
        for label in Set(TrackingLabels.tracking + extraTrackingLabels) where !label.isEmpty {
            addLabel(label, .tracking)
        }
        for label in Set(TrackingLabels.otherNumbers) { addLabel(label, .otherNumber) }
        for label in Set(TrackingLabels.examples) { addLabel(label, .example) }

        self.carriers = rules.map(\.0)
        self.formats = formats
        self.formatsByLength = byLength
        self.carrierByID = byID
        self.carrierByName = byName
        self.operatorByName = operatorByName
        self.senderDomains = domains
        self.urlPatterns = urlPatterns
        self.carrierHosts = hosts
        self.mentionScanner = mentions
        self.labelScanner = labels
        self.labelLengths = labelLengths

        try verifyExamples(rules: rules)
    }

    /// Every format's examples must fit it with a valid check digit; no counterexample may.
    private func verifyExamples(rules: [(CarrierRule, String)]) throws(RulesError) {
        for (formatIndex, compiled) in formats.enumerated() {
            let path = rules[compiled.carrierIndex].1
            for example in compiled.format.examples {
                let number = Self.compact(example)
                let fits = match(number).contains {
                    $0.formatIndex == formatIndex && $0.checkDigitValid != false
                }
                if !fits {
                    throw RulesError(
                        path: path,
                        reason: "format '\(compiled.format.id)': example '\(example)' does not fit it")
                }
            }
            for counterexample in compiled.format.counterexamples {
                let number = Self.compact(counterexample)
                let fits = match(number).contains {
                    $0.formatIndex == formatIndex && $0.checkDigitValid != false
                }
                if fits {
                    throw RulesError(
                        path: path,
                        reason: "format '\(compiled.format.id)': counterexample '\(counterexample)' fits it")
                }
            }
        }
    }

    /// The formats a compact string fits, with check-digit results. A format whose `country`
    /// group names no operator of its carrier does not fit.
    func match(_ number: String) -> [FormatMatch] {
        let length = number.utf8.count
        guard length < formatsByLength.count else { return [] }
        let indices = formatsByLength[length]
        guard !indices.isEmpty else { return [] }
        let nsNumber = number as NSString
        let whole = NSRange(location: 0, length: nsNumber.length)
        var results: [FormatMatch] = []
        for index in indices {
            let compiled = formats[index]
            guard let result = compiled.regex.firstMatch(in: number, options: [.anchored], range: whole)
            else {
                continue
            }
            var country: String?
            if compiled.hasCountryGroup {
                let range = result.range(withName: "country")
                guard range.location != NSNotFound else { continue }
                let code = nsNumber.substring(with: range).uppercased()
                if let operators = carriers[compiled.carrierIndex].operators, operators[code] == nil {
                    continue
                }
                country = code
            }
            var valid: Bool?
            if let algorithm = compiled.format.checkDigit {
                let payloadRange = result.range(withName: "payload")
                let checkRange = result.range(withName: "check")
                guard payloadRange.location != NSNotFound, checkRange.location != NSNotFound else { continue }
                valid = CheckDigit.isValid(
                    nsNumber.substring(with: payloadRange), check: nsNumber.substring(with: checkRange),
                    algorithm: algorithm)
            }
            results.append(FormatMatch(formatIndex: index, checkDigitValid: valid, country: country))
        }
        return results
    }

    /// Carriers sending from `domain` or a parent domain of it.
    func carriersForDomain(_ domain: String) -> [Int] {
        let lowered = domain.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        guard !lowered.isEmpty else { return [] }
        var found: [Int] = []
        for (candidate, carrier) in senderDomains
        where lowered == candidate || lowered.hasSuffix("." + candidate) {
            if !found.contains(carrier) { found.append(carrier) }
        }
        return found
    }

    /// Carriers owning a link host.
    func carriersForHost(_ host: String) -> [Int] {
        var found: [Int] = []
        for (candidate, carrier) in carrierHosts where host == candidate || host.hasSuffix("." + candidate) {
            if !found.contains(carrier) { found.append(carrier) }
        }
        return found
    }

    /// `upu-at` → the carrier `upu` and country `AT`, when `upu` lists operators.
    func operatorCarrier(for id: String) -> (Int, String)? {
        guard let dash = id.lastIndex(of: "-") else { return nil }
        let base = String(id[..<dash])
        let country = id[id.index(after: dash)...].uppercased()
        guard let index = carrierByID[base], carriers[index].operators?[country] != nil else { return nil }
        return (index, country)
    }

    static func nameKey(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Spaces, hyphens and no-break spaces removed.
    static func compact(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { !($0 == " " || $0 == "-" || $0 == "\u{A0}") }))
    }
}
