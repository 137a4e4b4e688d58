import MIME
import Testing

@Test func messageFieldNamesAreTheFieldsOnlyAMessageHas() {
    for name in ["From", "to", "MESSAGE-ID", "Subject", "Received", "Mime-Version", "Delivered-To", "Bcc"] {
        #expect(Header.isMessageFieldName(name), "\(name)")
    }
    for name in ["Resent-From", "Content-Type", "X-Mailer", "List-Id"] {
        #expect(Header.isMessageFieldName(name), "\(name)")
    }
    for name in ["Phone", "Order", "{\"key\"", "Subjects", "Fromage"] {
        #expect(!Header.isMessageFieldName(name), "\(name)")
    }
    #expect(Header.messageFieldNames.allSatisfy { $0 == $0.lowercased() })
}

@Test func aHeaderOfTextLinesShapedLikeFieldsHoldsNoMessageField() throws {
    let readme = try Message(bytes: Array("Phone: +1 555 0100\nOrder: 12345\n\nHello\n".utf8))
    #expect(!readme.header.holdsMessageField)
    let mail = try Message(bytes: Array("Phone: +1 555 0100\nSubject: Order 12345\n\nHello\n".utf8))
    #expect(mail.header.holdsMessageField)
}
