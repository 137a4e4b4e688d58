import Foundation
import MailDocument
import Testing

@testable import Extraction

/// Builds documents the way the document stage renders them: lines, tab-separated cells.
enum Fixture {
    static let rulesDirectory: URL = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("rules")
    }()

    /// The repository's rules; every test depends on them loading.
    static let rules: Rules = {
        do {
            return try Rules.load(from: rulesDirectory)
        } catch {
            fatalError("rules do not load: \(error)")
        }
    }()

    static let extractor = Extractor(rules: rules)

    /// 2026-11-20 15:00 UTC, a Friday.
    static let friday = Date(timeIntervalSince1970: 1_795_186_800)

    static func sender(_ address: String, name: String? = nil) -> Sender {
        let domain = address.split(separator: "@").last.map { String($0).lowercased() }
        let parts = domain?.split(separator: ".") ?? []
        var registrable = domain
        if parts.count > 2 {
            let twoLevel = ["co.uk", "co.jp", "co.kr", "com.au", "com.br"]
            let lastTwo = parts.suffix(2).joined(separator: ".")
            registrable = parts.suffix(twoLevel.contains(lastTwo) ? 3 : 2).joined(separator: ".")
        }
        return Sender(name: name, address: address, domain: domain, registrableDomain: registrable)
    }

    static func document(
        subject: String? = nil, from address: String = "orders@shop.example", name: String? = nil,
        html: [String]? = nil, plain: [String]? = nil, date: Date? = friday, links: [Link] = [],
        images: [ImageReference] = [], structuredData: [SchemaObject] = [],
        attachedOrders: [AttachedOrder] = []
    ) -> MailDocument {
        MailDocument(
            subject: subject, sender: sender(address, name: name), date: date, messageID: "<test@example>",
            plainText: plain.map { RenderedText(text: $0.joined(separator: "\n")) },
            htmlText: html.map { RenderedText(text: $0.joined(separator: "\n")) }, links: links,
            images: images,
            structuredData: structuredData, attachedOrders: attachedOrders)
    }

    static func extract(_ document: MailDocument) -> ExtractionResult {
        extractor.extract(document)
    }
}
