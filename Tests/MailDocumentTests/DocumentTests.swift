import Foundation
import MIME
import Testing

@testable import MailDocument

func textPart(_ text: String, path: String = "1", subtype: String = "plain") -> BodyPart {
    BodyPart(
        path: path, header: Header(), contentType: MediaType(type: "text", subtype: subtype),
        transferEncoding: .eightBit, text: text, charset: "utf-8", rawBody: ArraySlice(Array(text.utf8)))
}

func binaryPart(_ bytes: [UInt8], type: String, subtype: String, filename: String?, path: String) -> BodyPart
{
    BodyPart(
        path: path, header: Header(), contentType: MediaType(type: type, subtype: subtype),
        transferEncoding: .binary,
        disposition: "attachment", filename: filename, rawBody: ArraySlice(bytes))
}

let orderJSON =
    #"{"orderIdentifier":"W-1","orderNumber":"1047","merchant":{"displayName":"Example Outfitters"}}"#

// MARK: - Sender

@Test func senderRegistrableDomainComesFromThePublicSuffixList() {
    let sender = Sender(address: MailAddress(name: "Shop", address: "orders@mail.shop.example.co.uk"))
    #expect(sender.domain == "mail.shop.example.co.uk")
    #expect(sender.registrableDomain == "example.co.uk")
    #expect(RegistrableDomain.of("Mail.Amazon.COM.") == "amazon.com")
    #expect(RegistrableDomain.of("co.uk") == nil)
    #expect(RegistrableDomain.of("192.168.1.1") == nil)
}

// MARK: - Plain text

@Test func plainTextKeepsLinesAndFindsBareURLs() {
    let (text, links) = PlainTextRenderer.render(
        text:
            "Order\u{00A0}#1047\u{200B}\r\n\r\n\r\n\r\nTrack it: https://www.ups.com/track?n=1Z9.\r\nSee www.shop.example/help)",
        partPath: "1.1")
    #expect(
        text.lines == [
            "Order #1047", "", "Track it: https://www.ups.com/track?n=1Z9.", "See www.shop.example/help)",
        ])
    #expect(links.map(\.href) == ["https://www.ups.com/track?n=1Z9", "http://www.shop.example/help"])
    #expect(links[0].origin == .plain)
    #expect(text.spans.first?.location == "line 1")
    #expect(text.spans.last?.location == "line 6")
}

// MARK: - Redirects

@Test func redirectWrappersAreUnwrappedRepeatedly() {
    let inner = "https://www.dhl.de/track?piececode=00340434161094042557"
    let once =
        "https://click.mail.example/?url=" + inner.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
    let twice =
        "https://safelinks.example.com/?url=" + once.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics)!
        + "&data=x"
    #expect(RedirectUnwrapper.unwrap(once) == inner)
    #expect(RedirectUnwrapper.unwrap(twice) == inner)
    let base64 = Data(inner.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    #expect(RedirectUnwrapper.unwrap("https://t.example/c?p=" + base64 + "&s=1") == inner)
    #expect(
        RedirectUnwrapper.unwrap(
            "https://abc.r.us-east-1.awstrack.me/L0/https:%2F%2Fshop.example%2Forders%2F7/1/0100-x")
            == "https://shop.example/orders/7")
    #expect(
        RedirectUnwrapper.unwrap("https://shop.example/orders/7?ref=mail")
            == "https://shop.example/orders/7?ref=mail")
    #expect(RedirectUnwrapper.unwrap("mailto:help@shop.example") == "mailto:help@shop.example")
}

// MARK: - Order bundles

