import Extraction
import Foundation

/// Applies one message's extraction inside the store's open transaction: finds or creates the
/// orders and fulfillments it speaks of, records each fact it contributes, then recomputes the
/// statuses of what it touched.
final class MessageApplier {
    private let db: SQLiteConnection
    private let sequence: Int64
    private let message: IngestedMessage
    private let kind: EmailKind
    private let at: SQLValue
    private let checkpoint: ((String) throws(StoreError) -> Void)?

    private var created: [Int64] = []
    private var touched: [Int64] = []
    private var deleted: [Int64] = []
    private var touchedFulfillments: [Int64] = []
    private var unlinked = 0

    init(
        connection: SQLiteConnection, sequence: Int64, message: IngestedMessage,
        checkpoint: ((String) throws(StoreError) -> Void)?
    ) {
        self.db = connection
        self.sequence = sequence
        self.message = message
        self.kind = message.extraction.kind
        self.at = SQLValue(message.date)
        self.checkpoint = checkpoint
    }

    func effects() -> ApplyEffects {
        let gone = Set(deleted)
        let new = created.filter { !gone.contains($0) }
        let newSet = Set(new)
        let updated = unique(touched).filter { !gone.contains($0) && !newSet.contains($0) }
        return ApplyEffects(
            sequence: sequence, createdOrderIDs: new, updatedOrderIDs: updated, deletedOrderIDs: deleted,
            touchedFulfillmentIDs: unique(touchedFulfillments), unlinkedShipments: unlinked)
    }

    private func unique(_ ids: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return ids.filter { seen.insert($0).inserted }
    }

    // MARK: Parts

    /// One order an email speaks of: the main one or one of `additionalOrders`.
    private struct Part {
        var orderNumber: String?
        var orderDate: String?
        var shipments: [Shipment]
        var lineItems: [LineItem]?
        var total: MonetaryAmount?
    }

    func run() throws(StoreError) {
        guard kind != .notAnOrder else { return }
        let extraction = message.extraction
        let merchantKey = OrderKeys.merchantKey(
            name: extraction.merchant?.name, domain: extraction.merchant?.domain)
        var parts = [
            Part(
                orderNumber: extraction.orderNumber, orderDate: extraction.orderDate,
                shipments: extraction.shipments ?? [], lineItems: extraction.lineItems,
                total: extraction.total)
        ]
        for extra in extraction.additionalOrders ?? [] {
            parts.append(
                Part(
                    orderNumber: extra.orderNumber, orderDate: extra.orderDate,
                    shipments: extra.shipments ?? [],
                    lineItems: extra.lineItems, total: extra.total))
        }
        for part in parts {
            if kind == .carrierUpdate {
                try applyCarrier(part, merchantKey: merchantKey)
            } else {
                try applyMerchant(part, merchantKey: merchantKey)
            }
        }
        try checkpoint?("facts recorded")
        for fulfillment in unique(touchedFulfillments) { try recomputeFulfillment(fulfillment) }
        let gone = Set(deleted)
        for order in unique(touched) where !gone.contains(order) {
            try markChanged(order)
            try recomputeOrder(order)
        }
    }

    /// Records that this message changed the order: its message times, its change sequence, and
    /// its `updatedAt`, a logical clock over message Dates that increases with every change
    /// (Wallet Orders `Order.updatedAt` must increase monotonically).
    private func markChanged(_ order: Int64) throws(StoreError) {
        try db.query(
            """
            UPDATE orders SET
                first_message_at = COALESCE(MIN(first_message_at, ?1), first_message_at, ?1),
                last_message_at = COALESCE(MAX(last_message_at, ?1), last_message_at, ?1),
                updated_at = CASE WHEN updated_at IS NULL THEN ?1
                    ELSE MAX(updated_at + 1, COALESCE(?1, updated_at + 1)) END,
                change_sequence = ?2
            WHERE id = ?3
            """, [at, .integer(sequence), .integer(order)])
    }

