import Extraction
import Foundation

extension SQLiteOrderStore {
    public func orders() throws(StoreError) -> [StoredOrder] {
        try locked { () throws(StoreError) in try loadOrders(where: "1", []) }
    }

    public func orders(changedAfter sequence: Int64) throws(StoreError) -> [StoredOrder] {
        try locked { () throws(StoreError) in
            try loadOrders(where: "o.change_sequence > ?", [.integer(sequence)])
        }
    }

    /// One page of ``orders(changedAfter:)``: the first `limit` orders changed after `sequence`
    /// whose ID is above `id`, by ID, so a caller can go through any number of changed orders
    /// with bounded memory (pass the last ID of a page to get the next; an empty page ends).
    /// - Parameters:
    ///   - sequence: the store sequence after which the orders changed.
    ///   - id: only orders with a larger ID (0 for the first page).
    ///   - limit: the most orders returned.
    /// - Returns: the orders, by ID.
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func orders(changedAfter sequence: Int64, idAbove id: Int64, limit: Int) throws(StoreError)
        -> [StoredOrder]
    {
        try locked { () throws(StoreError) in
            let last = try connection.first(
                """
                SELECT MAX(id) FROM (SELECT id FROM orders WHERE change_sequence > ? AND id > ?
                    ORDER BY id LIMIT ?)
                """, [.integer(sequence), .integer(id), .integer(Int64(max(1, limit)))])?.int(0)
            guard let last else { return [] }
            return try loadOrders(
                where: "o.change_sequence > ? AND o.id > ? AND o.id <= ?",
                [.integer(sequence), .integer(id), .integer(last)])
        }
    }

    public func deletedOrderIDs(after sequence: Int64) throws(StoreError) -> [Int64] {
        try locked { () throws(StoreError) in
            try connection.query(
                "SELECT order_id FROM deleted_orders WHERE sequence > ? ORDER BY order_id",
                [.integer(sequence)]
            ).compactMap { $0.int(0) }
        }
    }

    public func latestSequence() throws(StoreError) -> Int64 {
        try locked { () throws(StoreError) in
            try connection.first("SELECT COALESCE(MAX(sequence), 0) FROM messages")?.int(0) ?? 0
        }
    }

    public func unlinkedShipments() throws(StoreError) -> [StoredOrder] {
        try locked { () throws(StoreError) in try loadOrders(where: "o.order_key IS NULL", []) }
    }

    /// How many shipment-only records there are (``unlinkedShipments()`` without loading them).
    /// - Throws: ``StoreError`` when the store cannot be read.
    public func unlinkedShipmentCount() throws(StoreError) -> Int {
        try locked { () throws(StoreError) in
            Int(try connection.first("SELECT COUNT(*) FROM orders o WHERE o.order_key IS NULL")?.int(0) ?? 0)
        }
    }

    public func order(id: Int64) throws(StoreError) -> StoredOrder? {
        try locked { () throws(StoreError) in try loadOrders(where: "o.id = ?", [.integer(id)]).first }
    }

    public func messageCount() throws(StoreError) -> Int {
        try locked { () throws(StoreError) in
            Int(try connection.first("SELECT COUNT(*) FROM messages")?.int(0) ?? 0)
        }
    }

