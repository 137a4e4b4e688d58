import Foundation
import MailDocument
import Testing

@testable import Extraction

/// Numbers that look like tracking numbers but are not: none of them may be reported.
@Suite struct CarrierFalsePositiveTests {
    private func found(_ text: String, sender: String? = nil, subject: String? = nil) -> [String] {
        CarrierTestSupport.found(text, sender: sender, subject: subject)
    }

    @Test func phoneNumbersAreNotTrackingNumbers() {
        #expect(found("Questions? Call DHL Express at 1-800-225-5345 or +49 228 18236021.") == [])
        #expect(found("FedEx customer service: +1 800 463 3339") == [])
        #expect(found("CJ대한통운 고객센터 1588-1255, 담당 기사 010-1234-5678") == [])
        #expect(found("ヤマト運輸 お問い合わせ 0120-01-9625 電話 03-1234-5678") == [])
        #expect(found("顺丰客服电话 95338，手机 13812345678") == [])
        #expect(found("DHL Paket Hotline Telefon: 0228 4333112") == [])
    }

    @Test func datesAndTimesAreNotTrackingNumbers() {
        #expect(found("Shipped with UPS on 2026-11-29 at 14:30, delivery 30.11.2026") == [])
        #expect(found("FedEx delivery date 20261129 between 0900 and 1200") == [])
        #expect(found("佐川急便 配達予定日 2026年11月30日 14時〜16時") == [])
    }

    @Test func zipCodesAndAddressesAreNotTrackingNumbers() {
        #expect(found("Ship to: 1600 Amphitheatre Pkwy, Mountain View, CA 94043-1351 via USPS") == [])
        #expect(found("DHL Paket an: Musterstraße 12, 53113 Bonn") == [])
        #expect(found("우체국택배 배송지 서울시 강남구 테헤란로 152, 우편번호 06236") == [])
    }

    @Test func couponSKUAndProductCodesAreNotTrackingNumbers() {
        #expect(found("Use coupon code SAVE20NOW at checkout. Ships with UPS.") == [])
        #expect(found("SKU: 889842640816 — shipped via FedEx") == [])
        #expect(found("Model RB1234567GB, Art.-Nr. 4006381333931, sent by DHL Paket") == [])
        #expect(found("Promo code: CP123456789US") == [])
    }

    @Test func orderInvoiceAndCustomerNumbersAreNotTrackingNumbers() {
        #expect(found("Order number: 986578788855\nShipped with FedEx") == [])
        #expect(found("Invoice #3318810025 — DHL Express") == [])
        #expect(found("Kundennummer: 340434188193 (DHL Paket)") == [])
        #expect(found("주문번호: 560123456789 CJ대한통운으로 발송") == [])
        #expect(found("ご注文番号：537265167611 ヤマト運輸にて発送") == [])
        #expect(found("订单号：731234567890 中通快递") == [])
        #expect(found("Numéro de commande : 6A12345678901 — Colissimo") == [])
    }

    /// The digits of a labelled value printed with letters before them ("KM-20261120-0455")
    /// are that value's: the order, customer or invoice label before the letters labels them
    /// too, whichever carrier the email names beside them.
    @Test func digitsInsideALabelledValueAreNotTrackingNumbers() {
        #expect(found("ご注文番号: KM-20261120-0455\nヤマト運輸でお届けします。") == [])
        #expect(found("ご注文番号：KM-20261120-0455　佐川急便でお届けします。") == [])
        #expect(found("주문번호: KM-20261120-0457\nCJ대한통운으로 발송되었습니다.") == [])
        #expect(found("Order number: KM-20261120-0453\nShipped with FedEx.") == [])
        #expect(found("Your order KM-20261120-0453 has shipped with FedEx.") == [])
        #expect(found("Bestellnummer: KM-20261120-0457\nVersand mit DHL Paket.") == [])
        #expect(found("Kundennummer: KD-340434188193 (DHL Paket)") == [])
        #expect(found("Invoice number: INV-2026-1120-0453, shipped with FedEx") == [])
    }