    /// The part's shipments with a tracking number (first of each key) and without.
    private func split(_ shipments: [Shipment]) -> (
        tracked: [(shipment: Shipment, key: String)], untracked: [Shipment]
    ) {
        var tracked: [(shipment: Shipment, key: String)] = []
        var untracked: [Shipment] = []
        for shipment in shipments {
            if let key = OrderKeys.normalizedTrackingNumber(shipment.trackingNumber) {
                if !tracked.contains(where: { $0.key == key }) { tracked.append((shipment, key)) }
            } else {
                untracked.append(shipment)
            }
        }
        return (tracked, untracked)
    }

    /// A carrier's email: each parcel joins the fulfillment with its tracking number wherever it
    /// is, or the order the email names by shipper and order number, or becomes a shipment-only
    /// record of its own. Parcels listed together by a carrier (possibly from different shops)
    /// are never merged on that ground.
    private func applyCarrier(_ part: Part, merchantKey: String?) throws(StoreError) {
        let (tracked, untracked) = split(part.shipments)
        var named: Int64?
        if let merchantKey, let orderKey = OrderKeys.orderKey(part.orderNumber) {
            named = try orderID(merchantKey: merchantKey, orderKey: orderKey)
        }
        if let named {
            try updateOrder(
                named, part: part, merchantKey: merchantKey, isCarrier: true, namesMerchant: false)
        }
        for item in tracked {
            let holders = try fulfillments(trackingKey: item.key)
            if !holders.isEmpty {
                for holder in holders {
                    touched.append(holder.orderID)
                    if try isShipmentOnly(holder.orderID) {
                        try updateOrder(
                            holder.orderID, part: part, merchantKey: merchantKey, isCarrier: true,
                            namesMerchant: true)
                    }
                    try updateFulfillment(holder.id, with: item.shipment, orderID: holder.orderID)
                }
                continue
            }
            let order: Int64
            if let named {
                order = named
            } else {
                order = try createOrder(merchantKey: merchantKey ?? "", orderNumber: nil, orderKey: nil)
                try updateOrder(
                    order, part: part, merchantKey: merchantKey, isCarrier: true, namesMerchant: true)
                unlinked += 1
            }
            var fulfillmentID: Int64?
            if named != nil {
                fulfillmentID = try trackinglessFulfillment(in: order, carrier: item.shipment.carrier)
            }
            if fulfillmentID == nil { fulfillmentID = try createFulfillment(in: order) }
            guard let fulfillmentID else { continue }
            try updateFulfillment(fulfillmentID, with: item.shipment, orderID: order)
        }
        if let named {
            for shipment in untracked {
                guard let fulfillmentID = try fulfillmentForUntracked(in: named, carrier: shipment.carrier)
                else {
                    continue
                }
                try updateFulfillment(fulfillmentID, with: shipment, orderID: named)
            }
        }
    }