    public func contributions(orderID: Int64) throws(StoreError) -> [Contribution] {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                SELECT m.sequence, m.origin, m.message_id, m.content_hash, m.kind, m.sent_at,
                    c.fulfillment_id, c.fact, c.value
                FROM contributions c JOIN messages m ON m.sequence = c.sequence
                WHERE c.order_id = ? ORDER BY m.sequence, c.id
                """, [.integer(orderID)]
            ).map { row in
                Contribution(
                    sequence: row.int(0) ?? 0, origin: row.text(1) ?? "", messageID: row.text(2),
                    contentHash: row.text(3) ?? "",
                    kind: row.text(4).flatMap(EmailKind.init(rawValue:)) ?? .notAnOrder,
                    date: row.date(5), fulfillmentID: row.int(6), fact: row.text(7) ?? "", value: row.text(8))
            }
        }
    }

    public func origins(orderID: Int64) throws(StoreError) -> [String] {
        try locked { () throws(StoreError) in
            try connection.query(
                """
                SELECT m.origin FROM messages m
                WHERE m.sequence IN (SELECT sequence FROM contributions WHERE order_id = ?1)
                UNION SELECT k.origin FROM message_copies k
                WHERE k.sequence IN (SELECT sequence FROM contributions WHERE order_id = ?1)
                ORDER BY 1
                """, [.integer(orderID)]
            ).compactMap { $0.text(0) }
        }
    }

    /// Orders matching a fixed SQL condition on `orders o` (never built from input), with their
    /// fulfillments and message counts.
    private func loadOrders(where condition: String, _ parameters: [SQLValue]) throws(StoreError)
        -> [StoredOrder]
    {
        let rows = try connection.query(
            """
            SELECT o.id, o.merchant_key, o.merchant_name, o.merchant_domain, o.order_number, o.status,
                o.order_date, o.first_message_at, o.last_message_at, o.total_amount, o.total_currency,
                o.line_items, o.order_management_url, o.change_sequence,
                (SELECT COUNT(DISTINCT c.sequence) FROM contributions c WHERE c.order_id = o.id), o.updated_at
            FROM orders o WHERE \(condition) ORDER BY o.id
            """, parameters)
        guard !rows.isEmpty else { return [] }
        let fulfillmentRows = try connection.query(
            """
            SELECT f.order_id, f.id, f.carrier, f.tracking_number, f.normalized_tracking_number, f.tracking_url,
                f.status, f.estimated_from, f.estimated_until, f.shipped_at, f.delivered_at, f.status_at
            FROM fulfillments f JOIN orders o ON o.id = f.order_id
            WHERE \(condition) ORDER BY f.order_id, f.id
            """, parameters)
        var fulfillments: [Int64: [StoredFulfillment]] = [:]
        for row in fulfillmentRows {
            guard let order = row.int(0), let id = row.int(1) else { continue }
            var window: DateWindow?
            if let from = row.text(7) { window = DateWindow(from: from, until: row.text(8) ?? from) }
            fulfillments[order, default: []].append(
                StoredFulfillment(
                    id: id, carrier: row.text(2), trackingNumber: row.text(3),
                    normalizedTrackingNumber: row.text(4),
                    trackingURL: row.text(5),
                    status: row.text(6).flatMap(ShipmentStatus.init(rawValue:)) ?? .processing,
                    estimatedDelivery: window, shippedAt: row.date(9), deliveredAt: row.date(10),
                    statusAt: row.date(11)))
        }
        var orders: [StoredOrder] = []
        orders.reserveCapacity(rows.count)
        for row in rows {
            guard let id = row.int(0) else { continue }
            var total: MonetaryAmount?
            if let amount = row.text(9), let currency = row.text(10) {
                total = MonetaryAmount(amount: amount, currency: currency)
            }
            var lineItems: [LineItem] = []
            if let json = row.text(11) {
                lineItems = (try? JSONDecoder().decode([LineItem].self, from: Data(json.utf8))) ?? []
            }
            orders.append(
                StoredOrder(
                    id: id, merchantKey: row.text(1) ?? "", merchantName: row.text(2),
                    merchantDomain: row.text(3),
                    orderNumber: row.text(4),
                    status: row.text(5).flatMap(OrderStatus.init(rawValue:)) ?? .open,
                    orderDate: DayDate.parse(row.text(6)), firstMessageAt: row.date(7),
                    lastMessageAt: row.date(8),
                    total: total, lineItems: lineItems, orderManagementURL: row.text(12),
                    fulfillments: fulfillments[id] ?? [], messageCount: Int(row.int(14) ?? 0),
                    changeSequence: row.int(13) ?? 0, updatedAt: row.date(15)))
        }
        return orders
    }
}
