import Foundation
import MailDocument
import Testing

@testable import Extraction

/// Behaviours found wrong while reviewing the corpus against what each email says.
@Suite struct ReviewedCorpusTests {
    @Test func belgianPostEmailIsACarrierUpdateNamingTheShipper() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Je pakje is geleverd", from: "noreply@bpost.be", name: "bpost",
                html: [
                    "Je pakje is geleverd", "Je pakje van Chocolaterie Pralinée werd op 25/11/2026 geleverd.",
                    "Zendingsnummer\tCD502837166BE", "Afzender\tChocolaterie Pralinée",
                ]))
        #expect(result.kind == .carrierUpdate)
        #expect(result.merchant == MerchantInfo(name: "Chocolaterie Pralinée"))
        #expect(result.shipments?.first?.carrier == "bpost")
        #expect(result.shipments?.first?.trackingNumber == "CD502837166BE")
        #expect(result.shipments?.first?.status == .delivered)
    }

    @Test func portuguesePostParcelNumberIsNotAnOrderNumber() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "A sua encomenda RB772305195PT está em distribuição", from: "notificacoes@ctt.pt",
                name: "CTT",
                html: [
                    "A sua encomenda chega hoje",
                    "A encomenda enviada por Loja Azulejo está em distribuição.",
                    "Número do objeto\tRB772305195PT", "Remetente\tLoja Azulejo",
                ]))
        #expect(result.kind == .carrierUpdate)
        #expect(result.orderNumber == nil)
        #expect(result.merchant == MerchantInfo(name: "Loja Azulejo"))
        #expect(result.shipments?.first?.carrier == "CTT")
        #expect(result.shipments?.first?.status == .outForDelivery)
    }

    @Test func thanksForYourPurchaseConfirmsOrdersLabelledByTheWordOrder() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your purchase", from: "order-update@marketplace.example", name: "Marketplace",
                html: [
                    "Thanks for your purchase",
                    "Your items come from 2 sellers, so your purchase was split into 2 orders.",
                    "Order MP-2026-560310\tTrail Headlamp - sold by Summit Gearworks - $29.00",
                    "Order MP-2026-560311\tEnamel Camp Mug - sold by Driftwood Supply Co. - $14.00",
                ]))
        #expect(result.kind == .orderConfirmation)
        #expect(result.orderNumber == "MP-2026-560310")
        #expect(result.additionalOrders?.map(\.orderNumber) == ["MP-2026-560311"])
    }

    @Test func markupCarrierNameSeveralCarriersShareIsSettledByTheNumber() {
        let parcel = SchemaObject(
            type: "ParcelDelivery",
            properties: [
                "carrier": .object(["@type": .string("Organization"), "name": .string("DHL")]),
                "trackingNumber": .string("00340434331067825498"),
            ],
            origin: "jsonld")
        let result = Fixture.extract(
            Fixture.document(
                subject: "Ihre Bestellung 5012911 wurde zugestellt", from: "service@shop.example",
                name: "Shop",
                html: ["Ihr Paket wurde zugestellt", "Sendungsnummer: 00340434331067825498"],
                structuredData: [parcel]))
        #expect(result.shipments?.first?.carrier == "DHL Paket")
    }

    @Test func theDateHeaderIsNotAnOrderDate() {
        let result = Fixture.extract(
            Fixture.document(
                subject: "Order #FC-20931 confirmed", name: "Fernhill Ceramics",
                html: ["Thank you for your purchase!", "ORDER #FC-20931", "Total $164.64 USD"]))
        #expect(result.kind == .orderConfirmation)
        #expect(result.orderNumber == "FC-20931")
        #expect(result.orderDate == nil)
    }

    @Test func replyToNamesTheShopBehindASharedSendingDomain() {
        var document = Fixture.document(
            subject: "Order #1001 confirmed", from: "store+52819377@t.shopfront-mail.example",
            name: "Fernhill Ceramics",
            html: ["Thank you for your purchase!", "Order #1001", "Total: $42.00 USD"])
        document.replyTo = Fixture.sender("hello@fernhillceramics.example", name: "Fernhill Ceramics")
        #expect(
            Fixture.extract(document).merchant
                == MerchantInfo(name: "Fernhill Ceramics", domain: "fernhillceramics.example"))
        // A Reply-To that does not carry the shop's name says nothing about the shop.
        document.replyTo = Fixture.sender("help@support-desk.example")
        #expect(Fixture.extract(document).merchant?.domain == "shopfront-mail.example")
    }

    @Test func replyToOfAPlatformSenderGivesTheShopDomain() {
        var document = Fixture.document(
            subject: "Order #1001 confirmed", from: "store+123@shopifyemail.com", name: "Tiny Tea Shop",
            html: ["Thank you for your purchase!", "Order #1001"])
        document.replyTo = Fixture.sender("hello@tinytea.example", name: "Tiny Tea Shop")
        #expect(
            Fixture.extract(document).merchant
                == MerchantInfo(name: "Tiny Tea Shop", domain: "tinytea.example"))
    }
}