@Test func attachedOrderBundleIsOpenedAndDecoded() throws {
    var zip = ZipFixture()
    zip.add("manifest.json", #"{"order.json":"abc"}"#, deflate: false)
    zip.add("order.json", orderJSON)
    let bytes = zip.archive()
    let order = try OrderBundleReader.readOrder(bytes)
    guard case .object(let object) = order else {
        Issue.record("object expected")
        return
    }
    #expect(object["orderNumber"] == .string("1047"))

    let parts = MailDocument.Parts(
        subject: "Your order", from: [MailAddress(address: "orders@shop.example")],
        htmlBody: textPart("<p>Thanks</p>", path: "1.1", subtype: "html"),
        attachments: [
            binaryPart(
                bytes, type: "application", subtype: "vnd.apple.finance.order", filename: "Order.order",
                path: "2"),
            binaryPart([1, 2, 3], type: "image", subtype: "png", filename: "logo.png", path: "3"),
        ])
    let document = MailDocument(parts: parts)
    #expect(document.attachedOrders.count == 1)
    #expect(document.attachedOrders.first?.filename == "Order.order")
    #expect(
        document.attachments == [AttachmentSummary(filename: "logo.png", contentType: "image/png", size: 3)])
}

@Test func damagedOrHostileBundlesAreRefusedWithAReason() {
    var zip = ZipFixture()
    zip.add("order.json", String(repeating: "a", count: 2_000_000))
    var limits = OrderBundleReader.Limits()
    limits.maxCompressionRatio = 100
    #expect(throws: OrderBundleReader.ReadError.self) {
        try OrderBundleReader.readOrder(zip.archive(), limits: limits)
    }
    #expect(throws: OrderBundleReader.ReadError.self) { try OrderBundleReader.readOrder([0x50, 0x4B, 3, 4]) }
    var good = ZipFixture()
    good.add("order.json", orderJSON)
    var corrupted = good.archive()
    corrupted[40] ^= 0xFF
    #expect(throws: OrderBundleReader.ReadError.self) { try OrderBundleReader.readOrder(corrupted) }
    var missing = ZipFixture()
    missing.add("manifest.json", "{}")
    #expect(throws: OrderBundleReader.ReadError.self) { try OrderBundleReader.readOrder(missing.archive()) }

    let document = MailDocument(
        parts: MailDocument.Parts(attachments: [
            binaryPart(
                [1, 2, 3], type: "application", subtype: "octet-stream", filename: "x.order", path: "2")
        ]))
    #expect(document.attachedOrders.isEmpty)
    #expect(document.attachments.count == 1)
    #expect(document.warnings.count == 1)
}

// MARK: - Forwards

private func forwardedDocument(_ text: String) -> MailDocument {
    MailDocument(
        parts: MailDocument.Parts(
            subject: "Fwd: Your order", from: [MailAddress(name: "Sam", address: "sam@gmail.com")],
            textBody: textPart(text)))
}

/// Gmail writes the original's time without a zone, in the forwarder's own: it is read in
/// the zone of the forwarding message's Date field (here +09:00), not as UTC. A time that
/// names its zone is read in that zone whatever the forwarder's.
@Test func aForwardedTimeWithoutAZoneIsTheForwardersLocalTime() {
    func forwarded(dateLine: String) -> MailDocument {
        var parts = MailDocument.Parts(
            subject: "Fwd: Your order", from: [MailAddress(name: "Sam", address: "sam@gmail.com")],
            textBody: textPart(
                """
                ---------- Forwarded message ---------
                From: Example Outfitters <orders@shop.example.com>
                \(dateLine)
                Subject: Your order #1047 has shipped
                To: Sam <sam@gmail.com>

                Hi Sam, your order #1047 is on its way.
                """))
        parts.date = Date(timeIntervalSince1970: 1_795_500_000)
        parts.dateTimeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        return MailDocument(parts: parts)
    }
    let local = forwarded(dateLine: "Date: Mon, Nov 23, 2026 at 10:15 AM").forwardedOriginal
    // 10:15 in Tokyo is 01:15 UTC.
    #expect(local?.date == Date(timeIntervalSince1970: 1_795_428_900 - 9 * 3_600))
    #expect(local?.dateTimeZone?.secondsFromGMT() == 9 * 3_600)
    let zoned = forwarded(dateLine: "Date: Mon, 23 Nov 2026 10:15:00 +0000").forwardedOriginal
    #expect(zoned?.date == Date(timeIntervalSince1970: 1_795_428_900))
    #expect(zoned?.dateTimeZone == nil)
}

