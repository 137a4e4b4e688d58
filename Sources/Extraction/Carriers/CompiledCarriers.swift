import Foundation

/// A format with its compiled pattern (a class: read for every candidate number, it is
/// shared, not copied with its arrays and strings).
final class CompiledFormat: @unchecked Sendable {
    let carrierIndex: Int
    let format: TrackingFormat
    /// `^(?:pattern)$`; NSRegularExpression is immutable and safe to share.
    let regex: NSRegularExpression
    let hasCountryGroup: Bool
    /// The pattern has a `tracking` group: the part reported as the tracking number (the
    /// 22-digit USPS item number inside a `420`+ZIP barcode string).
    let hasTrackingGroup: Bool
    /// The pattern matches digits only (no letter anywhere in it).
    let digitsOnly: Bool
    /// Characters every match starts with (`1Z`, `TBA`), empty when unknown.
    let literalPrefix: [UInt8]
    /// The pattern for bytes, when it is in the supported subset and agrees with ``regex`` on
    /// the format's examples and counterexamples; else `nil` (the expression is used).
    let bytePattern: BytePattern?
    /// The group numbers of `payload`, `check`, `country` and `tracking` in ``bytePattern``.
    let payloadGroup: Int?
    let checkGroup: Int?
    let countryGroup: Int?
    let trackingGroup: Int?

    init(carrierIndex: Int, format: TrackingFormat, regex: NSRegularExpression) {
        self.carrierIndex = carrierIndex
        self.format = format
        self.regex = regex
        hasCountryGroup = format.pattern.contains("(?<country>")
        hasTrackingGroup = format.pattern.contains("(?<tracking>")
        // Group syntax aside, a letter in the pattern means letters may match.
        var stripped = format.pattern
        for group in ["payload", "check", "country", "tracking"] {
            stripped = stripped.replacingOccurrences(of: "(?<\(group)>", with: "(")
        }
        stripped = stripped.replacingOccurrences(of: "(?:", with: "(")
        digitsOnly = !stripped.utf8.contains {
            ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
        }
        var prefix: [UInt8] = []
        if !stripped.contains("|") {
            let bytes = Array(stripped.utf8)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let literal =
                    (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                let quantified = index + 1 < bytes.count && "{?*+".utf8.contains(bytes[index + 1])
                guard literal, !quantified else { break }
                prefix.append(byte)
                index += 1
            }
        }
        literalPrefix = prefix
        var bytePattern = BytePattern(format.pattern)
        let samples = (format.examples + format.counterexamples).map(CompiledCarriers.compact)
        if let pattern = bytePattern, !pattern.agrees(with: regex, on: samples, whole: true) {
            bytePattern = nil
        }
        self.bytePattern = bytePattern
        payloadGroup = bytePattern?.groupNames["payload"]
        checkGroup = bytePattern?.groupNames["check"]
        countryGroup = bytePattern?.groupNames["country"]
        trackingGroup = bytePattern?.groupNames["tracking"]
    }

    /// A cheap test before the pattern: digits-only formats need digits only, prefixes must match.
    func mayMatch(_ bytes: some Collection<UInt8>, allDigits: Bool) -> Bool {
        if digitsOnly, !allDigits { return false }
        if literalPrefix.isEmpty { return true }
        return bytes.count >= literalPrefix.count && bytes.starts(with: literalPrefix)
    }
}

