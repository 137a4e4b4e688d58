import CSQLite
import Foundation

/// A value bound to, or read from, an SQLite statement.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    init(_ string: String?) { self = string.map { .text($0) } ?? .null }
    init(_ integer: Int64?) { self = integer.map { .integer($0) } ?? .null }
    init(_ date: Date?) { self = date.map { .real($0.timeIntervalSince1970) } ?? .null }
}

/// One result row, read by column index.
struct SQLRow {
    var values: [SQLValue]

    func text(_ index: Int) -> String? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .text(let string): return string
        case .integer(let integer): return String(integer)
        case .real(let real): return String(real)
        case .null: return nil
        }
    }

    func int(_ index: Int) -> Int64? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .integer(let integer): return integer
        case .real(let real): return Int64(exactly: real.rounded(.towardZero))
        case .text(let string): return Int64(string)
        case .null: return nil
        }
    }

    func date(_ index: Int) -> Date? {
        guard index < values.count else { return nil }
        switch values[index] {
        case .real(let real): return Date(timeIntervalSince1970: real)
        case .integer(let integer): return Date(timeIntervalSince1970: Double(integer))
        case .text, .null: return nil
        }
    }
}

/// A thin owner of one `sqlite3*` handle: prepared statements cached by SQL text, every value
/// bound as a parameter, text read and written with explicit byte lengths (so NUL survives).
///
/// Not thread-safe on its own; ``SQLiteOrderStore`` serializes access.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    let path: String

    /// Opens (creating if needed) the database at `path`.
    /// - Parameter readOnly: open for reading only (`SQLITE_OPEN_READONLY`): the file must
    ///   exist, and nothing, not even the journal mode, is written.
    /// - Throws: ``StoreError/cannotOpen(path:message:)`` with ``SQLiteOrderStore/pathProblem(_:)``'s
    ///   reason before SQLite is asked (which says only "disk I/O error" or "unable to open
    ///   database file" for them), or SQLite's.
    init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        if let problem = SQLiteOrderStore.pathProblem(path) {
            throw StoreError.cannotOpen(path: path, message: problem)
        }
        var db: OpaquePointer?
        let flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw StoreError.cannotOpen(path: path, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the handle; an open transaction is rolled back.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs one or more statements that take no parameters (schema, pragmas, transaction control).
    func execute(_ sql: String) throws(StoreError) {
        guard let handle else { throw StoreError.closed }
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw StoreError.sqlite(code: code, message: text, sql: sql)
        }
    }

    /// Runs a statement with bound parameters and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(parameters, to: statement, sql: sql)
        var rows: [SQLRow] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code, sql: sql) }
            let count = sqlite3_column_count(statement)
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count { values.append(read(statement, column)) }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    /// The first row of a query, if any.
    func first(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> SQLRow? {
        try query(sql, parameters).first
    }

    /// The row id of the last successful INSERT on this connection.
    var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    /// Whether a transaction is open (autocommit is off).
    var inTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        guard let handle else { throw StoreError.closed }
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql: sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ parameters: [SQLValue], to statement: OpaquePointer, sql: String) throws(StoreError) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(statement, index)
            case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
            case .real(let real): code = sqlite3_bind_double(statement, index, real)
            case .text(let string):
                var copy = string
                code = copy.withUTF8 { bytes in
                    // A non-null pointer even for "" so that SQLite stores an empty text, not NULL.
                    let empty: StaticString = ""
                    let base = UnsafeRawPointer(bytes.baseAddress ?? empty.utf8Start)
                    return sqlite3_bind_text64(
                        statement, index, base.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
                        transient, UInt8(SQLITE_UTF8))
                }
            }
            guard code == SQLITE_OK else { throw error(code, sql: sql) }
        }
    }

    private func read(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, column))
        case SQLITE_NULL: return .null
        default:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }

    private func error(_ code: Int32, sql: String) -> StoreError {
        let message =
            handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        return StoreError.sqlite(code: code, message: message, sql: sql)
    }
}

extension StoreError {
    /// Whether the store itself failed, rather than one message's values: it cannot be opened,
    /// read or written (read-only, an I/O error, a full disk, corrupt, locked by another
    /// writer past the busy timeout, its schema damaged or newer than this program's), or it is
    /// closed. No later write can be expected to succeed then, so a caller applying many
    /// messages stops instead of skipping them one after another.
    ///
    /// A message's own failures are a constraint it breaks, a value too large or of the wrong
    /// type, or a value that cannot be encoded (``badValue(_:)``).
    public var isStoreFailure: Bool {
        switch self {
        case .cannotOpen, .newerSchema, .closed: return true
        case .badValue: return false
        case .sqlite(let code, _, _):
            switch code & 0xFF {
            case SQLITE_CONSTRAINT, SQLITE_TOOBIG, SQLITE_MISMATCH, SQLITE_RANGE: return false
            default: return true
            }
        }
    }

    /// Why, in a few words and without the statement that failed: SQLite's message with its
    /// result code (`attempt to write a readonly database (SQLite error 8)`), or for the other
    /// cases what ``description`` says.
    public var reason: String {
        switch self {
        case .cannotOpen(_, let message): return message
        case .sqlite(let code, let message, _): return "\(message) (SQLite error \(code))"
        default: return description
        }
    }
}
