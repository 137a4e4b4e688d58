import Extraction
import Foundation
import Testing

@testable import OrderStore

@Suite struct LinkingTests {
    @Test func confirmationShippedOutForDeliveryDeliveredIsOneCompletedOrder() throws {
        let db = try TemporaryStore()
        let items = [
            LineItem(
                title: "Trail shoes", quantity: 1, price: MonetaryAmount(amount: "89.00", currency: "USD"))
        ]
        try db.apply(
            message(
                "confirm", .orderConfirmation, at: november(20, 9), orderNumber: "A-10023", lineItems: items,
                total: MonetaryAmount(amount: "89.00", currency: "USD")),
            message(
                "shipped", .shippingConfirmation, at: november(21, 9), orderNumber: "A-10023",
                shipments: [ups()])
        )
        var orders = try db.store.orders()
        #expect(orders.count == 1)
        #expect(orders.first?.status == .open)
        #expect(orders.first?.fulfillments.first?.status == .shipped)

        try db.apply(
            message(
                "ofd", .carrierUpdate, at: november(24, 7), merchant: nil,
                shipments: [ups("1Z 999 AA1 0123 456 784", .outForDelivery)]))
        orders = try db.store.orders()
        #expect(orders.count == 1)
        #expect(orders.first?.fulfillments.first?.status == .outForDelivery)

        try db.apply(
            message(
                "delivered", .carrierUpdate, at: november(24, 15), merchant: nil, shipments: [ups(.delivered)]
            ))
        orders = try db.store.orders()
        let order = try #require(orders.first)
        #expect(orders.count == 1)
        #expect(order.merchantKey == "example.com")
        #expect(order.merchantName == "Example Outfitters")
        #expect(order.orderNumber == "A-10023")
        #expect(order.status == .completed)
        #expect(order.messageCount == 4)
        #expect(order.lineItems == items)
        #expect(order.total == MonetaryAmount(amount: "89.00", currency: "USD"))
        #expect(order.firstMessageAt == november(20, 9))
        #expect(order.lastMessageAt == november(24, 15))
        let fulfillment = try #require(order.fulfillments.first)
        #expect(order.fulfillments.count == 1)
        #expect(fulfillment.carrier == "UPS")
        #expect(fulfillment.normalizedTrackingNumber == "1Z999AA10123456784")
        #expect(fulfillment.status == .delivered)
        #expect(fulfillment.statusAt == november(24, 15))
        #expect(fulfillment.shippedAt == november(21, 9))
        #expect(fulfillment.deliveredAt == november(24, 15))
        #expect(try db.store.unlinkedShipments().isEmpty)
        #expect(try db.store.unlinkedShipmentCount() == 0)
    }

    @Test func carrierEmailBeforeMerchantShippingEmailIsAbsorbed() throws {
        let db = try TemporaryStore()
        try db.apply(message("confirm", .orderConfirmation, at: november(20), orderNumber: "A-1"))
        let carrier = try #require(
            try db.apply(
                message(
                    "carrier", .carrierUpdate, at: november(21, 8),
                    merchant: MerchantInfo(name: "Example Outfitters"),
                    shipments: [ups(.onTheWay)]))?.effects)
        #expect(carrier.unlinkedShipments == 1)
        let unlinked = try db.store.unlinkedShipments()
        #expect(unlinked.count == 1)
        #expect(try db.store.unlinkedShipmentCount() == 1)
        #expect(unlinked.first?.orderNumber == nil)
        #expect(unlinked.first?.merchantKey == "example outfitters")
        let recordID = try #require(unlinked.first?.id)

