import Foundation
import MailDocument
import Testing

@testable import Extraction

@Suite struct MerchantTests {
    func merchant(
        from address: String = "orders@shop.example", name: String? = nil,
        html: [String] = ["Order #A-10023"],
        images: [ImageReference] = [], structuredData: [SchemaObject] = []
    ) -> MerchantInfo? {
        Fixture.extract(
            Fixture.document(
                subject: "Thank you for your order", from: address, name: name, html: html, images: images,
                structuredData: structuredData)
        ).merchant
    }

    @Test func markupNameComesFirst() {
        let order = SchemaObject(
            type: "Order",
            properties: [
                "merchant": .object(["@type": .string("Organization"), "name": .string("Example Outfitters")])
            ],
            origin: "jsonld")
        #expect(merchant(name: "Someone Else", structuredData: [order])?.name == "Example Outfitters")
    }

    /// "Thanks for shopping with us" names no one: the merchant comes from the sender's
    /// domain, not "us".
    @Test(arguments: [
        "Thanks for shopping with us.", "Thank you for shopping at our store!",
        "Thanks for shopping with you",
    ])
    func aBrandPhraseFollowedByAPronounNamesNoOne(_ line: String) {
        let found = merchant(from: "orders@northwind-outfitters.example", html: ["Order #A-10023", line])
        #expect(found?.name != "us" && found?.name != "our store" && found?.name != "you", "\(line)")
        #expect(found?.domain == "northwind-outfitters.example", "\(line)")
        #expect(
            merchant(html: ["Order #A-10023", "Thanks for shopping with Lumen Shop."])?.name == "Lumen Shop")
        #expect(ExtractionContext.namesNoOne("uns"))
        #expect(ExtractionContext.namesNoOne("notre boutique"))
        #expect(!ExtractionContext.namesNoOne("Our Place Studio and Gallery Shop"))
        #expect(!ExtractionContext.namesNoOne("Usborne"))
    }

    /// A sender-noise word glued to the name in a script without spaces is part of the name;
    /// one standing apart is still cut, in every language.
    @Test(arguments: [
        // Japanese: "ショップ" (shop), "カスタマーセンター".
        ("テストショップ", "ja", "テストショップ"),
        ("テスト ショップ", "ja", "テスト"),
        ("テストショップ カスタマーセンター", "ja", "テストショップ"),
        ("テスト/ショップ", "ja", "テスト"),
        // Korean: "팀" (team), "알림" (notice), "고객센터" (customer centre).
        ("드림팀", "ko", "드림팀"),
        ("한결공방 고객센터", "ko", "한결공방"),
        ("달빛상점 알림", "ko", "달빛상점"),
        ("알림상점", "ko", "알림상점"),
        // Chinese: "订单" (order), "客服" (customer service).
        ("订单宝", "zh", "订单宝"),
        ("青竹茶舍 客服", "zh", "青竹茶舍"),
        // Latin names: as before.
        ("Northwind Team", "en", "Northwind"),
        ("Shop Team", "en", "Shop"),
    ])
    func aNoiseWordGluedToTheNameIsPartOfIt(_ name: String, _ language: String, _ expected: String) {
        let lines: [String: [String]] = [
            "ja": ["ご注文ありがとうございます。", "ご注文番号: A-10023"],
            "ko": ["주문해 주셔서 감사합니다.", "주문번호: A-10023"],
            "zh": ["感谢您的订单。", "订单号: A-10023"],
            "en": ["Thank you for your order!", "Order #A-10023"],
        ]
        let found = merchant(from: "shop@hikari.example", name: name, html: lines[language] ?? [])
        #expect(found?.name == expected, "\(name)")
    }

    /// The noise words of a display name's own script are cut whatever language the email is
    /// detected in: an English email from "쿠팡 고객센터" is from 쿠팡. A noise word glued to the
    /// name in a script without spaces stays, and Latin names keep what they kept before.
    @Test(arguments: [
        // Korean: "고객센터" (customer centre), "알림" (notice), "팀" (team).
        ("쿠팡 고객센터", "en", "쿠팡"),
        ("한결공방 알림", "en", "한결공방"),
        ("달빛상점 팀", "en", "달빛상점"),
        ("드림팀", "en", "드림팀"),
        ("알림상점", "en", "알림상점"),
        // Japanese: "カスタマーセンター", "カスタマーサポート", "サポートセンター", "事務局", "ショップ" (shop).
        ("ヒカリ商店 カスタマーセンター", "en", "ヒカリ商店"),
        ("山猫珈琲 事務局", "en", "山猫珈琲"),
        ("ヒカリ商店 カスタマーサポート", "en", "ヒカリ商店"),
        ("ヒカリ商店 サポートセンター", "ja", "ヒカリ商店"),
        ("テストショップ", "en", "テストショップ"),
        // Chinese: "客服" (customer service), "订单" (order).
        ("青竹茶舍 客服", "en", "青竹茶舍"),
        ("订单宝", "en", "订单宝"),
        // Mixed: the Latin noise word goes as before, the CJK one too.
        ("Coupang 고객센터", "en", "Coupang"),
        ("쿠팡 Team", "en", "쿠팡"),
        // Latin names in English and German emails: as before.
        ("Northwind Team", "en", "Northwind"),
        ("Nordlicht Versand", "en", "Nordlicht Versand"),
        ("Nordlicht Versand", "de", "Nordlicht"),
        ("Example Outfitters", "en", "Example Outfitters"),
        ("Kaffeerösterei Bohnenglück", "de", "Kaffeerösterei Bohnenglück"),
    ])
    func theNamesOwnScriptDecidesItsNoiseWords(_ name: String, _ language: String, _ expected: String) {
        let lines: [String: [String]] = [
            "en": [
                "Thank you for your order!", "Your order has been received and is being prepared.",
                "Order #A-10023",
            ],
            "de": [
                "Vielen Dank für Ihre Bestellung!", "Ihre Bestellung wird bearbeitet.",
                "Bestellnummer: A-10023",
            ],
        ]
        let found = merchant(from: "shop@hikari.example", name: name, html: lines[language] ?? [])
        #expect(found?.name == expected, "\(name)")
    }

    /// A display name that is only a noise word names no one: the name comes from elsewhere.
    @Test func aDisplayNameOfNoiseOnlyIsNoName() {
        let found = merchant(
            from: "shop@hikari.example", name: "ショップ", html: ["ご注文ありがとうございます。", "ご注文番号: A-10023"])
        #expect(found?.name != "ショップ")
    }

    @Test func rulesFileNamesKnownDomains() {
        #expect(
            merchant(from: "auto-confirm@amazon.com", name: "Amazon.com")
                == MerchantInfo(name: "Amazon", domain: "amazon.com"))
        #expect(merchant(from: "ship-confirm@mail.amazon.co.uk")?.name == "Amazon")
    }

    /// A sender domain with an ESC (or another control character) in it is not the merchant's
    /// domain, nor its name.
    @Test(arguments: ["\u{1B}", "\u{1B}[2J", "\u{7F}", "\u{9B}", "\u{0}"])
    func senderDomainWithAControlCharacterIsNotTheMerchantsDomain(_ control: String) {
        let named = merchant(from: "orders@shop\(control).example", name: "Example Outfitters")
        #expect(named?.name == "Example Outfitters")
        #expect(named?.domain == nil)
        let unnamed = merchant(from: "orders@shop\(control).example")
        #expect(unnamed?.domain == nil)
        #expect(unnamed?.name?.unicodeScalars.contains { $0.properties.generalCategory == .control } != true)
        // The same sender without the control character.
        #expect(merchant(from: "orders@shop.example")?.domain == "shop.example")
    }

    /// Bidirectional overrides and isolates would reorder what a reader of the order sees, and
    /// control characters would act on a terminal: neither reaches the merchant's name.
    @Test func bidirectionalControlsAndControlCharactersLeaveTheName() {
        #expect(merchant(name: "Gum\u{202E}evil\u{202C} Shop")?.name == "Gumevil Shop")
        #expect(merchant(name: "Nut\u{202E}SHOP\u{200F}\u{1B}[2J")?.name == "NutSHOP [2J")
        #expect(merchant(name: "\u{2067}Tiny\u{9B}\u{9B}Tea\u{2069}")?.name == "Tiny Tea")
        #expect(ExtractionContext.displaySafeName("Plain Name") == "Plain Name")
        #expect(ExtractionContext.displaySafeName(" \u{1B} ") == nil)
        #expect(ExtractionContext.displaySafeName("\u{202E}") == nil)
        #expect(ExtractionContext.displaySafeName("쿠팡\u{200E}") == "쿠팡")
        // Joiners belong to the text (emoji sequences, scripts that need them) and stay.
        #expect(ExtractionContext.displaySafeName("Café\u{200D}☕") == "Café\u{200D}☕")
    }

    @Test func displayNameIsCleaned() {
        #expect(merchant(name: "Example Outfitters Orders")?.name == "Example Outfitters")
        #expect(merchant(name: "no-reply | Acme Co")?.name == "Acme Co")
        #expect(merchant(name: "The iStore Team")?.name == "iStore")
        #expect(merchant(name: "Customer Service - LEGO Shop")?.name == "LEGO Shop")
        #expect(merchant(name: "쿠팡 고객센터", html: ["주문번호: 2026112012345"])?.name == "쿠팡")
    }

    @Test func platformSenderUsesTheShopName() {
        let result = merchant(from: "store+123@shopifyemail.com", name: "Tiny Tea Shop")
        #expect(result == MerchantInfo(name: "Tiny Tea Shop", domain: nil))
    }

    @Test func brandPhrasesInTheBody() {
        #expect(
            merchant(
                name: "no-reply", html: ["Order #A-10023", "Thank you for shopping at Blue Fern Books!"])?
                .name
                == "Blue Fern Books")
        #expect(
            merchant(
                name: "orders", html: ["Order #A-10023", "© 2026 Kettle & Crumb Inc. All rights reserved."])?
                .name == "Kettle & Crumb")
        #expect(
            merchant(
                name: nil, html: ["Order #A-10023"],
                images: [ImageReference(source: "cid:logo", alt: "Northwind logo", position: 0)])?.name
                == "Northwind")
        // A logo known by its file's name: its alt text is the brand.
        #expect(
            merchant(
                name: nil, html: ["Order #A-10023"],
                images: [
                    ImageReference(
                        source: "https://cdn.bluekettle-shop.example/img/Logo-header.png?v=3",
                        alt: "Blue Kettle Tea Co.", position: 0)
                ])?.name == "Blue Kettle Tea Co.")
        // Any other picture's alt text is a product's, not the shop's.
        #expect(
            merchant(
                name: nil, html: ["Order #A-10023"],
                images: [
                    ImageReference(
                        source: "https://cdn.shop.example/products/teapot.png?logo=1",
                        alt: "Cast-iron teapot",
                        position: 0)
                ])?.name != "Cast-iron teapot")
        #expect(ExtractionContext.isLogoFile("https://x.example/a/b/site-logo.svg#top"))
        #expect(!ExtractionContext.isLogoFile("https://logo.example/a/teapot.png"))
    }

    @Test func registrableDomainIsTheLastResort() {
        #expect(
            merchant(from: "noreply@mail.northwind.example", name: "noreply")
                == MerchantInfo(name: "northwind.example", domain: "northwind.example"))
    }

    @Test func forwardedEmailUsesTheOriginalSender() {
        let original = Fixture.document(
            subject: "Your order confirmation", from: "orders@example.com", name: "Example Outfitters",
            html: ["Thank you for your order", "Order #A-10023", "Arriving tomorrow"],
            date: Date(timeIntervalSince1970: 1_795_000_000))
        var outer = Fixture.document(
            subject: "Fwd: Your order confirmation", from: "me@mail.example", name: "Me")
        outer.forwardedOriginal = original
        let result = Fixture.extract(outer)
        #expect(result.merchant == MerchantInfo(name: "Example Outfitters", domain: "example.com"))
        #expect(result.orderNumber == "A-10023")
        // Relative words count from the original's Date (2026-11-18), not the forward's.
        #expect(
            result.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-11-19", until: "2026-11-19"))
        #expect(result.messageID == "<test@example>")
    }
}

