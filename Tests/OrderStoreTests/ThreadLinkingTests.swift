import Extraction
import Foundation
import Testing

@testable import OrderStore

/// An email of the merchant's that names no order number joins the order of the thread it
/// answers (its In-Reply-To and References), whichever of the two is applied first; never an
/// order of another merchant, and never when its thread holds several orders.
@Suite struct ThreadLinkingTests {
    /// The shop's shipping email, the customer's question (no order), and the support
    /// answer that gives a replacement parcel without the order number.
    static func thread() -> [IngestedMessage] {
        var question = message("question", .notAnOrder, at: november(23, 8), merchant: nil)
        question.references = ["<shipped@test>"]
        var answer = message(
            "answer", .shippingConfirmation, at: november(23, 11), shipments: [ups("1Z999AA10123456793")])
        answer.references = IngestedMessage.threadReferences(
            inReplyTo: ["<question@test>"], references: ["<shipped@test>", "<question@test>"])
        return [
            message(
                "shipped", .shippingConfirmation, at: november(16, 14), orderNumber: "NW-448230",
                shipments: [ups()]),
            question, answer,
        ]
    }

    static func summary(_ store: SQLiteOrderStore) throws -> [String] {
        try store.orders().map { order in
            "\(order.orderNumber ?? "-") "
                + order.fulfillments.compactMap(\.trackingNumber).sorted().joined(separator: ",")
        }.sorted()
    }

    @Test func anAnswerWithoutOrderNumberJoinsTheOrderOfItsThread() throws {
        let db = try TemporaryStore()
        try db.apply(Self.thread())
        #expect(try Self.summary(db.store) == ["NW-448230 1Z999AA10123456784,1Z999AA10123456793"])
    }

    @Test func theSameWhenTheAnswerIsReadFirst() throws {
        let db = try TemporaryStore()
        try db.apply(Self.thread().reversed())
        #expect(try Self.summary(db.store) == ["NW-448230 1Z999AA10123456784,1Z999AA10123456793"])
        // The shipment-only record the answer made first is gone, merged into the order.
        #expect(try db.store.orders().count == 1)
    }

    @Test func anotherMerchantsAnswerDoesNotJoin() throws {
        var thread = Self.thread()
        thread[2].extraction.merchant = otherShop
        for messages in [thread, thread.reversed()] {
            let db = try TemporaryStore()
            try db.apply(messages)
            #expect(try Self.summary(db.store) == ["- 1Z999AA10123456793", "NW-448230 1Z999AA10123456784"])
        }
    }

    @Test func aThreadOfTwoOrdersLinksNeither() throws {
        var thread = Self.thread()
        var second = message(
            "second", .orderConfirmation, at: november(17, 9), orderNumber: "NW-448231")
        second.messageID = "<second@test>"
        thread.insert(second, at: 1)
        thread[3].references += ["<second@test>"]
        let db = try TemporaryStore()
        try db.apply(thread)
        #expect(
            try Self.summary(db.store) == [
                "- 1Z999AA10123456793", "NW-448230 1Z999AA10123456784", "NW-448231 ",
            ])
    }

    @Test func referencesAreKeptNearestFirstOnceEach() {
        #expect(
            IngestedMessage.threadReferences(inReplyTo: ["<c@x>"], references: ["<a@x>", "<b@x>", "<c@x>"])
                == ["<c@x>", "<b@x>", "<a@x>"])
        let long = (0..<80).map { "<\($0)@x>" }
        #expect(IngestedMessage.threadReferences(inReplyTo: [], references: long).count == 50)
    }
}
