import Foundation
import MailDocument
import Testing

@testable import Extraction

@Suite struct CarrierSearchTests {
    private func found(
        _ text: String, links: [Link] = [], sender: String? = nil, subject: String? = nil
    ) -> [String] {
        CarrierTestSupport.found(text, links: links, sender: sender, subject: subject)
    }

    @Test func distinctiveFormatsNeedNoContext() {
        #expect(found("Your package 1Z5R89390357567127 is on its way.") == ["ups:1Z5R89390357567127"])
        #expect(found("Shipped: 9400 1112 0108 0805 4830 16") == ["usps:9400111201080805483016"])
        #expect(found("Item RB123456785GB was posted") == ["royal-mail:RB123456785GB"])
    }

    @Test func labelledNumbersInTenLanguages() {
        let cases: [(String, String)] = [
            ("FedEx tracking number: 986578788855", "fedex:986578788855"),
            ("Ihre DHL Sendungsnummer lautet 00340434072902227915", "dhl-paket:00340434072902227915"),
            ("Colissimo — numéro de suivi : 6A12345678901", "colissimo:6A12345678901"),
            ("Correos\nNúmero de seguimiento: PQ4F6P0703673180108001P", "correos:PQ4F6P0703673180108001P"),
            ("Spedito con BRT, numero di spedizione 084012345678901", "brt:084012345678901"),
            ("Código de rastreamento: LX123456785CN (China Post)", "china-post:LX123456785CN"),
            ("PostNL Track & Trace: 3SABCD1234567", "postnl:3SABCD1234567"),
            ("CJ대한통운 운송장번호: 560123456789", "cj-logistics:560123456789"),
            ("ヤマト運輸 お問い合わせ番号：5372-6516-7611", "yamato:537265167611"),
            ("顺丰速运 运单号：SF1402937586120", "sf-express:SF1402937586120"),
        ]
        for (text, expected) in cases {
            #expect(found(text) == [expected], "\(text)")
        }
    }

    @Test func labelOnThePreviousLineOrCell() {
        #expect(found("Carrier\tFedEx\nTracking number\t986578788855") == ["fedex:986578788855"])
        #expect(found("배송사: 한진택배\n송장번호\n512345678901") == ["hanjin:512345678901"])
    }