/// One format a candidate string fits.
struct FormatMatch {
    let formatIndex: Int
    let checkDigitValid: Bool?
    let country: String?
    /// The part to report when the format names one (`tracking` group), else `nil`.
    var reported: String? = nil
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
    /// Every carrier answering to a name (display, local, alias or keyword), in file order.
    let carriersByName: [String: [Int]]
    let operatorByName: [String: (carrier: Int, country: String)]
    let senderDomains: [(domain: String, carrier: Int)]
    let urlPatterns: [(carrier: Int, host: String, regex: NSRegularExpression)]
    /// The URL patterns for bytes, where supported and agreeing with the expression on the
    /// carrier's tracking links built from its examples (``BytePattern``).
    let urlBytePatterns: [BytePattern?]
    /// Hosts that belong to a carrier (URL pattern hosts and sender domains).
    let carrierHosts: [(host: String, carrier: Int)]
    let carriersByHost: [Substring: [Int]]
    let carriersBySenderDomain: [Substring: [Int]]
    let urlPatternsByHost: [Substring: [Int]]
    /// The three host tables above, for byte look-ups.
    let hostTable: HostTable
    let mentionScanner: KeywordScanner
    let labelScanner: KeywordScanner
    /// Both in one, for one pass over a text: a hit's tag below ``textLabelTagOffset`` is a
    /// mention's (the carrier index); otherwise it is a label's tag plus that offset. Each
    /// kind's hits come out as its own scanner gives them.
    let textScanner: KeywordScanner
    let textLabelTagOffset: Int
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
        var urlBytePatterns: [BytePattern?] = []
        var hosts: [(host: String, carrier: Int)] = []
        var mentions = KeywordScanner()
        var both = KeywordScanner()

        for (carrierIndex, (rule, path)) in rules.enumerated() {
            if byID[rule.id] != nil {
                throw RulesError(path: path, reason: "duplicate carrier id '\(rule.id)'")
            }
            byID[rule.id] = carrierIndex
            for name in [rule.id, rule.name] + rule.localNames + rule.aliases {
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
                both.add(name, tag: carrierIndex, caseSensitive: isAcronym)
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
                var bytePattern = BytePattern(urlPattern.pattern)
                if let pattern = bytePattern,
                    !pattern.agrees(with: regex, on: Self.linkSamples(rule), whole: false)
                {
                    bytePattern = nil
                }
                urlBytePatterns.append(bytePattern)
                hosts.append((urlPattern.host, carrierIndex))
            }
            for format in rule.formats {
                let regex: NSRegularExpression
                do {
                    regex = try NSRegularExpression(pattern: "^(?:\(format.pattern))$")
                } catch {
                    throw RulesError(path: path, reason: "format '\(format.id)': bad pattern: \(error)")
                }
                let compiled = CompiledFormat(carrierIndex: carrierIndex, format: format, regex: regex)
                formats.append(compiled)
                for length in format.minLength...format.maxLength {
                    byLength[length].append(formats.count - 1)
                }
            }
        }

        // Keywords name a carrier only when no carrier has that name or alias.
        for (carrierIndex, (rule, _)) in rules.enumerated() {
            for keyword in rule.keywords {
                let key = Self.nameKey(keyword)
                if !key.isEmpty, byName[key] == nil { byName[key] = carrierIndex }
            }
        }
        var carriersByName: [String: [Int]] = [:]
        for (carrierIndex, (rule, _)) in rules.enumerated() {
            for name in Set(([rule.id] + rule.allNames).map(Self.nameKey)) where !name.isEmpty {
                carriersByName[name, default: []].append(carrierIndex)
            }
        }

        var labels = KeywordScanner()
        var labelLengths: [Int] = []
        func addLabel(_ text: String, _ kind: LabelKind) {
            let lowered = text.lowercased()
            labels.add(lowered, tag: labelLengths.count * 3 + kind.rawValue)
            both.add(lowered, tag: rules.count + labelLengths.count * 3 + kind.rawValue)
            labelLengths.append(lowered.utf8.count)
        }
        // Labels of several words count written without their spaces too ("Trackingnumber").
        for label in Set(LanguageRules.withJoinedForms(TrackingLabels.tracking) + extraTrackingLabels)
        where !label.isEmpty {
            addLabel(label, .tracking)
        }
        for label in Set(LanguageRules.withJoinedForms(TrackingLabels.otherNumbers)) {
            addLabel(label, .otherNumber)
        }
        for label in Set(TrackingLabels.examples) { addLabel(label, .example) }

