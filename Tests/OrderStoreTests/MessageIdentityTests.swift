import CSQLite
import Extraction
import Foundation
import Testing

@testable import OrderStore

/// What identifies a message: its bytes, else its Message-ID together with what it says.
@Suite struct MessageIdentityTests {
    /// A merchant that sends every email with one Message-ID.
    static let reusedID = "<noreply@mailer.example.com>"

    @Test func differentEmailsSharingAMessageIDBothReachTheirOrders() throws {
        let db = try TemporaryStore()
        let first = message(
            "confirm-1", .orderConfirmation, at: november(1), orderNumber: "A-1", messageID: Self.reusedID)
        let second = message(
            "confirm-2", .orderConfirmation, at: november(2), orderNumber: "A-2", messageID: Self.reusedID)
        #expect(try db.store.apply(first).effects?.createdOrderIDs.count == 1)
        #expect(try !db.store.contains(second))
        #expect(try db.store.apply(second).effects?.createdOrderIDs.count == 1)
        #expect(try db.store.orders().map(\.orderNumber) == ["A-1", "A-2"])
        #expect(try db.store.messageCount() == 2)
        // Each is still applied once.
        #expect(try db.store.apply(first) == .alreadyApplied)
        #expect(try db.store.apply(second) == .alreadyApplied)
        #expect(try db.store.messageCount() == 2)
    }

