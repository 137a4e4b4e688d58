import Foundation
import MIME

/// A cheap first pass that decides whether a message needs the full document and extraction
/// work.
///
/// Most mail is not about orders. The prefilter looks at what is cheap to read once the MIME
/// structure is known — the sender's domain, the subject, attachment names and types, and a
/// bounded keyword scan of the decoded text parts — and lets a message through when any of
/// them hints at an order or a shipment:
///
/// - the sender (From, Sender, Reply-To) is at a carrier's or a known merchant's domain;
/// - an attachment is a Wallet order (`.order`, `application/vnd.apple.finance.order`);
/// - the text carries schema.org markup (`schema.org`), or one of the order and shipping
///   words of any language in the rules (order-number, order-date, carrier and tracking
///   labels, kind phrases other than `notAnOrder`, status words) or a carrier's or postal
///   operator's name, in the subject, the sender's name or the text; a weak word (`order`,
///   `commande`, `注文`) only when an order-number-like token follows it.
///
/// It must never cost recall: when in doubt it lets the message through. Words are matched
/// in a folded copy of the text (ASCII and Latin-1 letters lower-cased, HTML tags and runs of
/// white space turned into one space, the common entities decoded, control characters read as
/// nothing, as rendering reads them); ASCII words only at word boundaries, so `UPS` does not
/// match `groups`. Labels of several words count written without their spaces too
/// (``LanguageRules/joiningLabelWords()``).
///
/// Immutable and `Sendable`: build it once from the rules and share it between threads.
public struct Prefilter: Sendable {
    /// Why a message was let through or left out, for `inspect` and tests.
    public struct Decision: Sendable, Hashable, CustomStringConvertible {
        /// `true` when the message needs the full work.
        public var needsFullWork: Bool
        /// What decided: `sender domain dhl.de`, `keyword "tracking number"`, `no order signal`.
        public var reason: String

        public var description: String { (needsFullWork ? "pass: " : "reject: ") + reason }
    }

    /// How many bytes of each text part are scanned. A message with a longer part and no
    /// signal in what was scanned is let through (``decide(_:)``).
    public var maxBytesPerPart = 256 << 10
    /// How many bytes of text are scanned per message in all. A message with more text and no
    /// signal in what was scanned is let through (``decide(_:)``).
    public var maxBytesPerMessage = 1 << 20

    private let matcher: KeywordMatcher
    private let senderDomains: Set<String>

    /// Builds the prefilter from the rules' languages, carriers and merchants.
    /// - Parameter rules: the loaded rules (see ``Rules/load(from:)``).
    public init(rules: Rules) {
        var words: [String] = ["schema.org", "vnd.apple.finance.order"]
        for language in rules.languages {
            let labels = language.labels
            words += labels.orderNumber + labels.orderDate + labels.carrier
            words += language.trackingNumberLabels
            for (kind, phrases) in language.kinds where kind != "notAnOrder" { words += phrases }
            for phrases in language.statuses.values { words += phrases }
        }
        var weakWords: [String] = []
        for language in rules.languages { weakWords += language.labels.orderNumberWeak }
        var domains = Set<String>()
        for carrier in rules.carriers.carriers {
            words.append(carrier.name)
            words += carrier.localNames + carrier.aliases + carrier.keywords
            words += (carrier.operators ?? [:]).values
            for domain in carrier.senderDomains { domains.insert(domain.lowercased()) }
        }
        for merchant in rules.merchants.merchants where merchant.platform != true {
            for domain in merchant.domains { domains.insert(domain.lowercased()) }
        }
        matcher = KeywordMatcher(words: words, weakWords: weakWords)
        senderDomains = domains
    }