/// Forwarded header blocks write the date in the client's language: each is read, as a time
/// without a zone.
@Test func forwardedDatesInTheDetectorsLanguagesAreRead() throws {
    let expected = Date(timeIntervalSince1970: 1_795_975_920)  // 2026-11-29 18:12 UTC
    for text in [
        "Sonntag, 29. November 2026 18:12", "So., 29. Nov. 2026 um 18:12 Uhr", "dim. 29 nov. 2026 à 18:12",
        "dimanche 29 novembre 2026 18:12", "domingo, 29 de noviembre de 2026 18:12",
        "dom, 29 nov 2026, 18:12",
        "domenica 29 novembre 2026 18:12", "dom 29 nov 2026 alle ore 18:12",
        "dom, 29 nov 2026 a las 18:12", "dom., 29 nov. 2026 18:12",
        "domingo, 29 de novembro de 2026 18:12", "zondag 29 november 2026 18:12", "zo 29 nov 2026 om 18:12",
        "2026年11月29日(日) 18:12", "2026년 11월 29일 (일) 오후 6:12", "2026年11月29日周日 18:12",
        "Sun, Nov 29, 2026 at 6:12 PM",
    ] {
        let parsed = try #require(ForwardDetector.parseDate(text), "\(text)")
        #expect(parsed.date == expected, "\(text)")
        #expect(!parsed.hasZone, "\(text)")
    }
    #expect(ForwardDetector.parseDate("Sun, 29 Nov 2026 18:12:00 +0100")?.hasZone == true)
    #expect(ForwardDetector.parseDate("irgendwann im November") == nil)
}

@Test func gmailForwardBecomesTheOriginal() {
    let document = forwardedDocument(
        """
        FYI

        ---------- Forwarded message ---------
        From: Example Outfitters <orders@shop.example.com>
        Date: Mon, Nov 23, 2026 at 10:15 AM
        Subject: Your order #1047 has shipped
        To: Sam <sam@gmail.com>


        Hi Sam, your order #1047 is on its way.
        Track: https://www.ups.com/track?n=1Z999
        """)
    #expect(document.forwardStyle == .gmail)
    let original = document.forwardedOriginal
    #expect(original?.sender?.address == "orders@shop.example.com")
    #expect(original?.sender?.name == "Example Outfitters")
    #expect(original?.sender?.registrableDomain == "example.com")
    #expect(original?.subject == "Your order #1047 has shipped")
    #expect(original?.date == Date(timeIntervalSince1970: 1_795_428_900))
    #expect(original?.plainText?.lines.first == "Hi Sam, your order #1047 is on its way.")
    #expect(original?.links.first?.target == "https://www.ups.com/track?n=1Z999")
    if let original, let text = original.plainText, let link = original.links.first {
        let bytes = Array(text.text.utf8)
        #expect(String(decoding: bytes[link.position...].prefix(8), as: UTF8.self) == "https://")
        let span = text.spans.first
        #expect(span?.location == "line 10")
    }
}

@Test func outlookOriginalMessageMarkerInGerman() {
    let document = forwardedDocument(
        """
        -----Ursprüngliche Nachricht-----
        Von: Beispiel Shop <bestellung@shop.example.de>
        Gesendet: Montag, 23. November 2026 10:15
        An: Sam <sam@gmail.com>
        Betreff: Ihre Bestellung 1047

        Vielen Dank für Ihre Bestellung.
        """)
    #expect(document.forwardStyle == .outlook)
    #expect(document.forwardedOriginal?.sender?.address == "bestellung@shop.example.de")
    #expect(document.forwardedOriginal?.subject == "Ihre Bestellung 1047")
    #expect(document.forwardedOriginal?.plainText?.text == "Vielen Dank für Ihre Bestellung.")
}

@Test func outlookHeaderBlockWithoutMarkerInFrench() {
    let document = forwardedDocument(
        """
        Voir ci-dessous.

        ________________________________
        De : Boutique <commandes@boutique.example.fr>
        Envoyé : lundi 23 novembre 2026 10:15
        À : Sam <sam@gmail.com>
        Objet : Votre commande 1047

        Merci pour votre commande.
        """)
    #expect(document.forwardStyle == .outlook)
    #expect(document.forwardedOriginal?.sender?.address == "commandes@boutique.example.fr")
    #expect(document.forwardedOriginal?.subject == "Votre commande 1047")
}

