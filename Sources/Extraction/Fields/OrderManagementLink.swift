import Foundation
import MailDocument

extension ExtractionContext {
    /// The link to the order's page at the merchant, for Wallet's `orderManagementURL`.
    ///
    /// Sources, most trusted first: an attached `.order` bundle's `orderManagementURL`;
    /// schema.org `Order.url` (Gmail's "View order" action); a visible link whose target
    /// (click-tracker wrappers removed) is on the merchant's registrable domain and whose
    /// anchor text is a "view your order" phrase of the language rules (`orderLinkPhrases`)
    /// or whose target contains the order number. Only `https` (and `http`) targets count; a
    /// link to another site (a carrier, a survey tool) never does, nor does a link that names
    /// another order number than the order's (``namesAnotherOrder(_:orderNumber:)``): it
    /// leads to that other order's page.
    /// - Parameters:
    ///   - orderNumber: the order number chosen, when there is one.
    ///   - merchantDomain: the merchant's registrable domain, when known.
    /// - Returns: the URL, or `nil` when the email has no such link.
    mutating func findOrderManagementURL(orderNumber: String?, merchantDomain: String?) -> String? {
        for attached in document.attachedOrders {
            if let url = Markup.string(Markup.object(attached.order)?["orderManagementURL"]),
                Self.isWebURL(url)
            {
                evidence.append(
                    Evidence(field: "orderManagementURL", source: "order", text: url, confidence: 0.97))
                return url
            }
        }
        for object in Markup.objects(ofType: ["Order"], in: document) {
            if let url = Markup.string(object.properties["url"]), Self.isWebURL(url) {
                evidence.append(
                    Evidence(field: "orderManagementURL", source: "markup", text: url, confidence: 0.95))
                return url
            }
        }
        guard let merchantDomain = merchantDomain?.lowercased() else { return nil }
        let phrases = extractor.orderLinkPhrases
        let domainBytes = Array(merchantDomain.utf8)
        let subdomainSuffix = "." + merchantDomain
        var best: (url: String, score: Double, text: String)?
        let checkOrderNumber = orderNumber.map { $0.count >= 4 } ?? false
        for link in document.links where !link.isHidden {
            let target = link.target
            guard Self.mayBeOnDomain(target, domain: domainBytes), Self.hasWebPrefix(target),
                let host = WebURLHost.componentsHost(target)?.lowercased(),
                host == merchantDomain || host.hasSuffix(subdomainSuffix)
            else { continue }
            let hasNumber =
                checkOrderNumber
                && orderNumber.map { Self.containsNumber($0, in: target, ignoringCase: false) } == true
            let bestScore = best?.score ?? 0
            var score = 0.0
            // The anchor is read only when its phrase could make the link the best so far.
            if (hasNumber ? 0.6 + 0.35 : 0.6) > bestScore {
                let anchor = Self.whitespaceAndNewlines.trimming(link.text.lowercased())
                if !anchor.isEmpty && Self.count(of: anchor, atMost: 60)
                    && Self.containsAny(phrases, in: anchor)
                {
                    score += 0.6
                }
            }
            if hasNumber { score += 0.35 }
            guard score > 0, score > bestScore else { continue }
            // Read last, and only for a link that would be the best so far: the test splits and
            // parses the link, and most links of an email never get here.
            if let orderNumber, Self.namesAnotherOrder(link, orderNumber: orderNumber) { continue }
            best = (target, score, link.text)
        }
        guard let best else { return nil }
        evidence.append(
            Evidence(
                field: "orderManagementURL", source: "link", text: "\(best.text) → \(best.url)",
                confidence: min(0.95, 0.4 + best.score / 2)))
        return best.url
    }

