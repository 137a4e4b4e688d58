import Foundation
import Testing

@testable import MIME

@Test func everyCorpusMessageParsesWithoutCrash() throws {
    let files = Corpora.messageFiles()
    #expect(files.count > 250)
    var failures: [String] = []
    for file in files {
        let bytes = try [UInt8](Data(contentsOf: file))
        do {
            let message = try Message(bytes: bytes)
            _ = (
                message.subject, message.from, message.to, message.date, message.attachments, message.textBody
            )
        } catch {
            failures.append("\(file.lastPathComponent): \(error)")
        }
    }
    // Only files with no header field at all may be refused.
    #expect(failures.isEmpty, "\(failures)")
}