@Test func outlookBracketedMailtoAddressIsRead() {
    let document = forwardedDocument(
        """
        From: Example Shop [mailto:orders@shop.example]
        Sent: Monday, November 23, 2026 10:15 AM
        To: Sam
        Subject: Order 1047

        Body
        """)
    #expect(document.forwardedOriginal?.sender?.address == "orders@shop.example")
    #expect(document.forwardedOriginal?.sender?.name == "Example Shop")
    #expect(document.forwardedOriginal?.date != nil)
}

@Test func appleMailForwardInSpanishAndQuoted() {
    let document = forwardedDocument(
        """
        Mira esto

        > Inicio del mensaje reenviado:
        >
        > De: Tienda <pedidos@tienda.example.es>
        > Asunto: Tu pedido 1047
        > Fecha: 23 de noviembre de 2026, 10:15:00 CET
        > Para: Sam <sam@gmail.com>
        >
        > Gracias por tu pedido.
        > Número de pedido: 1047
        """)
    #expect(document.forwardStyle == .appleMail)
    #expect(document.forwardedOriginal?.sender?.address == "pedidos@tienda.example.es")
    #expect(document.forwardedOriginal?.subject == "Tu pedido 1047")
    #expect(
        document.forwardedOriginal?.plainText?.lines == ["Gracias por tu pedido.", "Número de pedido: 1047"])
    #expect(document.forwardedOriginal?.date == nil)
}

@Test func japaneseAndKoreanForwardsAreRecognised() {
    let japanese = forwardedDocument(
        """
        ---------- 転送されたメッセージ ---------
        差出人: ショップ <order@shop.example.jp>
        Date: 2026年11月23日(月) 10:15
        件名: ご注文の確認
        宛先: <sam@gmail.com>

        ご注文ありがとうございます。
        """)
    #expect(japanese.forwardStyle == .gmail)
    #expect(japanese.forwardedOriginal?.sender?.address == "order@shop.example.jp")
    #expect(japanese.forwardedOriginal?.subject == "ご注文の確認")

    let korean = forwardedDocument(
        """
        ---------- 전달된 메시지 ---------
        보낸사람: 쇼핑몰 <order@shop.example.kr>
        Date: 2026년 11월 23일 (월) 오전 10:15
        제목: 주문 확인
        To: <sam@gmail.com>

        주문해 주셔서 감사합니다.
        """)
    #expect(korean.forwardedOriginal?.sender?.address == "order@shop.example.kr")
    #expect(korean.forwardedOriginal?.subject == "주문 확인")
    #expect(korean.forwardedOriginal?.plainText?.text == "주문해 주셔서 감사합니다.")
}

@Test func gmailHTMLForwardIsFoundInTheRenderedHTML() {
    let html = """
        <div dir="ltr">FYI<br><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">
        ---------- Forwarded message ---------<br>From: <strong class="gmail_sendername">Example Outfitters</strong>
        <span dir="auto">&lt;<a href="mailto:orders@shop.example.com">orders@shop.example.com</a>&gt;</span><br>
        Date: Mon, Nov 23, 2026 at 10:15 AM<br>Subject: Shipped<br>To: &lt;sam@gmail.com&gt;<br></div><br><br>
        <table><tr><td>Order</td><td>#1047</td></tr></table><a href="https://shop.example.com/o/1047">View order</a>
        </div></div>
        """
    let document = MailDocument(
        parts: MailDocument.Parts(
            subject: "Fwd: Shipped", from: [MailAddress(address: "sam@gmail.com")],
            htmlBody: textPart(html, path: "1.2", subtype: "html")))
    #expect(document.forwardStyle == .gmail)
    let original = document.forwardedOriginal
    #expect(original?.sender?.address == "orders@shop.example.com")
    #expect(original?.htmlText?.lines == ["Order\t#1047", "View order"])
    #expect(original?.links.map(\.text) == ["View order"])
    #expect(original?.htmlText?.spans.first?.location.contains("/tr/td") == true)
}

