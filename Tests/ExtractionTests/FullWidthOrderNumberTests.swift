import Foundation
import MailDocument
import Testing

@testable import Extraction

/// Order numbers printed in full-width forms are read as the same ASCII numbers.
@Suite struct FullWidthOrderNumberTests {
    @Test func fullWidthFormsNarrowToASCII() {
        #expect(FieldText.narrowedFullWidth("２５０－１２３４５６７") == "250-1234567")
        #expect(FieldText.narrowedFullWidth("ＡＢ－１２（税込）") == "AB-12(税込)")
        // Without a full-width digit or letter the text is left as it is.
        #expect(FieldText.narrowedFullWidth("（税込）：") == "（税込）：")
        #expect(FieldText.narrowedFullWidth("NW-448201") == "NW-448201")
    }

    @Test(arguments: [
        ("ご注文ありがとうございます。ご注文内容を確認しました。", "ご注文番号：２５０－１２３４５６７－７６５４３２１", "250-1234567-7654321"),
        ("感谢您的订购，我们已收到您的订单。", "订单号：ＱＺ２０２６１１２０８８", "QZ2026112088"),
        ("주문해 주셔서 감사합니다. 주문이 접수되었습니다.", "주문번호: ２０２６１１２２－０００１５８３", "20261122-0001583"),
    ])
    func fullWidthOrderNumbersAreRead(greeting: String, line: String, expected: String) {
        let document = Fixture.document(
            subject: "Order", from: "order@shop.example", name: "Shop", plain: [greeting, line])
        let result = Fixture.extract(document)
        #expect(result.orderNumber == expected, "\(line)")
    }
}
