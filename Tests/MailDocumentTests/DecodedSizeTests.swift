import MIME
import Testing

@testable import MailDocument

// Attachment sizes are counted without decoding; the count must be what decoding gives.

private func part(_ body: [UInt8], encoding: TransferEncoding) -> BodyPart {
    BodyPart(
        path: "2", header: Header(), contentType: MediaType(type: "application", subtype: "pdf"),
        transferEncoding: encoding, disposition: "attachment", filename: "a.pdf", rawBody: ArraySlice(body))
}

@Test func base64SizeIsTheDecodedLengthForOrdinaryAndBrokenInput() {
    let samples: [String] = [
        "", "QQ==", "QUI=", "QUJD", "QUJDRA", "QUJDRA=", "QUJD\r\nREVG\r\n", "QQ==QUJD", "QQ==\nQUJD",
        "QQ== junk\r\nQUJD", "a-b_c+d/", "!!!QUJD???", "Q\tU J\rD", "=\n=\n==",
        "QUJDREVGR0hJSktM\n" + "x=y\nz",
        // Padding inside the data: separately encoded chunks, text after the end of the data.
        "SGk=SGVsbG8=", "QUJDR=QUJD", "QQ===QUJD", "QQ==@QUJD", "SGk= junk\nSGk=", "QQ==\n= QUJD",
        "QQ==\r\n\tQUJD", "QQ==\r\nQUJD",
    ]
    for sample in samples {
        let body = Array(sample.utf8)
        let expected = part(body, encoding: .base64).decodedBytes().count
        #expect(DecodedSize.base64Count(ArraySlice(body)) == expected, "\(sample)")
    }
}

@Test func base64SizeAgreesWithDecodingOnRandomBytes() {
    var state: UInt64 = 7
    let alphabet = Array("ABCXYZabcxyz0189+/-_=\n\r\t =@.é".utf8)
    for length in 0..<300 {
        var body: [UInt8] = []
        for _ in 0..<length {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let pick = Int(state >> 33)
            body.append(
                pick % 7 == 0 ? UInt8(truncatingIfNeeded: pick >> 8) : alphabet[pick % alphabet.count])
        }
        let expected = part(body, encoding: .base64).decodedBytes().count
        #expect(DecodedSize.base64Count(ArraySlice(body)) == expected)
        // A slice that does not start at index 0, as bodies inside a message do.
        let framed = [0x41, 0x41] + body
        #expect(DecodedSize.base64Count(framed[2...]) == expected)
    }
}

@Test func sizeOfEveryTransferEncodingIsTheDecodedLength() {
    let body = Array("QUJD=3D\r\nbegin 644 a\n#86)C\n`\nend\n=\r\n".utf8)
    let encodings: [TransferEncoding] = [
        .sevenBit, .eightBit, .binary, .quotedPrintable, .base64, .unknown("x-uuencode"), .unknown("x-other"),
    ]
    for encoding in encodings {
        let attachment = part(body, encoding: encoding)
        #expect(DecodedSize.of(attachment) == attachment.decodedBytes().count, "\(encoding)")
    }
}
