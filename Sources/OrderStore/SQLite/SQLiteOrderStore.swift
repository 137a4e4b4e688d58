import CSQLite
import Extraction
import Foundation

/// The embedded order store: one SQLite file (by default `<out>/mailorders.sqlite`).
///
/// WAL journal, `foreign_keys=ON`, a busy timeout, temporary data in memory, schema migrations
/// by `PRAGMA user_version`, and every value bound as a parameter. A message is applied in one `BEGIN IMMEDIATE … COMMIT`
/// transaction of its own, or, inside ``batch(_:)``, in a `SAVEPOINT` of the batch's one
/// transaction. `synchronous=NORMAL`: a killed process loses nothing committed; a power cut may
/// lose the last transactions but never leaves one half-applied.
///
/// Calls are serialized by a lock, so one instance may be shared; it is meant to be the one
/// writer that applies results in order. While a batch is open, calls from other threads wait
/// until it ends.
public final class SQLiteOrderStore: OrderStore, @unchecked Sendable {
    /// Recursive: the body of ``batch(_:)`` runs with the lock held and calls the store again.
    private let lock = NSRecursiveLock()
    let connection: SQLiteConnection
    /// Called at named points inside ``apply(_:)``'s transaction (or savepoint) and before a
    /// batch commits; crash tests use it.
    var checkpoint: ((String) throws(StoreError) -> Void)?
    /// Whether ``batch(_:)`` has its transaction open (guarded by `lock`).
    private var batchIsOpen = false
    /// Why the open batch's transaction is lost, once it is: SQLite rolls the whole transaction
    /// back by itself on some errors (disk full, I/O error, out of memory). Writes then fail at
    /// once instead of running outside any transaction, and the batch throws it.
    private var batchFailure: StoreError?

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
        // Temporary data stays in memory: above all the journal of a message's savepoint inside
        // a batch, which holds the pages that one message changes and is emptied when it is
        // released, and which would otherwise go to a temporary file once past 64 KiB.
        try connection.execute("PRAGMA temp_store = MEMORY")
        try migrate()
    }

    /// Opens the existing store at `path` for reading only, as `mailorders orders` does: a
    /// database the caller may not write (another user's, on a read-only disk) can be listed.
    /// Nothing is migrated: an older schema is read as it is.
    /// - Parameter path: the database file.
    /// - Throws: ``StoreError/cannotOpen(path:message:)`` (also when the file does not exist),
    ///   ``StoreError/newerSchema(found:supported:)`` or ``StoreError/sqlite(code:message:sql:)``.
    public init(readingOnly path: String) throws(StoreError) {
        connection = try SQLiteConnection(path: path, readOnly: true)
        try connection.execute("PRAGMA busy_timeout = 10000")
        try connection.execute("PRAGMA foreign_keys = ON")
        try connection.execute("PRAGMA temp_store = MEMORY")
        let found = try connection.first("PRAGMA user_version")?.int(0) ?? 0
        guard found <= Schema.currentVersion else {
            throw StoreError.newerSchema(found: found, supported: Schema.currentVersion)
        }
    }

    /// Closes the database; later calls throw ``StoreError/closed``.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        connection.close()
    }

    /// Why `path` cannot be a database file, when the file system says so before SQLite is
    /// asked: it is a folder (`it is a folder, not a database file`), or the folder it would be
    /// in is not there (`its folder DIR does not exist`) or is no folder (`DIR is not a folder`),
    /// it ends with `/` (`it names a folder …`), or it is a symbolic link to nothing or one of a
    /// loop of links (`its symbolic links form a loop …`). `nil` for a
    /// path that may be one (a file, or a new file
    /// in an existing folder; whether it can be read or written is SQLite's to say), and for
    /// `:memory:` and the empty path (SQLite's private databases).
    /// - Parameter path: the database path as given (relative to the current folder or absolute).
    /// - Returns: the reason, on one line, to follow the path (`PATH: reason`).
    public static func pathProblem(_ path: String) -> String? {
        guard !path.isEmpty, path != ":memory:" else { return nil }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return isFolder.boolValue ? "it is a folder, not a database file" : nil
        }
        // A name ending in "/" names a folder (POSIX path resolution): SQLite would create a
        // file under the name without it.
        if path.hasSuffix("/") { return "it names a folder (it ends with /), not a database file" }
        // Symbolic links that lead back to themselves (`stat(2)` fails with ELOOP), or a link to
        // nothing: SQLite says only that it cannot open the file.
        var status = stat()
        if stat(path, &status) != 0 && errno == ELOOP {
            return "its symbolic links form a loop (or are nested too deep): it names no file"
        }
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            return "it is a symbolic link to \(target), which does not exist"
        }
        let parent = (path as NSString).deletingLastPathComponent
        // A relative name without a folder is in the current folder.
        guard !parent.isEmpty else { return nil }
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder) else {
            return "its folder \(parent) does not exist"
        }
        return isFolder.boolValue ? nil : "\(parent) is not a folder"
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

    /// Runs `body` so that what it writes is stored whole or not at all: in a transaction of its
    /// own, or inside an open batch in a savepoint that is rolled back alone when `body` throws.
    private func atomically<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard batchIsOpen else { return try transaction(body) }
        if let batchFailure { throw batchFailure }
        guard connection.inTransaction else {
            let lost = Self.lostBatchTransaction
            batchFailure = lost
            throw lost
        }
        try connection.execute("SAVEPOINT atomically")
        do throws(StoreError) {
            let result = try body()
            try connection.execute("RELEASE atomically")
            return result
        } catch {
            if connection.inTransaction {
                do throws(StoreError) {
                    try connection.execute("ROLLBACK TO atomically; RELEASE atomically")
                } catch let rollbackError {
                    batchFailure = rollbackError
                }
            } else {
                batchFailure = error
            }
            throw error
        }
    }

    /// The error of a batch whose transaction SQLite rolled back without telling us why.
    private static let lostBatchTransaction = StoreError.sqlite(
        code: SQLITE_ABORT, message: "the batch's transaction was rolled back", sql: "COMMIT")

    /// Runs `body` as one batch: everything the store writes from inside it — each
    /// ``apply(_:)``, each ``recordCopyIfKnown(origin:contentHash:)`` — is committed together,
    /// in one transaction, when `body` returns.
    ///
    /// Each of those calls runs in a `SAVEPOINT` of the batch's transaction. When one throws,
    /// what it wrote is rolled back (`ROLLBACK TO`, `RELEASE`) and only it: the others of the
    /// batch still commit. Reads from inside `body` see what the batch wrote so far, so a
    /// message applied twice in one batch is ``ApplyOutcome/alreadyApplied`` the second time,
    /// exactly as with one transaction per message.
    ///
    /// ```swift
    /// let outcomes = try store.batch { () throws(StoreError) in
    ///     messages.map { message in Result { () throws(StoreError) in try store.apply(message) } }
    /// }
    /// ```
    ///
    /// Durability: batching saves one commit, with its writes to the WAL and its locking of the
    /// shared-memory index, per message. The price is that a process killed inside a batch loses
    /// the whole batch, not only the message in progress. Its messages are not recorded, so the
    /// next scan reads and applies them again; nothing is ever half-applied, since a batch commits
    /// whole or not at all and each message inside it is applied whole or not at all.
    ///
    /// A batch opened inside another one is a savepoint of the outer batch's transaction: when its
    /// `body` throws, only what that `body` wrote is rolled back.
    ///
    /// The store's lock is held until the batch ends: calls from other threads wait.
    /// - Parameter body: the work of the batch; it may call this store's methods.
    /// - Returns: what `body` returned, once committed.
    /// - Throws: ``StoreError``: the error `body` threw, after rolling back everything it wrote;
    ///   or why the transaction could not begin or commit, or why SQLite abandoned it while `body`
    ///   ran (disk full, I/O error). Then nothing of the batch is stored, whatever `body` returned
    ///   for its calls; running the same calls again outside a batch applies them one by one.
    public func batch<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try locked { () throws(StoreError) -> T in
            if batchIsOpen { return try atomically(body) }
            try connection.execute("BEGIN IMMEDIATE")
            batchIsOpen = true
            batchFailure = nil
            defer {
                batchIsOpen = false
                batchFailure = nil
            }
            do throws(StoreError) {
                let result = try body()
                if let batchFailure { throw batchFailure }
                guard connection.inTransaction else { throw Self.lostBatchTransaction }
                try checkpoint?("batch before commit")
                try connection.execute("COMMIT")
                return result
            } catch {
                if connection.inTransaction { try? connection.execute("ROLLBACK") }
                throw error
            }
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
        guard var text = messageID.map({ trimmed($0, in: .whitespacesAndNewlines) }) else { return nil }
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 {
            text = trimmed(String(text.dropFirst().dropLast()), in: .whitespaces)
        }
        return text.isEmpty ? nil : text
    }

    /// `text` without the characters of `set` at its ends. Foundation's trimming runs only when
    /// an end is not a visible ASCII character (`!` … `~`), which no white space or line end is:
    /// a Message-ID almost never needs it.
    private static func trimmed(_ text: String, in set: CharacterSet) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last,
            (0x21...0x7E).contains(first), (0x21...0x7E).contains(last)
        else { return text.trimmingCharacters(in: set) }
        return text
    }

    public func contains(contentHash: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in try knownSequence(contentHash: contentHash) != nil }
    }

    public func contains(_ message: IngestedMessage) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            try knownSequence(
                contentHash: message.contentHash, messageID: Self.normalizedMessageID(message.messageID),
                factsDigest: message.factsDigest) != nil
        }
    }

    /// The sequence of the message applied with these bytes, or of which they were recorded as
    /// a copy.
    private func knownSequence(contentHash: String) throws(StoreError) -> Int64? {
        try connection.first(
            """
            SELECT sequence FROM messages WHERE content_hash = ?1
            UNION ALL SELECT sequence FROM message_copies WHERE content_hash = ?1 LIMIT 1
            """, [.text(contentHash)])?.int(0)
    }

    /// The sequence of the message this one is a copy of: the same bytes, else the same
    /// Message-ID and the same facts digest (see ``OrderStore``). A message recorded before
    /// digests were (schema version 1, `facts_digest` NULL) matches only by its bytes.
    private func knownSequence(contentHash: String, messageID: String?, factsDigest: String)
        throws(StoreError)
        -> Int64?
    {
        if let known = try knownSequence(contentHash: contentHash) { return known }
        guard let messageID else { return nil }
        return try connection.first(
            "SELECT sequence FROM messages WHERE message_id = ? AND facts_digest = ?",
            [.text(messageID), .text(factsDigest)])?.int(0)
    }

    /// Records `origin` as a copy of the message with these bytes, when there is one.
    ///
    /// For the scanner: calling this instead of ``contains(contentHash:)`` both skips a
    /// known message and remembers that it was also found at `origin` (a re-delivered duplicate),
    /// so ``origins(orderID:)`` lists it. Writes only when the origin is new (inside ``batch(_:)``,
    /// in a savepoint of the batch's transaction).
    /// - Parameters:
    ///   - origin: where this copy was found.
    ///   - contentHash: SHA-256 of its raw bytes, lower-case hex.
    /// - Returns: `true` when a message with these bytes is known (skip it), else `false`.
    /// - Throws: ``StoreError`` when the store cannot be read or written.
    public func recordCopyIfKnown(origin: String, contentHash: String) throws(StoreError) -> Bool {
        try locked { () throws(StoreError) in
            guard let known = try knownSequence(contentHash: contentHash) else {
                return false
            }
            if try isRecorded(known, origin: origin, contentHash: contentHash) { return true }
            try atomically { () throws(StoreError) in
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
        try apply(message, factsDigest: message.factsDigest)
    }

    /// ``apply(_:)`` with the message's ``IngestedMessage/factsDigest`` computed ahead, on
    /// another thread: a scan computes it on its worker threads, so that the one thread that
    /// writes the store does not.
    /// - Parameter factsDigest: `message.factsDigest`, exactly (checked in debug builds).
    public func apply(_ message: IngestedMessage, factsDigest: String) throws(StoreError) -> ApplyOutcome {
        assert(factsDigest == message.factsDigest, "factsDigest is not the message's")
        return try locked { () throws(StoreError) in
            try atomically { () throws(StoreError) -> ApplyOutcome in
                let messageID = Self.normalizedMessageID(message.messageID)
                if let known = try knownSequence(
                    contentHash: message.contentHash, messageID: messageID, factsDigest: factsDigest)
                {
                    // Another copy of a known message: remember its bytes and origin so the next scan
                    // skips it early and the order lists it.
                    try recordCopy(of: known, origin: message.origin, contentHash: message.contentHash)
                    return .alreadyApplied
                }
                // A message of its own, even when its Message-ID is known: it says something else.
                try connection.query(
                    """
                    INSERT INTO messages (origin, message_id, content_hash, kind, sent_at, applied_at, facts_digest)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(message.origin), SQLValue(messageID), .text(message.contentHash),
                        .text(message.extraction.kind.rawValue), SQLValue(message.date), SQLValue(Date()),
                        .text(factsDigest),
                    ])
                let sequence = connection.lastInsertRowID
                for reference in message.references.prefix(IngestedMessage.maximumReferences) {
                    guard let id = Self.normalizedMessageID(reference), id != messageID else { continue }
                    try connection.query(
                        "INSERT INTO message_references (sequence, message_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                        [.integer(sequence), .text(id)])
                }
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
