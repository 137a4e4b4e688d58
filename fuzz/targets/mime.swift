// MIME message parsing: header fields, encoded-words, RFC 2231 parameters, multipart
// framing, transfer encodings and charsets.
import MIME

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        guard let message = try? Message(bytes: bytes) else { return }
        consume(message.subject)
        consume(message.from)
        consume(message.to)
        consume(message.cc)
        consume(message.replyTo)
        consume(message.sender)
        consume(message.date)
        consume(message.messageID)
        consume(message.inReplyTo)
        consume(message.references)
        consume(message.textBody?.text)
        consume(message.htmlBody?.text)
        consume(message.attachments.map(\.filename))
        for part in message.allPartsIncludingEncapsulated {
            consume(part.decodedBytes().count)
            consume(part.header.fields.map { part.header[$0.name] })
        }
        consume(message.warnings.map(\.description))
    }
}