        mentions.seal()
        labels.seal()
        both.seal()
        self.textScanner = both
        self.textLabelTagOffset = rules.count
        self.carriers = rules.map(\.0)
        self.formats = formats
        self.formatsByLength = byLength
        self.carrierByID = byID
        self.carrierByName = byName
        self.carriersByName = carriersByName
        self.operatorByName = operatorByName
        self.senderDomains = domains
        self.urlPatterns = urlPatterns
        self.urlBytePatterns = urlBytePatterns
        self.carrierHosts = hosts
        var carriersByHost: [Substring: [Int]] = [:]
        for (host, carrier) in hosts { carriersByHost[Substring(host), default: []].append(carrier) }
        self.carriersByHost = carriersByHost
        var carriersBySenderDomain: [Substring: [Int]] = [:]
        for (domain, carrier) in domains {
            carriersBySenderDomain[Substring(domain), default: []].append(carrier)
        }
        self.carriersBySenderDomain = carriersBySenderDomain
        var urlPatternsByHost: [Substring: [Int]] = [:]
        for (index, pattern) in urlPatterns.enumerated() {
            urlPatternsByHost[Substring(pattern.host), default: []].append(index)
        }
        self.urlPatternsByHost = urlPatternsByHost
        self.hostTable = HostTable(
            hosts: carriersByHost, senderDomains: carriersBySenderDomain, urlPatterns: urlPatternsByHost)
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
    /// Whether a format of the bytes' length may match them (``CompiledFormat/mayMatch(_:allDigits:)``)
    /// and is included: when none is, ``match(_:where:)`` finds nothing in their text.
    func mayMatchAny(_ bytes: some Collection<UInt8>, where include: (Int) -> Bool) -> Bool {
        guard bytes.count < formatsByLength.count else { return false }
        let allDigits = bytes.allSatisfy(CheckDigit.isDigit)
        return formatsByLength[bytes.count].contains {
            formats[$0].mayMatch(bytes, allDigits: allDigits) && include($0)
        }
    }

    func match(_ number: String, where include: (Int) -> Bool = { _ in true }) -> [FormatMatch] {
        var state = BytePattern.State()
        return match(number, where: include, state: &state)
    }

    /// ``match(_:where:)`` with the byte patterns' buffers kept in `state`, so that a search
    /// matching many numbers allocates them once.
    func match(_ number: String, where include: (Int) -> Bool, state: inout BytePattern.State)
        -> [FormatMatch]
    {
        match(number, bytes: Array(number.utf8), where: include, state: &state)
    }

    /// ``match(_:where:state:)`` for a number whose UTF-8 bytes the caller holds.
    /// - Parameters:
    ///   - number: the compact number.
    ///   - bytes: its UTF-8 bytes.
    func match(
        _ number: String, bytes: [UInt8], where include: (Int) -> Bool, state: inout BytePattern.State
    ) -> [FormatMatch] {
        let length = bytes.count
        guard length < formatsByLength.count else { return [] }
        let allDigits = bytes.allSatisfy(CheckDigit.isDigit)
        var printable: Bool?
        var results: [FormatMatch] = []
        for index in formatsByLength[length]
        where formats[index].mayMatch(bytes, allDigits: allDigits) && include(index) {
            let compiled = formats[index]
            if printable == nil { printable = BytePattern.isPrintableASCII(bytes) }
            if printable == true {
                // The pattern is read where the format keeps it, not copied out.
                let outcome = bytes.withUnsafeBufferPointer { buffer -> (FormatMatch?, decided: Bool) in
                    switch compiled.bytePattern?.wholeMatch(buffer, state: &state) {
                    case nil, .undecided?: return (nil, false)
                    case .noMatch?: return (nil, true)
                    case .matched(let slots)?: return (formatMatch(index, slots: slots, bytes: buffer), true)
                    }
                }
                if let found = outcome.0 { results.append(found) }
                if outcome.decided { continue }
            }
            if let found = expressionMatch(index, number: number) { results.append(found) }
        }
        return results
    }