    @Test func spacedAndHyphenatedNumbersAreJoined() {
        #expect(found("FedEx Ground tracking: 0414 4176 0228 964") == ["fedex:041441760228964"])
        #expect(
            found("DPD parcel: 00 81827 0998 0000 0200 33 350 276 C") == ["dpd:008182709980000020033350276C"])
        #expect(found("佐川急便 お問い合せ送り状No. 5528-8200-1825") == ["sagawa:552882001825"])
        #expect(found("UPS 1Z 5R8 939 0357 5671 27 shipped") == ["ups:1Z5R89390357567127"])
    }

    /// Numbers printed in groups are still found under a tracking label or beside their
    /// carrier's name, next to an order number whose digits are not taken; and a number glued
    /// by a hyphen to letters is found when a tracking label or link gives it.
    @Test func groupedNumbersBesideALabelOrCarrierAreFound() {
        #expect(found("Tracking number: 1Z 999 AA1 01 2345 6784") == ["ups:1Z999AA10123456784"])
        #expect(found("ヤマト運輸でお届けします: 3940-2817-3615") == ["yamato:394028173615"])
        #expect(
            found("ご注文番号: KM-20261120-0455\nヤマト運輸 お問い合わせ番号: 3940-2817-3615")
                == ["yamato:394028173615"])
        #expect(
            found("Order number: KM-20261120-0453\nFedEx tracking number: 9865 7878 8855")
                == ["fedex:986578788855"])
        #expect(found("Sendungsnummer: KM-20261120-0457 (DHL Paket)") == ["dhl-paket:202611200457"])
    }

    /// A number glued by a hyphen to letters that the carrier's tracking link gives too keeps
    /// its place in the text.
    @Test func aLinkGivesANumberGluedToLetters() throws {
        let link = Link(
            href: "x", target: "https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number01=202611200455",
            text: "追跡", position: 0)
        let text = "お荷物 YM-20261120-0455 ヤマト運輸"
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: text, links: [link]))
        let candidate = try #require(candidates.first)
        #expect(candidates.map(\.trackingNumber) == ["202611200455"])
        #expect(candidate.trackingURL == link.target)
        #expect(candidate.utf8Offset == Array(text.utf8).firstIndex(of: UInt8(ascii: "2")))
    }

    @Test func fullWidthDigitsAreRead() throws {
        let text = "ヤマト運輸　お問い合わせ番号：５３７２－６５１６－７６１１"
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(in: TrackingSearchInput(text: text))
        let candidate = try #require(candidates.first)
        #expect(candidates.map(\.trackingNumber) == ["537265167611"])
        #expect(candidate.carrierID == "yamato")
        let offset = try #require(candidate.utf8Offset)
        #expect(String(decoding: Array(text.utf8)[offset..<(offset + 3)], as: UTF8.self) == "５")
    }

    @Test func senderDomainGivesCarrierContext() {
        #expect(
            found("Your shipment 3318810025 is in transit.", sender: "dhl.com") == ["dhl-express:3318810025"])
        #expect(found("Your shipment 3318810025 is in transit.") == [])
        #expect(
            found("고객님의 상품이 발송되었습니다. 6012345678901", sender: "epost.go.kr") == ["korea-post:6012345678901"])
    }

    @Test func carrierNamedNearbyDecidesBetweenLookalikes() {
        // 22 digits starting 92: USPS IMpb unless FedEx SmartPost is named.
        #expect(found("Tracking: 9261292700768711948021") == ["usps:9261292700768711948021"])
        #expect(found("FedEx SmartPost tracking: 9261292700768711948021") == ["fedex:9261292700768711948021"])
        // 12 digits: the named carrier wins.
        #expect(found("ヤマト運輸 伝票番号 537265167611") == ["yamato:537265167611"])
        #expect(found("롯데택배 운송장번호 233012345678") == ["lotte:233012345678"])
    }

    @Test func carrierLinkGivesNumberAndURL() throws {
        let link = Link(
            href: "https://click.example.com/r?u=abc",
            target: "https://www.fedex.com/fedextrack/?trknbr=986578788855", text: "Track your package",
            position: 10)
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: "Your order has shipped. Track your package", links: [link]))
        let candidate = try #require(candidates.first)
        #expect(candidates.count == 1)
        #expect(candidate.carrierID == "fedex")
        #expect(candidate.source == .link)
        #expect(candidate.checkDigitValid == true)
        #expect(candidate.trackingURL == link.target)
        #expect(candidate.score > 0.9)
    }

    @Test func carrierLinkWithWrongCheckDigitIsDropped() {
        let link = Link(
            href: "x", target: "https://www.ups.com/track?tracknum=1Z5R89390357567128", text: "Track",
            position: 0)
        #expect(found("", links: [link]) == [])
    }

    @Test func linkAndTextOfOneNumberMerge() throws {
        let link = Link(
            href: "x", target: "https://www.ups.com/track?loc=en_US&tracknum=1Z5R89390357567127",
            text: "Track",
            position: 0)
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: "UPS tracking number: 1Z5R89390357567127", links: [link]))
        let candidate = try #require(candidates.first)
        #expect(candidates.count == 1)
        #expect(candidate.trackingURL == link.target)
        #expect(candidate.utf8Offset == 21)
        #expect(candidate.context.contains("tracking number"))
    }

    @Test func genericTrackingLinkCarriesTheNumber() {
        let link = Link(
            href: "x",
            target: "https://shop.narvar.com/tracking/acme?carrier=ups&tracking_numbers=1Z879E930346834440",
            text: "Track order", position: 0)
        #expect(found("Your order is on its way", links: [link]) == ["ups:1Z879E930346834440"])
    }

    @Test func postalOperatorsFromS10CountryCodes() throws {
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: "Sendungsnummer: RR962459578AT"))
        let candidate = try #require(candidates.first)
        #expect(candidate.carrierID == "upu-at")
        #expect(candidate.carrierName == "Österreichische Post")
        #expect(
            CarrierTestSupport.catalog.trackingURL(carrierID: "upu-at", trackingNumber: "RR962459578AT")
                == "https://www.post.at/s/sendungssuche?snr=RR962459578AT")
        #expect(found("Registered RB123456785XX") == [])
    }

    /// An S10 number with a domestic service indicator (Correios' "OA…BR", "NX…BR") is read
    /// with a tracking label nearby, for its country's operator; without one it is not: a
    /// 13-character code with a check digit is not rare enough alone.
    @Test func domesticS10NumbersNeedALabel() throws {
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: "Código de rastreamento: OA472918368BR"))
        let candidate = try #require(candidates.first)
        #expect(candidate.trackingNumber == "OA472918368BR")
        #expect(candidate.carrierName == "Correios")
        #expect(found("Referência interna OA472918368BR do lote") == [])
        // A wrong check digit is not read, even with the label.
        #expect(found("Código de rastreamento: OA472918369BR") == [])
    }

    @Test func uspsRoutingPrefixIsDroppedFromTheReportedNumber() {
        #expect(found("Impb: 420974779400111899223867412351") == ["usps:9400111899223867412351"])
        let link = Link(
            href: "x", target: "https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223867412351",
            text: "9400111899223867412351", position: 0)
        #expect(
            found(
                "Tracking number 9400111899223867412351\nImpb: 420974779400111899223867412351", links: [link])
                == ["usps:9400111899223867412351"])
    }

    @Test func trackingLinkWithNumberInTheFragment() {
        let link = Link(
            href: "x",
            target:
                "https://www.myhermes.de/empfangen/sendungsverfolgung/sendungsinformation#H1002820146319401",
            text: "H1002820146319401", position: 0)
        #expect(found("Sendungsnummer: H1002820146319401", links: [link]) == ["hermes:H1002820146319401"])
    }

    @Test func numberOnASisterCarriersPageKeepsItsOwnCarrier() {
        let link = Link(
            href: "x", target: "https://www.laposte.fr/outils/suivre-vos-envois?code=6A22481039575",
            text: "6A22481039575", position: 0)
        #expect(found("Votre colis est en route.", links: [link]) == ["colissimo:6A22481039575"])
    }

    @Test func ambiguousCarrierNameIsSettledByTheNumber() {
        let catalog = CarrierTestSupport.catalog
        #expect(catalog.carrier(named: "DHL")?.id == "dhl-express")
        #expect(catalog.carrier(named: "DHL", trackingNumber: "00340434331067825498")?.id == "dhl-paket")
        #expect(catalog.carrier(named: "DHL", trackingNumber: "JVGL05839271046613")?.id == "dhl-ecommerce")
        #expect(catalog.carrier(named: "ZTO Express")?.name == "ZTO")
    }

    @Test func subjectIsSearchedToo() throws {
        let candidates = CarrierTestSupport.catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: "Thanks for your order", subject: "Shipped: UPS 1Z8V92A70367203024")
        )
        let candidate = try #require(candidates.first)
        #expect(candidate.source == .subject)
        #expect(candidate.utf8Offset == nil)
    }

    @Test func severalShipmentsInOneEmail() {
        let text = """
            Package 1 of 2 — UPS 1Z5R89390357567127
            Package 2 of 2 — UPS 1Z879E930346834440
            """
        #expect(found(text) == ["ups:1Z5R89390357567127", "ups:1Z879E930346834440"])
    }

    @Test func lookupsByDomainNameAndID() {
        let catalog = CarrierTestSupport.catalog
        #expect(catalog.carrier(forSenderDomain: "mail.ups.com")?.id == "ups")
        #expect(catalog.carrier(forSenderDomain: "notgroups.com") == nil)
        #expect(catalog.carrier(named: "  fedex ")?.id == "fedex")
        #expect(catalog.carrier(named: "クロネコヤマト")?.id == "yamato")
        #expect(catalog.carrier(named: "CJ Logistics")?.name == "CJ대한통운")
        #expect(catalog.carrier(named: "Swiss Post")?.id == "upu-ch")
        #expect(catalog.carrier(id: "upu-se")?.name == "PostNord Sweden")
        #expect(
            catalog.trackingURL(carrierID: "ups", trackingNumber: "1Z5R89390357567127")
                == "https://www.ups.com/track?tracknum=1Z5R89390357567127")
        #expect(catalog.trackingURL(carrierID: "nope", trackingNumber: "1") == nil)
    }

    @Test func everyExampleIsRecognizedAsItsCarrier() {
        let catalog = CarrierTestSupport.catalog
        for carrier in catalog.carriers {
            for format in carrier.formats {
                for example in format.examples {
                    let recognized = catalog.recognize(example)
                    #expect(
                        recognized.contains { $0.formatID == format.id && $0.checkDigitValid != false },
                        "\(carrier.id) \(example)")
                }
            }
        }
    }
}
