import CCrypto
import Extraction
import Foundation

/// One message's extraction, with what identifies the message, ready to be applied to a store.
public struct IngestedMessage: Sendable, Hashable {
    /// Where the message came from, e.g. `inbox.mbox#3` or a Maildir file path.
    public var origin: String
    /// The `Message-ID` header field (RFC 5322 §3.6.4), angle brackets optional; `nil` when the
    /// message has none. Not an identity on its own: broken senders reuse one for different
    /// emails (see ``OrderStore`` for what identifies a message).
    public var messageID: String?
    /// SHA-256 of the message's raw bytes, lower-case hex (64 characters): the identity of a
    /// message without a Message-ID, and the cheap key ``OrderStore/contains(contentHash:)``
    /// checks before the message is parsed.
    public var contentHash: String
    /// The `Date` header: the event time that orders status changes.
    public var date: Date?
    /// What the message says.
    public var extraction: ExtractionResult
    /// The "view or manage your order" link, when the extraction found one.
    public var orderManagementURL: String?
    /// The Message-IDs this message answers or follows, angle brackets optional: In-Reply-To,
    /// then References newest first (RFC 5322 §3.6.4; ``threadReferences(inReplyTo:references:)``).
    /// An email of the merchant's that names no order number (a support answer giving a
    /// replacement parcel's tracking number) joins the order of the thread it answers; see
    /// ``OrderStore``. Not part of ``factsDigest``: it says where the message stands, not what
    /// it says.
    public var references: [String]

    public init(
        origin: String, messageID: String?, contentHash: String, date: Date?,
        extraction: ExtractionResult, orderManagementURL: String? = nil, references: [String] = []
    ) {
        self.origin = origin
        self.messageID = messageID
        self.contentHash = contentHash
        self.date = date
        self.extraction = extraction
        self.orderManagementURL = orderManagementURL
        self.references = references
    }

    /// The most Message-IDs of a thread kept for one message.
    public static let maximumReferences = 50

    /// The Message-IDs a message answers or follows, nearest first: In-Reply-To, then
    /// References from its end (the newest), each once, at most ``maximumReferences``.
    /// - Parameters:
    ///   - inReplyTo: the In-Reply-To field's message identifiers.
    ///   - references: the References field's, oldest first.
    public static func threadReferences(inReplyTo: [String], references: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for id in inReplyTo + references.reversed() where result.count < maximumReferences {
            if seen.insert(id).inserted { result.append(id) }
        }
        return result
    }
}

extension IngestedMessage {
    /// SHA-256, lower-case hex (64 characters), of what applying the message would record: its
    /// extraction (kind, merchant, order number and date, shipments, line items, total, further
    /// orders, order management link), its Date header field and ``orderManagementURL``.
    ///
    /// Left out: ``origin``, ``contentHash``, the Message-ID and the extraction's `source` and
    /// `evidence`, which say where the message was found and why a value was chosen, not what
    /// the message says. So a re-delivered copy (header fields such as `Received`,
    /// `Delivered-To` or `X-…` added in transport, other line endings) has the digest of the
    /// original, while an email that says something else (another order number, a tracking
    /// number the other lacks — as the complete copy of a message that was first read cut
    /// short) has another one. Together with the Message-ID it is the message's identity in
    /// the store (see ``OrderStore``).
    ///
    /// The digest is of canonical JSON (keys sorted, the Date as Unix seconds); it changes when
    /// the extraction does, e.g. after the rules change.
    public var factsDigest: String {
        var facts = extraction
        facts.source = nil
        facts.messageID = nil
        facts.evidence = nil
        let date = date.map { String($0.timeIntervalSince1970) }
        // Most mail says nothing about an order: its canonical JSON is written out directly,
        // the bytes `JSONEncoder` makes (a number's digits need no escaping), for a fraction
        // of the encoder's cost.
        if facts == bareNotAnOrder.extraction, orderManagementURL == nil {
            let json =
                "{" + (date.map { "\"date\":\"\($0)\"," } ?? "") + "\"extraction\":" + bareNotAnOrder.json
                + "}"
            return SHA256Digest.hex(of: Data(json.utf8))
        }
        return Self.encodedDigest(
            facts, date: date, orderManagementURL: orderManagementURL, contentHash: contentHash)
    }

    /// The digest of the canonical facts as `JSONEncoder` writes them (keys sorted).
    static func encodedDigest(
        _ facts: ExtractionResult, date: String?, orderManagementURL: String?, contentHash: String
    ) -> String {
        let canonical = CanonicalFacts(extraction: facts, date: date, orderManagementURL: orderManagementURL)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings and integers are encoded, so encoding cannot fail; were it to, the bytes'
        // hash keeps the message distinct from any other (it is applied, never lost).
        let data = (try? encoder.encode(canonical)) ?? Data("bytes \(contentHash)".utf8)
        return SHA256Digest.hex(of: data)
    }
}