        let shipped = try #require(
            try db.apply(
                message(
                    "shipped", .shippingConfirmation, at: november(21, 10), orderNumber: "A-1",
                    shipments: [ups("1Z999AA1-0123-456784")]))?.effects)
        #expect(shipped.deletedOrderIDs == [recordID])
        let orders = try db.store.orders()
        #expect(orders.count == 1)
        let order = try #require(orders.first)
        #expect(order.orderNumber == "A-1")
        #expect(order.merchantKey == "example.com")
        #expect(order.fulfillments.count == 1)
        // The merchant's "shipped" is newer but does not move the carrier's "onTheWay" back.
        #expect(order.fulfillments.first?.status == .onTheWay)
        #expect(order.messageCount == 3)
        #expect(try db.store.unlinkedShipments().isEmpty)
        #expect(try db.store.order(id: recordID) == nil)
        #expect(try db.store.deletedOrderIDs(after: 0) == [recordID])
        let facts = try db.store.contributions(orderID: order.id)
        #expect(
            Set(facts.map(\.origin)) == ["thread/confirm.eml", "thread/carrier.eml", "thread/shipped.eml"])
        #expect(
            facts.contains {
                $0.fact == "fulfillmentStatus" && $0.value == "onTheWay" && $0.kind == .carrierUpdate
            })
    }

    /// A cancellation of part of the order ("one item of your order") is recorded, and the
    /// order goes on: its delivered parcel keeps it completed, not cancelled.
    @Test func aPartialCancellationDoesNotCancelTheOrder() throws {
        let db = try TemporaryStore()
        var partial = message("partial", .cancellation, at: november(22, 9), orderNumber: "A-10023")
        partial.extraction.partialCancellation = true
        try db.apply(
            message("confirm", .orderConfirmation, at: november(20, 9), orderNumber: "A-10023"),
            message(
                "delivered", .deliveryUpdate, at: november(21, 9), orderNumber: "A-10023",
                shipments: [ups(.delivered)]),
            partial)
        let order = try #require(try db.store.orders().first)
        #expect(order.status == .completed)
        // A cancellation of the whole order still cancels it.
        try db.apply(message("cancel", .cancellation, at: november(23, 9), orderNumber: "A-10023"))
        #expect(try db.store.orders().first?.status == .cancelled)
    }

    @Test func carrierEmailWhoseMerchantNeverWritesStaysShipmentOnly() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "carrier", .carrierUpdate, at: november(3), merchant: nil, shipments: [fedex(.outForDelivery)]
            ))
        let unlinked = try db.store.unlinkedShipments()
        #expect(unlinked.count == 1)
        #expect(unlinked.first?.isShipmentOnly == true)
        #expect(unlinked.first?.merchantKey == "")
        #expect(unlinked.first?.fulfillments.first?.status == .outForDelivery)
        #expect(unlinked.first?.status == .open)
    }

    @Test func splitShipmentWithTwoCarriersIsTwoFulfillmentsOfOneOrder() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("confirm", .orderConfirmation, at: november(1), orderNumber: "S-77"),
            message("ship1", .shippingConfirmation, at: november(2), orderNumber: "S-77", shipments: [ups()]),
            message(
                "ship2", .shippingConfirmation, at: november(3), orderNumber: "S-77", shipments: [fedex()]),
            message("ups-done", .carrierUpdate, at: november(4), merchant: nil, shipments: [ups(.delivered)]))
        var order = try #require(try db.store.orders().first)
        #expect(try db.store.orders().count == 1)
        #expect(order.fulfillments.map(\.carrier) == ["UPS", "FedEx"])
        #expect(order.fulfillments.map(\.status) == [.delivered, .shipped])
        #expect(order.status == .open)

        try db.apply(
            message(
                "fedex-done", .carrierUpdate, at: november(5), merchant: nil, shipments: [fedex(.delivered)]))
        order = try #require(try db.store.orders().first)
        #expect(order.status == .completed)
    }

    @Test func sameOrderNumberAtTwoMerchantsIsTwoOrders() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("a", .orderConfirmation, at: november(1), merchant: shop, orderNumber: "1001"),
            message("b", .orderConfirmation, at: november(1), merchant: otherShop, orderNumber: "1001"),
            message(
                "a-ship", .shippingConfirmation, at: november(2), merchant: shop, orderNumber: "#1001",
                shipments: [ups()]))
        let orders = try db.store.orders()
        #expect(orders.count == 2)
        #expect(orders.map(\.merchantKey) == ["example.com", "other.example"])
        #expect(orders[0].fulfillments.count == 1)
        #expect(orders[1].fulfillments.isEmpty)
    }

    @Test func twoUnrelatedOrdersFromOneMerchantStayApart() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("one", .orderConfirmation, at: november(1), orderNumber: "A-1"),
            message("two", .orderConfirmation, at: november(1, 13), orderNumber: "A-2"),
            message(
                "one-ship", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()]),
            message(
                "two-ship", .shippingConfirmation, at: november(2, 13), orderNumber: "A-2",
                shipments: [fedex()]),
            message(
                "carrier", .carrierUpdate, at: november(3), merchant: shop, shipments: [fedex(.delivered)]))
        let orders = try db.store.orders()
        #expect(orders.map(\.orderNumber) == ["A-1", "A-2"])
        #expect(orders[0].fulfillments.map(\.carrier) == ["UPS"])
        #expect(orders[1].fulfillments.map(\.carrier) == ["FedEx"])
        #expect(orders.map(\.status) == [.open, .completed])
    }

    @Test func olderEmailProcessedLaterDoesNotRegressStatus() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1", shipments: nil),
            message("delivered", .deliveryUpdate, at: november(6), orderNumber: "A-1", shipments: [ups()]),
            message("ofd", .carrierUpdate, at: november(5), merchant: nil, shipments: [ups(.outForDelivery)]),
            message("shipped", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()])
        )
        let order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.first?.status == .delivered)
        #expect(order.fulfillments.first?.statusAt == november(6))
        #expect(order.status == .completed)
        #expect(order.firstMessageAt == november(1))
        #expect(order.lastMessageAt == november(6))
    }

    @Test func cancellationEmailCancelsAndRefundDoesNot() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("one", .orderConfirmation, at: november(1), orderNumber: "A-1"),
            message("two", .orderConfirmation, at: november(1), orderNumber: "A-2"),
            message("cancel", .cancellation, at: november(2), orderNumber: "A-1"),
            message("refund", .refund, at: november(3), orderNumber: "A-2"))
        let orders = try db.store.orders()
        #expect(orders.map(\.status) == [.cancelled, .open])
        #expect(try db.store.contributions(orderID: orders[1].id).contains { $0.fact == "refund" })
    }

    @Test func issueAfterDeliveryIsNewerAndHolds() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("ship", .shippingConfirmation, at: november(1), orderNumber: "A-1", shipments: [ups()]),
            message("issue", .carrierUpdate, at: november(3), merchant: nil, shipments: [ups(.issue)]),
            message("ofd", .carrierUpdate, at: november(2), merchant: nil, shipments: [ups(.outForDelivery)]))
        var order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.first?.status == .issue)
        try db.apply(
            message("done", .carrierUpdate, at: november(4), merchant: nil, shipments: [ups(.delivered)]))
        order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.first?.status == .delivered)
        #expect(order.status == .completed)
    }

    @Test func deliveredEmailWithoutParcelsDeliversTheOnlyFulfillment() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("ship", .shippingConfirmation, at: november(1), orderNumber: "A-1"),
            message("done", .deliveryUpdate, at: november(3), orderNumber: "A-1"))
        let order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.count == 1)
        #expect(order.fulfillments.first?.status == .delivered)
        #expect(order.status == .completed)
    }

    @Test func trackingNumberLaterFillsTheFulfillmentWithoutOne() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "ship", .shippingConfirmation, at: november(1), orderNumber: "A-1",
                shipments: [Shipment(carrier: "UPS")]),
            message(
                "ship-again", .shippingConfirmation, at: november(1, 14), orderNumber: "A-1",
                shipments: [ups()]),
            message("carrier", .carrierUpdate, at: november(2), merchant: nil, shipments: [ups(.onTheWay)]))
        let order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.count == 1)
        #expect(order.fulfillments.first?.trackingNumber == "1Z999AA10123456784")
        #expect(order.fulfillments.first?.status == .onTheWay)
        #expect(try db.store.orders().count == 1)
    }

    @Test func additionalOrdersInOneEmailAreSeparateOrders() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "two-in-one", .shippingConfirmation, at: november(1), orderNumber: "A-1", shipments: [ups()],
                additionalOrders: [OrderPart(orderNumber: "A-2", shipments: [fedex()])]))
        let orders = try db.store.orders()
        #expect(orders.map(\.orderNumber) == ["A-1", "A-2"])
        #expect(orders.map { $0.fulfillments.map(\.carrier) } == [["UPS"], ["FedEx"]])
        #expect(orders.allSatisfy { $0.messageCount == 1 })
    }

    @Test func carrierShipperNameDoesNotMergeWithoutATrackingNumber() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1"),
            message(
                "carrier", .carrierUpdate, at: november(1, 14),
                merchant: MerchantInfo(name: "Example Outfitters"),
                shipments: [fedex(.onTheWay)]))
        let orders = try db.store.orders()
        #expect(orders.count == 2)
        #expect(orders[0].fulfillments.isEmpty)
        #expect(orders[1].isShipmentOnly)
    }

    @Test func orderManagementURLIsKept() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1",
                orderManagementURL: "https://example.com/orders/A-1"))
        #expect(try db.store.orders().first?.orderManagementURL == "https://example.com/orders/A-1")
    }

    @Test func changedOrdersSinceASequenceAreListed() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("one", .orderConfirmation, at: november(1), orderNumber: "A-1"),
            message("two", .orderConfirmation, at: november(1), orderNumber: "A-2"))
        let mark = try db.store.latestSequence()
        #expect(mark == 2)
        #expect(try db.store.orders(changedAfter: mark).isEmpty)
        let effects = try #require(
            try db.apply(
                message(
                    "ship", .shippingConfirmation, at: november(2), orderNumber: "A-2", shipments: [ups()]))?
                .effects)
        #expect(effects.createdOrderIDs.isEmpty)
        #expect(effects.updatedOrderIDs.count == 1)
        #expect(try db.store.orders(changedAfter: mark).map(\.orderNumber) == ["A-2"])
        #expect(try db.store.orders(changedAfter: mark).map(\.id) == effects.changedOrderIDs)
    }

    @Test func changedOrdersComePageByPageAsAWhole() throws {
        let db = try TemporaryStore()
        for number in 1...7 {
            try db.apply(
                message(
                    "m\(number)", .shippingConfirmation, at: november(1), orderNumber: "A-\(number)",
                    shipments: number % 2 == 0 ? [ups("1Z999AA1012345678\(number)")] : []))
        }
        let mark: Int64 = 2
        let whole = try db.store.orders(changedAfter: mark)
        #expect(whole.count == 5)
        for limit in [1, 2, 3, 5, 100] {
            var paged: [StoredOrder] = []
            var lastID: Int64 = 0
            while let last = try db.store.orders(changedAfter: mark, idAbove: lastID, limit: limit).last {
                let page = try db.store.orders(changedAfter: mark, idAbove: lastID, limit: limit)
                #expect(page.count <= limit)
                paged += page
                lastID = last.id
            }
            #expect(paged.map(\.id) == whole.map(\.id))
            #expect(paged.map(\.fulfillments.count) == whole.map(\.fulfillments.count))
        }
    }
}

