import Foundation
import MailDocument

extension ExtractionContext {
    /// The merchant, from the most trusted source that names one: markup, the attached order,
    /// `merchants.json5` by sender domain, the sender's display name cleaned, brand phrases in
    /// the body ("Thank you for shopping at …", "© 2026 …", a logo's alt text), the
    /// registrable domain. In a carrier's email, the shipper when named, else none.
    mutating func findMerchant(kind: EmailKind) -> MerchantInfo? {
        let senderDomain = document.sender?.domain
        let registrable = document.sender?.registrableDomain ?? senderDomain
        if let carrierSender {
            _ = carrierSender
            guard let shipper = findShipper() else { return nil }
            evidence.append(
                Evidence(field: "merchant", source: "label", text: shipper.1, confidence: shipper.2))
            return MerchantInfo(name: shipper.0)
        }
        let entry = senderDomain.flatMap { rules.merchants.entry(forDomain: $0) }
        let isPlatform = entry?.platform == true
        let domain = entry?.domain ?? (isPlatform ? nil : registrable)
        func found(_ name: String, source: String, text: String, confidence: Double) -> MerchantInfo {
            evidence.append(Evidence(field: "merchant", source: source, text: text, confidence: confidence))
            return MerchantInfo(name: name, domain: domain)
        }
        for object in Markup.objects(ofType: ["Order"], in: document) {
            if let name = Markup.string(object.properties["merchant"]).flatMap(cleanBrand) {
                return found(
                    name, source: "markup", text: "schema.org Order merchant: \(name)", confidence: 0.95)
            }
        }
        for attached in document.attachedOrders {
            let merchant = Markup.object(Markup.object(attached.order)?["merchant"])
            if let name = Markup.string(merchant?["displayName"]).flatMap(cleanBrand) {
                return found(
                    name, source: "order", text: "order.json merchant.displayName: \(name)", confidence: 0.97)
            }
        }
        if let entry, let name = entry.name {
            return found(
                name, source: "rules", text: "merchants.json5: \(senderDomain ?? "")", confidence: 0.9)
        }
        if let displayName = document.sender?.name, let name = cleanDisplayName(displayName) {
            return found(name, source: "sender", text: "From: \(displayName)", confidence: 0.8)
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

    /// The shipper named in a carrier's email ("Shipped from", "보내는분", "ご依頼主").
    func findShipper() -> (String, String, Double)? {
        for found in LabelledValues.find(languages.phrases(\.shipper), in: text, origins: bodyOrigins) {
            let value = String(found.value.prefix(60))
            if let name = cleanBrand(value) { return (name, found.context, found.placement.score) }
        }
        return nil
    }

    /// A sender display name without "no-reply", "orders", "customer service", "team" and the like.
    func cleanDisplayName(_ displayName: String) -> String? {
        var name = Text.trimmed(displayName.trimmingCharacters(in: CharacterSet(charactersIn: "\"'")))
        if name.contains("@") { return nil }
        var noise = languages.phrases(\.senderNoise)
        if let english = extractor.languages.first(where: { $0.rules.code == "en" }) {
            noise += english.senderNoise
        }
        noise.sort { $0.folded.count > $1.folded.count }
        for phrase in noise {
            var folded = Text.fold(Array(name.utf8))
            var ranges = Text.occurrences(of: phrase.folded, in: folded, limit: 4)
            while let range = ranges.last {
                var bytes = Array(name.utf8)
                bytes.replaceSubrange(range, with: [0x20])
                name = String(decoding: bytes, as: UTF8.self)
                folded = Text.fold(bytes)
                ranges.removeLast()
            }
        }
        // Separators and words left dangling once noise is gone.
        let separators = CharacterSet(charactersIn: "|-–—:·•,/()[]<>").union(.whitespaces)
        var words = name.split(separator: " ").map(String.init)
        let dangling: Set<String> = [
            "the", "from", "via", "at", "by", "of", "your", "von", "de", "du", "di", "da", "van", "&", "and",
        ]
        while let first = words.first,
            dangling.contains(first.lowercased()) || first.trimmingCharacters(in: separators).isEmpty
        {
            words.removeFirst()
        }
        while let last = words.last,
            dangling.contains(last.lowercased()) || last.trimmingCharacters(in: separators).isEmpty
        {
            words.removeLast()
        }
        name = words.joined(separator: " ").trimmingCharacters(in: separators)
        return cleanBrand(name)
    }

    /// A brand name as printed, or nil when it cannot be one: empty, too long, an address,
    /// or a line item's title (never a product name).
    func cleanBrand(_ raw: String) -> String? {
        var name = Text.collapsed(Text.trimmed(raw))
        for suffix in [
            " All rights reserved", " All Rights Reserved", ", Inc.", " Inc.", " Inc", " LLC", " Ltd.",
            " Ltd",
            " GmbH", " Co., Ltd.", " Corp.", " S.A.", " S.L.", " S.p.A.", " B.V.", " SAS", " K.K.", "株式会社",
            "(주)", "㈜",
            "주식회사",
        ] {
            if name.hasSuffix(suffix) { name = String(name.dropLast(suffix.count)) }
            if name.hasPrefix(Text.trimmed(suffix)) && suffix.count > 2 && !suffix.hasPrefix(" ") {
                name = String(name.dropFirst(suffix.count))
            }
        }
        name = Text.trimmed(name).trimmingCharacters(in: CharacterSet(charactersIn: ".,;:!|-–"))
        name = Text.trimmed(name)
        guard !name.isEmpty, name.count <= 40, name.split(separator: " ").count <= 5, !name.contains("@"),
            name.contains(where: { $0.isLetter })
        else { return nil }
        return name
    }

    /// A brand named in the body: "Thank you for shopping at …", "© 2026 …", a logo's alt text.
    func brandFromBody() -> (String, String)? {
        let phrases = languages.phrases(\.brandPhrases)
        for origin in text.bodyOrigins {
            for line in text.lines(of: origin) {
                for phrase in phrases {
                    guard let range = Text.occurrences(of: phrase.folded, in: line.folded, limit: 1).first
                    else {
                        continue
                    }
                    let rest = line.string(range.upperBound..<line.bytes.count)
                    let name = rest.prefix { !".!,|\t。！、\n".contains($0) }
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
                let name = rest.prefix { !".!,|\t。".contains($0) }
                if let brand = cleanBrand(String(name)) { return (brand, line.display) }
            }
        }
        for image in document.images.prefix(5) {
            guard let alt = image.alt else { continue }
            let folded = alt.lowercased()
            guard folded.contains("logo") || alt.contains("ロゴ") || alt.contains("로고") else { continue }
            let name = alt.replacingOccurrences(of: "logo", with: "", options: .caseInsensitive)
                .replacingOccurrences(of: "ロゴ", with: "").replacingOccurrences(of: "로고", with: "")
            if let brand = cleanBrand(name) { return (brand, "logo alt: \(alt)") }
        }
        return nil
    }
}
