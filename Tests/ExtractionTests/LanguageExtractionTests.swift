import Foundation
import MailDocument
import Testing

@testable import Extraction

/// One order confirmation and one shipping confirmation per language, as its shops write them.
@Suite struct LanguageExtractionTests {
    struct Case: Sendable, CustomStringConvertible {
        let language: String
        let subject: String
        let lines: [String]
        let orderNumber: String
        let orderDate: String?
        let total: MonetaryAmount?
        let delivery: DateWindow?
        let kind: EmailKind
        var description: String { language }
    }

    static let cases: [Case] = [
        Case(
            language: "ko", subject: "[쿠팡] 주문이 완료되었습니다",
            lines: [
                "주문번호: 2026112012345", "주문일자\t2026. 11. 20", "상품금액\t36,900원", "배송비\t2,000원",
                "총 결제금액\t38,900원", "도착 예정일: 11월 24일(화)",
            ],
            orderNumber: "2026112012345", orderDate: "2026-11-20",
            total: MonetaryAmount(amount: "38900", currency: "KRW"),
            delivery: DateWindow(from: "2026-11-24", until: "2026-11-24"), kind: .orderConfirmation),
        Case(
            language: "ja", subject: "ご注文ありがとうございます",
            lines: [
                "ご注文番号：250-1234567-7654321", "ご注文日：2026年11月19日", "小計\t¥3,600", "送料\t¥380", "ご請求額：¥3,980",
                "お届け予定日：11月22日〜11月23日",
            ],
            orderNumber: "250-1234567-7654321", orderDate: "2026-11-19",
            total: MonetaryAmount(amount: "3980", currency: "JPY"),
            delivery: DateWindow(from: "2026-11-22", until: "2026-11-23"), kind: .orderConfirmation),
        Case(
            language: "zh", subject: "您的订单已发货",
            lines: ["订单号：310045678912", "下单时间：2026年11月18日 10:21", "实付款：¥128.50", "预计送达：明天"],
            orderNumber: "310045678912", orderDate: "2026-11-18",
            total: MonetaryAmount(amount: "128.50", currency: "CNY"),
            delivery: DateWindow(from: "2026-11-21", until: "2026-11-21"), kind: .shippingConfirmation),
        Case(
            language: "de", subject: "Vielen Dank für Ihre Bestellung",
            lines: [
                "Bestellnummer: 302-5551234", "Bestelldatum: 19.11.2026", "Zwischensumme\t1.200,00 €",
                "Gesamtsumme:\t1.234,56 €", "Voraussichtliche Lieferung: Montag, 23. November",
            ],
            orderNumber: "302-5551234", orderDate: "2026-11-19",
            total: MonetaryAmount(amount: "1234.56", currency: "EUR"),
            delivery: DateWindow(from: "2026-11-23", until: "2026-11-23"), kind: .orderConfirmation),
        Case(
            language: "fr", subject: "Confirmation de commande",
            lines: [
                "Numéro de commande : FR-884512", "Date de commande : 18/11/2026", "Total TTC : 49,90 €",
                "Livraison prévue : entre le 24 et le 26 novembre",
            ],
            orderNumber: "FR-884512", orderDate: "2026-11-18",
            total: MonetaryAmount(amount: "49.90", currency: "EUR"),
            delivery: nil, kind: .orderConfirmation),
        Case(
            language: "es", subject: "Tu pedido ha sido enviado",
            lines: [
                "Número de pedido: 406-7788990", "Fecha del pedido: 17 de noviembre de 2026",
                "Total del pedido: 25,00 €", "Entrega estimada: 25 de noviembre",
            ],
            orderNumber: "406-7788990", orderDate: "2026-11-17",
            total: MonetaryAmount(amount: "25.00", currency: "EUR"),
            delivery: DateWindow(from: "2026-11-25", until: "2026-11-25"), kind: .shippingConfirmation),
        Case(
            language: "it", subject: "Conferma dell'ordine",
            lines: [
                "Numero d'ordine: IT2026-5541", "Data dell'ordine: 16 novembre 2026", "Totale: EUR 19.99",
                "Consegna prevista: 24/11/2026",
            ],
            orderNumber: "IT2026-5541", orderDate: "2026-11-16",
            total: MonetaryAmount(amount: "19.99", currency: "EUR"),
            delivery: DateWindow(from: "2026-11-24", until: "2026-11-24"), kind: .orderConfirmation),
        Case(
            language: "pt", subject: "Recebemos seu pedido",
            lines: [
                "Número do pedido: 1130456789", "Data do pedido: 20/11/2026", "Total do pedido: R$ 1.234,56",
                "Previsão de entrega: 2 de dezembro",
            ],
            orderNumber: "1130456789", orderDate: "2026-11-20",
            total: MonetaryAmount(amount: "1234.56", currency: "BRL"),
            delivery: DateWindow(from: "2026-12-02", until: "2026-12-02"), kind: .orderConfirmation),
        Case(
            language: "nl", subject: "Bedankt voor je bestelling",
            lines: [
                "Bestelnummer: 4012345678", "Besteldatum: 20-11-2026", "Totaal: € 59,95",
                "Verwachte levering: maandag 23 november",
            ],
            orderNumber: "4012345678", orderDate: "2026-11-20",
            total: MonetaryAmount(amount: "59.95", currency: "EUR"),
            delivery: DateWindow(from: "2026-11-23", until: "2026-11-23"), kind: .orderConfirmation),
        Case(
            language: "en", subject: "Your order has shipped",
            lines: [
                "Order #112-3456789-0123456", "Ordered on November 18, 2026", "Order Total: $1,234.56",
                "Arriving Wednesday, November 25",
            ],
            orderNumber: "112-3456789-0123456", orderDate: nil,
            total: MonetaryAmount(amount: "1234.56", currency: "USD"),
            delivery: DateWindow(from: "2026-11-25", until: "2026-11-25"), kind: .shippingConfirmation),
    ]