@Suite struct StructuredSourceTests {
    @Test func attachedWalletOrderIsTrustedMost() {
        let order: JSONValue = .object([
            "orderNumber": .string("W-778"),
            "createdAt": .string("2026-11-19T10:00:00Z"),
            "merchant": .object([
                "displayName": .string("Wallet Shop"), "url": .string("https://wallet.example"),
            ]),
            "payment": .object(["total": .object(["amount": .string("42.50"), "currency": .string("USD")])]),
            "lineItems": .array([.object(["title": .string("Mug"), "quantity": .number(2)])]),
            "fulfillments": .array([
                .object([
                    "fulfillmentType": .string("shipping"), "carrier": .string("UPS"),
                    "trackingNumber": .string("1Z999AA10123456784"), "status": .string("onTheWay"),
                ])
            ]),
        ])
        let result = Fixture.extract(
            Fixture.document(
                subject: "Your receipt", html: ["Order number: 999999"],
                attachedOrders: [AttachedOrder(filename: "order.order", order: order)]))
        #expect(result.orderNumber == "W-778")
        #expect(result.orderDate == "2026-11-19")
        #expect(result.merchant?.name == "Wallet Shop")
        #expect(result.total == MonetaryAmount(amount: "42.50", currency: "USD"))
        #expect(result.lineItems == [LineItem(title: "Mug", quantity: 2)])
        #expect(result.shipments?.first?.status == .onTheWay)
        #expect(result.evidence?.first { $0.field == "orderNumber" }?.source == "order")
    }