    /// A merchant's email: the order is found by merchant key and order number (created when
    /// new), else by a tracking number it lists, else it becomes a shipment-only record when it
    /// has a tracking number. Every parcel it lists joins that order, absorbing the shipment-only
    /// records that held them.
    private func applyMerchant(_ part: Part, merchantKey: String?) throws(StoreError) {
        let orderKey = merchantKey == nil ? nil : OrderKeys.orderKey(part.orderNumber)
        let (tracked, untracked) = split(part.shipments)

        // 1. Merchant and order number.
        var target: Int64?
        if let merchantKey, let orderKey {
            target = try orderID(merchantKey: merchantKey, orderKey: orderKey)
            if target == nil {
                target = try createOrder(
                    merchantKey: merchantKey, orderNumber: part.orderNumber, orderKey: orderKey)
            }
        }
        // 2. A tracking number already known (an order with a number before a shipment-only record).
        if target == nil {
            var shipmentOnly: Int64?
            for item in tracked {
                for holder in try fulfillments(trackingKey: item.key, merchantKey: merchantKey) {
                    if try isShipmentOnly(holder.orderID) {
                        shipmentOnly = shipmentOnly ?? holder.orderID
                    } else {
                        target = holder.orderID
                        break
                    }
                }
                if target != nil { break }
            }
            target = target ?? shipmentOnly
        }
        // 3. The order of the thread the email answers: an email of the merchant's that names no
        //    order number (a support answer giving a replacement parcel), in one order's thread.
        if orderKey == nil, let merchantKey, !merchantKey.isEmpty {
            var isOrder = false
            if let current = target { isOrder = try !isShipmentOnly(current) }
            if !isOrder, let threadOrder = try threadOrder(merchantKey: merchantKey) { target = threadOrder }
        }
        // 4. Otherwise a shipment-only record, when there is a tracking number to key it by.
        if target == nil {
            guard !tracked.isEmpty else { return }
            target = try createOrder(merchantKey: merchantKey ?? "", orderNumber: nil, orderKey: nil)
        }
        guard let target else { return }
        try updateOrder(target, part: part, merchantKey: merchantKey, isCarrier: false, namesMerchant: true)
        // Emails of the merchant's applied before this one that answer it and became
        // shipment-only records (step 4 then) join its order now, as step 3 would have joined them.
        if orderKey != nil, let merchantKey {
            for answer in try threadAnswers(merchantKey: merchantKey) where answer != target {
                try absorb(answer, into: target)
            }
        }

        for item in tracked {
            // Shipment-only records of the parcel (carrier emails read first) join the order.
            var holders = try fulfillments(trackingKey: item.key)
            var absorbed = false
            for holder in holders where holder.orderID != target {
                if try isShipmentOnly(holder.orderID) {
                    try absorb(holder.orderID, into: target)
                    absorbed = true
                }
            }
            if absorbed { holders = try fulfillments(trackingKey: item.key) }
            if !holders.contains(where: { $0.orderID == target }) {
                // A parcel other orders list too is one box holding several orders (a combined
                // shipment): each order lists it, with everything said about the parcel.
                var fulfillmentID = try trackinglessFulfillment(in: target, carrier: item.shipment.carrier)
                if fulfillmentID == nil { fulfillmentID = try createFulfillment(in: target) }
                guard let fulfillmentID else { continue }
                if let sibling = holders.first {
                    try joinParcel(fulfillmentID, of: target, sibling: sibling.id, trackingKey: item.key)
                }
                holders.append((fulfillmentID, target))
            }
            for holder in holders {
                touched.append(holder.orderID)
                try updateFulfillment(holder.id, with: item.shipment, orderID: holder.orderID)
            }
        }
        for shipment in untracked {
            guard let fulfillmentID = try fulfillmentForUntracked(in: target, carrier: shipment.carrier)
            else {
                continue
            }
            try updateFulfillment(fulfillmentID, with: shipment, orderID: target)
        }
        if part.shipments.isEmpty, kind == .shippingConfirmation || kind == .deliveryUpdate {
            try applyImpliedStatus(to: target)
        }
    }

    /// A merchant's "shipped" or "delivered" email that lists no parcel: it speaks of the order's
    /// only fulfillment, or of those without a tracking number, or of a new one.
    private func applyImpliedStatus(to order: Int64) throws(StoreError) {
        let rows = try db.query(
            "SELECT id, normalized_tracking_number FROM fulfillments WHERE order_id = ? ORDER BY id",
            [.integer(order)])
        let all = rows.compactMap { $0.int(0) }
        let trackingless = rows.filter { $0.text(1) == nil }.compactMap { $0.int(0) }
        let targets: [Int64]
        if all.count == 1 {
            targets = all
        } else if !trackingless.isEmpty {
            targets = trackingless
        } else if all.isEmpty {
            targets = [try createFulfillment(in: order)]
        } else {
            return
        }
        for fulfillment in targets {
            try updateFulfillment(fulfillment, with: Shipment(), orderID: order)
        }
    }

    // MARK: Orders

    private func orderID(merchantKey: String, orderKey: String) throws(StoreError) -> Int64? {
        try db.first(
            "SELECT id FROM orders WHERE merchant_key = ? AND order_key = ?",
            [.text(merchantKey), .text(orderKey)])?.int(0)
    }