/// An extraction that found nothing but that the message is not about an order, and its
/// canonical JSON.
private let bareNotAnOrder: (extraction: ExtractionResult, json: String) = {
    let extraction = ExtractionResult(kind: .notAnOrder)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (extraction, (try? encoder.encode(extraction)).map { String(decoding: $0, as: UTF8.self) } ?? "")
}()

/// What ``IngestedMessage/factsDigest`` hashes.
private struct CanonicalFacts: Encodable {
    var extraction: ExtractionResult
    var date: String?
    var orderManagementURL: String?
}

/// What applying one message did.
public enum ApplyOutcome: Sendable, Hashable {
    /// The message was applied before, so nothing changed: a message with the same bytes (the
    /// same content hash), or one with the same Message-ID that says the same (the same
    /// ``IngestedMessage/factsDigest``). The copy's origin and content hash are remembered.
    case alreadyApplied
    /// The message was recorded, with what it changed.
    case applied(ApplyEffects)
}

/// The changes one applied message made, so that only the affected bundles are rewritten.
public struct ApplyEffects: Sendable, Hashable {
    /// The message's sequence number in the store (increases with every applied message).
    public var sequence: Int64
    /// Orders this message created.
    public var createdOrderIDs: [Int64]
    /// Orders that existed and that this message changed (including absorbing orders).
    public var updatedOrderIDs: [Int64]
    /// Shipment-only records merged into another order and deleted: remove their bundles.
    public var deletedOrderIDs: [Int64]
    /// Fulfillments this message created or changed.
    public var touchedFulfillmentIDs: [Int64]
    /// Carrier shipments that joined no order: each left as (or added to) a shipment-only record.
    public var unlinkedShipments: Int

    public init(
        sequence: Int64, createdOrderIDs: [Int64] = [], updatedOrderIDs: [Int64] = [],
        deletedOrderIDs: [Int64] = [], touchedFulfillmentIDs: [Int64] = [], unlinkedShipments: Int = 0
    ) {
        self.sequence = sequence
        self.createdOrderIDs = createdOrderIDs
        self.updatedOrderIDs = updatedOrderIDs
        self.deletedOrderIDs = deletedOrderIDs
        self.touchedFulfillmentIDs = touchedFulfillmentIDs
        self.unlinkedShipments = unlinkedShipments
    }

    /// Every order whose bundle must be rewritten: created and updated ones.
    public var changedOrderIDs: [Int64] { createdOrderIDs + updatedOrderIDs }
}

/// One fact a message contributed to an order, so a bundle can be explained.
public struct Contribution: Sendable, Hashable {
    /// The contributing message's sequence number.
    public var sequence: Int64
    public var origin: String
    public var messageID: String?
    public var contentHash: String
    public var kind: EmailKind
    /// The message's Date header.
    public var date: Date?
    /// The fulfillment the fact is about, `nil` for an order-level fact.
    public var fulfillmentID: Int64?
    /// What was contributed: `order`, `orderNumber`, `orderDate`, `total`, `lineItems`,
    /// `orderManagementURL`, `orderStatus`, `fulfillment`, `trackingNumber`, `carrier`,
    /// `trackingURL`, `estimatedDelivery`, `shippedAt`, `deliveredAt`, `fulfillmentStatus`.
    public var fact: String
    /// The value as stored, when the fact has one (a status, a tracking number, …).
    public var value: String?

    public init(
        sequence: Int64, origin: String, messageID: String?, contentHash: String, kind: EmailKind,
        date: Date?, fulfillmentID: Int64?, fact: String, value: String?
    ) {
        self.sequence = sequence
        self.origin = origin
        self.messageID = messageID
        self.contentHash = contentHash
        self.kind = kind
        self.date = date
        self.fulfillmentID = fulfillmentID
        self.fact = fact
        self.value = value
    }
}

