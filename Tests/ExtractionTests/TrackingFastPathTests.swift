import Foundation
import MailDocument
import Testing

@testable import Extraction

/// The byte-level paths of the tracking search agree with the general code they stand in for.
@Suite struct TrackingFastPathTests {
    typealias Generator = FastPathTests.Generator

    static var compiled: CompiledCarriers { CarrierTestSupport.catalog.compiled }

    /// Hosts and sender domains of every carrier, with subdomains, look-alikes and odd forms.
    static var hostSamples: [String] {
        var hosts: [String] = []
        for rule in CarrierTestSupport.catalog.carriers {
            for domain in rule.senderDomains + rule.urlPatterns.map(\.host) {
                hosts += [
                    domain, "www.\(domain)", "mail.\(domain)", "x\(domain)", ".\(domain)", "\(domain).",
                    "a..\(domain)", String(domain.dropFirst()), "\(domain).evil.example", "é.\(domain)",
                    domain.uppercased(), "\u{301}.\(domain)",
                ]
            }
        }
        return hosts + ["", ".", "..", "com", "example.com", "localhost", "ups", "a.b.c.d.e"]
    }

    @Test func hostTableAgreesWithTheDictionaries() {
        let compiled = Self.compiled
        var answered = 0
        for host in Self.hostSamples {
            let reference = compiled.hostAnswersWithoutTable(host)
            #expect(compiled.carriersForHost(host) == reference.carriers, "\(host)")
            #expect(compiled.urlPatterns(forHost: host) == reference.urlPatterns, "\(host)")
            let answers = compiled.hostAnswers(host)
            #expect(
                answers.carriers == reference.carriers && answers.urlPatterns == reference.urlPatterns,
                "\(host)")
            var sender: [Int] = []
            let lowered = String(decoding: host.utf8.map(KeywordScanner.lower), as: UTF8.self)
            if !lowered.isEmpty {
                for parent in CompiledCarriers.domainAndParents(lowered) {
                    for carrier in compiled.carriersBySenderDomain[parent] ?? []
                    where !sender.contains(carrier) {
                        sender.append(carrier)
                    }
                }
            }
            #expect(compiled.carriersForDomain(host) == sender, "\(host)")
            if compiled.hostTable.lookup(Array(host.utf8)) != nil { answered += 1 }
        }
        #expect(answered > Self.hostSamples.count / 2)
        #expect(compiled.hostTable.isUsable)
    }

    /// The host reader as it was written first, by `Substring` and a byte array.
    static func referenceHost(of url: String) -> String? {
        var utf8 = Substring(url).utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
            utf8[colon...].starts(with: "://".utf8)
        else { return nil }
        utf8 = utf8[utf8.index(colon, offsetBy: 3)...]
        var host: [UInt8] = []
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"): break
            case UInt8(ascii: "@"):
                host.removeAll()
                continue
            default:
                host.append(KeywordScanner.lower(byte))
                continue
            }
            break
        }
        if let port = host.firstIndex(of: UInt8(ascii: ":")) { host.removeSubrange(port...) }
        return host.isEmpty || host.count > 253 ? nil : String(decoding: host, as: UTF8.self)
    }

    @Test func hostReaderAgrees() {
        var generator = Generator(state: 11)
        let pieces = [
            "https", "http", ":", "//", "/", "?", "#", "@", "www.", "UPS", "ups.com", ".", "é", "\u{FF}",
            ":8080",
            "user:pw", "a", "-", String(repeating: "x", count: 120), "\u{301}",
        ]
        for round in 0..<20_000 {
            let url = generator.text(pieces, count: round % 5 == 0 ? 16 : 6)
            #expect(TrackingSearch.host(of: url) == Self.referenceHost(of: url), "\(url.debugDescription)")
        }
        let invalid = String(decoding: Array("https://a\u{FF}b.com/".utf8) + [0xC3], as: UTF8.self)
        #expect(TrackingSearch.host(of: invalid) == Self.referenceHost(of: invalid))
    }

    /// A host read against the hosts known before is the host read by itself.
    @Test func hostReaderReusingKnownHostsAgrees() {
        var generator = Generator(state: 67)
        let hosts = [
            "ups.com", "UPS.COM", "www.ups.com", "Www.Ups.Com", "é.example", "e\u{301}.example",
            "user@dhl.de",
            "dhl.de:443", "a", "", "x.y.z", "ＵＰＳ.com",
        ]
        var known: [String] = []
        var reused = 0
        for round in 0..<20_000 {
            if round % 50 == 0 { known = [] }
            let url =
                generator.pick(["https://", "http://", "mailto:", "https:/", "ftp://"])
                + generator.pick(hosts)
                + generator.pick(["", "/", "/track?x=1", "#a", "?q", ":8080/p"])
            let host = TrackingSearch.host(of: url, reusing: known)
            #expect(host == TrackingSearch.host(of: url), "\(url.debugDescription)")
            if let host {
                if known.contains(host) { reused += 1 } else { known.append(host) }
            }
        }
        #expect(reused > 1_000)
    }

    static let scannerPieces = [
        " ", "  ", "\n", "-", ".", ":", "#", "/", "tracking", "Tracking Number", "TRACKING", "no", "number",
        "UPS", "ups", "Ups", "DHL", "dhl", "DPD", "GLS", "Royal Mail", "royal", "Colissimo", "suivi",
        "order", "Order #", "e.g.", "z. b.", "Sendungsnummer", "sendungs-nr", "운송장번호", "운송장 번호", "お問い合わせ番号",
        "追跡番号", "单号", "运单号码", "例：", "：", "ヤマト運輸", "佐川急便", "顺丰", "CJ대한통운", "é", "\u{A0}", "123",
        "1Z", "x", "a", "Yamato", "La Poste", "Correos", "&", "track", "trace", "배송", "%E8%BF%BD",
    ]

    @Test func keywordPairBucketsAgreeWithFirstByteBuckets() {
        let compiled = Self.compiled
        var generator = Generator(state: 5)
        var hits = 0
        for round in 0..<6_000 {
            let text = Array(generator.text(Self.scannerPieces, count: round % 4 == 0 ? 60 : 10).utf8)
            for scanner in [compiled.mentionScanner, compiled.labelScanner, compiled.textScanner] {
                let fast = scanner.scan(text)
                #expect(fast == scanner.scanByFirstByte(text), "\(String(decoding: text, as: UTF8.self))")
                hits += fast.count
            }
        }
        #expect(hits > 10_000)
    }

    /// Phrases of two, three and more bytes that share a pair bucket, with and without case,
    /// at every position of short texts (cut before their third or fourth byte too): the
    /// third- and fourth-byte filters of the buckets drop no hit.
    @Test func keywordBucketFiltersDropNoHit() {
        var scanner = KeywordScanner()
        let phrases = [
            "No", "Nr", "NRW", "nro", "Nummer", "Number", "nº", "AWB", "awbs", "Aw", "UPS", "Ups!", "ups1",
        ]
        for (tag, phrase) in phrases.enumerated() {
            scanner.add(phrase, tag: tag, caseSensitive: tag % 4 == 1, wordBoundary: tag % 5 != 2)
        }
        scanner.seal()
        var generator = Generator(state: 79)
        let pieces =
            phrases + ["N", "n", "A", "a", "U", "W", "w", " ", "-", "1", "é", "º", "\u{A0}", "xNo", "NoX"]
        var hits = 0
        for _ in 0..<10_000 {
            let text = Array(generator.text(pieces, count: 6).utf8)
            let fast = scanner.scan(text)
            #expect(fast == scanner.scanByFirstByte(text), "\(String(decoding: text, as: UTF8.self))")
            hits += fast.count
        }
        #expect(hits > 5_000)
    }

    /// A scanner whose phrases all start at a word or a UTF-8 lead byte goes from one such
    /// position to the next eight bytes at a time: it finds every hit the first-byte buckets
    /// find, in texts long and short, with stray lead and continuation bytes and other bytes
    /// of every kind around the words.
    @Test func keywordWordStartScanAgrees() {
        var scanner = KeywordScanner()
        let phrases = [
            "No", "Nr", "NRW", "nro", "Nummer", "Number", "nº", "AWB", "awbs", "Aw", "UPS", "Ups!", "ups1",
            "tracking number", "Sendungs-Nr", "運送", "追跡番号", "운송장", "é-mail", "ß", "9x", "12345",
        ]
        for (tag, phrase) in phrases.enumerated() {
            scanner.add(phrase, tag: tag, caseSensitive: tag % 4 == 1)
        }
        scanner.seal()
        #expect(scanner.startsAtWordsOrLeadBytes)
        var generator = Generator(state: 83)
        let pieces: [[UInt8]] =
            (phrases + [
                "N", "n", "A", "a", "U", "W", "w", " ", "  ", "-", "1", "é", "º", "\u{A0}", "xNo", "NoX",
                "\n",
                "_", "@", "[", "`", "{", "/", ":", "追", "号", "tracking", "numbers",
            ]).map { Array($0.utf8) } + [[0x80], [0xBF], [0xC0], [0xE8], [0xFF], [0x7F]]
        var hits = 0
        for round in 0..<10_000 {
            let count = Int(generator.next() % UInt64(round % 3 == 0 ? 60 : 12)) + 1
            var text: [UInt8] = []
            for _ in 0..<count { text += generator.pick(pieces) }
            let fast = scanner.scan(text)
            #expect(fast == scanner.scanByFirstByte(text), "\(text)")
            hits += fast.count
        }
        #expect(hits > 20_000)
    }

    /// The catalog's text and mention scanners take the word-start scan.
    @Test func catalogScannersStartAtWords() {
        #expect(Self.compiled.textScanner.startsAtWordsOrLeadBytes)
        #expect(Self.compiled.mentionScanner.startsAtWordsOrLeadBytes)
    }

    /// The second rendition is searched only when the first gives nothing, and gives what a
    /// search of it alone gives (its sender domain's carriers reused or looked up).
    @Test func secondRenditionSearchedOnlyWhenTheFirstGivesNothing() {
        let catalog = CarrierTestSupport.catalog
        var generator = Generator(state: 89)
        let pieces = [
            " ", "\n", "Tracking number: ", "UPS ", "DHL ", "Order ", "1Z5R89390357567127",
            "JD014600006281230109",
            "RR123456785DE", "123456789012", "words", "00340434161094042557",
        ]
        let domains: [String?] = [nil, "ups.com", "dhl.de", "shop.example"]
        var fromSecond = 0
        for round in 0..<600 {
            let first = TrackingSearchInput(
                text: generator.text(pieces, count: 6), senderDomain: generator.pick(domains),
                subject: round % 3 == 0 ? "Your UPS parcel" : nil)
            let second =
                round % 4 == 0
                ? nil
                : TrackingSearchInput(
                    text: generator.text(pieces, count: 6),
                    senderDomain: round % 2 == 0 ? first.senderDomain : generator.pick(domains))
            let firstFound = catalog.findTrackingNumbers(in: first)
            let expected =
                firstFound.isEmpty ? second.map { catalog.findTrackingNumbers(in: $0) } ?? [] : firstFound
            if firstFound.isEmpty && !expected.isEmpty { fromSecond += 1 }
            #expect(catalog.findTrackingNumbers(in: first, orElseIn: second) == expected)
        }
        #expect(fromSecond > 20)
    }

    @Test func keywordScannerWithOneBytePhrases() {
        var scanner = KeywordScanner()
        scanner.add("#", tag: 1)
        scanner.add("no", tag: 2)
        scanner.add("No", tag: 3, caseSensitive: true)
        scanner.add("ab", tag: 4, wordBoundary: false)
        scanner.seal()
        let hits = scanner.scan(Array("No #1 nab No".utf8))
        #expect(hits.map(\.tag) == [2, 3, 1, 4, 2, 3])
        #expect(hits == scanner.scanByFirstByte(Array("No #1 nab No".utf8)))
    }

    /// A format match as text, for comparing the two paths.
    static func describe(_ matches: [FormatMatch]) -> [String] {
        matches.map {
            "\($0.formatIndex) \(String(describing: $0.checkDigitValid)) \($0.country ?? "-") \($0.reported ?? "-")"
        }
    }

    @Test func everyRulePatternHasAByteForm() {
        let compiled = Self.compiled
        for format in compiled.formats {
            #expect(format.bytePattern != nil, "\(format.format.id): \(format.format.pattern)")
        }
        for (index, pattern) in compiled.urlPatterns.enumerated() {
            #expect(compiled.urlBytePatterns[index] != nil, "\(pattern.host): \(pattern.regex.pattern)")
        }
    }

    @Test func formatBytePatternsAgreeWithTheExpressions() {
        let compiled = Self.compiled
        var generator = Generator(state: 3)
        let alphabets: [[Character]] = [
            Array("0123456789"), Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), Array("0123456789AZ"),
            Array("01234567899999CEHLRUVJTSFGMNDXYZ"), Array("abcXYZ019 -#"),
        ]
        var samples: [String] = []
        for format in compiled.formats {
            for example in format.format.examples + format.format.counterexamples {
                let compact = CompiledCarriers.compact(example)
                samples.append(compact)
                var characters = Array(compact)
                for _ in 0..<20 where !characters.isEmpty {
                    let position = Int(generator.next() % UInt64(characters.count))
                    characters[position] = generator.pick(generator.pick(alphabets))
                    samples.append(String(characters))
                }
                samples += [
                    String(compact.dropFirst()), String(compact.dropLast()), compact + "0", "9" + compact,
                ]
            }
        }
        for _ in 0..<20_000 {
            let alphabet = generator.pick(alphabets)
            let length = 4 + Int(generator.next() % 37)
            samples.append(String((0..<length).map { _ in generator.pick(alphabet) }))
        }
        samples += ["1Z", "", "é1234567890", "12345678901\n", "１２３４５６７８９０１２"]
        var matched = 0
        for sample in samples {
            let fast = compiled.match(sample)
            #expect(Self.describe(fast) == Self.describe(compiled.matchByExpressions(sample)), "\(sample)")
            matched += fast.count
        }
        #expect(matched > 1_000)
    }

    /// Patterns without branches are matched in one pass, as backtracking matches them.
    @Test func straightPatternsAgreeWithBacktracking() throws {
        var generator = Generator(state: 43)
        var patterns = Self.compiled.formats.map(\.format.pattern)
        patterns += ["(?<a>[0-9]{2})(?:(?<b>A)B)[0-9]{0}C", "(?i)ab(?<x>c)", "[0-9]{3}"]
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabc".utf8)
        var straight = 0
        var matched = 0
        for pattern in patterns {
            let compiled = try #require(BytePattern(pattern), "\(pattern)")
            guard compiled.isStraight else { continue }
            straight += 1
            for round in 0..<400 {
                let length = round % 3 == 0 ? Int(generator.next() % 30) : 6 + Int(generator.next() % 20)
                var bytes = (0..<length).map { _ in generator.pick(alphabet) }
                if round % 2 == 0,
                    let example = Self.compiled.formats.first(where: { $0.format.pattern == pattern })
                {
                    bytes = Array(CompiledCarriers.compact(generator.pick(example.format.examples)).utf8)
                    if round % 4 == 0, !bytes.isEmpty {
                        bytes[Int(generator.next() % UInt64(bytes.count))] = generator.pick(alphabet)
                    }
                }
                bytes.withUnsafeBufferPointer { buffer in
                    var state = BytePattern.State()
                    let fast = compiled.straightWholeMatch(buffer, state: &state)
                    let reference = compiled.backtrackingWholeMatch(buffer)
                    switch (fast, reference) {
                    case (.matched(let a), .matched(let b)):
                        #expect(a == b, "\(pattern) \(bytes)")
                        matched += 1
                    case (.noMatch, .noMatch): break
                    default: Issue.record("\(pattern) \(bytes): \(fast) \(reference)")
                    }
                }
            }
        }
        #expect(straight > 20)
        #expect(matched > 1_000)
    }

    @Test func urlBytePatternsAgreeWithTheExpressions() {
        let compiled = Self.compiled
        var generator = Generator(state: 9)
        var pieces = [
            "https://", "www.", "ups.com", "/", "?", "&", "=", "#", "%2C", ",", ";", "|", "%", "-",
            "1Z5R89390357567127",
            "123456789012", "TBA123456789012", "JD014600006281230109", "abc", "ABC", "track", "Track",
            "details", "id",
            "tracknum", "trackNums", "é", "%E8", " ", "\t",
        ]
        for rule in CarrierTestSupport.catalog.carriers {
            for pattern in rule.urlPatterns {
                // The literal words of each pattern, so that its matches are exercised.
                pieces += pattern.pattern.split(whereSeparator: { "()|?:<>[]{}+*\\".contains($0) }).map(
                    String.init)
            }
        }
        var matched = 0
        for round in 0..<6_000 {
            let target = generator.text(pieces, count: round % 3 == 0 ? 30 : 10)
            for index in compiled.urlPatterns.indices {
                let fast = compiled.urlNumbers(index, in: target)
                #expect(fast == compiled.urlNumbersByExpression(index, in: target), "\(index) \(target)")
                matched += fast.count
            }
        }
        #expect(matched > 1_000)
    }

    @Test func bytePatternSubset() throws {
        for unsupported in [
            "a*?", "a+?", "a++", "a{2}?", "^a", "a$", "\\w+", "[[a-z]]", "[a-z&&b]", "[a-]", "(?<n>a", "a)",
            "[]a]",
            "(?=a)+", "a**", "(?i:a)", "(?<=a)b", "x*", "a|", "é", "[{ab}]", "\\1", "(?=(a))b",
        ] {
            #expect(BytePattern(unsupported) == nil, "\(unsupported)")
        }
        for (pattern, input, whole) in [
            ("(?:92)?(?<p>[0-9]{3})(?<c>[0-9])", "921234", true), ("[0-9]{2,4}[0-9]", "12345", true),
            ("(?=[A-Z0-9]*[A-Z])[0-9]{2}[A-Z0-9]{3}[0-9]{2}", "12ABC34", true),
            ("(?!00)[0-9]{3}", "001", true), ("(?i)[?&]id=(?<n>[0-9a-z%,\\-]+)", "x?ID=ab-1,2&id=9", false),
            ("a|ab|abc", "abcd abc", false), ("(a|ab)(c|bcd)(?<d>d*)", "abcd", false),
        ] {
            let regex = try NSRegularExpression(pattern: whole ? "^(?:\(pattern))$" : pattern)
            let compiled = try #require(BytePattern(pattern), "\(pattern)")
            #expect(
                compiled.agrees(
                    with: regex, on: [input, String(input.dropFirst()), input + "x"], whole: whole))
        }
    }

    @Test func oneTextScanAgreesWithTheTwoScanners() {
        let compiled = Self.compiled
        var generator = Generator(state: 17)
        let offset = compiled.textLabelTagOffset
        for round in 0..<4_000 {
            let text = Array(generator.text(Self.scannerPieces, count: round % 4 == 0 ? 60 : 10).utf8)
            let both = compiled.textScanner.scan(text)
            let mentions = both.filter { $0.tag < offset }
            let labels = both.filter { $0.tag >= offset }.map {
                KeywordScanner.Hit(tag: $0.tag - offset, start: $0.start, end: $0.end)
            }
            #expect(mentions == compiled.mentionScanner.scan(text))
            #expect(labels == compiled.labelScanner.scan(text))
        }
    }

    /// The placeholder test as it was written first.
    static func referenceIsPlaceholder(_ bytes: [UInt8]) -> Bool {
        let digits = bytes.filter(CheckDigit.isDigit)
        guard digits.count >= 6 else { return false }
        var counts = [Int](repeating: 0, count: 10)
        for digit in digits { counts[Int(digit - UInt8(ascii: "0"))] += 1 }
        if (counts.max() ?? 0) * 10 >= digits.count * 8 { return true }
        let ascending = zip(digits, digits.dropFirst()).allSatisfy { $1 == ($0 == 57 ? 48 : $0 + 1) }
        let descending = zip(digits, digits.dropFirst()).allSatisfy { $1 == ($0 == 48 ? 57 : $0 - 1) }
        return ascending || descending
    }

    @Test func placeholderTestAgrees() {
        var generator = Generator(state: 23)
        let pieces = ["0", "1", "2", "3", "9", "8", "7", "123456", "0000", "Z", "1Z", "A", "9876543210", "5"]
        var placeholders = 0
        for round in 0..<30_000 {
            let bytes = Array(generator.text(pieces, count: round % 2 == 0 ? 6 : 14).utf8)
            let fast = TrackingSearch.isPlaceholder(bytes)
            #expect(fast == Self.referenceIsPlaceholder(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            if fast { placeholders += 1 }
        }
        #expect(placeholders > 1_000)
    }

    @Test func linkNumberPiecesAgree() {
        var generator = Generator(state: 29)
        let pieces = [
            ",", ";", "|", " ", "-", "\u{A0}", "1Z5R89390357567127", "abc", "ß", "é", ",\u{301}", "x", "12",
            "%2C",
            "ﬀ",
        ]
        for _ in 0..<20_000 {
            let raw = generator.text(pieces, count: 8)
            let reference = raw.split(whereSeparator: { ",;|".contains($0) }).map(String.init)
            #expect(TrackingSearch.numberPieces(raw) == reference, "\(raw.debugDescription)")
            #expect(
                TrackingSearch.compactUppercased(raw) == CompiledCarriers.compact(raw).uppercased(),
                "\(raw.debugDescription)")
        }
    }

    /// A link's query values and their numbers, read by bytes for ASCII, are those the
    /// character reading gives: empty items and pieces, repeated `?`, items without `=`,
    /// more than 20 items, percent escapes (valid or not), CR LF, non-ASCII targets.
    @Test func linkQueryValuesAgree() {
        var generator = Generator(state: 83)
        let pieces = [
            "https://shop.example/track", "?", "??", "&", "&&", ";", "#", "=", "==", "id=", "tracking=", "n=",
            "1Z5R89390357567127", "RR 123-456-785 DE", "%2C", "%20", "%E3%81%82", "%zz", "%", ",", ",,", "|",
            " ",
            "-", "abc", "\r\n", "é", "\u{A0}", ",\u{301}", "x", "12",
        ]
        var values = 0
        for round in 0..<20_000 {
            let target = generator.text(pieces, count: round % 4 == 0 ? 60 : 12)
            let expected = TrackingSearch.characterQueryValues(target)
            #expect(TrackingSearch.queryValues(target) == expected, "\(target.debugDescription)")
            for value in expected {
                #expect(
                    TrackingSearch.valueNumbers(value) == TrackingSearch.characterValueNumbers(value),
                    "\(value.debugDescription)")
                values += 1
            }
        }
        #expect(values > 5_000)
    }

    /// Links repeating a target take the candidates found for it before: the same as
    /// searching every link by itself.
    @Test func repeatedLinkTargetsAgree() {
        var generator = Generator(state: 37)
        let targets = [
            "https://www.ups.com/track?tracknum=1Z5R89390357567127",
            "https://www.ups.com/track?tracknum=1Z5R89390357567127,1Z5R89390357567128",
            "https://www.ups.com/track?tracknum=1Z5R89390357567128",
            "https://www.dhl.de/de/privatkunden/pakete-empfangen/verfolgen.html?piececode=00340434161094042557",
            "https://shop.example/track?id=1Z5R89390357567127&order=1234",
            "https://shop.example/tracking?number=RR123456785DE",
            "https://shop.example/account", "mailto:help@shop.example",
            "https://shop.example/track?n=%E3%81%82",
        ]
        let texts = ["", "Track", "Track your package", "  Sendung \n verfolgen ", "追跡する", "Track"]
        var compared = 0
        for _ in 0..<300 {
            let links = (0..<Int(generator.next() % 8)).map { index in
                Link(
                    href: "", target: generator.pick(targets), text: generator.pick(texts), position: index,
                    isHidden: generator.next() % 4 == 0)
            }
            let search = TrackingSearch(
                compiled: Self.compiled, input: TrackingSearchInput(text: "", links: links))
            // Each link's host, read once per distinct host.
            #expect(search.linkHosts == links.map { TrackingSearch.host(of: $0.target) })
            #expect(search.hosts.count == Set(search.linkHosts.compactMap { $0 }).count)
            var reference: [TrackingCandidate] = []
            for (link, host) in zip(links, search.linkHosts) {
                guard let host else { continue }
                reference += search.candidates(link: link, host: Self.compiled.hostAnswers(host))
            }
            #expect(search.linkCandidates() == reference)
            compared += reference.count
        }
        #expect(compared > 300)
    }

    /// Candidates with distinct numbers are only sorted: as grouping them gives.
    @Test func mergeOfDistinctNumbersAgrees() {
        var generator = Generator(state: 47)
        let numbers = [
            "1Z5R89390357567127", "RR123456785DE", "123456789012", "JD014600006281230109", "a", "A",
        ]
        let sources: [TrackingSource] = [.link, .labelledText, .text, .subject]
        var distinct = 0
        for _ in 0..<5_000 {
            let candidates = (0..<Int(generator.next() % 7)).map { _ in
                TrackingCandidate(
                    carrierID: generator.pick(["ups", "dhl"]), carrierName: "",
                    trackingNumber: generator.pick(numbers),
                    source: generator.pick(sources), checkDigitValid: generator.pick([true, false, nil]),
                    score: Double(generator.next() % 4) / 4, context: "",
                    utf8Offset: generator.pick([nil, 0, 5, 5, 9]), trackingURL: generator.pick([nil, "u"]),
                    formatID: generator.pick([nil, "f"]))
            }
            if Set(candidates.map(\.trackingNumber)).count == candidates.count { distinct += 1 }
            #expect(TrackingSearch.merge(candidates) == TrackingSearch.mergeByGroups(candidates))
        }
        #expect(distinct > 1_000)
    }

    /// Groups read as chains of indices merge as sorted lists of candidates do.
    @Test func mergeByChainsAgreesWithSortedGroups() {
        var generator = Generator(state: 59)
        let numbers = ["1Z5R89390357567127", "RR123456785DE", "123456789012", "JD014600006281230109", "A"]
        let sources: [TrackingSource] = [.link, .labelledText, .text, .subject]
        var repeated = 0
        for round in 0..<8_000 {
            let candidates = (0..<Int(generator.next() % (round % 4 == 0 ? 40 : 9))).map { _ in
                TrackingCandidate(
                    carrierID: generator.pick(["ups", "dhl", "ups"]), carrierName: "",
                    trackingNumber: generator.pick(numbers),
                    source: generator.pick(sources), checkDigitValid: generator.pick([true, false, nil]),
                    score: Double(generator.next() % 4) / 4, context: generator.pick(["", "a", "b"]),
                    utf8Offset: generator.pick([nil, 0, 5, 5, 9]),
                    trackingURL: generator.pick([nil, "u", "v"]),
                    formatID: generator.pick([nil, "f", "g"]))
            }
            if Set(candidates.map(\.trackingNumber)).count < candidates.count { repeated += 1 }
            #expect(
                TrackingSearch.mergeByGroups(candidates) == TrackingSearch.mergeBySortedGroups(candidates))
        }
        #expect(repeated > 3_000)
    }

    /// A small map answers as a dictionary does, below and beyond the number of keys it
    /// compares one by one.
    @Test func smallMapAgreesWithADictionary() {
        var generator = Generator(state: 61)
        for round in 0..<400 {
            var map = round % 3 == 0 ? SmallMap<String, Int>(capacity: round % 40) : SmallMap<String, Int>()
            var reference: [String: Int] = [:]
            var order: [String] = []
            let distinct = round % 2 == 0 ? 10 : 60
            for step in 0..<Int(generator.next() % 120) {
                let key = "k\(generator.next() % UInt64(distinct))"
                #expect(map[key] == reference[key], "\(key)")
                if reference[key] == nil {
                    map.insert(step, for: key)
                    reference[key] = step
                    order.append(key)
                }
                #expect(map.position(of: key) == order.firstIndex(of: key))
            }
            #expect(map.keys == order)
            #expect(map.values == order.map { reference[$0]! })
        }
    }

    @Test func utf8PrefixAgrees() {
        for text in ["", "abc", "é", "日本語のテキスト", String(repeating: "x", count: 100)] {
            for limit in [0, 1, 2, 3, 5, 200] {
                #expect(TrackingSearch.utf8Prefix(text, limit) == Array(text.utf8.prefix(limit)))
            }
        }
    }

    /// The runs read eight bytes at a time are those every run gives, filtered.
    @Test func runsReadByWordsAgree() {
        var generator = Generator(state: 41)
        let pieces = [
            "a", "z", "A", "Z", "0", "9", " ", "-", "@", "[", "`", "{", "/", ":", "\u{7F}", "é", "Ω", "１",
            "\n",
            "lowercaseletters", "Capital", "UPS", "1Z5R89390357567127", "abc123", "x",
            // Runs of seven, eight and nine bytes and of about twice the longest format (read
            // eight bytes at a time, across the end of the text too).
            "1234567", "ABCDEFGH", "abcdefgh1", "Ab3dEf7h", String(repeating: "7", count: 69),
            String(repeating: "Z9", count: 36), "\u{80}", "\u{FF}",
            // Capitals followed by small letters (passed over) and not (read).
            "Hello", "HelloWORLD", "aB", "Ab1", "ABc", "SendungsNr", "xY", "ABCDEFGh", "ABCDEFGHi",
        ]
        let search = TrackingSearch(compiled: Self.compiled, input: TrackingSearchInput(text: ""))
        for round in 0..<20_000 {
            let text = generator.text(pieces, count: round % 4 == 0 ? 80 : 20)
            let scan = TextScan(search: search, bytes: Array(text.utf8), isSubject: false)
            let expected = scan.allRuns().filter { $0.isNumberLike || ($0.hasDigit && $0.length >= 6) }
            #expect(scan.findRuns() == expected, "\(text.debugDescription)")
        }
    }

    /// The byte classes read eight bytes at a time are those of each byte alone, at every
    /// position of the word.
    @Test func byteClassesAgreeWithEachByte() {
        var generator = Generator(state: 43)
        for round in 0..<4_096 {
            var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            // Every byte value at every position.
            bytes[round % 8] = UInt8(round / 8 % 256)
            let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
            let classes = TextScan.byteClasses(word)
            for (position, byte) in bytes.enumerated() {
                let bit = UInt64(0x80) << (8 * position)
                let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                let isSmall = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                let isLetter = isSmall || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                #expect((classes.digits & bit != 0) == isDigit, "\(byte)")
                #expect((classes.letters & bit != 0) == isLetter, "\(byte)")
                #expect((classes.lowers & bit != 0) == isSmall, "\(byte)")
            }
            #expect((classes.digits | classes.letters | classes.lowers) & ~TextScan.highBits == 0)
        }
    }

    /// The kept runs, tested as one condition, are the runs the conditions one by one keep.
    @Test func keptRunsAgreeWithTheirConditions() {
        for length in 1...(TrackingFormat.longest * 2 + 3) {
            for hasDigit in [false, true] {
                for hasLower in [false, true] {
                    let run = TextScan.Run(start: 5, end: 5 + length, hasDigit: hasDigit, hasLower: hasLower)
                    let expected =
                        run.length <= TrackingFormat.longest * 2
                        && (run.isNumberLike || (run.hasDigit && run.length >= 6))
                    #expect(TextScan.isKept(run) == expected, "\(length) \(hasDigit) \(hasLower)")
                }
            }
        }
    }

    @Test func wordsLeftOutOfTheRunsChangeNothing() {
        var generator = Generator(state: 31)
        let pieces = [
            " ", "  ", "-", "\n", ": ", "#", "+", "(", "e.g. ", "Tracking number ", "UPS ", "DHL ", "Order ",
            "tel ",
            "1Z5R89390357567127", "1Z 5R8 939 0357 567 127", "JD014600006281230109", "RR123456785DE",
            "RR 123 456 785 DE",
            "00340434161094042557", "123456789012", "1234", "5678", "9012", "AB", "C", "Word", "words",
            "UPPERCASE",
            "x9y8z7w6", "ABC123DEF", "\u{A0}", "１２３４", "é", "GM", "TBA", "123", "4567890", "abc1234567",
        ]
        var compared = 0
        for round in 0..<3_000 {
            let text = generator.text(pieces, count: round % 3 == 0 ? 40 : 12)
            let search = TrackingSearch(
                compiled: Self.compiled,
                input: TrackingSearchInput(text: text, senderDomain: round % 2 == 0 ? "ups.com" : nil))
            let scan = TextScan(search: search, bytes: Array(text.utf8), isSubject: round % 5 == 0)
            let all = scan.allRuns()
            #expect(scan.findRuns() == all.filter { $0.isNumberLike || ($0.hasDigit && $0.length >= 6) })
            let fast = scan.candidates()
            #expect(fast == scan.candidates(runs: all), "\(text.debugDescription)")
            // Appended after earlier candidates (the links'), they come out the same.
            let earlier = TrackingCandidate(
                carrierID: "ups", carrierName: "UPS", trackingNumber: "1Z5R89390357567127", source: .link,
                checkDigitValid: true, score: 0.97, context: "Track")
            var appended = [earlier]
            scan.appendCandidates(to: &appended)
            #expect(appended == [earlier] + fast)
            compared += fast.count
        }
        #expect(compared > 200)
    }

    /// Narrowing passes over kana and other `E3` characters eight bytes at a time, and gives
    /// what narrowing byte by byte gives, with every narrowed character's position.
    @Test func narrowingAgreesWithByteReading() {
        func reference(_ bytes: [UInt8]) -> (bytes: [UInt8], narrowedAt: [Int])? {
            var result: [UInt8] = []
            var positions: [Int] = []
            var index = 0
            while index < bytes.count {
                if index + 2 < bytes.count {
                    let (first, second, third) = (bytes[index], bytes[index + 1], bytes[index + 2])
                    var narrow: UInt8?
                    if first == 0xEF, second == 0xBC || second == 0xBD, third & 0xC0 == 0x80 {
                        let scalar = 0xFF00 + (UInt32(second & 0x03) << 6) + UInt32(third & 0x3F)
                        if (0xFF01...0xFF5E).contains(scalar) { narrow = UInt8(scalar - 0xFF01 + 0x21) }
                    } else if first == 0xE3, second == 0x80, third == 0x80 {
                        narrow = 0x20
                    }
                    if let narrow {
                        positions.append(result.count)
                        result.append(narrow)
                        index += 3
                        continue
                    }
                }
                result.append(bytes[index])
                index += 1
            }
            return positions.isEmpty ? nil : (result, positions)
        }
        var generator = Generator(state: 73)
        let pieces = [
            "a", "1", " ", "１", "Ａ", "\u{3000}", "あ", "ア", "、", "。", "〜", "\u{3001}", "\u{FF5F}", "\u{FF00}",
            "ｱ", "\u{FEFF}", "注文番号", "お問い合わせ番号", "é", "abcdefgh",
        ]
        var narrowed = 0
        for round in 0..<6_000 {
            var bytes = Array(generator.text(pieces, count: round % 3 == 0 ? 40 : 10).utf8)
            let cut = Int(generator.next() % 3)
            if bytes.count >= cut { bytes.removeLast(cut) }
            let expected = reference(bytes)
            let actual = TextScan.narrowed(bytes)
            #expect(
                actual?.bytes == expected?.bytes && actual?.narrowedAt == expected?.narrowedAt, "\(bytes)")
            if expected != nil { narrowed += 1 }
        }
        #expect(narrowed > 1_000)
    }

    /// The carrier sets answer as `Set<Int>` does, for indices held as bits (0–255) and above.
    @Test func carrierSetAgreesWithASet() {
        var generator = Generator(state: 67)
        for round in 0..<4_000 {
            // Mostly the carriers of the rules, sometimes indices past the inline bits.
            let limit: UInt64 = round % 4 == 0 ? 600 : 60
            func index() -> Int { Int(generator.next() % limit) }
            let left = (0..<Int(generator.next() % 12)).map { _ in index() }
            let right = (0..<Int(generator.next() % 12)).map { _ in index() }
            var set = CarrierSet(left)
            var reference = Set(left)
            #expect(set.count == reference.count)
            #expect(set.isEmpty == reference.isEmpty)
            let other = CarrierSet(right)
            #expect(set.union(other) == CarrierSet(reference.union(right)))
            #expect(set.union(other).count == reference.union(right).count)
            if round % 2 == 0 {
                set.formUnion(other)
            } else {
                set.formUnion(right)
            }
            reference.formUnion(right)
            for probe in [-1, 0, 63, 64, 127, 128, 255, 256, 599] + right + (0..<8).map({ _ in index() }) {
                #expect(set.contains(probe) == reference.contains(probe), "\(reference) \(probe)")
            }
            #expect(set.count == reference.count)
            #expect(set == CarrierSet(reference.shuffled()))
            if let extra = (0..<600).first(where: { !reference.contains($0) }) {
                #expect(set != CarrierSet(Array(reference) + [extra]))
            }
        }
    }

    /// The windows of a list of runs as the search first listed them: the whole list kept,
    /// each chain sliced out of it (byte ranges from the first run's start to the last one's end),
    /// and the number of runs in the longest chain.
    static func referenceWindows(_ runs: [TextScan.Run], bytes: [UInt8]) -> (
        windows: [Range<Int>], longest: Int
    ) {
        func joiner(_ left: TextScan.Run, _ right: TextScan.Run) -> UInt8? {
            let gap = right.start - left.end
            if gap == 1, bytes[left.end] == UInt8(ascii: " ") || bytes[left.end] == UInt8(ascii: "-") {
                return bytes[left.end]
            }
            if gap == 2, bytes[left.end] == 0xC2, bytes[left.end + 1] == 0xA0 { return UInt8(ascii: " ") }
            return nil
        }
        var windows: [Range<Int>] = []
        var longest = 0
        var index = 0
        while index < runs.count {
            var chainEnd = index
            var spaceJoined = false
            while chainEnd + 1 < runs.count, runs[chainEnd].isNumberLike, runs[chainEnd + 1].isNumberLike,
                let joiner = joiner(runs[chainEnd], runs[chainEnd + 1])
            {
                if joiner == UInt8(ascii: "-"), runs[chainEnd].length < 3 || runs[chainEnd + 1].length < 3 {
                    break
                }
                if joiner != UInt8(ascii: "-") { spaceJoined = true }
                chainEnd += 1
            }
            if chainEnd == index && !(runs[index].hasDigit && runs[index].length >= 6) {
                index += 1
                continue
            }
            let chain = runs[index...chainEnd]
            longest = max(longest, chain.count)
            var found: [ClosedRange<Int>] = []
            for position in chain.indices where chain[position].hasDigit && chain[position].length >= 6 {
                found.append(position...position)
            }
            if chain.count > 1, chain.count <= 12 {
                let inner = chain.dropFirst().dropLast()
                if !spaceJoined || !inner.contains(where: { $0.length < 2 }) {
                    let first = chain.startIndex
                    let last = chain.endIndex - 1
                    for start in first...(chain[first].hasDigit ? first : first + 1) {
                        for end in stride(from: last, through: chain[last].hasDigit ? last : last - 1, by: -1)
                        where end > start && !found.contains(start...end) {
                            found.append(start...end)
                        }
                    }
                }
            }
            windows += found.map { runs[$0.lowerBound].start..<runs[$0.upperBound].end }
            index = chainEnd + 1
        }
        return (windows, longest)
    }

    /// Chains grown while the runs go by give the windows a list of all runs gives, long
    /// chains (more than twelve runs) included.
    @Test func chainsGiveTheWindowsOfTheRunList() {
        var generator = Generator(state: 53)
        let pieces = [
            " ", " ", "-", "\u{A0}", "\n", "x", "AB", "C", "123", "4567", "12", "1Z5R89390357567127",
            "abc123456",
            "GM", "TBA", "FR", "9", "0001234567", "word",
        ]
        let search = TrackingSearch(compiled: Self.compiled, input: TrackingSearchInput(text: ""))
        var long = 0
        for round in 0..<6_000 {
            var text = generator.text(pieces, count: round % 3 == 0 ? 120 : 24)
            if round % 4 == 1 {
                // Groups of digits and capitals in a row, often more than twelve.
                let groups = (0..<Int(5 + generator.next() % 25)).map { _ in
                    generator.pick(["12", "345", "6789", "AB", "0", "1234567", "X"])
                }
                text += " " + groups.joined(separator: generator.pick([" ", " ", "-", "\u{A0}"])) + " "
                text += generator.text(pieces, count: 6)
            }
            let scan = TextScan(search: search, bytes: Array(text.utf8), isSubject: false)
            let runs = scan.findRuns()
            let (expected, longest) = Self.referenceWindows(runs, bytes: scan.bytes)
            var windows: [Range<Int>] = []
            scan.forEachWindow { windows.append($0[0].start..<$0[$0.count - 1].end) }
            #expect(windows == expected, "\(text.debugDescription)")
            var fromList: [Range<Int>] = []
            scan.forEachWindow(runs: runs) { fromList.append($0[0].start..<$0[$0.count - 1].end) }
            #expect(fromList == expected, "\(text.debugDescription)")
            if longest > TextScan.longestWindowChain { long += 1 }
        }
        #expect(long > 100)
    }
}