    /// A byte pattern's whole match of `bytes` as a ``FormatMatch``, judged as
    /// ``expressionMatch(_:number:)`` judges the expression's: `nil` when the country names no
    /// operator of the carrier or a check-digit group is missing.
    private func formatMatch(_ index: Int, slots: [Int], bytes: UnsafeBufferPointer<UInt8>) -> FormatMatch? {
        let compiled = formats[index]
        var country: String?
        if compiled.hasCountryGroup {
            guard let code = BytePattern.group(compiled.countryGroup, of: slots, in: bytes)?.uppercased()
            else {
                return nil
            }
            if let operators = carriers[compiled.carrierIndex].operators, operators[code] == nil {
                return nil
            }
            country = code
        }
        var valid: Bool?
        if let algorithm = compiled.format.checkDigit {
            // The groups' bytes are weighed where they are: no string is made for them.
            guard let payload = BytePattern.groupRange(compiled.payloadGroup, of: slots),
                let check = BytePattern.groupRange(compiled.checkGroup, of: slots)
            else { return nil }
            valid = CheckDigit.isValid(
                payload: UnsafeBufferPointer(rebasing: bytes[payload]),
                check: UnsafeBufferPointer(rebasing: bytes[check]), algorithm: algorithm)
        }
        var reported: String?
        if compiled.hasTrackingGroup {
            reported = BytePattern.group(compiled.trackingGroup, of: slots, in: bytes)
        }
        return FormatMatch(formatIndex: index, checkDigitValid: valid, country: country, reported: reported)
    }

    /// One format's `NSRegularExpression` match of a compact string, with its country and
    /// check digit; `nil` when it does not fit.
    private func expressionMatch(_ index: Int, number: String) -> FormatMatch? {
        let nsNumber = number as NSString
        let whole = NSRange(location: 0, length: nsNumber.length)
        let compiled = formats[index]
        guard let result = compiled.regex.firstMatch(in: number, options: [.anchored], range: whole) else {
            return nil
        }
        var country: String?
        if compiled.hasCountryGroup {
            let range = result.range(withName: "country")
            guard range.location != NSNotFound else { return nil }
            let code = nsNumber.substring(with: range).uppercased()
            if let operators = carriers[compiled.carrierIndex].operators, operators[code] == nil {
                return nil
            }
            country = code
        }
        var valid: Bool?
        if let algorithm = compiled.format.checkDigit {
            let payloadRange = result.range(withName: "payload")
            let checkRange = result.range(withName: "check")
            guard payloadRange.location != NSNotFound, checkRange.location != NSNotFound else { return nil }
            valid = CheckDigit.isValid(
                nsNumber.substring(with: payloadRange), check: nsNumber.substring(with: checkRange),
                algorithm: algorithm)
        }
        var reported: String?
        if compiled.hasTrackingGroup {
            let range = result.range(withName: "tracking")
            if range.location != NSNotFound { reported = nsNumber.substring(with: range) }
        }
        return FormatMatch(formatIndex: index, checkDigitValid: valid, country: country, reported: reported)
    }

    /// The expression path alone, for every fitting format (the reference the byte patterns
    /// are tested against).
    func matchByExpressions(_ number: String) -> [FormatMatch] {
        let length = number.utf8.count
        guard length < formatsByLength.count else { return [] }
        let bytes = Array(number.utf8)
        let allDigits = bytes.allSatisfy(CheckDigit.isDigit)
        return formatsByLength[length].filter { formats[$0].mayMatch(bytes, allDigits: allDigits) }.compactMap
        {
            expressionMatch($0, number: number)
        }
    }

    /// The raw `number` group of every match of URL pattern `patternIndex` in a link target,
    /// left to right, before percent decoding.
    func urlNumbers(_ patternIndex: Int, in target: String) -> [String] {
        var state = BytePattern.State()
        return urlNumbers(patternIndex, in: target, state: &state)
    }

