import Extraction
import Foundation
import Testing

@testable import OrderStore

/// A process dying inside `apply` leaves on disk exactly the files as they are at that moment:
/// the tests copy the database, its WAL and its shared-memory file from inside the open
/// transaction, then open the copy as the next run would.
@Suite struct CrashSafetyTests {
    struct SimulatedCrash: Error {}

    static let points = ["message recorded", "absorbed", "facts recorded", "before commit"]

    /// Copies the database files as they are now into a new folder and returns the copy's path.
    static func snapshot(of path: String, into folder: URL) throws -> String {
        let copyFolder = folder.appendingPathComponent("crash-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: copyFolder, withIntermediateDirectories: true)
        let copy = copyFolder.appendingPathComponent("mailorders.sqlite").path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        return copy
    }

    @Test func crashAtAnyPointOfAnyMessageLeavesNoHalfAppliedMessageAndARerunMatches() throws {
        let thread = splitThread()
        let uninterrupted = try TemporaryStore()
        var afterEach: [[StoredOrder]] = [try uninterrupted.store.orders()]
        for message in thread {
            _ = try uninterrupted.store.apply(message)
            afterEach.append(try uninterrupted.store.orders())
        }
        let final = try #require(afterEach.last)

        var crashes = 0
        for crashIndex in thread.indices {
            for point in Self.points {
                let db = try TemporaryStore()
                // A tiny page cache makes SQLite spill uncommitted pages into the WAL mid-transaction.
                try db.store.connection.execute("PRAGMA cache_size = 2")
                try db.apply(Array(thread.prefix(crashIndex)))
                var crashCopy: String?
                let folder = db.folder
                let path = db.path
                db.store.checkpoint = { (name: String) throws(StoreError) in
                    guard name == point, crashCopy == nil else { return }
                    crashCopy = try? Self.snapshot(of: path, into: folder)
                }
                _ = try db.store.apply(thread[crashIndex])
                db.store.checkpoint = nil
                guard let crashCopy else { continue }  // this message never reaches that point
                crashes += 1

                let restarted = try SQLiteOrderStore(path: crashCopy)
                defer { restarted.close() }
                #expect(
                    try restarted.messageCount() == crashIndex, "crash at \(point) of message \(crashIndex)")
                #expect(
                    try restarted.orders() == afterEach[crashIndex],
                    "crash at \(point) of message \(crashIndex)")
                #expect(try restarted.connection.first("PRAGMA integrity_check")?.text(0) == "ok")
                for message in thread { _ = try restarted.apply(message) }
                #expect(
                    try restarted.orders() == final, "rerun after crash at \(point) of message \(crashIndex)")
                #expect(try restarted.messageCount() == thread.count)
            }
        }
        #expect(crashes >= thread.count * 3)
    }

    @Test func failureInsideApplyRollsBackAndTheStoreGoesOn() throws {
        let db = try TemporaryStore()
        let thread = splitThread()
        try db.apply(thread[0])
        let before = try db.store.orders()
        db.store.checkpoint = { (name: String) throws(StoreError) in
            if name == "facts recorded" { throw StoreError.badValue("injected failure") }
        }
        #expect(throws: StoreError.badValue("injected failure")) { try db.store.apply(thread[2]) }
        db.store.checkpoint = nil
        #expect(try db.store.orders() == before)
        #expect(try !db.store.contains(contentHash: thread[2].contentHash))
        #expect(try db.store.apply(thread[2]).effects != nil)
        #expect(try db.store.orders().first?.fulfillments.count == 1)
    }
}