    /// Whether a link names an order number and not `orderNumber`: the page it leads to is
    /// another order's.
    ///
    /// A link whose target contains the order number (ignoring case, as a whole word) names the
    /// order. Otherwise it names another one when
    /// - its text, when it does not name the order, holds a word shaped like an order number (``OrderNumberToken/isPlausible(_:minimumLength:)``
    ///   with four characters or more, or a short number with a letter as
    ///   ``OrderNumberToken/shortLabelled(_:fillers:)`` reads it: "View order NW-0",
    ///   "View order #51007"), or one of the order number's series (``OrderNumberShape``);
    /// - its target (path segments and query values, percent-decoded) holds a word of the
    ///   order number's series, whatever its text says ("View order NW-48213" leading to
    ///   `/orders/NW-482` leads to that other order): the same letters before other digits (`/orders/NW-0`,
    ///   `?id=NW-51007` for `NW-48213`).
    ///
    /// A target's other words are not read as order numbers: shops put their own identifiers
    /// there (`/orders/9f1c0a7e2b5d4c3a/authenticate`, an account page's internal order ID
    /// beside the order "#1047"), and campaign, session and tracking parameters.
    /// - Parameters:
    ///   - link: a link of the email.
    ///   - orderNumber: the order number chosen.
    static func namesAnotherOrder(_ link: Link, orderNumber: String) -> Bool {
        let own = orderNumber.uppercased()
        let text = link.text.uppercased()
        let target = link.target.uppercased()
        guard !own.isEmpty, !containsNumber(own, in: target),
            !containsNumber(own, in: target.removingPercentEncoding ?? target)
        else { return false }
        let shape = OrderNumberShape(own)
        // Every word the tests below take holds an ASCII digit: a text or target without one
        // is not split. A text that names the order is read no further; its target still is.
        if hasASCIIDigit(text), !containsNumber(own, in: text) {
            for word in orderNumberWords(text) where shape.isOther(word) || looksLikeOrderNumber(word) {
                return true
            }
        }
        // A word of the series starts with its letters: without a percent escape, the target's
        // parts are its own text, which must then hold those letters.
        guard !shape.prefix.isEmpty, hasASCIIDigit(target),
            target.utf8.contains(UInt8(ascii: "%")) || target.contains(shape.prefix),
            let components = URLComponents(string: link.target)
        else { return false }
        let parts =
            components.path.split(separator: "/").map(String.init)
            + (components.queryItems ?? []).compactMap(\.value)
        for part in parts {
            let decoded = (part.removingPercentEncoding ?? part).uppercased()
            if orderNumberWords(decoded).contains(where: shape.isOther) { return true }
        }
        return false
    }

    /// Whether `number` stands in `text` as a whole: an occurrence of its UTF-8 bytes with no
    /// ASCII letter or digit glued to either side. "NW-48213" stands in "/orders/NW-48213?x=1"
    /// and "View order NW-48213", not in "/orders/NW-482139" (another order's page) nor in
    /// "XNW-48213".
    /// - Parameters:
    ///   - number: the order number (not empty for a match).
    ///   - text: a link's text or target.
    ///   - ignoringCase: whether ASCII letters match in either case.
    static func containsNumber(_ number: String, in text: String, ignoringCase: Bool = true) -> Bool {
        let needle = Array(number.utf8)
        let haystack = Array(text.utf8)
        guard let first = needle.first, needle.count <= haystack.count else { return false }
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 {
            ignoringCase && byte &- UInt8(ascii: "a") < 26 ? byte &- 32 : byte
        }
        @inline(__always) func isAlphanumeric(_ byte: UInt8) -> Bool {
            byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 26
        }
        let head = fold(first)
        for start in 0...(haystack.count - needle.count) where fold(haystack[start]) == head {
            var matches = true
            for offset in 1..<needle.count where fold(haystack[start + offset]) != fold(needle[offset]) {
                matches = false
                break
            }
            guard matches else { continue }
            let end = start + needle.count
            if (start == 0 || !isAlphanumeric(haystack[start - 1]))
                && (end == haystack.count || !isAlphanumeric(haystack[end]))
            {
                return true
            }
        }
        return false
    }

