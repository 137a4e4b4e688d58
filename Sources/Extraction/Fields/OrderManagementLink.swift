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
        let phrases = rules.languages.flatMap { $0.orderLinkPhrases ?? [] }.map { $0.lowercased() }
        var best: (url: String, score: Double, text: String)?
        for link in document.links where !link.isHidden {
            let target = link.target
            guard Self.isWebURL(target), let host = URLComponents(string: target)?.host?.lowercased(),
                host == merchantDomain || host.hasSuffix("." + merchantDomain)
            else { continue }
            let anchor = link.text.lowercased().trimmingCharacters(in: .whitespacesAndNewlines)
            var score = 0.0
            if !anchor.isEmpty && anchor.count <= 60 && phrases.contains(where: { anchor.contains($0) }) {
                score += 0.6
            }
            if let orderNumber, orderNumber.count >= 4, target.contains(orderNumber) { score += 0.35 }
            guard score > 0, score > (best?.score ?? 0) else { continue }
            best = (target, score, link.text)
        }
        guard let best else { return nil }
        evidence.append(
            Evidence(
                field: "orderManagementURL", source: "link", text: "\(best.text) → \(best.url)",
                confidence: min(0.95, 0.4 + best.score / 2)))
        return best.url
    }

    static func isWebURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return (lower.hasPrefix("https://") || lower.hasPrefix("http://")) && text.count <= 2_048
            && URLComponents(string: text)?.host != nil
    }
}