    /// Digits that start inside a token glued by a hyphen to letters, with no tracking label
    /// before them and no tracking link giving them, are some other reference.
    @Test func digitsGluedByAHyphenToLettersNeedATrackingLabelOrLink() {
        #expect(found("", subject: "【KM-20261120-0455】ヤマト運輸にて発送しました") == [])
        #expect(found("[KM-20261120-0457] CJ대한통운 발송 안내") == [])
        #expect(found("Your parcel KM-20261120-0453 left our warehouse with FedEx.") == [])
        #expect(found("Referenz KM-20261120-0457, Versand mit DHL Paket") == [])
    }

    @Test func pricesAndQuantitiesAreNotTrackingNumbers() {
        #expect(found("Total: $1,234,567.89 — shipped by FedEx Ground") == [])
        #expect(found("Gesamt 1.234.567,89 € — Versand mit DHL Paket") == [])
        #expect(found("합계 38,900원 (배송비 3,000원) 한진택배") == [])
    }

    @Test func numbersPassingMod7ByChanceNeedCarrierContext() {
        // 12-digit numbers whose last digit is the rest mod 7, as Yamato's, without context.
        #expect(found("Reference 537265167611 for your records.") == [])
        #expect(found("Ref. 722202972993") == [])
        // 10 digits passing DHL Express's mod 7 with no DHL anywhere.
        #expect(found("Your membership 3318810025 renews soon.") == [])
        // A tracking label alone is not enough for a bare number: which carrier?
        #expect(found("Tracking number: 537265167611") == [])
    }

    @Test func shippingFAQDescribingAFormatIsNotAShipment() {
        let faq = """
            How do I find my tracking number?
            UPS tracking numbers start with 1Z, for example 1Z999AA10123456784.
            USPS numbers are 22 digits, e.g. 9400 1112 0108 0805 4830 16.
            FedEx numbers have 12 digits, such as 986578788855.
            CJ대한통운 운송장번호는 12자리 숫자입니다 (예: 560123456789).
            ヤマト運輸の伝票番号は12桁です（例：5372-6516-7611）。
            """
        #expect(found(faq) == [])
    }

    @Test func placeholderNumbersAreIgnored() {
        #expect(found("UPS tracking number: 1Z0000000000000000") == [])
        #expect(found("FedEx tracking: 000000000000") == [])
        #expect(found("Amazon Logistics tracking ID TBA000000000000") == [])
        #expect(found("Tracking: 1234567890 (DHL Express)") == [])
    }

    @Test func wrongCheckDigitsAreRejectedEvenWithContext() {
        #expect(found("UPS tracking number: 1Z5R89390357567128") == [])
        #expect(found("FedEx tracking number: 996578788855") == [])
        #expect(found("Royal Mail tracking: RB123456786GB") == [])
        #expect(found("DPD Paketnummer: 008182709980000020033350276A") == [])
    }

    @Test func notAnOrderEmailsWithLongNumbersStayEmpty() {
        let bank = """
            Your account ending 4521 was charged $42.00.
            Transaction ID 734519826401 · Card 4111 1111 1111 1111
            IBAN DE89 3704 0044 0532 0130 00
            """
        #expect(found(bank) == [])
        let newsletter = "Free shipping with UPS on orders over $50! Use code 20261129FREE."
        #expect(found(newsletter) == [])
    }

    @Test func hostileInputDoesNotCrashOrHang() {
        let digits = String(repeating: "1234 ", count: 40_000)
        let start = Date()
        _ = found(digits)
        _ = found(String(repeating: "UPS Tracking number: ", count: 5_000) + "1Z5R89390357567127")
        _ = found(String(repeating: "\u{FFFD}\u{0}", count: 10_000))
        _ = found(String(repeating: "-", count: 100_000))
        #expect(Date().timeIntervalSince(start) < 10)
    }
}