    @Test func applyingWithTheDigestComputedAheadIsApplyingWithout() throws {
        let ahead = try TemporaryStore()
        let here = try TemporaryStore()
        let messages = [
            message(
                "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1", messageID: Self.reusedID),
            message(
                "shipped", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()],
                messageID: Self.reusedID),
            message(
                "other", .orderConfirmation, at: november(3), orderNumber: "A-2", messageID: Self.reusedID),
        ]
        for message in messages + messages {
            let outcome = try ahead.store.apply(message, factsDigest: message.factsDigest)
            #expect(outcome == (try here.store.apply(message)))
        }
        #expect(try ahead.store.messageCount() == 3)
        let orders = try ahead.store.orders().map {
            "\($0.orderNumber ?? "-") \($0.fulfillments.count) \($0.messageCount)"
        }
        #expect(
            orders
                == (try here.store.orders().map {
                    "\($0.orderNumber ?? "-") \($0.fulfillments.count) \($0.messageCount)"
                }))
        #expect(orders == ["A-1 1 2", "A-2 0 1"])
    }

    @Test func shippingEmailReusingTheConfirmationsMessageIDAddsItsTrackingNumber() throws {
        let db = try TemporaryStore()
        try db.apply(
            message(
                "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1", messageID: Self.reusedID),
            message(
                "shipped", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()],
                messageID: Self.reusedID))
        let order = try #require(try db.store.orders().first)
        #expect(try db.store.orders().count == 1)
        #expect(order.fulfillments.map(\.normalizedTrackingNumber) == ["1Z999AA10123456784"])
        #expect(order.fulfillments.first?.status == .shipped)
        #expect(order.messageCount == 2)
    }

    @Test func messageReadCutShortThenWholeGetsItsTrackingNumber() throws {
        let db = try TemporaryStore()
        // Read while its mbox was still being written: cut at a line end, before the parcel.
        var cut = message("shipped", .shippingConfirmation, at: november(2), orderNumber: "A-1")
        cut.origin = "inbox.mbox#1"
        cut.contentHash = "hash-cut"
        var whole = message(
            "shipped", .shippingConfirmation, at: november(2), orderNumber: "A-1", shipments: [ups()])
        whole.origin = "inbox.mbox#1"
        whole.contentHash = "hash-whole"
        #expect(try db.store.apply(cut).effects != nil)
        #expect(try db.store.orders().first?.fulfillments.first?.trackingNumber == nil)
        #expect(try !db.store.contains(contentHash: whole.contentHash))
        #expect(try db.store.apply(whole).effects?.updatedOrderIDs.count == 1)
        let order = try #require(try db.store.orders().first)
        #expect(try db.store.orders().count == 1)
        #expect(order.fulfillments.map(\.trackingNumber) == ["1Z999AA10123456784"])
        // The next scan skips both by their bytes.
        #expect(try db.store.contains(contentHash: cut.contentHash))
        #expect(try db.store.contains(contentHash: whole.contentHash))
        #expect(try db.store.apply(whole) == .alreadyApplied)
    }

    @Test func reDeliveredCopyWithOtherTransportFieldsIsAlreadyAppliedAndListed() throws {
        let db = try TemporaryStore()
        let original = message(
            "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1",
            total: MonetaryAmount(amount: "12.00", currency: "EUR"))
        // Other bytes (Received, Delivered-To, X-… added on the way), another folder, and
        // what only says where it was found and why a value was chosen.
        var copy = original
        copy.origin = "Archive/cur/confirm-redelivered.eml"
        copy.contentHash = "hash-with-more-received-fields"
        copy.messageID = "  <confirm@test> "
        copy.extraction.source = copy.origin
        copy.extraction.messageID = "<confirm@test>"
        copy.extraction.evidence = [
            Evidence(field: "orderNumber", source: "label", text: "Order A-1", confidence: 0.9)
        ]
        #expect(copy.factsDigest == original.factsDigest)
        try db.apply(original)
        let before = try db.store.orders()
        #expect(try db.store.contains(copy))
        #expect(try db.store.apply(copy) == .alreadyApplied)
        #expect(try db.store.orders() == before)
        #expect(try db.store.messageCount() == 1)
        #expect(try db.store.contains(contentHash: copy.contentHash))
        let order = try #require(before.first)
        #expect(
            try db.store.origins(orderID: order.id) == [
                "Archive/cur/confirm-redelivered.eml", "thread/confirm.eml",
            ])
    }

    @Test func factsDigestChangesWithWhatTheMessageSays() {
        let base = message(
            "confirm", .orderConfirmation, at: november(1), orderNumber: "A-1", shipments: [ups()])
        var otherNumber = base
        otherNumber.extraction.orderNumber = "A-2"
        var otherDate = base
        otherDate.date = november(2)
        var noDate = base
        noDate.date = nil
        var otherKind = base
        otherKind.extraction.kind = .shippingConfirmation
        var otherLink = base
        otherLink.orderManagementURL = "https://example.com/orders/A-1"
        var otherTracking = base
        otherTracking.extraction.shipments = [ups("1Z999AA10123456785")]
        let digests = [base, otherNumber, otherDate, noDate, otherKind, otherLink, otherTracking].map(
            \.factsDigest)
        #expect(Set(digests).count == digests.count)
        #expect(digests.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
        #expect(base.factsDigest == base.factsDigest)
    }

    /// The digest of a message not about an order, written out without the encoder, is the
    /// digest of what `JSONEncoder` writes: the store's identities stay what they were.
    @Test func notAnOrderDigestIsTheEncodersDigest() {
        let dates: [Date?] = [
            nil, Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_764_000_000),
            Date(timeIntervalSince1970: 1_764_000_000.25), Date(timeIntervalSince1970: -86_400.5),
            Date(timeIntervalSince1970: 1e15), Date.distantFuture, Date.distantPast,
        ]
        for date in dates {
            for source in [nil, "inbox.mbox#3"] {
                var plain = message("news", .notAnOrder, at: date ?? november(1))
                plain.date = date
                plain.extraction = ExtractionResult(source: source, messageID: "<n@x>", kind: .notAnOrder)
                let expected = IngestedMessage.encodedDigest(
                    ExtractionResult(kind: .notAnOrder), date: date.map { String($0.timeIntervalSince1970) },
                    orderManagementURL: nil, contentHash: plain.contentHash)
                #expect(plain.factsDigest == expected, "\(String(describing: date))")
            }
        }
        // Anything more than the bare kind goes through the encoder.
        var bare = message("news", .notAnOrder, at: november(1))
        bare.extraction = ExtractionResult(kind: .notAnOrder)
        var named = bare
        named.extraction.merchant = MerchantInfo(name: "Shop")
        #expect(named.factsDigest != bare.factsDigest)
        #expect(
            named.factsDigest
                == IngestedMessage.encodedDigest(
                    named.extraction, date: String(november(1).timeIntervalSince1970),
                    orderManagementURL: nil,
                    contentHash: named.contentHash))
    }

    /// Message-IDs are trimmed as Foundation trims them, with or without the fast path.
    @Test func messageIDsAreNormalizedAsBefore() {
        let samples: [String?] = [
            nil, "", " ", "<>", "< >", "<a@b>", " <a@b> ", "\t<a@b>\r\n", "< a@b >", "a@b",
            "\u{A0}<a@b>\u{3000}",
            "<\u{A0}a@b\u{2003}>", "<a@b", "a@b>", "<<a@b>>", "\u{85}x\u{2028}", "<é@b>",
        ]
        for sample in samples {
            var expected = sample?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let text = expected, text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 {
                expected = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
            }
            if expected?.isEmpty == true { expected = nil }
            #expect(SQLiteOrderStore.normalizedMessageID(sample) == expected, "\(String(describing: sample))")
        }
    }

    @Test func aMessageWithoutMessageIDIsKnownOnlyByItsBytes() throws {
        let db = try TemporaryStore()
        let first = message(
            "a", .orderConfirmation, at: november(1), orderNumber: "A-1", messageID: .some(nil))
        var same = first
        same.contentHash = "hash-other-bytes"
        try db.apply(first)
        #expect(try db.store.apply(same).effects != nil)
        #expect(try db.store.messageCount() == 2)
        #expect(try db.store.orders().count == 1)
    }

    @Test func copiesInOneBatchAreAlreadyAppliedAndDifferentEmailsAreNot() throws {
        let db = try TemporaryStore()
        let first = message(
            "confirm-1", .orderConfirmation, at: november(1), orderNumber: "A-1", messageID: Self.reusedID)
        var copy = first
        copy.contentHash = "hash-copy"
        let second = message(
            "confirm-2", .orderConfirmation, at: november(2), orderNumber: "A-2", messageID: Self.reusedID)
        let outcomes = try db.store.batch { () throws(StoreError) in
            [try db.store.apply(first), try db.store.apply(copy), try db.store.apply(second)]
        }
        #expect(outcomes[0].effects != nil)
        #expect(outcomes[1] == .alreadyApplied)
        #expect(outcomes[2].effects != nil)
        #expect(try db.store.orders().count == 2)
    }
}