@Test func attachedMessageBecomesTheOriginal() {
    let inner = Message(
        header: Header(), root: textPart("Your order 1047 shipped.", path: "2.1"), warnings: [])
    var attachment = BodyPart(
        path: "2", header: Header(), contentType: MediaType(type: "message", subtype: "rfc822"),
        transferEncoding: .sevenBit, disposition: "attachment")
    attachment.encapsulatedMessage = inner
    let document = MailDocument(
        parts: MailDocument.Parts(
            subject: "Fwd", from: [MailAddress(address: "sam@gmail.com")], textBody: textPart("see attached"),
            attachments: [attachment]))
    #expect(document.forwardStyle == .attachedMessage)
    #expect(document.forwardedOriginal != nil)
    #expect(document.attachments.isEmpty)
}

@Test func plainMailIsNotTakenForAForward() {
    let document = forwardedDocument(
        """
        From: the team at Example
        Your order has shipped. Subject to our terms.
        Date: soon
        """)
    #expect(document.forwardedOriginal == nil)
}

// MARK: - Assembly

@Test func documentKeepsBothBodiesLinksPreheaderAndStructuredData() {
    let html = """
        <html><head><script type="application/ld+json">
        {"@context":"http://schema.org","@type":"Order","orderNumber":"1047","merchant":{"@type":"Organization","name":"Example"},}
        </script></head><body><div style="display:none">Preview text</div>
        <table><tr><td>Order number</td><td>#1047</td></tr></table>
        <a href="https://shop.example/o">Your order</a></body></html>
        """
    let document = MailDocument(
        parts: MailDocument.Parts(
            subject: "Order 1047", from: [MailAddress(name: "Example", address: "orders@example.com")],
            recipients: [MailAddress(address: "sam@example.net")], messageID: "<1@example.com>",
            textBody: textPart("Order number: 1047\nhttps://shop.example/o", path: "1.1"),
            htmlBody: textPart(html, path: "1.2", subtype: "html")))
    #expect(document.plainText?.lines.first == "Order number: 1047")
    #expect(document.htmlText?.lines == ["Order number\t#1047", "Your order"])
    #expect(document.htmlText?.hiddenText == "Preview text")
    #expect(document.preheader == "Preview text")
    #expect(document.links.map(\.origin) == [.html, .plain])
    #expect(document.structuredData.first?.type == "Order")
    #expect(document.structuredData.first?.string("merchant") == "Example")
    #expect(document.warnings.map(\.message) == ["repaired JSON-LD block 1: trailingComma"])
    #expect(document.sender?.registrableDomain == "example.com")
}

@Test func outlookHeaderBlocksInJapaneseAndKoreanAreRecognised() {
    let japanese = forwardedDocument(
        """
        転送します。

        差出人: コモレビ <shop@komorebi.example.jp>
        送信日時: 2026年11月23日 10:15
        宛先: sam@example.jp
        件名: ご注文の発送のお知らせ

        ご注文の商品を発送しました。
        """)
    #expect(japanese.forwardStyle == .outlook)
    #expect(japanese.forwardedOriginal?.sender?.address == "shop@komorebi.example.jp")
    #expect(japanese.forwardedOriginal?.subject == "ご注文の発送のお知らせ")

    let korean = forwardedDocument(
        """
        -----원본 메시지-----
        보낸 사람: 달빛상점 <order@dalbit.example.kr>
        보낸 날짜: 2026년 11월 23일 월요일 오전 10:15
        받는 사람: sam@example.kr
        제목: 배송이 시작되었습니다

        주문하신 상품이 발송되었습니다.
        """)
    #expect(korean.forwardStyle == .outlook)
    #expect(korean.forwardedOriginal?.sender?.name == "달빛상점")
    #expect(korean.forwardedOriginal?.subject == "배송이 시작되었습니다")
}

// MARK: - Text parts shown one after the other

