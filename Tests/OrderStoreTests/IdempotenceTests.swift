import CSQLite
import Extraction
import Foundation
import Testing

@testable import OrderStore

/// The messages of one purchase with a split shipment, in the order they were sent.
func splitThread() -> [IngestedMessage] {
    [
        message(
            "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1",
            lineItems: [LineItem(title: "Tent"), LineItem(title: "Stove")],
            total: MonetaryAmount(amount: "240.00", currency: "EUR")),
        message("ups-early", .carrierUpdate, at: november(2, 8), merchant: nil, shipments: [ups(.onTheWay)]),
        message(
            "ship-ups", .shippingConfirmation, at: november(2, 9), orderNumber: "A-1", shipments: [ups()]),
        message(
            "ship-fedex", .shippingConfirmation, at: november(3), orderNumber: "A-1", shipments: [fedex()]),
        message(
            "ups-ofd", .carrierUpdate, at: november(4, 7), merchant: nil, shipments: [ups(.outForDelivery)]),
        message("ups-done", .carrierUpdate, at: november(4, 15), merchant: nil, shipments: [ups(.delivered)]),
        message("fedex-done", .carrierUpdate, at: november(5), merchant: nil, shipments: [fedex(.delivered)]),
    ]
}

/// What a user sees of an order, without store-internal ids and sequences.
struct OrderView: Hashable {
    struct FulfillmentView: Hashable {
        var carrier: String?
        var trackingNumber: String?
        var status: ShipmentStatus
        var statusAt: Date?
        var shippedAt: Date?
        var deliveredAt: Date?
    }
    var merchantKey: String
    var orderNumber: String?
    var status: OrderStatus
    var total: MonetaryAmount?
    var lineItems: [LineItem]
    var first: Date?
    var last: Date?
    var messageCount: Int
    var fulfillments: [FulfillmentView]

    init(_ order: StoredOrder) {
        merchantKey = order.merchantKey
        orderNumber = order.orderNumber
        status = order.status
        total = order.total
        lineItems = order.lineItems
        first = order.firstMessageAt
        last = order.lastMessageAt
        messageCount = order.messageCount
        fulfillments = order.fulfillments.map {
            FulfillmentView(
                carrier: $0.carrier, trackingNumber: $0.normalizedTrackingNumber, status: $0.status,
                statusAt: $0.statusAt, shippedAt: $0.shippedAt, deliveredAt: $0.deliveredAt)
        }.sorted { ($0.trackingNumber ?? "") < ($1.trackingNumber ?? "") }
    }
}

/// A deterministic generator for shuffles (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct IdempotenceTests {
    @Test func sameMessageAppliedTwiceChangesNothing() throws {
        let db = try TemporaryStore()
        let shipped = message(
            "ship", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()])
        #expect(try db.store.apply(shipped).effects != nil)
        let before = try db.store.orders()
        #expect(try db.store.apply(shipped) == .alreadyApplied)
        #expect(try db.store.orders() == before)
        #expect(try db.store.messageCount() == 1)
        #expect(try db.store.latestSequence() == 1)
    }

    @Test func sameMessageIDSayingTheSameWithOtherBytesIsAlreadyAppliedAndItsHashRemembered() throws {
        let db = try TemporaryStore()
        let original = message(
            "ship", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()])
        var copy = original
        copy.contentHash = "hash-of-the-copy-in-another-folder"
        copy.messageID = "  <ship@test>  "
        try db.apply(original)
        #expect(try db.store.contains(contentHash: copy.contentHash) == false)
        #expect(try db.store.contains(copy))
        #expect(try db.store.apply(copy) == .alreadyApplied)
        #expect(try db.store.contains(contentHash: copy.contentHash) == true)
        #expect(try db.store.messageCount() == 1)
    }

    @Test func messageWithoutMessageIDIsKnownByContentHash() throws {
        let db = try TemporaryStore()
        let anonymous = message(
            "anon", .orderConfirmation, at: november(1), orderNumber: "A-9", messageID: .some(nil))
        try db.apply(anonymous)
        #expect(try db.store.contains(contentHash: "hash-anon"))
        #expect(try db.store.apply(anonymous) == .alreadyApplied)
        #expect(try db.store.orders().count == 1)
    }

    @Test func notAnOrderIsRecordedSoItIsSkippedNextTime() throws {
        let db = try TemporaryStore()
        try db.apply(message("news", .notAnOrder, at: november(1)))
        #expect(try db.store.orders().isEmpty)
        #expect(try db.store.contains(contentHash: "hash-news"))
    }

    @Test func reRunOfTheSameThreadIsAllAlreadyAppliedAndReopenedStoreKeepsEverything() throws {
        let db = try TemporaryStore()
        try db.apply(splitThread())
        let before = try db.store.orders()
        let sequence = try db.store.latestSequence()
        db.store.close()

        let reopened = try SQLiteOrderStore(path: db.path)
        defer { reopened.close() }
        #expect(try reopened.orders() == before)
        for message in splitThread() { #expect(try reopened.apply(message) == .alreadyApplied) }
        #expect(try reopened.latestSequence() == sequence)
        #expect(try reopened.orders(changedAfter: sequence).isEmpty)
        #expect(try reopened.orders() == before)
        #expect(before.count == 1)
        #expect(before.first?.status == .completed)
        #expect(before.first?.messageCount == 7)
    }

    @Test func grownMailboxAppliesOnlyTheNewMessages() throws {
        let db = try TemporaryStore()
        let thread = splitThread()
        try db.apply(Array(thread.prefix(4)))
        let mark = try db.store.latestSequence()
        var applied = 0
        for message in thread where try !db.store.contains(contentHash: message.contentHash) {
            if try db.store.apply(message) != .alreadyApplied { applied += 1 }
        }
        #expect(applied == 3)
        #expect(try db.store.orders(changedAfter: mark).count == 1)
    }

    @Test func resultDoesNotDependOnProcessingOrder() throws {
        let thread = splitThread()
        let reference = try SQLiteOrderStore(path: ":memory:")
        for message in thread { _ = try reference.apply(message) }
        let expected = try reference.orders().map(OrderView.init)
        #expect(expected.count == 1)
        var generator = SeededGenerator(state: 42)
        for _ in 0..<40 {
            let store = try SQLiteOrderStore(path: ":memory:")
            for message in thread.shuffled(using: &generator) { _ = try store.apply(message) }
            #expect(try store.orders().map(OrderView.init) == expected)
            #expect(try store.unlinkedShipments().isEmpty)
        }
    }

    @Test func databaseFromANewerProgramIsRefused() throws {
        let db = try TemporaryStore()
        db.store.close()
        var handle: OpaquePointer?
        #expect(sqlite3_open(db.path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA user_version = 99", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        #expect(throws: StoreError.newerSchema(found: 99, supported: SQLiteOrderStore.schemaVersion)) {
            _ = try SQLiteOrderStore(path: db.path)
        }
    }

    @Test func storeIsInWALModeWithForeignKeysAndCurrentSchema() throws {
        let db = try TemporaryStore()
        let connection = db.store.connection
        #expect(try connection.first("PRAGMA journal_mode")?.text(0) == "wal")
        #expect(try connection.first("PRAGMA foreign_keys")?.int(0) == 1)
        #expect(try connection.first("PRAGMA temp_store")?.int(0) == 2)  // MEMORY
        #expect(try connection.first("PRAGMA user_version")?.int(0) == SQLiteOrderStore.schemaVersion)
        #expect(try connection.first("PRAGMA foreign_key_check") == nil)
    }

    @Test func unopenablePathIsAClearError() {
        #expect(throws: StoreError.self) {
            _ = try SQLiteOrderStore(path: "/nonexistent-folder-\(UUID().uuidString)/mailorders.sqlite")
        }
    }
}