@Suite struct MoreLinkingTests {
    @Test func untrackedShippedEmailAfterTheTrackedOneAddsNoPhantomParcel() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "tracked", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()]),
            message(
                "untracked", .shippingConfirmation, at: november(1), orderNumber: "A-1",
                shipments: [Shipment(carrier: "UPS")]))
        let order = try #require(try db.store.orders().first)
        #expect(order.fulfillments.count == 1)
    }

    @Test func updatedAtIncreasesWithEveryChangeEvenFromOlderMessages() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("late", .shippingConfirmation, at: november(5), orderNumber: "A-1", shipments: [ups()]))
        let first = try #require(try db.store.orders().first?.updatedAt)
        #expect(first == november(5))
        try db.apply(message("early", .orderConfirmation, at: november(1), orderNumber: "A-1"))
        let second = try #require(try db.store.orders().first?.updatedAt)
        #expect(second > first)
        #expect(try db.store.orders().first?.firstMessageAt == november(1))
        try db.apply(message("undated", .deliveryUpdate, at: nil, orderNumber: "A-1"))
        let third = try #require(try db.store.orders().first?.updatedAt)
        #expect(third > second)
    }

    /// Two orders shipped in one box: each order's shipping email names the same tracking number.
    @Test func parcelOfTwoOrdersIsListedByBothAndBothAreMarkedChanged() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("one", .shippingConfirmation, at: november(1), orderNumber: "A-1", shipments: [ups()]),
            message("two", .orderConfirmation, at: november(1), orderNumber: "A-2"))
        let mark = try db.store.latestSequence()
        try db.apply(
            message(
                "two-ship", .shippingConfirmation, at: november(2), orderNumber: "A-2", shipments: [ups()]))
        let orders = try db.store.orders().sorted { ($0.orderNumber ?? "") < ($1.orderNumber ?? "") }
        #expect(orders.map { $0.fulfillments.count } == [1, 1])
        #expect(
            orders.map { $0.fulfillments.first?.normalizedTrackingNumber } == [
                "1Z999AA10123456784", "1Z999AA10123456784",
            ])
        #expect(Set(try db.store.orders(changedAfter: mark).map(\.orderNumber)) == ["A-1", "A-2"])

        // The carrier's news of the parcel reaches both orders.
        try db.apply(
            message(
                "delivered", .carrierUpdate, at: november(4, 15), merchant: nil, shipments: [ups(.delivered)])
        )
        let delivered = try db.store.orders()
        #expect(delivered.count == 2)
        #expect(
            delivered.allSatisfy { $0.status == .completed && $0.fulfillments.first?.status == .delivered })
        #expect(try db.store.unlinkedShipmentCount() == 0)
    }

    /// A combined shipment read in any order gives the same two orders: the parcel's facts are
    /// the same in both, whichever email was read first.
    @Test func combinedShipmentDoesNotDependOnReadingOrder() throws {
        let thread = [
            message("a-confirm", .orderConfirmation, at: november(1, 9), orderNumber: "A-1"),
            message("b-confirm", .orderConfirmation, at: november(1, 10), orderNumber: "A-2"),
            message(
                "a-ship", .shippingConfirmation, at: november(2, 9), orderNumber: "A-1",
                shipments: [ups(), fedex()]),
            message(
                "b-ship", .shippingConfirmation, at: november(2, 10), orderNumber: "A-2", shipments: [ups()]),
            message(
                "ups-early", .carrierUpdate, at: november(2, 8), merchant: nil, shipments: [ups(.onTheWay)]),
            message(
                "ups-ofd", .carrierUpdate, at: november(4, 7), merchant: nil,
                shipments: [ups(.outForDelivery)]),
            message(
                "ups-done", .carrierUpdate, at: november(4, 15), merchant: nil, shipments: [ups(.delivered)]),
            message(
                "fedex-ofd", .carrierUpdate, at: november(5, 7), merchant: nil,
                shipments: [fedex(.outForDelivery)]),
        ]
        func view(_ store: SQLiteOrderStore) throws -> [OrderView] {
            try store.orders().map(OrderView.init).sorted { ($0.orderNumber ?? "") < ($1.orderNumber ?? "") }
        }
        let reference = try SQLiteOrderStore(path: ":memory:")
        for message in thread { _ = try reference.apply(message) }
        let expected = try view(reference)
        #expect(expected.map(\.orderNumber) == ["A-1", "A-2"])
        #expect(expected.map { $0.fulfillments.count } == [2, 1])
        #expect(expected.map(\.status) == [.open, .completed])
        var generator = SeededGenerator(state: 7)
        for _ in 0..<60 {
            let store = try SQLiteOrderStore(path: ":memory:")
            for message in thread.shuffled(using: &generator) { _ = try store.apply(message) }
            let got = try view(store)
            #expect(got == expected, "\(zip(got, expected).filter { $0 != $1 })")
            #expect(try store.unlinkedShipments().isEmpty)
        }
    }

    @Test func defaultPathIsBesideTheBundles() {
        #expect(SQLiteOrderStore.defaultPath(outputFolder: "/tmp/out") == "/tmp/out/mailorders.sqlite")
    }
}

