import Extraction
import Foundation

/// The embedded order store: one SQLite file (by default `<out>/mailorders.sqlite`).
///
/// WAL journal, `foreign_keys=ON`, a busy timeout, schema migrations by `PRAGMA user_version`,
/// every message applied in one `BEGIN IMMEDIATE … COMMIT` transaction and every value bound as
/// a parameter. `synchronous=NORMAL`: a killed process loses nothing committed; a power cut may
/// lose the last transactions but never leaves one half-applied.
///
/// Calls are serialized by a lock, so one instance may be shared; it is meant to be the one
/// writer that applies results in order.
public final class SQLiteOrderStore: OrderStore, @unchecked Sendable {
    private let lock = NSLock()
    let connection: SQLiteConnection
    /// Called at named points inside ``apply(_:)``'s transaction; crash tests use it.
    var checkpoint: ((String) throws(StoreError) -> Void)?

    /// Opens (creating and migrating if needed) the store at `path`.
    ///
    /// - Parameter path: the database file; `:memory:` for a private in-memory store.
    /// - Throws: ``StoreError/cannotOpen(path:message:)``, ``StoreError/newerSchema(found:supported:)``
    ///   or ``StoreError/sqlite(code:message:sql:)``.
    public init(path: String) throws(StoreError) {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA busy_timeout = 10000")
        try connection.query("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute("PRAGMA foreign_keys = ON")
        try migrate()
    }

    /// Closes the database; later calls throw ``StoreError/closed``.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }

    /// The store's file name in the output folder when no `--db` is given.
    public static let defaultFileName = "mailorders.sqlite"

    /// The default store path: `<out>/mailorders.sqlite`, beside the bundles.
    /// - Parameter outputFolder: the folder bundles are written to.
    /// - Returns: the database path.
    public static func defaultPath(outputFolder: String) -> String {
        URL(fileURLWithPath: outputFolder, isDirectory: true).appendingPathComponent(defaultFileName).path
    }

    /// The schema version this program writes (`PRAGMA user_version`).
    public static var schemaVersion: Int64 { Schema.currentVersion }

    private func migrate() throws(StoreError) {
        try transaction { () throws(StoreError) in
            let found = try connection.first("PRAGMA user_version")?.int(0) ?? 0
            guard found <= Schema.currentVersion else {
                throw StoreError.newerSchema(found: found, supported: Schema.currentVersion)
            }
            for version in Int(found)..<Schema.migrations.count {
                try connection.execute(Schema.migrations[version])
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
        }
    }

    private func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try connection.execute("BEGIN IMMEDIATE")
        do throws(StoreError) {
            let result = try body()
            try connection.execute("COMMIT")
            return result
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    func locked<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: Messages

    /// A Message-ID without surrounding spaces and angle brackets; `nil` when nothing is left.
    static func normalizedMessageID(_ messageID: String?) -> String? {
        guard var text = messageID?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 {
            text = String(text.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return text.isEmpty ? nil : text
    }

    public func contains(messageID: String?, contentHash: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            try knownSequence(messageID: Self.normalizedMessageID(messageID), contentHash: contentHash) != nil
        }
    }

    private func knownSequence(messageID: String?, contentHash: String) throws(StoreError) -> Int64? {
        if let messageID,
            let row = try connection.first(
                "SELECT sequence FROM messages WHERE message_id = ?", [.text(messageID)])
        {
            return row.int(0)
        }
        let row = try connection.first(
            """
            SELECT sequence FROM messages WHERE content_hash = ?1
            UNION ALL SELECT sequence FROM message_copies WHERE content_hash = ?1 LIMIT 1
            """, [.text(contentHash)])
        return row?.int(0)
    }

    /// Records `origin` as a copy of the message with these bytes, when there is one.
    ///
    /// For the scanner: calling this instead of ``contains(messageID:contentHash:)`` both skips a
    /// known message and remembers that it was also found at `origin` (a re-delivered duplicate),
    /// so ``origins(orderID:)`` lists it. Writes only when the origin is new.
    /// - Parameters:
    ///   - origin: where this copy was found.
    ///   - contentHash: SHA-256 of its raw bytes, lower-case hex.
    /// - Returns: `true` when a message with these bytes is known (skip it), else `false`.
    /// - Throws: ``StoreError`` when the store cannot be read or written.
    public func recordCopyIfKnown(origin: String, contentHash: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            guard let known = try knownSequence(messageID: nil, contentHash: contentHash) else {
                return false
            }
            if try isRecorded(known, origin: origin, contentHash: contentHash) { return true }
            try transaction { () throws(StoreError) in
                try recordCopy(of: known, origin: origin, contentHash: contentHash)
            }
            return true
        }
    }

    private func isRecorded(_ sequence: Int64, origin: String, contentHash: String) throws(StoreError) -> Bool
    {
        try connection.first(
            """
            SELECT 1 FROM messages WHERE sequence = ?1 AND content_hash = ?2 AND origin = ?3
            UNION ALL SELECT 1 FROM message_copies WHERE content_hash = ?2 AND origin = ?3
            """, [.integer(sequence), .text(contentHash), .text(origin)]) != nil
    }

    private func recordCopy(of sequence: Int64, origin: String, contentHash: String) throws(StoreError) {
        guard try !isRecorded(sequence, origin: origin, contentHash: contentHash) else { return }
        try connection.query(
            "INSERT INTO message_copies (content_hash, origin, sequence) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
            [.text(contentHash), .text(origin), .integer(sequence)])
    }

    public func apply(_ message: IngestedMessage) throws(StoreError) -> ApplyOutcome {
        try locked { () throws(StoreError) in
            try transaction { () throws(StoreError) -> ApplyOutcome in
                let messageID = Self.normalizedMessageID(message.messageID)
                if let known = try knownSequence(messageID: messageID, contentHash: message.contentHash) {
                    // Another copy of a known message: remember its bytes and origin so the next scan
                    // skips it early and the order lists it.
                    try recordCopy(of: known, origin: message.origin, contentHash: message.contentHash)
                    return .alreadyApplied
                }
                try connection.query(
                    """
                    INSERT INTO messages (origin, message_id, content_hash, kind, sent_at, applied_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(message.origin), SQLValue(messageID), .text(message.contentHash),
                        .text(message.extraction.kind.rawValue), SQLValue(message.date), SQLValue(Date()),
                    ])
                let sequence = connection.lastInsertRowID
                try checkpoint?("message recorded")
                let applier = MessageApplier(
                    connection: connection, sequence: sequence, message: message, checkpoint: checkpoint)
                try applier.run()
                try checkpoint?("before commit")
                return .applied(applier.effects())
            }
        }
    }
}