/// Why the store could not do what was asked.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database file could not be opened or created.
    case cannotOpen(path: String, message: String)
    /// The database was written by a newer mailorders (its schema version is unknown here).
    case newerSchema(found: Int64, supported: Int64)
    /// SQLite reported an error (extended result code) while running `sql`.
    case sqlite(code: Int32, message: String, sql: String)
    /// A stored value could not be encoded or decoded.
    case badValue(String)
    /// The store was closed.
    case closed

    public var description: String {
        switch self {
        case .cannotOpen(let path, let message): return "cannot open order store \(path): \(message)"
        case .newerSchema(let found, let supported):
            return "order store schema version \(found) is newer than this program's (\(supported))"
        case .sqlite(let code, let message, let sql):
            let statement = sql.split(separator: "\n").first.map(String.init) ?? sql
            return "SQLite error \(code): \(message) (in: \(statement.prefix(80)))"
        case .badValue(let message): return "bad stored value: \(message)"
        case .closed: return "the order store is closed"
        }
    }
}

/// Where orders live: idempotent ingestion of extraction results, linking, and status.
///
/// ## What identifies a message
/// A message is applied once. It counts as applied before (``ApplyOutcome/alreadyApplied``,
/// recorded as a copy of the first) when
/// - a message with the same raw bytes was applied or recorded as a copy (the same
///   ``IngestedMessage/contentHash``): a re-scan of the same mailbox, a byte-identical
///   duplicate; this is checked before parsing, by ``contains(contentHash:)``; or
/// - a message with the same Message-ID and the same ``IngestedMessage/factsDigest`` was: a
///   re-delivered copy whose transport header fields (`Received`, `Delivered-To`, `X-…`)
///   differ, the same email in another folder.
///
/// A message with a known Message-ID that says something else is applied as a message of its
/// own, and its facts reach the order: senders that reuse one Message-ID for different emails,
/// or the complete copy of a message first read cut short (at a line end, from an mbox still
/// being written), whose rest holds a tracking number. The Message-ID alone is not trusted
/// because it is the sender's claim; the digest of what was extracted is used rather than a
/// hash of the body section because two emails can differ only in a header field that is
/// extracted (a Subject carrying the order number over a template body), and because a copy
/// re-encoded in transport (8bit to quoted-printable) still says the same. A message without a
/// Message-ID is known only by its bytes.
///
/// Linking rules (issue "Order store and linking"):
/// 1. Same merchant key and same order number (see ``OrderKeys``) → the same order; the same
///    number at two merchants is two orders.
/// 2. Same normalized tracking number → the same fulfillment, so a carrier email with no order
///    number joins the order that listed the tracking number.
/// 3. A carrier shipment that matches nothing becomes a shipment-only record (an order with no
///    order number). When a merchant email later lists that tracking number, its order absorbs
///    the record: fulfillments and contributions move over and the empty record is deleted.
/// 4. Weak matches (shipper name and a time window) are never merged, and neither are parcels
///    a carrier lists together in one email (they may come from different shops); only a
///    merchant's email that lists several tracking numbers under one order joins them.
/// 5. A merchant's email with no order number joins the order of its thread: the one order of
///    the same merchant key, with an order number, that the messages named by its
///    ``IngestedMessage/references`` contributed to (a support answer giving a replacement
///    parcel). Applied before that order's email, it is a shipment-only record that the
///    order's email absorbs when its References name that email. Several orders in the thread,
///    or another merchant's, link nothing this way.
///
/// Fulfillment status is a fold over the status events of its messages in Date-header order:
/// progress (`processing` → `shipped` → `onTheWay` → `outForDelivery` → `delivered`) only moves
/// forward, `issue` and `cancelled` take over when they are the newest event, and a later
/// progress event resumes from the furthest progress seen. So an older email processed later
/// never moves a status backwards, and the result does not depend on processing order.
/// Order status: `cancelled` after a cancellation email, else `completed` when every
/// fulfillment that is not cancelled is delivered, else `open`. A refund is recorded only.
///
/// ## What another implementation (e.g. PostgreSQL over libpq, many workers) must keep
/// - **Each message whole or not at all.** Everything ``apply(_:)`` writes, including the
///   message row itself, commits together or not at all; a crash leaves either the whole
///   message or none of it. Inside ``batch(_:)`` that holds per message through a savepoint of
///   the batch's one transaction, and the batch commits whole or not at all. With concurrent
///   writers use `SERIALIZABLE` (or take row locks with `SELECT … FOR UPDATE` on the orders and
///   fulfillments read) and retry on serialization failures; absorbing a shipment-only record
///   must lock both orders.
/// - **Unique keys** (the idempotence and linking guarantees rest on them):
///   `messages(message_id, facts_digest)` where `message_id` is not null (the Message-ID alone
///   is not unique), `messages(content_hash)`,
///   `message_copies(content_hash)`, `orders(merchant_key, order_key)` where `order_key` is
///   not null, and `fulfillments(order_id, normalized_tracking_number)` where not null (one
///   parcel may be listed by several orders: a combined shipment). Insert with
///   `ON CONFLICT` and re-read, never check-then-insert without the constraint.
/// - **A monotonic sequence** per applied message; `orders.change_sequence` is the sequence of
///   the last message that touched the order, so ``orders(changedAfter:)`` works. With many
///   writers, allocate it in commit order (e.g. under an advisory lock held to commit).
/// - Foreign keys from fulfillments and contributions to orders and messages; values always
///   bound as parameters.
public protocol OrderStore: AnyObject {
    /// Whether a message with these raw bytes was applied or recorded as a copy.
    ///
    /// Cheap (one look-up of an index), for skipping known messages before they are parsed. A
    /// message that is not known by its bytes may still be a copy: ``contains(_:)`` and
    /// ``apply(_:)`` also compare the Message-ID and what the message says.
    /// - Parameter contentHash: SHA-256 of the raw bytes, lower-case hex.
    /// - Returns: `true` when applying a message with these bytes would change nothing.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func contains(contentHash: String) throws -> Bool