/// A body split around an attachment (multipart/mixed: text, attachment, text): every inline
/// text/plain part is read, in order, into one plain text (RFC 2046 §5.1.3).
@Test func inlineTextPartsAroundAnAttachmentAreOnePlainText() throws {
    let raw = [
        "From: Shop <orders@shop.example>", "To: a@example.com", "Subject: Your order",
        "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b", "",
        "--b", "Content-Type: text/plain; charset=utf-8", "", "Thank you! Your invoice is attached.",
        "--b", "Content-Type: application/pdf", "Content-Disposition: attachment; filename=invoice.pdf",
        "Content-Transfer-Encoding: base64", "", "JVBERi0x",
        "--b", "Content-Type: text/plain; charset=utf-8", "Content-Disposition: inline", "",
        "Order number:  A-10023", "Track it: https://www.ups.com/track?tracknum=1Z999AA10123456784",
        "--b", "Content-Type: text/plain; charset=utf-8",
        "Content-Disposition: attachment; filename=notes.txt",
        "", "Not shown: an attachment.",
        "--b--",
    ].joined(separator: "\r\n")
    let message = try Message(bytes: Array(raw.utf8))
    #expect(message.furtherTextBodies.map(\.path) == ["1.3"])
    #expect(!message.attachments.contains { $0.path == "1.3" })
    #expect(message.attachments.map(\.path) == ["1.2", "1.4"])
    let document = MailDocument(message: message)
    let plain = try #require(document.plainText)
    #expect(plain.text.hasPrefix("Thank you! Your invoice is attached.\n\nOrder number: A-10023\n"))
    #expect(!plain.text.contains("Not shown"))
    // Spans name each part and point into the joined text.
    let second = try #require(plain.spans.first { $0.partPath == "1.3" })
    let utf8 = Array(plain.text.utf8)
    #expect(String(decoding: utf8[second.range], as: UTF8.self).hasPrefix("Order number"))
    // The wide gap of the second part ("number:  A") moved with it.
    let gap = try #require(plain.wideGaps.first)
    #expect(String(decoding: utf8[(gap - 7)..<gap], as: UTF8.self) == "number:")
    // The link of the second part points at its anchor in the joined text.
    let link = try #require(document.links.first { $0.target.contains("ups.com") })
    #expect(String(decoding: utf8[link.position...].prefix(5), as: UTF8.self) == "https")
}

/// A body of alternatives, an attachment, then a text/plain part: the part after the
/// attachment continues the plain text.
@Test func aTextPartAfterAnAttachmentContinuesABodyOfAlternatives() throws {
    let raw = [
        "From: Shop <orders@shop.example>", "Subject: Ihre Rechnung", "MIME-Version: 1.0",
        "Content-Type: multipart/mixed; boundary=m", "",
        "--m", "Content-Type: multipart/alternative; boundary=a", "",
        "--a", "Content-Type: text/plain; charset=utf-8", "", "Ihre Rechnung liegt bei.",
        "--a", "Content-Type: text/html; charset=utf-8", "", "<p>Ihre Rechnung liegt bei.</p>",
        "--a--",
        "--m", "Content-Type: application/pdf", "Content-Disposition: attachment; filename=r.pdf", "",
        "JVBERi0x",
        "--m", "Content-Type: text/plain; charset=utf-8", "", "Bestellnummer: HM-2026-7800",
        "--m--",
    ].joined(separator: "\r\n")
    let message = try Message(bytes: Array(raw.utf8))
    #expect(message.furtherTextBodies.map(\.path) == ["1.3"])
    #expect(
        MailDocument(message: message).plainText?.text
            == "Ihre Rechnung liegt bei.\n\nBestellnummer: HM-2026-7800")
}

/// In multipart/alternative only the preferred text/plain alternative is read.
@Test func alternativesAreNotJoined() throws {
    let raw = [
        "From: Shop <orders@shop.example>", "Subject: x", "MIME-Version: 1.0",
        "Content-Type: multipart/alternative; boundary=b", "",
        "--b", "Content-Type: text/plain", "", "first", "--b", "Content-Type: text/plain", "", "second",
        "--b--",
    ].joined(separator: "\r\n")
    let message = try Message(bytes: Array(raw.utf8))
    #expect(message.furtherTextBodies.isEmpty)
    #expect(MailDocument(message: message).plainText?.text == "second")
}
