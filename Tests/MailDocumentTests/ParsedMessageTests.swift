import Foundation
import MIME
import Testing

@testable import MailDocument

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

private func emlFiles(under folder: URL) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
        return []
    }
    return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" }
        .sorted { $0.path < $1.path }
}

private func document(_ file: URL) -> MailDocument? {
    guard let data = try? Data(contentsOf: file), let message = try? Message(bytes: Array(data)) else {
        return nil
    }
    return MailDocument(message: message)
}

@Test func everyCorpusEmailBuildsADocumentWithText() {
    let files = emlFiles(under: repositoryRoot.appendingPathComponent("Corpus"))
    #expect(files.count > 50)
    var withoutText: [String] = []
    for file in files {
        guard let document = document(file) else { continue }
        let text = (document.htmlText?.text ?? "") + (document.plainText?.text ?? "")
        if text.isEmpty && document.forwardedOriginal == nil { withoutText.append(file.lastPathComponent) }
        #expect(document.sender != nil, "\(file.lastPathComponent)")
    }
    #expect(withoutText.isEmpty)
}

@Test func sharedMIMECorporaNeverCrashTheDocumentBuilder() {
    let corpora = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/mime")
    let files = emlFiles(under: corpora)
    var built = 0
    for file in files where document(file) != nil { built += 1 }
    #expect(files.isEmpty || built > 0)
}

@Test func jsonLDInACorpusEmailIsNormalized() {
    let file = repositoryRoot.appendingPathComponent("Corpus/de-nordlicht-zugestellt-jsonld.eml")
    guard let document = document(file) else {
        Issue.record("corpus file missing or unparseable")
        return
    }
    #expect(document.structuredData.contains { $0.type == "ParcelDelivery" || $0.type == "Order" })
}

@Test func replyToIsReadWithItsDomains() throws {
    let bytes = Array(
        ("From: Fernhill Ceramics <store@t.platform.example>\r\n"
            + "Reply-To: Fernhill Ceramics <hello@mail.fernhill.example>\r\n"
            + "Subject: Order #1001 confirmed\r\n\r\nThank you\r\n").utf8)
    let document = MailDocument(message: try Message(bytes: bytes))
    #expect(document.replyTo?.address == "hello@mail.fernhill.example")
    #expect(document.replyTo?.domain == "mail.fernhill.example")
    #expect(document.replyTo?.registrableDomain == "fernhill.example")
    #expect(document.sender?.registrableDomain == "platform.example")
}