    /// Whether the message was applied before, by the identity ``apply(_:)`` uses: its content
    /// hash, or its Message-ID together with its ``IngestedMessage/factsDigest``.
    /// - Parameter message: the message and its extraction.
    /// - Returns: `true` when ``apply(_:)`` would return ``ApplyOutcome/alreadyApplied``.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func contains(_ message: IngestedMessage) throws -> Bool

    /// Records one message and links what it says, in one transaction (inside ``batch(_:)``,
    /// in a savepoint of the batch's transaction).
    ///
    /// - Parameter message: the message and its extraction.
    /// - Returns: ``ApplyOutcome/alreadyApplied`` when a message with the same content hash, or
    ///   with the same Message-ID and the same ``IngestedMessage/factsDigest``, was applied
    ///   before (see "What identifies a message" above); the copy's origin is then recorded.
    ///   Otherwise what changed: a message with a known Message-ID that says something else is
    ///   applied as a message of its own.
    /// - Throws: ``StoreError``; nothing of the message is stored then.
    func apply(_ message: IngestedMessage) throws -> ApplyOutcome

    /// Runs `body`, whose calls to this store are committed together, as one transaction, when it
    /// returns; each ``apply(_:)`` inside it is still applied whole or not at all, and one that
    /// throws is rolled back alone while the others of the batch commit.
    ///
    /// A process killed inside a batch loses the batch: its messages are not recorded and are
    /// applied again when they are read again. An implementation may run `body` without a common
    /// transaction (each call then commits on its own); only how much a crash loses changes.
    /// - Parameter body: the work of the batch; it may call this store's methods.
    /// - Returns: what `body` returned, once committed.
    /// - Throws: ``StoreError``: the error `body` threw, after rolling back all it wrote; or why
    ///   the batch could not begin or commit, and then nothing of it is stored.
    func batch<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T

    /// Every order, shipment-only records included, by id.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func orders() throws -> [StoredOrder]

    /// Orders changed (created, updated) by messages with a sequence greater than `sequence`.
    /// - Parameter sequence: a value of ``latestSequence()`` or ``ApplyEffects/sequence`` from before.
    /// - Returns: the changed orders, by id.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func orders(changedAfter sequence: Int64) throws -> [StoredOrder]

    /// Ids of orders deleted (absorbed into another) by messages after `sequence`.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func deletedOrderIDs(after sequence: Int64) throws -> [Int64]

    /// The sequence number of the last applied message, 0 for an empty store.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func latestSequence() throws -> Int64

    /// Shipment-only records: carrier shipments no merchant email has claimed (yet).
    /// - Throws: ``StoreError`` when the store cannot be read.
    func unlinkedShipments() throws -> [StoredOrder]

    /// One order by id, `nil` when there is none (or it was absorbed into another).
    /// - Throws: ``StoreError`` when the store cannot be read.
    func order(id: Int64) throws -> StoredOrder?

    /// Which message contributed which fact to an order, oldest message first.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func contributions(orderID: Int64) throws -> [Contribution]

    /// Where every message that contributed to an order was found, copies included (a
    /// re-delivered duplicate, the same Message-ID in another folder), sorted.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func origins(orderID: Int64) throws -> [String]

    /// How many messages are recorded (orders or not).
    /// - Throws: ``StoreError`` when the store cannot be read.
    func messageCount() throws -> Int
}

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto.
enum SHA256Digest {
    /// The SHA-256 of `data` as lower-case hex: 64 characters.
    static func hex(of data: Data) -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        data.withUnsafeBytes { raw in
            _ = SHA256(raw.baseAddress?.assumingMemoryBound(to: UInt8.self), raw.count, &digest)
        }
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