@Suite struct MultiParcelCarrierTests {
    @Test func carrierEmailListingSeveralParcelsNeverMergesThem() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("lone", .carrierUpdate, at: november(1), merchant: nil, shipments: [fedex(.onTheWay)]),
            message(
                "ship", .shippingConfirmation, at: november(1, 14), orderNumber: "A-1", shipments: [ups()]),
            message(
                "both", .carrierUpdate, at: november(2), merchant: nil,
                shipments: [fedex(.outForDelivery), ups(.outForDelivery), ups("1ZNEW", .onTheWay)]))
        let orders = try db.store.orders()
        #expect(orders.map(\.orderNumber) == [nil, "A-1", nil])
        #expect(
            orders.map { $0.fulfillments.map(\.status) } == [
                [.outForDelivery], [.outForDelivery], [.onTheWay],
            ])
        #expect(try db.store.unlinkedShipments().count == 2)
        #expect(try db.store.unlinkedShipmentCount() == 2)
        #expect(orders.map(\.messageCount) == [2, 2, 1])
    }

    @Test func carrierEmailNamingShipperAndOrderNumberJoinsThatOrder() throws {
        let db = try TemporaryStore()
        try db.apply(
            message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1"),
            message(
                "carrier", .carrierUpdate, at: november(2), merchant: MerchantInfo(domain: "example.com"),
                orderNumber: "A-1", shipments: [fedex(.onTheWay)]))
        let orders = try db.store.orders()
        #expect(orders.count == 1)
        #expect(orders.first?.fulfillments.map(\.status) == [.onTheWay])
        #expect(orders.first?.messageCount == 2)
    }
}