    /// ``urlNumbers(_:in:)`` with the byte pattern's buffers kept in `state`.
    func urlNumbers(_ patternIndex: Int, in target: String, state: inout BytePattern.State) -> [String] {
        var target = target
        if let pattern = urlBytePatterns[patternIndex], let group = pattern.groupNames["number"] {
            let found = target.withUTF8 { bytes -> [String]? in
                guard BytePattern.isPrintableASCII(bytes),
                    let matches = pattern.allMatches(bytes, state: &state)
                else {
                    return nil
                }
                return matches.compactMap { BytePattern.group(group, of: $0, in: bytes) }
            }
            if let found { return found }
        }
        return urlNumbersByExpression(patternIndex, in: target)
    }

    /// ``urlNumbers(_:in:)`` by the `NSRegularExpression` (the general path and the reference).
    func urlNumbersByExpression(_ patternIndex: Int, in target: String) -> [String] {
        let nsTarget = target as NSString
        let whole = NSRange(location: 0, length: nsTarget.length)
        return urlPatterns[patternIndex].regex.matches(in: target, range: whole).compactMap { result in
            let range = result.range(withName: "number")
            return range.location == NSNotFound ? nil : nsTarget.substring(with: range)
        }
    }

    /// ``textScanner``'s hits in a text (``KeywordScanner/scan(_:)``), read through the
    /// scanner where this object keeps it: a caller reaching the scanner itself copies it
    /// (and retains its dozen arrays) first.
    @inline(never)
    func textHits(in bytes: [UInt8]) -> [KeywordScanner.Hit] { textScanner.scan(bytes) }

    /// ``mentionScanner``'s hits in a text, as ``textHits(in:)`` reads them.
    @inline(never)
    func mentionHits(in bytes: [UInt8]) -> [KeywordScanner.Hit] { mentionScanner.scan(bytes) }

    /// ``mentionHits(in:)`` in bytes the caller holds.
    @inline(never)
    func mentionHits(in bytes: UnsafeBufferPointer<UInt8>) -> [KeywordScanner.Hit] {
        mentionScanner.scan(bytes)
    }