    /// Decides whether `message` needs the full document and extraction work.
    ///
    /// The keyword scan reads at most ``maxBytesPerPart`` of each text part and
    /// ``maxBytesPerMessage`` in all. When it finds no signal but left some text unread (a part
    /// longer than it reads, or parts past the message's budget), the message is let through
    /// all the same: a keyword may stand in what was not read, and leaving the message out
    /// would lose its order in silence. This costs no recall; it costs the full work on the few
    /// messages with that much text (a newsletter of more than 256 KiB of HTML), which is what
    /// they would cost with no prefilter.
    /// - Parameter message: the parsed message.
    /// - Returns: the decision and its reason.
    public func decide(_ message: Message) -> Decision {
        if let reason = headerSignal(message) { return Decision(needsFullWork: true, reason: reason) }
        var budget = maxBytesPerMessage
        // Bytes of text the keyword scan did not read.
        var unread = 0
        for part in message.allPartsIncludingEncapsulated {
            if let inner = part.encapsulatedMessage, let reason = headerSignal(inner) {
                return Decision(needsFullWork: true, reason: "forwarded message: " + reason)
            }
            if let reason = attachmentSignal(part) { return Decision(needsFullWork: true, reason: reason) }
            guard let text = part.text else { continue }
            guard budget > 0 else {
                unread += text.utf8.count
                continue
            }
            let isHTML = part.contentType.subtype.lowercased() == "html"
            var found: String?
            var scanned = 0
            var copy = text
            copy.withUTF8 { bytes in
                let limit = min(bytes.count, maxBytesPerPart, budget)
                scanned = limit
                let window = UnsafeBufferPointer(rebasing: bytes[0..<limit])
                if isHTML && Self.containsSchemaMarker(window) {
                    found = "schema.org"
                    return
                }
                found = matcher.firstMatch(in: UnsafeBufferPointer(rebasing: bytes[0..<limit]), html: isHTML)
            }
            budget -= scanned
            unread += text.utf8.count - scanned
            if let found { return Decision(needsFullWork: true, reason: "keyword \"\(found)\"") }
        }
        if unread > 0 {
            return Decision(
                needsFullWork: true,
                reason: "no order signal in the text scanned, but \(unread) bytes of text were not scanned")
        }
        return Decision(needsFullWork: false, reason: "no order signal")
    }

    /// Whether `message` needs the full work; ``decide(_:)`` without the reason.
    /// - Parameter message: the parsed message.
    /// - Returns: `true` when any order or shipping signal is present.
    public func needsFullWork(_ message: Message) -> Bool { decide(message).needsFullWork }

    private func headerSignal(_ message: Message) -> String? {
        var addresses = message.from + message.replyTo
        if let sender = message.sender { addresses.append(sender) }
        for address in addresses {
            guard let domain = address.domain?.lowercased() else { continue }
            if let known = knownDomain(domain) { return "sender domain \(known)" }
        }
        for address in addresses {
            guard var name = address.name else { continue }
            var found: String?
            name.withUTF8 { bytes in found = matcher.firstMatch(in: bytes, html: false) }
            if let found { return "sender name keyword \"\(found)\"" }
        }
        if var subject = message.subject {
            var found: String?
            subject.withUTF8 { bytes in found = matcher.firstMatch(in: bytes, html: false) }
            if let found { return "subject keyword \"\(found)\"" }
        }
        return nil
    }

    /// `domain` or the closest parent domain that is a carrier's or a merchant's.
    private func knownDomain(_ domain: String) -> String? {
        var candidate = Substring(domain)
        // A bare label (`com`) is no one's domain: only names with a dot are looked up.
        while let dot = candidate.utf8.firstIndex(of: 0x2E) {
            if senderDomains.contains(String(candidate)) { return String(candidate) }
            candidate = candidate[candidate.index(after: dot)...]
        }
        return nil
    }

    /// Whether `schema.org` occurs in `haystack`, ASCII case ignored: each `.` (found with
    /// `memchr`) is checked for `schema` before it and `org` after it.
    static func containsSchemaMarker(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = haystack.baseAddress, haystack.count >= 10 else { return false }
        let count = haystack.count
        var index = 6
        while index <= count - 4, let found = memchr(base + index, 0x2E, count - 3 - index) {
            let dot = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if haystack[dot + 1] | 0x20 == 0x6F && haystack[dot + 2] | 0x20 == 0x72
                && haystack[dot + 3] | 0x20 == 0x67 && haystack[dot - 6] | 0x20 == 0x73
                && haystack[dot - 5] | 0x20 == 0x63 && haystack[dot - 4] | 0x20 == 0x68
                && haystack[dot - 3] | 0x20 == 0x65 && haystack[dot - 2] | 0x20 == 0x6D
                && haystack[dot - 1] | 0x20 == 0x61
            {
                return true
            }
            index = dot + 1
        }
        return false
    }

    private func attachmentSignal(_ part: BodyPart) -> String? {
        if part.contentType.subtype.lowercased() == "vnd.apple.finance.order" {
            return "Wallet order attachment"
        }
        let name = (part.filename ?? part.contentType.parameters["name"] ?? "").lowercased()
        if name.hasSuffix(".order") { return "attachment \(name)" }
        return nil
    }
}
