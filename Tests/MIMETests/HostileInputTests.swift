import Foundation
import Testing

@testable import MIME

/// A small deterministic generator (xorshift), so failures reproduce.
private struct Generator {
    var state: UInt64

    mutating func next(_ bound: Int) -> Int {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Int(state % UInt64(max(1, bound)))
    }
}

private let interesting: [[UInt8]] = [
    Array("\r\n".utf8), Array("\n\n".utf8), Array("--".utf8), Array("=?utf-8?b?".utf8), Array("?=".utf8),
    Array("=".utf8), Array("Content-Type: multipart/mixed; boundary=".utf8), Array("\"".utf8),
    Array("(".utf8),
    Array("<".utf8), Array(";".utf8), Array("*0*=".utf8), Array("%".utf8), [0x00], [0xFF],
    [0x1B, 0x24, 0x42], [0x0D],
]

@Test func mutatedCorpusMessagesNeverCrash() throws {
    let files = Corpora.messageFiles().filter { $0.pathExtension == "eml" || $0.pathExtension == "msg" }
    var generator = Generator(state: 0x9E37_79B9_7F4A_7C15)
    var parsed = 0
    for file in files.prefix(120) {
        let original = try [UInt8](Data(contentsOf: file))
        for _ in 0..<6 {
            var bytes = original
            for _ in 0..<(1 + generator.next(8)) {
                guard !bytes.isEmpty else { break }
                let position = generator.next(bytes.count)
                switch generator.next(4) {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: generator.next(256))
                case 1: bytes.insert(contentsOf: interesting[generator.next(interesting.count)], at: position)
                case 2: bytes.removeSubrange(position..<min(bytes.count, position + generator.next(64)))
                default: bytes.removeSubrange(position...)  // truncation
                }
            }
            if let message = try? Message(bytes: bytes) {
                _ = (message.subject, message.from, message.to, message.date, message.references)
                _ = (
                    message.textBody?.text, message.htmlBody?.text,
                    message.attachments.map { $0.decodedBytes() }
                )
                parsed += 1
            }
        }
    }
    #expect(parsed > 500)
}

@Test func pathologicalInputsStayBounded() throws {
    let cases: [String] = [
        "Subject: " + String(repeating: "=?", count: 20_000) + "\n\nx",
        "To: " + String(repeating: "\"", count: 10_001) + String(repeating: "(", count: 10_000) + "\n\nx",
        "Content-Type: text/plain; " + String(repeating: "a*1*=%;", count: 5_000) + "\n\nx",
        String(repeating: "X: y\n", count: 50_000) + "\nbody",
        "Content-Type: multipart/mixed; boundary=a\n\n" + String(repeating: "--a\n", count: 20_000),
        "Content-Type: message/rfc822\n\n" + String(repeating: "Content-Type: message/rfc822\n\n", count: 500)
            + "x",
        "Date: " + String(repeating: "99999999999999999999 ", count: 100) + "\n\nx",
    ]
    for text in cases {
        let message = try Message(bytes: Array(text.utf8))
        _ = (message.subject, message.to, message.date, message.allPartsIncludingEncapsulated.count)
    }
}
