import Foundation
import MIME
import Testing

@testable import MailDocument

// `ForwardDetector.detect(in:)` looks at every line only when a byte scan finds a line that
// could start a forward; these tests check that the scan never hides a forward the full
// detector finds.

/// Forwards in every layout and language the detector knows, and near misses.
private let forwardTexts: [String] = {
    let bodies = [
        """
        FYI

        ---------- Forwarded message ---------
        From: Example Outfitters <orders@shop.example.com>
        Date: Mon, Nov 23, 2026 at 10:15 AM
        Subject: Your order #1047 has shipped
        To: Sam <sam@gmail.com>

        Hi Sam, your order #1047 is on its way.
        """,
        """
        -----Ursprüngliche Nachricht-----
        Von: Beispiel Shop <bestellung@shop.example.de>
        Gesendet: Montag, 23. November 2026 10:15
        An: Sam <sam@gmail.com>
        Betreff: Ihre Bestellung 1047

        Vielen Dank für Ihre Bestellung.
        """,
        """
        Voir ci-dessous.

        ________________________________
        De : Boutique <commandes@boutique.example.fr>
        Envoyé : lundi 23 novembre 2026 10:15
        À : Sam <sam@gmail.com>
        Objet : Votre commande 1047

        Merci pour votre commande.
        """,
        """
        From: Example Shop [mailto:orders@shop.example]
        Sent: Monday, November 23, 2026 10:15 AM
        To: Sam
        Subject: Order 1047

        Body
        """,
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
        """,
        """
        Begin forwarded message:

        From: Example Shop <orders@shop.example>
        Subject: Your order
        Date: November 23, 2026 at 10:15:00 AM PST
        To: Sam <sam@example.com>

        Thanks.
        """,
        """
        —— Forwarded message ——
        From: Shop <orders@shop.example>
        Date: Mon, Nov 23, 2026 at 10:15 AM
        Subject: Order

        Body
        """,
        """
        ---------- 転送されたメッセージ ---------
        差出人: ショップ <order@shop.example.jp>
        Date: 2026年11月23日(月) 10:15
        件名: ご注文の確認
        宛先: <sam@gmail.com>

        ご注文ありがとうございます。
        """,
        """
        ---------- 전달된 메시지 ---------
        보낸사람: 쇼핑 <order@shop.example.kr>
        날짜: 2026년 11월 23일 (월) 오전 10:15
        제목: 주문 확인
        받는사람: <sam@gmail.com>

        주문해 주셔서 감사합니다.
        """,
        """
        以下転送メッセージ：
        差出人： ショップ <order@shop.example.jp>
        件名： ご注文
        日付： 2026/11/23

        本文
        """,
        """
        Début du message réexpédié :

        De : Boutique <commandes@boutique.example.fr>
        Objet : Votre commande
        Date : 23 novembre 2026 à 10:15:00 UTC+1
        À : Sam <sam@example.fr>

        Merci.
        """,
        """
        \tFrom:\tShop <orders@shop.example>\t
        Date: Mon, 23 Nov 2026 10:15:00 +0000
        Subject: Order 1047

        Body
        """,
        // Outlook's blocks in Polish, Russian, Turkish, Greek and Traditional Chinese, the
        // writer named without an address.
        """
        ________________________________
        Od: Sklep Przykład
        Wysłane: wtorek, 24 listopada 2026 18:12
        Do: Sam
        Temat: Zamówienie 1047

        Dziękujemy.
        """,
        """
        От: Магазин Пример
        Отправлено: вторник, 24 ноября 2026 г. 18:12
        Кому: Сэм
        Тема: Заказ 1047

        Спасибо.
        """,
        """
        Kimden: Örnek Mağaza
        Gönderildi: 24 Kasım 2026 Salı 18:12
        Kime: Sam
        Konu: Sipariş 1047

        Teşekkürler.
        """,
        """
        Από: Κατάστημα
        Στάλθηκε: Τρίτη, 24 Νοεμβρίου 2026 6:12 μ.μ.
        Προς: Sam
        Θέμα: Παραγγελία 1047

        Ευχαριστούμε.
        """,
        """
        寄件者: 範例商店
        寄件日期: 2026年11月24日 下午 06:12
        收件者: Sam
        主旨: 訂單 1047

        謝謝。
        """,
        // Near misses: dashes, labels and colons that start nothing.
        """
        ----------------------------------------
        Order date: 23 November 2026
        From the team at Example Shop
        Fromage: yes
        -- 
        Sam
        """,
    ]
    var texts: [String] = []
    for body in bodies {
        texts.append(body)
        texts.append(body.uppercased())
        texts.append(
            body.split(separator: "\n", omittingEmptySubsequences: false).map { "> " + $0 }.joined(
                separator: "\n"))
        texts.append(body.replacingOccurrences(of: "\n", with: "\r\n"))
        texts.append(body.replacingOccurrences(of: "\n", with: " \r\n"))
        texts.append("Intro line with ünïcode\n\n" + body)
        texts.append(body.replacingOccurrences(of: ":", with: "："))
        texts.append(body.replacingOccurrences(of: "-", with: "—"))
        texts.append(body.decomposedStringWithCanonicalMapping)
        texts.append(body.uppercased().decomposedStringWithCanonicalMapping)
        texts.append(body.replacingOccurrences(of: "\n", with: "\u{3000}:\n"))
        texts.append(body.replacingOccurrences(of: "\n", with: " \u{301}\n"))
    }
    return texts
}()

@Test func byteScanFindsEveryForwardTheDetectorFinds() {
    var found = 0
    for text in forwardTexts {
        let full = ForwardDetector.detectInAllLines(text)
        if full != nil {
            found += 1
            #expect(ForwardDetector.mayForward(text), "scan missed: \(text)")
        }
        #expect(ForwardDetector.detect(in: text) == full, "differs: \(text)")
    }
    #expect(found > 60)
}

@Test func byteScanPassesOverTextWithoutForwardMarkers() {
    let texts = [
        "Your order #1047 has shipped.\nTracking: 1Z999AA10123456784\nOrder date: 23 November 2026",
        "----------------------------------------\nTotal\t$19.00\n-- \nExample Shop",
        "Bestellnummer: 1047\nVersand an: Sam Beispiel\nVielen Dank für Ihre Bestellung!",
        "Lieferadresse: Müllerstraße 5\nDéfinitivement à vous\nご注文ありがとうございます。\n注文番号：1234\n배송이 시작되었습니다",
        "",
        "\n\n\n",
    ]
    for text in texts {
        #expect(!ForwardDetector.mayForward(text), "\(text)")
        #expect(ForwardDetector.detectInAllLines(text) == nil)
    }
}

@Test func byteScanAgreesWithTheDetectorOnTheCorpus() throws {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Corpus")
    let files = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
        .filter { $0.pathExtension == "eml" }
    #expect(files.count > 100)
    for file in files {
        guard let message = try? Message(bytes: Array(Data(contentsOf: file))) else { continue }
        var options = MailDocumentOptions()
        options.detectInlineForwards = false
        let document = MailDocument(message: message, options: options)
        for text in [document.plainText?.text, document.htmlText?.text].compactMap({ $0 }) {
            let full = ForwardDetector.detectInAllLines(text)
            #expect(ForwardDetector.detect(in: text) == full, "\(file.lastPathComponent)")
            if full != nil { #expect(ForwardDetector.mayForward(text)) }
        }
    }
}

@Test func aHeaderBlockFieldIsReadFromItsLabelOnly() {
    // Every label fits in the characters the colon is looked for in.
    #expect(ForwardDetector.labels.keys.allSatisfy { $0.count <= ForwardDetector.longestLabel })
    #expect(ForwardDetector.field(of: "  From:  Shop <orders@shop.example>")?.0 == .from)
    #expect(ForwardDetector.field(of: "De : Boutique")?.1 == "Boutique")
    #expect(ForwardDetector.field(of: "\u{3000}差出人： ショップ")?.0 == .from)
    #expect(ForwardDetector.field(of: "Sent:\tTuesday")?.0 == .sent)
    // A colon far along a line of words is no label's.
    let long = String(repeating: "word ", count: 200) + "from: x"
    #expect(ForwardDetector.field(of: Substring(long)) == nil)
    #expect(ForwardDetector.field(of: "Thanks for your order from: Shop") == nil)
}

/// Outlook's HTML forward puts the original's text right under its "Subject:" line, with no
/// blank line between: the subject is that line. A long subject wrapped onto the next line
/// (as plain-text clients wrap near 76 characters) is read whole.
@Test func anOutlookSubjectIsOneLineUnlessItIsWrapped() throws {
    let header = [
        "FYI", "", "________________________________", "From: Harbor Supply Co. <orders@harborsupply.com>",
        "Sent: Tuesday, November 17, 2026 6:30 PM", "To: Sam Lee <sam.lee@contoso.com>",
    ]
    let short =
        (header + [
            "Subject: Order Confirmation - HS-204418", "Thank you for your order! Order number: HS-204418",
            "Total $139.64",
        ]).joined(separator: "\n")
    let forward = try #require(ForwardDetector.detect(in: short))
    #expect(forward.subject == "Order Confirmation - HS-204418")
    // A subject of 54 characters is no wrapped line either, in text/plain; in HTML no subject is.
    let medium =
        (header + [
            "Subject: Your Northwind Outfitters order #NW-61234 is confirmed", "Hi Jamie,",
        ]).joined(separator: "\n")
    #expect(
        ForwardDetector.detect(in: medium)?.subject
            == "Your Northwind Outfitters order #NW-61234 is confirmed")
    let long =
        (header + [
            "Betreff: Ihre Bestellung 2026-11-30700 bei Kaffeerösterei Bergmann ist eingegangen",
            "Vielen Dank für Ihre Bestellung.",
        ]).joined(separator: "\n")
    #expect(
        ForwardDetector.detect(in: long, isPlainText: false)?.subject
            == "Ihre Bestellung 2026-11-30700 bei Kaffeerösterei Bergmann ist eingegangen")
    #expect(forward.body.hasPrefix("Thank you for your order! Order number: HS-204418"))
    let wrapped =
        (header + [
            "Subject: Your Harbor Supply Co. order HS-204418 of three items has been confirmed and",
            "will ship soon", "", "Thank you for your order!",
        ]).joined(separator: "\n")
    #expect(
        ForwardDetector.detect(in: wrapped)?.subject
            == "Your Harbor Supply Co. order HS-204418 of three items has been confirmed and will ship soon")
}