    /// The one order of this merchant, with an order number, that the messages this email
    /// answers or follows (``IngestedMessage/references``, recorded in `message_references`)
    /// contributed to; `nil` when there is none, or more than one.
    private func threadOrder(merchantKey: String) throws(StoreError) -> Int64? {
        let rows = try db.query(
            """
            SELECT DISTINCT o.id FROM message_references r
            JOIN messages m ON m.message_id = r.message_id
            JOIN contributions c ON c.sequence = m.sequence
            JOIN orders o ON o.id = c.order_id
            WHERE r.sequence = ?1 AND o.merchant_key = ?2 AND o.order_key IS NOT NULL
            LIMIT 2
            """, [.integer(sequence), .text(merchantKey)])
        return rows.count == 1 ? rows[0].int(0) : nil
    }

    /// The shipment-only records of this merchant that messages answering or following this
    /// one (their References name its Message-ID) contributed to: emails that named no order
    /// number, applied before the email of their thread that does.
    private func threadAnswers(merchantKey: String) throws(StoreError) -> [Int64] {
        guard let messageID = SQLiteOrderStore.normalizedMessageID(message.messageID) else { return [] }
        return try db.query(
            """
            SELECT DISTINCT o.id FROM message_references r
            JOIN contributions c ON c.sequence = r.sequence
            JOIN orders o ON o.id = c.order_id
            WHERE r.message_id = ?1 AND o.merchant_key = ?2 AND o.order_key IS NULL
            ORDER BY o.id
            """, [.text(messageID), .text(merchantKey)]
        ).compactMap { $0.int(0) }
    }

    private func isShipmentOnly(_ order: Int64) throws(StoreError) -> Bool {
        try db.first("SELECT order_key IS NULL FROM orders WHERE id = ?", [.integer(order)])?.int(0) == 1
    }

    private func createOrder(merchantKey: String, orderNumber: String?, orderKey: String?) throws(StoreError)
        -> Int64
    {
        try db.query(
            """
            INSERT INTO orders (merchant_key, order_number, order_key, created_sequence, change_sequence)
            VALUES (?1, ?2, ?3, ?4, ?4)
            """, [.text(merchantKey), SQLValue(orderNumber), SQLValue(orderKey), .integer(sequence)])
        let id = db.lastInsertRowID
        created.append(id)
        return id
    }

    private func contribute(
        order: Int64, fulfillment: Int64? = nil, fact: String, value: String? = nil
    ) throws(StoreError) {
        try db.query(
            "INSERT INTO contributions (sequence, order_id, fulfillment_id, fact, value, at) VALUES (?, ?, ?, ?, ?, ?)",
            [.integer(sequence), .integer(order), SQLValue(fulfillment), .text(fact), SQLValue(value), at])
    }