    @Test(arguments: cases) func readsOrderFieldsInEachLanguage(_ fixture: Case) {
        let result = Fixture.extract(
            Fixture.document(subject: fixture.subject, from: "shop@shop.example", html: fixture.lines))
        #expect(result.kind == fixture.kind)
        #expect(result.orderNumber == fixture.orderNumber)
        if let orderDate = fixture.orderDate { #expect(result.orderDate == orderDate) }
        #expect(result.total == fixture.total)
        if let delivery = fixture.delivery {
            #expect(result.shipments?.first?.estimatedDelivery == delivery)
        }
    }

    @Test func frenchDayRangeBetweenTwoDaysIsAWindow() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Confirmation de commande",
                html: ["Numéro de commande : FR-884512", "Livraison prévue : 24 - 26 novembre"]))
        // "24 - 26 novembre" names the month once, after the range: only the end date is read.
        #expect(result.shipments?.first?.estimatedDelivery?.until == "2026-11-26")
    }

    @Test func detectsLanguageFromScriptAndWords() {
        let extractor = Fixture.extractor
        func detect(_ lines: [String]) -> String? {
            let text = DocumentText(document: Fixture.document(html: lines))
            return LanguageSet.detect(in: text, languages: extractor.languages).first?.rules.code
        }
        #expect(detect(["주문번호: 1234", "배송이 시작되었습니다"]) == "ko")
        #expect(detect(["ご注文ありがとうございます"]) == "ja")
        #expect(detect(["您的订单已发货，感谢您的购买"]) == "zh")
        #expect(
            detect(["Vielen Dank für Ihre Bestellung, wir haben sie erhalten und die Ware ist unterwegs"])
                == "de")
        #expect(detect(["Merci pour votre commande, nous vous informons dans les plus brefs délais"]) == "fr")
        #expect(
            detect(["Bedankt voor je bestelling, we hebben het pakket van jouw bestelling verzonden"]) == "nl"
        )
        #expect(
            detect(["Thank you for your order, your items will ship soon and you can view the status"])
                == "en")
    }

    /// A few characters of another script (a line of foreign labels, a Japanese product name)
    /// among more words of a Latin language leave the email in that language; an email
    /// written in the script, with some English in it, stays in the script's language.
    @Test func aForeignLineDoesNotDecideTheLanguage() {
        let extractor = Fixture.extractor
        func detect(_ lines: [String]) -> String? {
            let text = DocumentText(document: Fixture.document(html: lines))
            return LanguageSet.detect(
                in: text, languages: extractor.languages, index: extractor.detectionIndex,
                words: extractor.detectionWords
            ).first?.rules.code
        }
        let mixed = "Заказ № 12345 / 주문번호: 67890 / Order number: NW-48213"
        #expect(detect(["Thank you for your order!", mixed, "Order total: $24.00"]) == "en")
        #expect(
            detect([
                "Vielen Dank für Ihre Bestellung! Wir haben sie erhalten, die Ware ist unterwegs.",
                "Ihre Bestellung kommt mit DHL, und wir sagen Ihnen, wann sie da ist.",
                "Bestellnummer: 2026-1147", "Artikel: 湯呑みセット 2 Stück",
            ]) == "de")
        #expect(detect(["주문하신 상품이 발송되었습니다", "Thank you for your order", "운송장번호: 520183746294"]) == "ko")
        #expect(detect(["ご注文ありがとうございます。", "Order number: KM-0457", "Thank you!"]) == "ja")
    }

    /// On a line with labels in several languages, the label of the email's own language
    /// gives the order number, wherever it stands on the line.
    @Test(arguments: [
        "Заказ № 12345 / 주문번호: 67890 / Order number: NW-48213",
        "주문번호: 67890 / Order number: NW-48213",
        "Order number: NW-48213 / 주문번호: 67890",
    ])
    func theLabelOfTheEmailsLanguageWinsOnAMixedLine(_ line: String) {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your order confirmation", from: "orders@northwind-outfitters.example",
                name: "Northwind Outfitters",
                plain: ["Thank you for your order!", line, "Order total: $24.00"]))
        #expect(result.orderNumber == "NW-48213")
        #expect(result.additionalOrders == nil)
    }

    @Test func everyLanguageFileLoads() {
        let codes = Set(Fixture.rules.languages.map(\.code))
        #expect(codes == ["en", "ko", "ja", "zh", "de", "fr", "es", "it", "pt", "nl"])
    }
}