@Suite struct SchemaMigrationTests {
    /// A store as version 1 of the schema left it: one message, Message-ID unique.
    func versionOneStore(at path: String) throws {
        let connection = try SQLiteConnection(path: path)
        defer { connection.close() }
        try connection.execute(Schema.version1)
        try connection.execute("PRAGMA user_version = 1")
        try connection.query(
            """
            INSERT INTO messages (origin, message_id, content_hash, kind, sent_at, applied_at)
            VALUES ('thread/legacy.eml', 'legacy@test', 'hash-legacy', 'orderConfirmation', ?, 0)
            """, [SQLValue(november(1))])
        try connection.query(
            "INSERT INTO orders (merchant_key, order_number, order_key, created_sequence, change_sequence) VALUES ('example.com', 'L-1', 'l-1', 1, 1)"
        )
    }

    @Test func versionOneStoreIsMigratedAndKeepsWorking() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("orderstore-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("mailorders.sqlite").path
        try versionOneStore(at: path)

        let store = try SQLiteOrderStore(path: path)
        defer { store.close() }
        #expect(try store.connection.first("PRAGMA user_version")?.int(0) == SQLiteOrderStore.schemaVersion)
        #expect(SQLiteOrderStore.schemaVersion == 4)
        // Version 4: the Message-IDs each message answers or follows.
        #expect(
            try store.connection.first(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'message_references'")?
                .int(0) == 1)
        let indexes = try store.connection.query(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages'"
        ).compactMap { $0.text(0) }
        #expect(!indexes.contains("messages_by_message_id"))
        #expect(indexes.contains("messages_by_identity"))
        // Version 3: a tracking number is unique within an order only.
        let fulfillmentIndexes = try store.connection.query(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'fulfillments'"
        ).compactMap { row in row.text(0).map { ($0, row.text(1) ?? "") } }
        #expect(
            fulfillmentIndexes.contains {
                $0.0 == "fulfillments_by_order_tracking" && $0.1.contains("UNIQUE")
            })
        #expect(
            fulfillmentIndexes.contains { $0.0 == "fulfillments_by_tracking" && !$0.1.contains("UNIQUE") })
        #expect(try store.messageCount() == 1)
        #expect(try store.orders().map(\.orderNumber) == ["L-1"])

        // The recorded message is still known by its bytes.
        #expect(try store.contains(contentHash: "hash-legacy"))
        var legacy = message(
            "legacy", .orderConfirmation, at: november(1), merchant: MerchantInfo(domain: "example.com"),
            orderNumber: "L-1")
        #expect(try store.apply(legacy) == .alreadyApplied)
        // Another email with its Message-ID is applied (a version 1 row has no digest) …
        legacy.contentHash = "hash-legacy-resent"
        legacy.extraction.orderNumber = "L-2"
        #expect(try store.apply(legacy).effects != nil)
        #expect(try store.orders().map(\.orderNumber) == ["L-1", "L-2"])
        // … and from then on its copies are known.
        legacy.contentHash = "hash-legacy-resent-again"
        #expect(try store.apply(legacy) == .alreadyApplied)
        #expect(try store.messageCount() == 2)
        #expect(try store.connection.first("PRAGMA foreign_key_check") == nil)
        #expect(try store.connection.first("PRAGMA integrity_check")?.text(0) == "ok")
    }
}
