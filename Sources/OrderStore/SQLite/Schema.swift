/// The SQLite schema, one migration per `PRAGMA user_version` step.
enum Schema {
    /// Migration `n` takes the database from version `n` to `n + 1`.
    /// Migrations are never edited once released: a store written by an earlier version runs
    /// the ones after its `user_version`, in order, in one transaction.
    static let migrations: [String] = [version1, version2, version3, version4]

    static var currentVersion: Int64 { Int64(migrations.count) }

    /// Times are Unix seconds (REAL); days from emails are `YYYY-MM-DD` text as extracted.
    static let version1 = """
        CREATE TABLE messages (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            origin TEXT NOT NULL,
            message_id TEXT,
            content_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            sent_at REAL,
            applied_at REAL NOT NULL
        );
        CREATE UNIQUE INDEX messages_by_message_id ON messages(message_id) WHERE message_id IS NOT NULL;
        CREATE UNIQUE INDEX messages_by_content_hash ON messages(content_hash);

        -- Other copies of an applied message: the same bytes at another origin, or the same
        -- Message-ID with other bytes. They are skipped cheaply and listed with the message.
        CREATE TABLE message_copies (
            content_hash TEXT NOT NULL,
            origin TEXT NOT NULL,
            sequence INTEGER NOT NULL REFERENCES messages(sequence),
            PRIMARY KEY (content_hash, origin)
        );
        CREATE INDEX message_copies_by_sequence ON message_copies(sequence);

        CREATE TABLE orders (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            merchant_key TEXT NOT NULL,
            merchant_name TEXT,
            merchant_domain TEXT,
            order_number TEXT,
            order_key TEXT,
            status TEXT NOT NULL DEFAULT 'open',
            order_date TEXT,
            first_message_at REAL,
            last_message_at REAL,
            total_amount TEXT,
            total_currency TEXT,
            line_items TEXT,
            order_management_url TEXT,
            cancelled_at REAL,
            cancelled INTEGER NOT NULL DEFAULT 0,
            updated_at REAL,
            created_sequence INTEGER NOT NULL,
            change_sequence INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX orders_by_number ON orders(merchant_key, order_key) WHERE order_key IS NOT NULL;
        CREATE INDEX orders_by_change ON orders(change_sequence);

        CREATE TABLE fulfillments (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            order_id INTEGER NOT NULL REFERENCES orders(id),
            carrier TEXT,
            tracking_number TEXT,
            normalized_tracking_number TEXT,
            tracking_url TEXT,
            status TEXT NOT NULL DEFAULT 'processing',
            status_at REAL,
            estimated_from TEXT,
            estimated_until TEXT,
            estimated_at REAL,
            shipped_on TEXT,
            delivered_on TEXT,
            shipped_at REAL,
            delivered_at REAL
        );
        CREATE UNIQUE INDEX fulfillments_by_tracking ON fulfillments(normalized_tracking_number)
            WHERE normalized_tracking_number IS NOT NULL;
        CREATE INDEX fulfillments_by_order ON fulfillments(order_id);

        -- Which message contributed which fact; status facts are the events statuses are folded from.
        CREATE TABLE contributions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            sequence INTEGER NOT NULL REFERENCES messages(sequence),
            order_id INTEGER NOT NULL REFERENCES orders(id),
            fulfillment_id INTEGER REFERENCES fulfillments(id),
            fact TEXT NOT NULL,
            value TEXT,
            at REAL
        );
        CREATE INDEX contributions_by_order ON contributions(order_id);
        CREATE INDEX contributions_by_fulfillment ON contributions(fulfillment_id);

        -- Shipment-only records absorbed into an order: their bundles are to be removed.
        CREATE TABLE deleted_orders (
            order_id INTEGER PRIMARY KEY,
            merged_into INTEGER NOT NULL,
            sequence INTEGER NOT NULL REFERENCES messages(sequence)
        );
        """

    /// A message's identity becomes its Message-ID together with the digest of what it says
    /// (``IngestedMessage/factsDigest``), so different emails that reuse one Message-ID are each
    /// applied. The Message-ID alone is no longer unique.
    ///
    /// Messages recorded before this version have no digest (`NULL`): a later message with
    /// their Message-ID and other bytes is applied as a message of its own, once (its digest is
    /// recorded then); a copy with the same bytes is still known by its content hash.
    static let version2 = """
        ALTER TABLE messages ADD COLUMN facts_digest TEXT;
        DROP INDEX messages_by_message_id;
        CREATE UNIQUE INDEX messages_by_identity ON messages(message_id, facts_digest)
            WHERE message_id IS NOT NULL;
        """

    /// One parcel may be listed by several orders (a combined shipment: two orders in one
    /// box, each order's emails naming the same tracking number): a tracking number is unique
    /// within an order, no longer across orders.
    static let version3 = """
        DROP INDEX fulfillments_by_tracking;
        CREATE UNIQUE INDEX fulfillments_by_order_tracking ON fulfillments(order_id, normalized_tracking_number)
            WHERE normalized_tracking_number IS NOT NULL;
        CREATE INDEX fulfillments_by_tracking ON fulfillments(normalized_tracking_number)
            WHERE normalized_tracking_number IS NOT NULL;
        """

    /// The Message-IDs each message answers or follows (``IngestedMessage/references``,
    /// normalized as `messages.message_id`), so that an email of the merchant's without an
    /// order number joins the order of its thread, whichever of the two is applied first.
    /// Messages applied before this version have none.
    static let version4 = """
        CREATE TABLE message_references (
            sequence INTEGER NOT NULL REFERENCES messages(sequence),
            message_id TEXT NOT NULL,
            PRIMARY KEY (sequence, message_id)
        );
        CREATE INDEX message_references_by_id ON message_references(message_id);
        """
}