    /// Carriers sending from `domain` or a parent domain of it.
    func carriersForDomain(_ domain: String) -> [Int] {
        // ASCII capitals lower-cased, every other byte kept, in one copy of the bytes (on the
        // stack): the table reads them there.
        var domain = domain
        let count = domain.utf8.count
        guard count > 0 else { return [] }
        let answered = domain.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { buffer -> [Int]? in
                for index in bytes.indices { buffer[index] = KeywordScanner.lower(bytes[index]) }
                guard let entries = hostTable.lookup(UnsafeBufferPointer(buffer)) else { return nil }
                var found: [Int] = []
                for entry in entries {
                    for carrier in hostTable.entries[entry].senderCarriers where !found.contains(carrier) {
                        found.append(carrier)
                    }
                }
                return found
            }
        }
        if let answered { return answered }
        let lowered = domain.utf8.map(KeywordScanner.lower)
        var found: [Int] = []
        for parent in Self.domainAndParents(String(decoding: lowered, as: UTF8.self)) {
            for carrier in carriersBySenderDomain[parent] ?? [] where !found.contains(carrier) {
                found.append(carrier)
            }
        }
        return found
    }

    /// Carriers owning a link host (the host or a parent domain of it).
    func carriersForHost(_ host: String) -> [Int] {
        if let entries = hostTable.lookup(Array(host.utf8)) {
            var found: [Int] = []
            for entry in entries {
                for carrier in hostTable.entries[entry].hostCarriers where !found.contains(carrier) {
                    found.append(carrier)
                }
            }
            return found
        }
        var found: [Int] = []
        for domain in Self.domainAndParents(host) {
            for carrier in carriersByHost[domain] ?? [] where !found.contains(carrier) {
                found.append(carrier)
            }
        }
        return found
    }

    /// URL patterns for a link host (the host or a parent domain of it).
    func urlPatterns(forHost host: String) -> [Int] {
        if let entries = hostTable.lookup(Array(host.utf8)) {
            return entries.flatMap { hostTable.entries[$0].urlPatterns }
        }
        return Self.domainAndParents(host).flatMap { urlPatternsByHost[$0] ?? [] }
    }

    /// ``carriersForHost(_:)`` and ``urlPatterns(forHost:)`` together, from one look-up.
    func hostAnswers(_ host: String) -> HostAnswers {
        // The host's bytes are read where the string keeps them.
        var host = host
        guard let entries = host.withUTF8({ hostTable.lookup($0) }) else {
            return hostAnswersWithoutTable(host)
        }
        var found: [Int] = []
        var patterns: [Int] = []
        for entry in entries {
            for carrier in hostTable.entries[entry].hostCarriers where !found.contains(carrier) {
                found.append(carrier)
            }
            patterns += hostTable.entries[entry].urlPatterns
        }
        return (found, patterns)
    }

    /// The carriers owning a link host and the URL patterns for it.
    typealias HostAnswers = (carriers: [Int], urlPatterns: [Int])

    /// ``carriersForHost(_:)`` and ``urlPatterns(forHost:)`` by their general path, the
    /// reference ``HostTable`` is tested against.
    func hostAnswersWithoutTable(_ host: String) -> (carriers: [Int], urlPatterns: [Int]) {
        var found: [Int] = []
        for domain in Self.domainAndParents(host) {
            for carrier in carriersByHost[domain] ?? [] where !found.contains(carrier) {
                found.append(carrier)
            }
        }
        return (found, Self.domainAndParents(host).flatMap { urlPatternsByHost[$0] ?? [] })
    }

    /// `www.ups.com` → `www.ups.com`, `ups.com`, `com`.
    static func domainAndParents(_ host: String) -> [Substring] {
        var result: [Substring] = [Substring(host)]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { result.append(rest) }
        }
        return result
    }

    /// `upu-at` → the carrier `upu` and country `AT`, when `upu` lists operators.
    func operatorCarrier(for id: String) -> (Int, String)? {
        guard let dash = id.lastIndex(of: "-") else { return nil }
        let base = String(id[..<dash])
        let country = id[id.index(after: dash)...].uppercased()
        guard let index = carrierByID[base], carriers[index].operators?[country] != nil else { return nil }
        return (index, country)
    }

    /// Tracking links of a carrier to check its URL patterns' byte forms on: its templates
    /// with each example (and two at once, comma-separated) in place of `{number}`.
    static func linkSamples(_ rule: CarrierRule) -> [String] {
        let templates =
            [rule.trackingURLTemplate].compactMap { $0 }
            + (rule.operatorTrackingURLTemplates ?? [:]).values.sorted()
        let examples = rule.formats.flatMap(\.examples).map(compact)
        var samples: [String] = []
        for template in templates {
            for example in examples + [examples.prefix(2).joined(separator: ",")] {
                let link = template.replacingOccurrences(of: "{number}", with: example)
                samples += [link, link.uppercased(), link + "&x=1", link + "#top"]
            }
        }
        return samples
    }

    /// A carrier name as the catalog's name tables key it: lower-cased, white space runs made
    /// one space, none at the ends. By bytes for ASCII text (where the white space characters
    /// are tab to carriage return and space, and a CR LF pair is one of them), by characters
    /// otherwise (``characterNameKey(_:)``).
    static func nameKey(_ text: String) -> String {
        var text = text
        let ascii = text.withUTF8 { bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            guard !bytes.isEmpty else { return "" }
            // Each space written stands for one white space byte or more: the key is no longer
            // than the text.
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                var count = 0
                var spaceBefore = false
                for byte in bytes {
                    if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) {
                        spaceBefore = count > 0
                        continue
                    }
                    if spaceBefore {
                        buffer[count] = 0x20
                        count += 1
                        spaceBefore = false
                    }
                    buffer[count] = KeywordScanner.lower(byte)
                    count += 1
                }
                return count
            }
        }
        return ascii ?? characterNameKey(text)
    }

    /// ``nameKey(_:)`` character by character, for any text (the reference the byte reading
    /// is tested against).
    static func characterNameKey(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Spaces, hyphens and no-break spaces removed.
    static func compact(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { !($0 == " " || $0 == "-" || $0 == "\u{A0}") }))
    }
}