    /// Whether a text holds an ASCII digit (read from its bytes).
    static func hasASCIIDigit(_ text: String) -> Bool {
        text.utf8.contains { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// The words of an upper-cased text made of ASCII letters, digits, `-`, `_` and `.`, with
    /// `.`, `-` and `_` cut from their ends ("#51007." → "51007").
    static func orderNumberWords(_ text: String) -> [String] {
        text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".")) }
            .map { word in
                var word = Substring(word)
                while let last = word.last, ".-_".contains(last) { word = word.dropLast() }
                while let first = word.first, ".-_".contains(first) { word = word.dropFirst() }
                return String(word)
            }
            .filter { !$0.isEmpty }
    }

    /// Whether an upper-cased word reads as an order number on its own: plausible with four
    /// characters or more, or a short number with a letter ("NW-0", "AB12").
    static func looksLikeOrderNumber(_ word: String) -> Bool {
        guard word.contains(where: \.isNumber) else { return false }
        if OrderNumberToken.isPlausible(word, minimumLength: 4) { return true }
        return word.contains(where: \.isLetter) && OrderNumberToken.shortLabelled(word, fillers: []) != nil
    }

    /// Whether the text contains one of the phrases, as Foundation's `contains` says. In ASCII
    /// text an ASCII phrase is found byte by byte (for such text the same), and a phrase whose
    /// canonical decomposition is not ASCII is never found. In text made of
    /// ``SimpleScalars`` (each scalar a character, no two of them canonically equivalent), a
    /// phrase made of them is found byte by byte too.
    static func containsAny(_ phrases: [LinkPhrase], in text: String) -> Bool {
        // The text's own bytes are searched (a native string stores them contiguously).
        let found = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let isASCII = bytes.allSatisfy { $0 < 0x80 }
            let simple = isASCII || text.unicodeScalars.allSatisfy(SimpleScalars.isStandalone)
            for phrase in phrases {
                if simple {
                    if isASCII {
                        if let needle = phrase.bytes {
                            if FieldText.containsBytes(needle, in: bytes) { return true }
                            continue
                        }
                        if !phrase.mayOccurInASCII { continue }
                    } else if let needle = phrase.simpleBytes {
                        if FieldText.containsBytes(needle, in: bytes) { return true }
                        continue
                    }
                }
                if text.contains(phrase.text) { return true }
            }
            return false
        }
        if let found { return found }
        return containsAny(phrases, in: String(decoding: Array(text.utf8), as: UTF8.self))
    }

    /// A quick test before parsing a link: the host of an ASCII URL without percent escapes is
    /// part of its text, so a URL whose text does not contain the domain (ignoring ASCII case)
    /// cannot be on it. Any other URL may be.
    static func mayBeOnDomain(_ url: String, domain: [UInt8]) -> Bool {
        guard let first = domain.first else { return true }
        var url = url
        return url.withUTF8 { bytes in
            // One pass: a byte beyond ASCII or a percent sign anywhere, or the domain at any
            // position, answers yes.
            let last = bytes.count - domain.count
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 || byte == UInt8(ascii: "%") { return true }
                if index <= last && KeywordScanner.lower(byte) == first {
                    var offset = 1
                    while offset < domain.count, KeywordScanner.lower(bytes[index + offset]) == domain[offset]
                    {
                        offset += 1
                    }
                    if offset == domain.count { return true }
                }
                index += 1
            }
            return false
        }
    }

    static func isWebURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && text.count <= 2_048
            && URLComponents(string: text)?.host != nil
    }

    /// ``isWebURL(_:)`` but for the host test: an `https://` or `http://` start in any case,
    /// and at most 2,048 characters.
    ///
    /// When the text starts with ASCII, the start is compared byte by byte, ignoring case
    /// (lower-casing maps no other scalar to these letters, `:` or `/`), provided the byte
    /// after it is ASCII too (a combining mark would join the last `/`).
    static func hasWebPrefix(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count > 8 else { return isWebPrefixSlow(text) }
        // The first nine bytes, read in place: nil when one of them is not ASCII.
        let prefixed = utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
            for index in 0..<9 where bytes[index] >= 0x80 { return nil }
            func starts(with prefix: [UInt8]) -> Bool {
                for index in prefix.indices where KeywordScanner.lower(bytes[index]) != prefix[index] {
                    return false
                }
                return true
            }
            return starts(with: httpsBytes) || starts(with: httpBytes)
        }
        guard let prefixed, let prefixed else { return isWebPrefixSlow(text) }
        return prefixed && count(of: text, atMost: 2_048)
    }

    /// `https://` and `http://` as bytes.
    static let httpsBytes = Array("https://".utf8)
    static let httpBytes = Array("http://".utf8)

    /// ``hasWebPrefix(_:)`` as ``isWebURL(_:)`` says it.
    private static func isWebPrefixSlow(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && text.count <= 2_048
    }

    /// `text.count <= limit`, without counting characters when the UTF-8 length (never less
    /// than the number of characters) is within the limit, or when the text is ASCII without a
    /// carriage return (one character per byte: only CR LF joins two ASCII scalars).
    static func count(of text: String, atMost limit: Int) -> Bool {
        let utf8 = text.utf8
        if utf8.count <= limit { return true }
        let plain = utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
        if plain == true { return false }
        return text.count <= limit
    }

    /// White space and line ends trimmed from a link's text.
    static let whitespaceAndNewlines = TrimSet(.whitespacesAndNewlines)
}