    private func updateOrder(
        _ order: Int64, part: Part, merchantKey: String?, isCarrier: Bool, namesMerchant: Bool
    ) throws(StoreError) {
        touched.append(order)
        let merchant = namesMerchant ? message.extraction.merchant : nil
        let lineItems: String?
        if let items = part.lineItems, !items.isEmpty {
            lineItems = try encode(items)
        } else {
            lineItems = nil
        }
        let confirmation: Int64 = kind == .orderConfirmation ? 1 : 0
        // A carrier's shipper only names a shipment-only record; merchant facts come from the merchant.
        let merchantFacts = !isCarrier
        try db.query(
            """
            UPDATE orders SET
                merchant_key = CASE WHEN merchant_key = '' AND ?1 IS NOT NULL THEN ?1 ELSE merchant_key END,
                merchant_name = COALESCE(merchant_name, ?2),
                merchant_domain = COALESCE(merchant_domain, ?3),
                order_date = CASE WHEN ?10 THEN COALESCE(order_date, ?4) ELSE order_date END,
                total_amount = CASE WHEN ?10 AND ?5 IS NOT NULL AND (total_amount IS NULL OR ?7)
                    THEN ?5 ELSE total_amount END,
                total_currency = CASE WHEN ?10 AND ?5 IS NOT NULL AND (total_amount IS NULL OR ?7)
                    THEN ?6 ELSE total_currency END,
                line_items = CASE WHEN ?10 AND ?8 IS NOT NULL AND (line_items IS NULL OR ?7)
                    THEN ?8 ELSE line_items END,
                order_management_url = CASE WHEN ?10 THEN COALESCE(order_management_url, ?9)
                    ELSE order_management_url END
            WHERE id = ?11
            """,
            [
                SQLValue(namesMerchant ? merchantKey : nil), SQLValue(merchant?.name),
                SQLValue(merchant?.domain),
                SQLValue(part.orderDate), SQLValue(part.total?.amount), SQLValue(part.total?.currency),
                .integer(confirmation), SQLValue(lineItems), SQLValue(message.orderManagementURL),
                .integer(merchantFacts ? 1 : 0), .integer(order),
            ])
        try contribute(order: order, fact: "order", value: kind.rawValue)
        if let number = part.orderNumber { try contribute(order: order, fact: "orderNumber", value: number) }
        if merchantFacts {
            if let date = part.orderDate { try contribute(order: order, fact: "orderDate", value: date) }
            if let total = part.total {
                try contribute(order: order, fact: "total", value: "\(total.amount) \(total.currency)")
            }
            if lineItems != nil { try contribute(order: order, fact: "lineItems", value: lineItems) }
            if let url = message.orderManagementURL {
                try contribute(order: order, fact: "orderManagementURL", value: url)
            }
        }
        switch kind {
        case .cancellation where message.extraction.partialCancellation == true:
            // Part of the order cancelled ("one item of your order"): recorded; the order goes on.
            try contribute(order: order, fact: "partialCancellation")
        case .cancellation:
            try db.query(
                "UPDATE orders SET cancelled = 1, cancelled_at = COALESCE(MIN(cancelled_at, ?1), cancelled_at, ?1) WHERE id = ?2",
                [at, .integer(order)])
            try contribute(order: order, fact: "orderStatus", value: OrderStatus.cancelled.rawValue)
        case .refund:
            try contribute(order: order, fact: "refund")
        default:
            break
        }
    }

    /// Moves everything of a shipment-only record into `target` and deletes the record.
    private func absorb(_ source: Int64, into target: Int64) throws(StoreError) {
        try db.query(
            "UPDATE fulfillments SET order_id = ?1 WHERE order_id = ?2", [.integer(target), .integer(source)])
        try db.query(
            "UPDATE contributions SET order_id = ?1 WHERE order_id = ?2",
            [.integer(target), .integer(source)])
        try db.query(
            """
            UPDATE orders SET
                merchant_key = CASE WHEN orders.merchant_key = '' THEN s.merchant_key ELSE orders.merchant_key END,
                merchant_name = COALESCE(orders.merchant_name, s.merchant_name),
                merchant_domain = COALESCE(orders.merchant_domain, s.merchant_domain),
                order_date = COALESCE(orders.order_date, s.order_date),
                total_amount = COALESCE(orders.total_amount, s.total_amount),
                total_currency = CASE WHEN orders.total_amount IS NULL THEN s.total_currency
                    ELSE orders.total_currency END,
                line_items = COALESCE(orders.line_items, s.line_items),
                order_management_url = COALESCE(orders.order_management_url, s.order_management_url),
                first_message_at = COALESCE(MIN(orders.first_message_at, s.first_message_at),
                    orders.first_message_at, s.first_message_at),
                last_message_at = COALESCE(MAX(orders.last_message_at, s.last_message_at),
                    orders.last_message_at, s.last_message_at),
                cancelled = MAX(orders.cancelled, s.cancelled),
                cancelled_at = COALESCE(MIN(orders.cancelled_at, s.cancelled_at), orders.cancelled_at, s.cancelled_at),
                updated_at = COALESCE(MAX(orders.updated_at, s.updated_at), orders.updated_at, s.updated_at)
            FROM (SELECT * FROM orders WHERE id = ?2) AS s
            WHERE orders.id = ?1
            """, [.integer(target), .integer(source)])
        try db.query("DELETE FROM orders WHERE id = ?", [.integer(source)])
        try db.query(
            "UPDATE deleted_orders SET merged_into = ?1 WHERE merged_into = ?2",
            [.integer(target), .integer(source)])
        try db.query(
            "INSERT INTO deleted_orders (order_id, merged_into, sequence) VALUES (?, ?, ?)",
            [.integer(source), .integer(target), .integer(sequence)])
        deleted.append(source)
        touched.append(target)
        try checkpoint?("absorbed")
    }

