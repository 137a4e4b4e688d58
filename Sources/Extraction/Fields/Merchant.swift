import Foundation
import MIME
import MailDocument

extension ExtractionContext {
    /// The merchant, from the most trusted source that names one: markup, the attached order,
    /// `merchants.json5` by sender domain, the sender's display name cleaned, brand phrases in
    /// the body ("Thank you for shopping at …", "© 2026 …", a logo's alt text), the
    /// registrable domain. In a carrier's email, the shipper when named, else none.
    ///
    /// A sender domain holding a control character (an ESC, DEL, a C1 control) or white space
    /// names no host (RFC 5322 §3.4.1): it is not taken, and the merchant gets no domain from it.
    mutating func findMerchant(kind: EmailKind) -> MerchantInfo? {
        let senderDomain = document.sender?.domain.flatMap(Self.hostDomain)
        let registrable = document.sender?.registrableDomain.flatMap(Self.hostDomain) ?? senderDomain
        if let carrierSender {
            _ = carrierSender
            guard let shipper = findShipper() else { return nil }
            evidence.append(
                Evidence(field: "merchant", source: "label", text: shipper.1, confidence: shipper.2))
            return MerchantInfo(name: shipper.0)
        }
        let entry = senderDomain.flatMap { rules.merchants.entry(forDomain: $0) }
        let isPlatform = entry?.platform == true
        let domain =
            entry?.domain
            ?? (isPlatform
                ? replyToShopDomain(platform: registrable) ?? shopDomainFromLinks(platform: registrable)
                : registrable)
        func found(_ name: String, source: String, text: String, confidence: Double) -> MerchantInfo {
            evidence.append(Evidence(field: "merchant", source: source, text: text, confidence: confidence))
            return MerchantInfo(name: name, domain: domain)
        }
        for object in Markup.objects(ofType: ["Order"], in: document) {
            if let name = Markup.string(object.properties["merchant"]).flatMap({ cleanBrand($0) }) {
                return found(
                    name, source: "markup", text: "schema.org Order merchant: \(name)", confidence: 0.95)
            }
        }
        for attached in document.attachedOrders {
            let merchant = Markup.object(Markup.object(attached.order)?["merchant"])
            if let name = Markup.string(merchant?["displayName"]).flatMap({ cleanBrand($0) }) {
                return found(
                    name, source: "order", text: "order.json merchant.displayName: \(name)", confidence: 0.97)
            }
        }
        if let entry, let name = entry.name {
            return found(
                name, source: "rules", text: "merchants.json5: \(senderDomain ?? "")", confidence: 0.9)
        }
        if let displayName = document.sender?.name, let name = cleanDisplayName(displayName) {
            evidence.append(
                Evidence(field: "merchant", source: "sender", text: "From: \(displayName)", confidence: 0.8))
            return MerchantInfo(
                name: name, domain: entry?.domain ?? linkedDomain(named: name, sender: registrable) ?? domain)
        }
        if let (name, context) = brandFromBody() {
            return found(name, source: "body", text: context, confidence: 0.7)
        }
        if let domain {
            evidence.append(
                Evidence(field: "merchant", source: "sender", text: "domain \(domain)", confidence: 0.5))
            return MerchantInfo(name: domain, domain: domain)
        }
        return nil
    }