    @Test func schemaOrgOrderAndParcelDelivery() {
        let order = SchemaObject(
            type: "Order",
            properties: [
                "orderNumber": .string("SO-5512"), "orderDate": .string("2026-11-18"),
                "merchant": .object(["name": .string("Markup Shop")]),
                "orderStatus": .string("http://schema.org/OrderInTransit"),
                "acceptedOffer": .array([
                    .object([
                        "itemOffered": .object(["name": .string("Lamp")]), "price": .string("30.00"),
                        "priceCurrency": .string("EUR"),
                    ])
                ]),
            ], origin: "jsonld")
        let delivery = SchemaObject(
            type: "ParcelDelivery",
            properties: [
                "trackingNumber": .string("1Z999AA10123456784"), "carrier": .object(["name": .string("UPS")]),
                "expectedArrivalUntil": .string("2026-11-25T20:00:00Z"),
            ], origin: "jsonld")
        let result = Fixture.extract(
            Fixture.document(subject: "Shipped", html: ["Hello"], structuredData: [order, delivery]))
        #expect(result.kind == .shippingConfirmation)
        #expect(result.orderNumber == "SO-5512")
        #expect(result.merchant?.name == "Markup Shop")
        #expect(
            result.lineItems == [
                LineItem(title: "Lamp", price: MonetaryAmount(amount: "30.00", currency: "EUR"))
            ])
        #expect(result.shipments?.first?.carrier == "UPS")
        #expect(
            result.shipments?.first?.estimatedDelivery == DateWindow(from: "2026-11-25", until: "2026-11-25"))
        #expect(result.shipments?.first?.status == .onTheWay)
    }
}