    /// Order status (Wallet Orders `Order.status`): cancelled by a cancellation email or when
    /// every fulfillment is cancelled; completed when every other fulfillment is delivered.
    private func recomputeOrder(_ order: Int64) throws(StoreError) {
        let cancelled =
            try db.first("SELECT cancelled FROM orders WHERE id = ?", [.integer(order)])?.int(0) == 1
        let statuses = try db.query("SELECT status FROM fulfillments WHERE order_id = ?", [.integer(order)])
            .compactMap { $0.text(0).flatMap(ShipmentStatus.init(rawValue:)) }
        let active = statuses.filter { $0 != .cancelled }
        let status: OrderStatus
        if cancelled || (!statuses.isEmpty && active.isEmpty) {
            status = .cancelled
        } else if !active.isEmpty && active.allSatisfy({ $0 == .delivered }) {
            status = .completed
        } else {
            status = .open
        }
        try db.query("UPDATE orders SET status = ? WHERE id = ?", [.text(status.rawValue), .integer(order)])
    }

    // MARK: Fulfillments

    /// Every fulfillment of the parcel with this tracking key: one order's, or several orders'
    /// when they were shipped in one box. The orders of `merchantKey` come first, then by order
    /// key (what the emails say, not the order they were read in), then by age.
    private func fulfillments(trackingKey: String, merchantKey: String? = nil) throws(StoreError) -> [(
        id: Int64, orderID: Int64
    )] {
        try db.query(
            """
            SELECT f.id, f.order_id FROM fulfillments f JOIN orders o ON o.id = f.order_id
            WHERE f.normalized_tracking_number = ?1
            ORDER BY (o.merchant_key IS ?2) DESC, o.order_key IS NULL, o.order_key, f.id
            """, [.text(trackingKey), SQLValue(merchantKey)]
        ).compactMap { row in
            guard let id = row.int(0), let order = row.int(1) else { return nil }
            return (id, order)
        }
    }