    /// `name` as it may be shown and written into an order: C0 and C1 controls and DEL (a run
    /// of them turned into one space), and the bidirectional marks, embeddings, overrides and
    /// isolates that reorder the text around them (U+061C, U+200E, U+200F, U+202A–U+202E,
    /// U+2066–U+2069; Unicode UAX #9 §2) dropped; runs of spaces collapsed and both ends
    /// trimmed. `nil` when nothing is left.
    static func displaySafeName(_ name: String) -> String? {
        // Printable ASCII (each byte a character) without a space at either end or two in a row.
        let isPrintable = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F }
        let printable =
            name.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isPrintable) }
            ?? name.utf8.allSatisfy(isPrintable)
        if printable, name.utf8.first != 0x20, name.utf8.last != 0x20, !hasDoubleSpace(name) {
            return name.isEmpty ? nil : name
        }
        // The scalars kept, written as UTF-8 into the string: never more bytes than the name's
        // (a run of controls, a byte or more each, becomes one space).
        let safe = String(unsafeUninitializedCapacity: name.utf8.count) { buffer in
            var count = 0
            var pendingSpace = false
            for scalar in name.unicodeScalars {
                switch scalar.value {
                case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                    continue
                case 0x00...0x20, 0x7F...0x9F:
                    pendingSpace = count > 0
                default:
                    if pendingSpace {
                        buffer[count] = 0x20
                        count += 1
                    }
                    pendingSpace = false
                    UTF8.encode(scalar) { byte in
                        buffer[count] = byte
                        count += 1
                    }
                }
            }
            return count
        }
        return safe.isEmpty ? nil : safe
    }

    /// Whether two spaces follow each other in the text's bytes.
    static func hasDoubleSpace(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x20 && previous == 0x20 { return true }
            previous = byte
        }
        return false
    }

    /// `domain`, or `nil` when it holds a control character or white space
    /// (``MailAddress/isDomainText(_:)``).
    static func hostDomain(_ domain: String) -> String? {
        // Printable ASCII without a space, as nearly every domain is, is domain text (the
        // first test ``MailAddress/isDomainText(_:)`` makes, here without its generic call).
        let printable =
            domain.utf8.withContiguousStorageIfAvailable { bytes in
                bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
            }
            ?? domain.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        if printable { return domain }
        return MailAddress.isDomainText(domain) ? domain : nil
    }

    /// The shipper named in a carrier's email ("Shipped from", "보내는분", "ご依頼主").
    func findShipper() -> (String, String, Double)? {
        for found in LabelledValues.find(
            languages.phrases(\.shipper), in: text, origins: bodyOrigins, hits: phraseHits)
        {
            if let name = shipperName(found.value, inSentence: found.placement == .sameCell) {
                return (name, found.context, found.placement.score)
            }
        }
        return shipperAroundNumber()
    }

    /// The shipper's name in the text that follows a shipper label: its first 60 characters,
    /// up to a comma (a carrier's shipper line goes on with the address: "NORTHWIND
    /// OUTFITTERS, PORTLAND, OR, US"), in a sentence up to the first word in lower case ("Ihr
    /// Paket von Kaffeerösterei Bohnenglück wird heute zugestellt"), title-cased when printed
    /// in capitals, and cleaned as a brand (``cleanBrand(_:)``); `nil` when nothing is left.
    func shipperName(_ text: String, inSentence: Bool) -> String? {
        var value = FieldText.prefix(text, characters: 60)
        if let comma = Self.firstComma(in: value) {
            let name = Text.trimmed(String(value[..<comma]))
            if !name.isEmpty { value = name }
        }
        if inSentence { value = Self.beforeFirstLowerCaseWord(value) }
        if Self.isWrittenInCapitals(value) {
            value = Self.spaceSeparatedSubstrings(value).map { word in
                word.count <= 1 ? String(word) : word.prefix(1) + word.dropFirst().lowercased()
            }.joined(separator: " ")
        }
        return cleanBrand(value)
    }

    /// The shipper of a sentence whose shipper label stands on either side of the parcel's
    /// number: "Ihre Sendung 00340434161094042557 von Werkzeughaus Lindner kommt heute",
    /// "Your package 1Z999AA10123456784 from Northwind Outfitters". The label is a shipper
    /// label of two words or more whose last word is a preposition ("sendung von", "package
    /// from", "pakket van"); the number, one word of six characters or more with a digit,
    /// stands between its noun and its preposition. The name starts with a capital or a digit
    /// and is read as after a label in a sentence: up to the first word in lower case, or a
    /// comma.
    func shipperAroundNumber() -> (String, String, Double)? {
        let splits = languages.all.flatMap(\.shipperAroundNumber)
        guard !splits.isEmpty else { return nil }
        // The body first, then the subject ("Ihre Sendung … von Werkzeughaus Lindner kommt heute").
        for origin in bodyOrigins.sorted(by: { $0.rank < $1.rank }) + [.subject] {
            for line in text.lines(of: origin) {
                let original = line.text
                guard original.utf8.count <= 400, original.contains(where: \.isNumber) else { continue }
                let lower = original.lowercased()
                // Lower-casing keeps the offsets of ASCII text only: other lines are left alone.
                guard lower.utf8.count == original.utf8.count else { continue }
                for split in splits {
                    guard let nounRange = lower.range(of: split.noun) else { continue }
                    let afterNoun = lower[nounRange.upperBound...]
                    let number = afterNoun.prefix { $0 != " " }
                    guard number.count >= 6, number.contains(where: \.isNumber),
                        afterNoun.dropFirst(number.count).hasPrefix(split.preposition)
                    else { continue }
                    let offset =
                        lower.utf8.distance(from: lower.startIndex, to: number.endIndex)
                        + split.preposition.utf8.count
                    let rest = String(decoding: Array(original.utf8).dropFirst(offset), as: UTF8.self)
                    // A name starts with a capital or a digit ("von uns" names nobody).
                    guard let first = rest.first, first.isUppercase || first.isNumber,
                        let name = shipperName(rest, inSentence: true)
                    else { continue }
                    return (name, FieldText.prefix(original, characters: 120), 0.8)
                }
            }
        }
        return nil
    }

    /// The words of `value` (parted by spaces) before the first that starts with a lower-case
    /// letter, joined by one space; `value` itself when the first word does, or none does.
    /// An ASCII value is read byte by byte (its lower-case letters are a–z).
    static func beforeFirstLowerCaseWord(_ value: String) -> String {
        guard FieldText.isASCII(value) else {
            let words = spaceSeparatedSubstrings(value)
            let name = words.prefix { word in word.first.map { !$0.isLowercase } ?? false }
            return !name.isEmpty && name.count < words.count ? name.joined(separator: " ") : value
        }
        var value = value
        return value.withUTF8 { bytes in
            var kept: [UInt8] = []
            var words = 0
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x20 {
                    index += 1
                    continue
                }
                if bytes[index] >= UInt8(ascii: "a") && bytes[index] <= UInt8(ascii: "z") {
                    // A word in lower case: the name ends before it, when a word stood before.
                    return words > 0
                        ? String(decoding: kept, as: UTF8.self) : String(decoding: bytes, as: UTF8.self)
                }
                if words > 0 { kept.append(0x20) }
                while index < bytes.count && bytes[index] != 0x20 {
                    kept.append(bytes[index])
                    index += 1
                }
                words += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// How many words spaces part in `bytes` (`split(separator: 0x20).count`, counted without
    /// building them): for simple text (``FieldText/isSimple(_:)``) the count of
    /// `unicodeScalars.split(separator: " ")`, a space scalar being its byte.
    static func spaceSeparatedCount(_ bytes: some Sequence<UInt8>) -> Int {
        var words = 0
        var previous: UInt8 = 0x20
        for byte in bytes {
            if byte != 0x20 && previous == 0x20 { words += 1 }
            previous = byte
        }
        return words
    }

    /// Whether a name is printed in capitals: at least four letters, all upper-case, one of
    /// them ASCII ("NORTHWIND OUTFITTERS"). An ASCII name is read byte by byte: its letters are
    /// A–Z and a–z, and every byte is a character.
    static func isWrittenInCapitals(_ value: String) -> Bool {
        guard FieldText.isASCII(value) else {
            // An ASCII letter, a character of its own, is one of its bytes.
            guard
                value.utf8.contains(where: {
                    ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z")
                })
            else { return false }
            let letters = value.filter(\.isLetter)
            return letters.count >= 4 && letters.allSatisfy(\.isUppercase)
                && letters.contains(where: \.isASCII)
        }
        var capitals = 0
        for byte in value.utf8 {
            if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") { return false }
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { capitals += 1 }
        }
        return capitals >= 4
    }

    /// A sender display name without "no-reply", "orders", "customer service", "team" and the like.
    ///
    /// A noise word written in a script without spaces between words (kana, Han, Hangul) is
    /// cut only where it stands apart: a letter or digit glued to it makes it part of the name
    /// ("テストショップ" stays whole; "テスト ショップ", "テスト/ショップ" and "ショップ" lose it,
    /// as "드림팀" keeps "팀" and "订单宝" keeps "订单").
    ///
    /// The noise words are those of the email's languages and of the scripts the name is
    /// written in (``senderNoisePhrases(for:)``): an English email from "쿠팡 고객센터" is from
    /// "쿠팡".
    func cleanDisplayName(_ displayName: String) -> String? {
        var name = Text.trimmed(Self.quotes.trimming(displayName))
        // Foundation finds no "@" in a text without its byte (no other character is
        // canonically equivalent to it).
        if FieldText.isASCII(name)
            ? name.utf8.contains(UInt8(ascii: "@"))
            : name.utf8.contains(UInt8(ascii: "@")) && name.contains("@")
        {
            return nil
        }
        // The folded name, folded again only when a phrase changed the name.
        var folded = Text.fold(Array(name.utf8))
        var present = ByteSet(folded)
        for phrase in senderNoisePhrases(for: name) {
            // A phrase with a byte the name does not hold cannot occur in it.
            guard let first = phrase.folded.first, let last = phrase.folded.last,
                present.contains(first), present.contains(last)
            else { continue }
            var ranges = Text.occurrences(of: phrase.folded, in: folded, limit: 4)
            ranges.removeAll { Self.isGluedToName($0, in: folded) }
            guard !ranges.isEmpty else { continue }
            while let range = ranges.last {
                var bytes = Array(name.utf8)
                bytes.replaceSubrange(range, with: [0x20])
                name = String(decoding: bytes, as: UTF8.self)
                ranges.removeLast()
            }
            folded = Text.fold(Array(name.utf8))
            present = ByteSet(folded)
        }
        // Separators and words left dangling once noise is gone.
        name = Self.nameSeparators.trimming(Self.withoutDanglingWords(name))
        return cleanBrand(name)
    }

    /// The sender-noise words a display name is cleaned of: those of the email's languages
    /// (the detected one, then English), then those of each language written in a script the
    /// name holds and the email is not read in — Hangul: Korean; kana: Japanese; Han: Japanese
    /// and Chinese. A name's words are its own script's whatever the body's language: "쿠팡
    /// 고객센터" sends an email in English too. A name in Latin letters only gets the email's
    /// languages' words, as before.
    func senderNoisePhrases(for name: String) -> [Phrase] {
        let phrases = languages.senderNoise.phrases
        guard !FieldText.isASCII(name) else { return phrases }
        var hangul = 0
        var kana = 0
        var han = 0
        LanguageSet.countScripts(Array(name.utf8), hangul: &hangul, kana: &kana, han: &han)
        var codes: [String] = []
        if hangul > 0 { codes.append("ko") }
        if kana > 0 || han > 0 { codes.append("ja") }
        if han > 0 { codes.append("zh") }
        var added = phrases
        for code in codes where !languages.all.contains(where: { $0.rules.code == code }) {
            if let language = extractor.languages.first(where: { $0.rules.code == code }) {
                added += language.senderNoise
            }
        }
        return added
    }

    /// Whether a noise word found at `range` of a display name's UTF-8 bytes is part of the
    /// name: it starts (or ends) with a letter of a script written without spaces between words
    /// (``isSpacelessLetter(_:)``), and a letter or digit of any script comes right before (or
    /// right after) it.
    static func isGluedToName(_ range: Range<Int>, in bytes: [UInt8]) -> Bool {
        guard let first = scalar(startingAt: range.lowerBound, in: bytes),
            let last = scalar(endingAt: range.upperBound, in: bytes)
        else { return false }
        if isSpacelessLetter(first), let before = scalar(endingAt: range.lowerBound, in: bytes),
            isLetterOrDigit(before)
        {
            return true
        }
        if isSpacelessLetter(last), let after = scalar(startingAt: range.upperBound, in: bytes),
            isLetterOrDigit(after)
        {
            return true
        }
        return false
    }

    /// Whether a scalar is a letter of Hangul, kana or Han (with the kana length mark `ー` and
    /// half-width katakana): scripts whose words a name glues together.
    static func isSpacelessLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFF66...0xFF9F:
            return true
        default:
            return false
        }
    }

    /// Whether a scalar is a letter or a digit of any script.
    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The scalar whose UTF-8 sequence starts at `index`, nil at the end or in a malformed one.
    static func scalar(startingAt index: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard index >= 0, index < bytes.count else { return nil }
        var end = index + 1
        while end < bytes.count, end - index < 4, bytes[end] & 0xC0 == 0x80 { end += 1 }
        var decoded = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.makeIterator()
        guard let scalar = decoded.next(), scalar != "\u{FFFD}", decoded.next() == nil else { return nil }
        return scalar
    }

    /// The scalar whose UTF-8 sequence ends just before `index`, nil at the start or in a
    /// malformed one.
    static func scalar(endingAt index: Int, in bytes: [UInt8]) -> Unicode.Scalar? {
        guard index > 0, index <= bytes.count else { return nil }
        var start = index - 1
        while start > 0, index - start < 4, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        var decoded = String(decoding: bytes[start..<index], as: UTF8.self).unicodeScalars.makeIterator()
        guard let scalar = decoded.next(), scalar != "\u{FFFD}", decoded.next() == nil else { return nil }
        return scalar
    }

    /// The words of a display name (parted by spaces) joined by one space, without the words
    /// at either end that dangle (``isDangling(_:)``) or are only separators
    /// (``nameSeparators``): "the Blue Kettle via" → "Blue Kettle".
    ///
    /// In ASCII or ``FieldText/isSimple(_:)`` text a space is always a character of its own:
    /// the words are found among the bytes, a string is built only for a word at either end
    /// that is asked about, and the words kept are joined in one buffer.
    static func withoutDanglingWords(_ name: String) -> String {
        func drops(_ word: String) -> Bool { isDangling(word) || nameSeparators.containsAll(word) }
        guard FieldText.isASCII(name) || FieldText.isSimple(name) else {
            var words = name.split(separator: " ").map(String.init)
            while let first = words.first, drops(first) { words.removeFirst() }
            while let last = words.last, drops(last) { words.removeLast() }
            return words.joined(separator: " ")
        }
        var name = name
        return name.withUTF8 { bytes in
            var words: [Range<Int>] = []
            words.reserveCapacity(8)
            var index = 0
            while index < bytes.count {
                if bytes[index] == 0x20 {
                    index += 1
                    continue
                }
                let start = index
                while index < bytes.count && bytes[index] != 0x20 { index += 1 }
                words.append(start..<index)
            }
            // An ASCII word is asked from its bytes; any other as a string, and only about
            // separators: a word of this text with a scalar beyond ASCII is no dangling word
            // (each such standalone scalar lower-cases to text whose canonical decomposition
            // holds a scalar beyond ASCII, and every dangling word is ASCII).
            func dropsWord(_ range: Range<Int>) -> Bool {
                let word = UnsafeBufferPointer(rebasing: bytes[range])
                guard word.allSatisfy({ $0 < 0x80 }) else {
                    return nameSeparators.containsAll(String(decoding: word, as: UTF8.self))
                }
                return word.allSatisfy { nameSeparators.containsASCII($0) }
                    || danglingWordBytes.contains { dangling in
                        dangling.count == word.count
                            && zip(dangling, word).allSatisfy { $0 == KeywordScanner.lower($1) }
                    }
            }
            var first = 0
            var end = words.count
            while first < end, dropsWord(words[first]) { first += 1 }
            while end > first, dropsWord(words[end - 1]) { end -= 1 }
            // The words kept, one space between them: never more bytes than the name's.
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                var count = 0
                for position in first..<end {
                    if position > first {
                        buffer[count] = 0x20
                        count += 1
                    }
                    for byte in bytes[words[position]] {
                        buffer[count] = byte
                        count += 1
                    }
                }
                return count
            }
        }
    }

    /// `text.firstIndex(of: ",")`, found among the UTF-8 bytes when the text is ASCII or
    /// ``FieldText/isSimple(_:)`` (where a comma is always a character of its own).
    static func firstComma(in text: String) -> String.Index? {
        if FieldText.isASCII(text) || FieldText.isSimple(text) {
            return text.utf8.firstIndex(of: UInt8(ascii: ","))
        }
        return text.firstIndex(of: ",")
    }

    /// `text.split(separator: " ")`, split at space bytes when the text is ASCII or
    /// ``FieldText/isSimple(_:)`` (where a space is always a character of its own).
    static func spaceSeparatedSubstrings(_ text: String) -> [Substring] {
        guard FieldText.isASCII(text) || FieldText.isSimple(text) else { return text.split(separator: " ") }
        return text.utf8.split(separator: 0x20).map { Substring($0) }
    }

    /// `text.split(separator: " ").map(String.init)`, split at space bytes when the text is
    /// ASCII or ``FieldText/isSimple(_:)`` (where a space is always a character of its own).
    static func spaceSeparatedWords(_ text: String) -> [String] {
        guard FieldText.isASCII(text) || FieldText.isSimple(text) else {
            return text.split(separator: " ").map(String.init)
        }
        return text.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Quotes around a display name.
    static let quotes = TrimSet(CharacterSet(charactersIn: "\"'"))
    /// Separators around the words of a display name.
    static let nameSeparators = TrimSet(CharacterSet(charactersIn: "|-–—:·•,/()[]<>").union(.whitespaces))
    /// Words left dangling at either end of a display name once noise is gone, lower-cased.
    static let danglingWords: Set<String> = [
        "the", "from", "via", "at", "by", "of", "your", "von", "de", "du", "di", "da", "van", "&", "and",
    ]

    /// ``danglingWords`` as UTF-8 bytes (all of them ASCII and lower-case).
    static let danglingWordBytes = danglingWords.sorted().map { Array($0.utf8) }

    /// Whether a word of a display name is one of ``danglingWords`` in any case.
    static func isDangling(_ word: String) -> Bool {
        // Lower-casing keeps an ASCII word's length, and no dangling word is longer than 4 bytes.
        if word.utf8.count > 4 && FieldText.isASCII(word) { return false }
        return danglingWords.contains(FieldText.lowercased(word))
    }

    /// A brand name as printed, or nil when it cannot be one: empty, too long, an address,
    /// or a line item's title (never a product name).
    func cleanBrand(_ raw: String, dropLegalForm: Bool = false) -> String? {
        if FieldText.isASCII(raw) { return Self.cleanBrandASCII(raw, dropLegalForm: dropLegalForm) }
        return Self.cleanBrandCharacters(raw, dropLegalForm: dropLegalForm)
    }

    /// ``cleanBrand(_:dropLegalForm:)`` for any text, character by character.
    static func cleanBrandCharacters(_ raw: String, dropLegalForm: Bool = false) -> String? {
        var name = FieldText.collapsed(Text.trimmed(raw))
        // A simple name stays simple as characters are cut from it: its affixes compare as bytes.
        let simple = FieldText.isSimple(name)
        // Honorifics after a name in Japanese and Korean address lines.
        for honorific in honorifics where FieldText.hasSuffix(name, honorific, simple: simple) {
            name = Text.trimmed(String(name.dropLast(honorific.count)))
        }
        let folded = FieldText.lowercased(name)
        let foldedIsSimple = FieldText.isSimple(folded)
        var changed = false
        if FieldText.hasSuffix(folded, "reserved.", simple: foldedIsSimple) {
            name.removeLast()
            changed = true
        }
        for suffix in allRightsReserved where FieldText.hasSuffix(name, suffix, simple: simple) {
            name = String(name.dropLast(suffix.count))
            changed = true
        }
        // Legal forms other than the English ones are not part of how a shop is named;
        // the English ones ("Co.", "Ltd") are kept unless the name comes from a copyright line.
        var lowered = changed ? FieldText.lowercased(name) : folded
        var loweredIsSimple = changed ? FieldText.isSimple(lowered) : foldedIsSimple
        func dropLegalForms(_ forms: [(count: Int, lowered: FieldText.Affix)]) {
            // Every form ends with an ASCII letter or point, a character no other character is
            // canonically equivalent to: a name whose last byte ends none of them ends with none.
            guard let last = lowered.utf8.last, legalFormLastBytes.contains(last) else { return }
            for form in forms where FieldText.hasSuffix(lowered, form.lowered, simple: loweredIsSimple) {
                name = String(name.dropLast(form.count))
                lowered = FieldText.lowercased(name)
                loweredIsSimple = FieldText.isSimple(lowered)
            }
        }
        dropLegalForms(foreignLegalForms)
        if dropLegalForm { dropLegalForms(englishLegalForms) }
        for prefix in asianLegalForms where FieldText.hasPrefix(name, prefix, simple: simple) {
            name = String(name.dropFirst(prefix.count))
        }
        for suffix in asianLegalForms where FieldText.hasSuffix(name, suffix, simple: simple) {
            name = String(name.dropLast(suffix.count))
        }
        name = brandPunctuation.trimming(Text.trimmed(name))
        if dropLegalForm { name = brandPoints.trimming(name) }
        name = Text.trimmed(name)

        // Foundation finds no "@" in a text without its byte (no other character is
        // canonically equivalent to it).
        // A simple name stays simple: its characters are its scalars.
        let characters = simple ? name.unicodeScalars.count : name.count
        let words =
            simple ? spaceSeparatedCount(name.utf8) : name.split(separator: " ").count
        guard !name.isEmpty, characters <= 40, words <= 5,
            !(name.utf8.contains(UInt8(ascii: "@")) && name.contains("@")),
            name.contains(where: { $0.isLetter })
        else { return nil }
        return name
    }

    /// Honorifics after a name in Japanese and Korean address lines.
    static let honorifics = ["様", "さま", "御中", "殿", "님", "귀하"].map(FieldText.Affix.init)
    /// "All rights reserved" endings dropped from a brand name.
    static let allRightsReserved = [" All rights reserved", " All Rights Reserved", " all rights reserved"]
        .map(
            FieldText.Affix.init)
    /// Japanese and Korean legal forms, dropped from either end of a brand name.
    static let asianLegalForms = ["株式会社", "(주)", "㈜", "주식회사"].map(FieldText.Affix.init)

    /// Punctuation trimmed from either end of a brand name.
    static let brandPunctuation = TrimSet(CharacterSet(charactersIn: ",;:!|-–·"))
    /// Points trimmed from a brand name in a copyright line.
    static let brandPoints = TrimSet(CharacterSet(charactersIn: "."))

    /// ``cleanBrand(_:dropLegalForm:)`` for ASCII text, byte by byte.
    ///
    /// In ASCII text every byte is a character (a carriage return and line feed are one, but
    /// white space is collapsed first), the honorifics and the Japanese and Korean legal forms
    /// (none of them ASCII) never match, and lower-casing changes A–Z only.
    static func cleanBrandASCII(_ raw: String, dropLegalForm: Bool = false) -> String? {
        // White space collapsed to single spaces, none at either end.
        var name: [UInt8] = []
        name.reserveCapacity(raw.utf8.count)
        for byte in raw.utf8 {
            if FieldText.isASCIISpace(byte) {
                if let last = name.last, last != 0x20 { name.append(0x20) }
            } else {
                name.append(byte)
            }
        }
        if name.last == 0x20 { name.removeLast() }
        func hasSuffix(_ suffix: [UInt8], folding: Bool) -> Bool {
            guard suffix.count <= name.count else { return false }
            let start = name.count - suffix.count
            for offset in 0..<suffix.count {
                let byte = name[start + offset]
                if (folding ? KeywordScanner.lower(byte) : byte) != suffix[offset] { return false }
            }
            return true
        }
        if hasSuffix(reservedBytes, folding: true) { name.removeLast() }
        for suffix in allRightsReservedBytes where hasSuffix(suffix, folding: false) {
            name.removeLast(suffix.count)
        }
        for suffix in foreignLegalFormBytes where hasSuffix(suffix, folding: true) {
            name.removeLast(suffix.count)
        }
        if dropLegalForm {
            for suffix in englishLegalFormBytes where hasSuffix(suffix, folding: true) {
                name.removeLast(suffix.count)
            }
        }
        func trim(_ isTrimmed: (UInt8) -> Bool) {
            var end = name.count
            while end > 0 && isTrimmed(name[end - 1]) { end -= 1 }
            name.removeLast(name.count - end)
            var start = 0
            while start < name.count && isTrimmed(name[start]) { start += 1 }
            name.removeFirst(start)
        }
        trim(FieldText.isASCIISpace)
        trim { brandPunctuation.containsASCII($0) }
        if dropLegalForm { trim { brandPoints.containsASCII($0) } }
        trim(FieldText.isASCIISpace)
        let words = spaceSeparatedCount(name)
        guard !name.isEmpty, name.count <= 40, words <= 5, !name.contains(UInt8(ascii: "@")),
            name.contains(where: { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") })
        else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// "reserved.", whose point is dropped from a brand name, as bytes.
    static let reservedBytes = Array("reserved.".utf8)
    /// The "All rights reserved" endings dropped from a brand name, as bytes.
    static let allRightsReservedBytes = [
        " All rights reserved", " All Rights Reserved", " all rights reserved",
    ]
    .map { Array($0.utf8) }
    /// The last bytes of the lower-cased legal forms (``foreignLegalForms``,
    /// ``englishLegalForms``).
    static let legalFormLastBytes = ByteSet(
        (foreignLegalForms + englishLegalForms).compactMap { $0.lowered.bytes.last })
    /// ``foreignLegalForms`` lower-cased, as bytes.
    static let foreignLegalFormBytes = foreignLegalForms.map { Array($0.lowered.text.utf8) }
    /// ``englishLegalForms`` lower-cased, as bytes.
    static let englishLegalFormBytes = englishLegalForms.map { Array($0.lowered.text.utf8) }

    /// Legal forms dropped from a brand name: each one's length in characters, and its
    /// lower-cased form.
    static let foreignLegalForms = [
        " GmbH", " AG", " S.L.", " S.L", " SL", " S.A.", " S.A", " S.r.l.", " S.R.L.", " Srl", " S.p.A.",
        " B.V.",
        " BV", " SAS", " SARL", " K.K.", " Ltda.", " Ltda", " Lda.", " Lda",
    ].map { (count: $0.count, lowered: FieldText.Affix($0.lowercased())) }
    /// English legal forms, dropped only from a name in a copyright line.
    static let englishLegalForms = [
        ", Inc.", " Inc.", " Inc", " LLC", " Ltd.", " Ltd", " Co., Ltd.", " Corp.", " Co.",
    ]
    .map { (count: $0.count, lowered: FieldText.Affix($0.lowercased())) }

    /// Whether what follows a brand phrase is a pronoun or a generic place, not a name: "us",
    /// "our store", "uns", "nous" … (in the ten languages).
    static func namesNoOne(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter }
        guard let first = words.first else { return true }
        if words.count == 1 { return pronouns.contains(String(first)) }
        return possessives.contains(String(first)) && words.count <= 3
    }

    static let pronouns: Set<String> = [
        "us", "you", "we", "uns", "euch", "nous", "vous", "nosotros", "nosotras", "noi", "voi", "nós", "nos",
        "ons", "jullie",
    ]
    static let possessives: Set<String> = [
        "our", "unserem", "unserer", "unseren", "unser", "notre", "nos", "nuestra", "nuestro", "nuestros",
        "nostro", "nostra", "nosso", "nossa", "onze", "ons",
    ]

    /// A brand named in the body: "Thank you for shopping at …", "© 2026 …", a logo's alt text.
    func brandFromBody() -> (String, String)? {
        let phrases = languages.phrases(\.brandPhrases)
        let hits = phraseHits.covers(phrases) ? phraseHits : nil
        for origin in text.bodyOrigins {
            let lines = text.lines(of: origin)
            for lineIndex in lines.indices {
                let line = lines[lineIndex]
                let matches =
                    hits?.matches(phrases, line: lineIndex, limit: 4)
                    ?? phrases.matches(in: line.folded, limit: 4)
                for (_, range) in matches {
                    let rest = line.string(range.upperBound..<line.bytes.count)
                    let name = rest.prefix { !".!,|\t。！、\n".contains($0) }
                    // "Thanks for shopping with us": the phrase names no one.
                    if Self.namesNoOne(String(name)) { continue }
                    if let brand = cleanBrand(String(name)) { return (brand, line.display) }
                }
            }
        }
        for origin in text.bodyOrigins {
            for line in text.lines(of: origin).reversed() {
                let string = line.text
                guard
                    let copyright = string.range(of: "©") ?? string.range(
                        of: "(c)", options: .caseInsensitive)
                        ?? string.range(of: "copyright", options: .caseInsensitive)
                else { continue }
                var rest = string[copyright.upperBound...].drop {
                    $0 == " " || $0.isNumber || $0 == "-" || $0 == "–"
                }
                if rest.lowercased().hasPrefix("copyright") { rest = rest.dropFirst(9) }
                rest = rest.drop { $0 == " " || $0 == "©" || $0.isNumber || $0 == "-" || $0 == "–" }
                let name = rest.prefix { !"!,|\t。·".contains($0) }
                if let brand = cleanBrand(String(name), dropLegalForm: true) { return (brand, line.display) }
            }
        }
        for image in document.images.prefix(5) {
            guard let alt = image.alt else { continue }
            let folded = alt.lowercased()
            // A logo says so in its alt text ("Blue Kettle logo") or in its file's name
            // (`…/logo.png` with the alt text "Blue Kettle Tea Co.").
            guard
                folded.contains("logo") || alt.contains("ロゴ") || alt.contains("로고")
                    || Self.isLogoFile(image.source)
            else { continue }
            let name = alt.replacingOccurrences(of: "logo", with: "", options: .caseInsensitive)
                .replacingOccurrences(of: "ロゴ", with: "").replacingOccurrences(of: "로고", with: "")
            if let brand = cleanBrand(name) { return (brand, "logo alt: \(alt)") }
        }
        return nil
    }

    /// Whether an image's URL names a logo: the last segment of its path (before any query or
    /// fragment) holds "logo", ignoring case (`https://cdn.shop.example/img/Logo-header.png`).
    static func isLogoFile(_ source: String) -> Bool {
        let path = source.prefix { $0 != "?" && $0 != "#" }
        guard let name = path.split(separator: "/").last else { return false }
        return name.range(of: "logo", options: .caseInsensitive) != nil
    }

    /// The shop's own domain when the sender's domain does not carry the shop's name but a
    /// link's does ("Fernhill Ceramics" sending through a platform, linking fernhillceramics.example).
    func linkedDomain(named name: String, sender: String?) -> String? {
        let key = Self.nameKey(name)
        // (A key of ASCII letters and digits has as many characters as bytes.)
        guard key.utf8.count >= 4, FieldText.isASCII(key) || key.count >= 4 else { return nil }
        let label = Self.domainLabel
        if let sender {
            let senderLabel = label(sender)
            if Self.contains(senderLabel, key) || Self.contains(key, senderLabel) { return nil }
        }
        // The shop's own address in Reply-To ("Fernhill Ceramics <hello@fernhillceramics.example>").
        if let reply = document.replyTo?.registrableDomain, label(reply) == key { return reply }
        let keyBytes = Array(key.utf8)
        for link in document.links.prefix(200) where !link.isHidden {
            guard Self.mayHaveLabel(link.target, key: keyBytes),
                let host = WebURLHost.urlHost(link.target)?.lowercased(),
                let domain = RegistrableDomain.of(host)
            else { continue }
            if label(domain) == key { return domain }
        }
        return nil
    }

    /// A name's letters and digits, lower-cased ("Fernhill Ceramics" → "fernhillceramics"):
    /// byte by byte for an ASCII name (whose letters and digits are A–Z, a–z and 0–9); scalar
    /// by scalar when the lower-cased name is ``FieldText/isSimple(_:)`` (each scalar a
    /// character, which `Character.isLetter` and `isNumber` tell by its first scalar's
    /// properties: alphabetic, or with a numeric type).
    static func nameKey(_ name: String) -> String {
        guard FieldText.isASCII(name) else {
            let lowered = FieldText.lowercased(name)
            guard FieldText.isSimple(lowered) else {
                return String(lowered.filter { $0.isLetter || $0.isNumber })
            }
            return String(unsafeUninitializedCapacity: lowered.utf8.count) { buffer in
                var count = 0
                for scalar in lowered.unicodeScalars {
                    if scalar.isASCII {
                        guard KeywordScanner.isAlphanumeric(UInt8(scalar.value)) else { continue }
                    } else {
                        guard scalar.properties.isAlphabetic || scalar.properties.numericType != nil else {
                            continue
                        }
                    }
                    UTF8.encode(scalar) { byte in
                        buffer[count] = byte
                        count += 1
                    }
                }
                return count
            }
        }
        return String(unsafeUninitializedCapacity: name.utf8.count) { buffer in
            var count = 0
            for byte in name.utf8 where KeywordScanner.isAlphanumeric(byte) {
                buffer[count] = KeywordScanner.lower(byte)
                count += 1
            }
            return count
        }
    }

    /// The letters and digits of a domain's first label ("fern-hill.example" → "fernhill").
    static func domainLabel(_ domain: String) -> String {
        var domain = domain
        let ascii: String? = domain.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            // The first label that is not empty, as `split(separator:)` gives it.
            var start = 0
            while start < bytes.count && bytes[start] == UInt8(ascii: ".") { start += 1 }
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ".") { end += 1 }
            return String(unsafeUninitializedCapacity: end - start) { buffer in
                var count = 0
                for byte in bytes[start..<end] where KeywordScanner.isAlphanumeric(byte) {
                    buffer[count] = byte
                    count += 1
                }
                return count
            }
        }
        if let ascii { return ascii }
        return String((domain.split(separator: ".").first ?? "").filter { $0.isLetter || $0.isNumber })
    }

    /// `text.contains(other)`, byte by byte when `other` is not empty and both are made of
    /// ASCII other than the carriage return and of ``SimpleScalars``: each scalar is then a
    /// character of its own (ASCII controls other than CR always are), and no two of these
    /// scalars are canonically equivalent, so the characters match where the bytes do.
    static func contains(_ text: String, _ other: String) -> Bool {
        func isPlain(_ string: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return true }
            return string.unicodeScalars.allSatisfy {
                $0.isASCII ? $0 != "\r" : SimpleScalars.isStandalone($0)
            }
        }
        // Both texts' bytes read in place (native strings store them contiguously).
        let found = text.utf8.withContiguousStorageIfAvailable { textBytes in
            other.utf8.withContiguousStorageIfAvailable { otherBytes -> Bool in
                guard !otherBytes.isEmpty, isPlain(text, textBytes), isPlain(other, otherBytes) else {
                    return text.contains(other)
                }
                return FieldText.containsBytes(otherBytes, in: textBytes)
            }
        }
        if let found, let found { return found }
        return contains(
            String(decoding: Array(text.utf8), as: UTF8.self),
            String(decoding: Array(other.utf8), as: UTF8.self))
    }

    /// A quick test before parsing a link in ``linkedDomain(named:sender:)``: whether the
    /// link's registrable domain may have `key` (lower-case letters and digits, UTF-8) for the
    /// letters and digits of its first label.
    ///
    /// The host of an ASCII URL without percent escapes or punycode (`xn--`) is part of its
    /// text, and the registrable domain part of the host; so the key is then part of the
    /// URL's letters and digits, lower-cased. A key that is not ASCII is never the label of
    /// such a host. Any other URL may match.
    static func mayHaveLabel(_ url: String, key: [UInt8]) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            // The letters and digits, lower-cased, in a buffer of their own for this test.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { letters in
                var count = 0
                for byte in bytes {
                    if byte >= 0x80 || byte == UInt8(ascii: "%") { return true }
                    if KeywordScanner.isAlphanumeric(byte) {
                        letters[count] = KeywordScanner.lower(byte)
                        count += 1
                    } else if byte == UInt8(ascii: "-"), count >= 2, letters[count - 1] == 0x6E,
                        letters[count - 2] == 0x78
                    {
                        // "xn-": perhaps punycode.
                        return true
                    }
                }
                return FieldText.containsBytes(key, in: UnsafeBufferPointer(rebasing: letters[..<count]))
            }
        }
    }

    /// The shop's own domain when a platform sends for it and names the shop's address in
    /// Reply-To: any Reply-To domain that is not the platform's, a carrier's or another platform's.
    func replyToShopDomain(platform: String?) -> String? {
        guard let reply = document.replyTo?.registrableDomain, reply != platform,
            !ExtractionContext.commonLinkDomains.contains(reply),
            rules.carriers.carrier(forSenderDomain: reply) == nil,
            rules.merchants.entry(forDomain: reply)?.platform != true
        else { return nil }
        return reply
    }

    /// Link hosts that say nothing about the shop.
    static let commonLinkDomains: Set<String> = [
        "facebook.com", "instagram.com", "twitter.com", "x.com", "youtube.com", "pinterest.com", "tiktok.com",
        "linkedin.com", "google.com", "apple.com", "w3.org", "schema.org",
    ]

    /// The shop's own domain when a platform sends for it: the most linked registrable domain
    /// that is not the platform's, a social network's or a carrier's.
    func shopDomainFromLinks(platform: String?) -> String? {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for link in document.links.prefix(200) where !link.isHidden {
            guard let host = WebURLHost.urlHost(link.target)?.lowercased(),
                let domain = RegistrableDomain.of(host), domain != platform,
                !ExtractionContext.commonLinkDomains.contains(domain),
                rules.carriers.carrier(forSenderDomain: domain) == nil,
                rules.merchants.entry(forDomain: domain)?.platform != true
            else { continue }
            if counts[domain] == nil { order.append(domain) }
            counts[domain, default: 0] += 1
        }
        return order.max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }
    }
}