/// An order-link phrase, lower-cased, prepared for ``ExtractionContext/containsAny(_:in:)``.
struct LinkPhrase: Sendable {
    let text: String
    /// The phrase's bytes when it is ASCII and not empty.
    let bytes: [UInt8]?
    /// Whether the phrase can occur in ASCII text: false when its canonical decomposition is
    /// not ASCII.
    let mayOccurInASCII: Bool
    /// The phrase's bytes when it is not empty and made of ``SimpleScalars`` only.
    let simpleBytes: [UInt8]?

    init(_ text: String) {
        self.text = text
        let ascii = text.utf8.allSatisfy { $0 < 0x80 }
        bytes = ascii && !text.isEmpty ? Array(text.utf8) : nil
        simpleBytes =
            !text.isEmpty && text.unicodeScalars.allSatisfy(SimpleScalars.isStandalone)
            ? Array(text.utf8) : nil
        mayOccurInASCII = ascii || text.decomposedStringWithCanonicalMapping.utf8.allSatisfy { $0 < 0x80 }
    }
}

/// The shape of an order number with letters before its digits (`NW-48213`: `NW-`, then
/// digits), to tell another number of the same series (`NW-0`, `NW-51007`).
struct OrderNumberShape {
    /// The letters and separators before the first digit, upper-cased; empty when the order
    /// number starts with a digit or has no such part.
    let prefix: String

    /// - Parameter orderNumber: the order number, upper-cased.
    init(_ orderNumber: String) {
        let head = orderNumber.prefix { !$0.isNumber }
        let rest = orderNumber.dropFirst(head.count)
        let isSeries =
            head.contains(where: \.isLetter) && !rest.isEmpty
            && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "/" || $0 == ".") }
        prefix = isSeries ? String(head) : ""
    }

    /// Whether an upper-cased word is another number of the order number's series: the same
    /// letters and separators, then ASCII digits (and separators) only.
    func isOther(_ word: String) -> Bool {
        guard !prefix.isEmpty, word.hasPrefix(prefix) else { return false }
        let rest = word.dropFirst(prefix.count)
        return rest.first?.isNumber == true
            && rest.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "/" || $0 == ".") }
    }
}