    /// Gives a fulfillment of `order` the parcel another order's fulfillment (`sibling`) holds:
    /// the sibling's parcel fields where the fulfillment has none, and every fact of the
    /// messages that named the parcel. Every fulfillment of one parcel then holds the same
    /// facts about it, whichever order the messages were read in.
    private func joinParcel(_ fulfillment: Int64, of order: Int64, sibling: Int64, trackingKey: String)
        throws(StoreError)
    {
        try db.query(
            """
            UPDATE fulfillments SET
                carrier = COALESCE(fulfillments.carrier, s.carrier),
                tracking_number = COALESCE(fulfillments.tracking_number, s.tracking_number),
                normalized_tracking_number = s.normalized_tracking_number,
                tracking_url = COALESCE(fulfillments.tracking_url, s.tracking_url),
                estimated_from = CASE WHEN s.estimated_from IS NOT NULL
                    AND COALESCE(s.estimated_at, -1e300) >= COALESCE(fulfillments.estimated_at, -1e300)
                    THEN s.estimated_from ELSE fulfillments.estimated_from END,
                estimated_until = CASE WHEN s.estimated_from IS NOT NULL
                    AND COALESCE(s.estimated_at, -1e300) >= COALESCE(fulfillments.estimated_at, -1e300)
                    THEN s.estimated_until ELSE fulfillments.estimated_until END,
                estimated_at = CASE WHEN s.estimated_from IS NOT NULL
                    AND COALESCE(s.estimated_at, -1e300) >= COALESCE(fulfillments.estimated_at, -1e300)
                    THEN s.estimated_at ELSE fulfillments.estimated_at END,
                shipped_on = COALESCE(fulfillments.shipped_on, s.shipped_on),
                delivered_on = COALESCE(fulfillments.delivered_on, s.delivered_on)
            FROM (SELECT * FROM fulfillments WHERE id = ?2) AS s
            WHERE fulfillments.id = ?1
            """, [.integer(fulfillment), .integer(sibling)])
        let rows = try db.query(
            "SELECT sequence, fact, value, at FROM contributions WHERE fulfillment_id = ? ORDER BY id",
            [.integer(sibling)])
        // The messages that named the parcel; facts the sibling had before it had a tracking
        // number are its order's own.
        var naming = Set<Int64>()
        for row in rows where row.text(1) == "fulfillment" {
            if let sequence = row.int(0), OrderKeys.normalizedTrackingNumber(row.text(2)) == trackingKey {
                naming.insert(sequence)
            }
        }
        for row in rows {
            guard let sequence = row.int(0), naming.contains(sequence), let fact = row.text(1) else {
                continue
            }
            try db.query(
                """
                INSERT INTO contributions (sequence, order_id, fulfillment_id, fact, value, at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(sequence), .integer(order), .integer(fulfillment), .text(fact), row.values[2],
                    row.values[3],
                ])
        }
        // The order's first and last message times take in the messages it now shares.
        try db.query(
            """
            UPDATE orders SET
                first_message_at = COALESCE(MIN(first_message_at, c.first), first_message_at, c.first),
                last_message_at = COALESCE(MAX(last_message_at, c.last), last_message_at, c.last)
            FROM (SELECT MIN(at) AS first, MAX(at) AS last FROM contributions WHERE fulfillment_id = ?2) AS c
            WHERE orders.id = ?1
            """, [.integer(order), .integer(fulfillment)])
        touchedFulfillments.append(fulfillment)
        touched.append(order)
    }

    /// A fulfillment of the order with no tracking number yet, whose carrier does not contradict.
    private func trackinglessFulfillment(in order: Int64, carrier: String?) throws(StoreError) -> Int64? {
        try db.first(
            """
            SELECT id FROM fulfillments
            WHERE order_id = ?1 AND normalized_tracking_number IS NULL
                AND (carrier IS NULL OR ?2 IS NULL OR carrier = ?2)
            ORDER BY (carrier IS ?2) DESC, id LIMIT 1
            """, [.integer(order), SQLValue(carrier)])?.int(0)
    }

    /// The fulfillment a shipment without a tracking number speaks of: one of the order's without
    /// a tracking number whose carrier does not contradict, else the only one whose carrier does
    /// not contradict, else a new one when there is none; `nil` when several parcels could be meant.
    private func fulfillmentForUntracked(in order: Int64, carrier: String?) throws(StoreError) -> Int64? {
        if let trackingless = try trackinglessFulfillment(in: order, carrier: carrier) { return trackingless }
        let candidates = try db.query(
            "SELECT id FROM fulfillments WHERE order_id = ?1 AND (carrier IS NULL OR ?2 IS NULL OR carrier = ?2)",
            [.integer(order), SQLValue(carrier)]
        ).compactMap { $0.int(0) }
        switch candidates.count {
        case 0: return try createFulfillment(in: order)
        case 1: return candidates[0]
        default: return nil
        }
    }

    private func createFulfillment(in order: Int64) throws(StoreError) -> Int64 {
        try db.query("INSERT INTO fulfillments (order_id) VALUES (?)", [.integer(order)])
        return db.lastInsertRowID
    }

    private func updateFulfillment(_ id: Int64, with shipment: Shipment, orderID: Int64) throws(StoreError) {
        touchedFulfillments.append(id)
        let trackingKey = OrderKeys.normalizedTrackingNumber(shipment.trackingNumber)
        try db.query(
            """
            UPDATE fulfillments SET
                carrier = COALESCE(carrier, ?1),
                tracking_number = COALESCE(tracking_number, ?2),
                normalized_tracking_number = COALESCE(normalized_tracking_number, ?3),
                tracking_url = COALESCE(tracking_url, ?4),
                estimated_from = CASE WHEN ?5 IS NOT NULL AND COALESCE(?7, -1e300) >= COALESCE(estimated_at, -1e300)
                    THEN ?5 ELSE estimated_from END,
                estimated_until = CASE WHEN ?5 IS NOT NULL AND COALESCE(?7, -1e300) >= COALESCE(estimated_at, -1e300)
                    THEN ?6 ELSE estimated_until END,
                estimated_at = CASE WHEN ?5 IS NOT NULL AND COALESCE(?7, -1e300) >= COALESCE(estimated_at, -1e300)
                    THEN ?7 ELSE estimated_at END,
                shipped_on = COALESCE(shipped_on, ?8),
                delivered_on = COALESCE(delivered_on, ?9)
            WHERE id = ?10
            """,
            [
                SQLValue(shipment.carrier), SQLValue(shipment.trackingNumber), SQLValue(trackingKey),
                SQLValue(shipment.trackingURL), SQLValue(shipment.estimatedDelivery?.from),
                SQLValue(shipment.estimatedDelivery?.until), at, SQLValue(shipment.shippedAt),
                SQLValue(shipment.deliveredAt), .integer(id),
            ])
        try contribute(order: orderID, fulfillment: id, fact: "fulfillment", value: shipment.trackingNumber)
        if let carrier = shipment.carrier {
            try contribute(order: orderID, fulfillment: id, fact: "carrier", value: carrier)
        }
        if let url = shipment.trackingURL {
            try contribute(order: orderID, fulfillment: id, fact: "trackingURL", value: url)
        }
        if let window = shipment.estimatedDelivery {
            try contribute(
                order: orderID, fulfillment: id, fact: "estimatedDelivery",
                value: "\(window.from)/\(window.until)")
        }
        if let day = shipment.shippedAt {
            try contribute(order: orderID, fulfillment: id, fact: "shippedAt", value: day)
        }
        if let day = shipment.deliveredAt {
            try contribute(order: orderID, fulfillment: id, fact: "deliveredAt", value: day)
        }
        var status = shipment.status ?? StatusFold.impliedStatus(for: kind)
        if status == nil, shipment.deliveredAt != nil { status = .delivered }
        if let status {
            try contribute(order: orderID, fulfillment: id, fact: "fulfillmentStatus", value: status.rawValue)
        }
    }

    /// Folds the fulfillment's status events (see ``StatusFold/fold(_:)``) and derives its times.
    private func recomputeFulfillment(_ id: Int64) throws(StoreError) {
        let events = try db.query(
            "SELECT value, at, sequence FROM contributions WHERE fulfillment_id = ? AND fact = 'fulfillmentStatus'",
            [.integer(id)]
        ).compactMap { row -> StatusEvent? in
            guard let status = row.text(0).flatMap(ShipmentStatus.init(rawValue:)) else { return nil }
            return StatusEvent(status: status, at: row.date(1), sequence: row.int(2) ?? 0)
        }
        let folded = StatusFold.fold(events)
        guard
            let row = try db.first(
                "SELECT shipped_on, delivered_on FROM fulfillments WHERE id = ?", [.integer(id)])
        else { return }
        let shippedAt = DayDate.parse(row.text(0)) ?? folded?.firstShippedAt
        var deliveredAt: Date?
        if folded?.status == .delivered || folded?.firstDeliveredAt != nil || row.text(1) != nil {
            deliveredAt = DayDate.parse(row.text(1)) ?? folded?.firstDeliveredAt
        }
        try db.query(
            "UPDATE fulfillments SET status = ?, status_at = ?, shipped_at = ?, delivered_at = ? WHERE id = ?",
            [
                .text((folded?.status ?? .processing).rawValue), SQLValue(folded?.statusAt),
                SQLValue(shippedAt),
                SQLValue(deliveredAt), .integer(id),
            ])
    }

    private func encode(_ items: [LineItem]) throws(StoreError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(items), as: UTF8.self)
        } catch {
            throw StoreError.badValue("line items: \(error)")
        }
    }
}
