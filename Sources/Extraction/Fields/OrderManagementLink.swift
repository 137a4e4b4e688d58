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
    /// link to another site (a carrier, a survey tool) never does.
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
            let hasNumber = checkOrderNumber && orderNumber.map { Self.contains(target, $0) } == true
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
            best = (target, score, link.text)
        }
        guard let best else { return nil }
        evidence.append(
            Evidence(
                field: "orderManagementURL", source: "link", text: "\(best.text) → \(best.url)",
                confidence: min(0.95, 0.4 + best.score / 2)))
        return best.url
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