@Suite struct ConcurrencyTests {
    @Test func twoConnectionsWritingAtOnceWaitForEachOtherAndLoseNothing() throws {
        let db = try TemporaryStore()
        let second = try SQLiteOrderStore(path: db.path)
        defer { second.close() }
        let stores = [db.store, second]
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<40 {
                let name = "w\(writer)-\(index)"
                let shared = "shared-\(index)"  // both writers apply this one; one of them wins
                do {
                    _ = try stores[writer].apply(
                        message(
                            name, .orderConfirmation, at: november(1), orderNumber: "N-\(writer)-\(index)"))
                    _ = try stores[writer].apply(
                        message(shared, .shippingConfirmation, at: november(2), orderNumber: "S-\(index)"))
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.all.isEmpty)
        #expect(try db.store.messageCount() == 120)
        #expect(try db.store.orders().count == 120)
        #expect(try db.store.orders().allSatisfy { $0.messageCount == 1 })
    }
}

/// Errors collected from concurrent work.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

@Suite struct CopyTests {
    @Test func byteForByteDuplicateIsListedWithTheOrderButChangesNothing() throws {
        let db = try TemporaryStore()
        let original = message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1")
        var duplicate = original
        duplicate.origin = "thread/confirm-duplicate-delivery.eml"
        try db.apply(original)
        let before = try db.store.orders()
        #expect(try db.store.apply(duplicate) == .alreadyApplied)
        #expect(try db.store.orders() == before)
        let order = try #require(before.first)
        #expect(
            try db.store.origins(orderID: order.id) == [
                "thread/confirm-duplicate-delivery.eml", "thread/confirm.eml",
            ])
        #expect(try db.store.apply(duplicate) == .alreadyApplied)
        #expect(try db.store.origins(orderID: order.id).count == 2)
    }

    @Test func scannerSkipRecordsTheOriginOfAKnownCopyOnlyOnce() throws {
        let db = try TemporaryStore()
        try db.apply(message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1"))
        #expect(
            try db.store.recordCopyIfKnown(origin: "other/confirm.eml", contentHash: "hash-unknown") == false)
        #expect(try db.store.recordCopyIfKnown(origin: "thread/confirm.eml", contentHash: "hash-confirm"))
        #expect(try db.store.recordCopyIfKnown(origin: "other/confirm.eml", contentHash: "hash-confirm"))
        #expect(try db.store.recordCopyIfKnown(origin: "other/confirm.eml", contentHash: "hash-confirm"))
        let order = try #require(try db.store.orders().first)
        #expect(try db.store.origins(orderID: order.id) == ["other/confirm.eml", "thread/confirm.eml"])
        #expect(try db.store.orders().first?.messageCount == 1)
    }
}
