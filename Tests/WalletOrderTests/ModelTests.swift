import Foundation
import Testing

@testable import WalletOrder

@Suite struct ModelTests {
    @Test func fullOrderSurvivesEncodeThenDecode() throws {
        let order = fullOrder()
        let decoded = try Order.decode(try order.jsonData())
        #expect(decoded == order)
    }

    @Test func unknownKeysAreKeptAtEveryLevel() throws {
        let json = """
            {"schemaVersion": 1, "orderTypeIdentifier": "order.com.example", "orderIdentifier": "x",
             "orderType": "ecommerce", "status": "open", "createdAt": "2026-11-20T09:15:00Z",
             "updatedAt": "2026-11-20T09:15:00+01:00", "orderManagementURL": "https://example.com/",
             "futureKey": {"nested": [1, 2.5, "three", null, true]},
             "merchant": {"displayName": "Ex", "merchantIdentifier": "merchant.com.example",
                          "url": "https://example.com/", "merchantExtra": 42},
             "fulfillments": [{"fulfillmentType": "shipping", "fulfillmentIdentifier": "s1",
                               "status": "shipped", "vendorNote": "x"}],
             "payment": {"status": "paid", "total": {"amount": "28.80", "currency": "USD"}}}
            """
        let order = try Order.decode(Data(json.utf8))
        let nested: [JSONValue] = [
            .number(1), .number(Decimal(string: "2.5") ?? 0), .string("three"), .null, .bool(true),
        ]
        #expect(order.unknownKeys["futureKey"] == .object(["nested": .array(nested)]))
        #expect(order.merchant.unknownKeys["merchantExtra"] == .number(42))
        #expect(order.fulfillments?.first?.shipping?.unknownKeys["vendorNote"] == .string("x"))
        #expect(order.updatedAt == day("2026-11-20T08:15:00Z"))

        let again = try Order.decode(try order.jsonData())
        #expect(again == order)
        let text = String(decoding: try order.jsonData(), as: UTF8.self)
        #expect(text.contains("\"futureKey\""))
        #expect(text.contains("\"merchantExtra\""))
        #expect(text.contains("\"amount\" : \"28.80\""))
    }

    @Test func amountsStayExactDecimals() throws {
        let amount = try #require(CurrencyAmount(decimal: "123456789012345.67", currency: "usd"))
        #expect(amount.currency == "USD")
        let data = try JSONEncoder().encode(amount)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("123456789012345.67"))
        let back = try JSONDecoder().decode(CurrencyAmount.self, from: data)
        #expect(back.amount == Decimal(string: "123456789012345.67"))
        #expect(CurrencyAmount(decimal: "0.10", currency: "EUR")?.amount == Decimal(string: "0.1"))
        #expect(CurrencyAmount(decimal: "1,234.00", currency: "EUR") == nil)
        #expect(CurrencyAmount(decimal: "1e5", currency: "EUR") == nil)
        #expect(CurrencyAmount(decimal: "", currency: "EUR") == nil)
    }

    @Test func unknownFulfillmentTypeFailsToDecode() {
        let json = #"{"fulfillmentType": "teleport", "fulfillmentIdentifier": "x", "status": "open"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Fulfillment.self, from: Data(json.utf8))
        }
    }

    @Test func readsAndWritesRFC3339() {
        #expect(WalletTime.parse("2026-11-24T09:30:00Z") == Date(timeIntervalSince1970: 1_795_512_600))
        #expect(WalletTime.parse("2026-11-24t09:30:00.5-02:30")?.timeIntervalSince1970 == 1_795_521_600.5)
        #expect(WalletTime.parse("2024-02-29T00:00:00Z") != nil)
        let bad = [
            "2026-11-24", "2026-11-24 09:30:00Z", "2026-02-30T00:00:00Z", "2026-11-24T09:30:00",
            "2026-11-24T25:00:00Z", "2026-11-24T09:30:00+0100", "2023-02-29T00:00:00Z", "",
        ]
        for text in bad { #expect(WalletTime.parse(text) == nil, "\(text)") }
        #expect(WalletTime.format(Date(timeIntervalSince1970: 1_795_512_600)) == "2026-11-24T09:30:00Z")
        #expect(
            WalletTime.format(Date(timeIntervalSince1970: 1_795_512_600.25)) == "2026-11-24T09:30:00.250Z")
        #expect(WalletTime.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func recognisesISO8601Durations() {
        for good in ["P3D", "PT2H30M", "P0Y0M0DT0H30M0S", "P1W", "PT0.5S", "P1Y2M"] {
            #expect(WalletTime.isDuration(good), "\(good)")
        }
        for bad in ["P", "PT", "3D", "P3", "PD", "P3DT", "PT3D", "P1M1Y", "P1.5DT2H", "P-1D", "p3d"] {
            #expect(!WalletTime.isDuration(bad), "\(bad)")
        }
    }
}
