import Extraction
import Foundation
import Testing

@testable import OrderStore

/// `batch(_:)`: many messages in one transaction, each in a savepoint of its own.
@Suite struct BatchTests {
    /// The orders of a fresh store after applying `messages` one by one, each in its own transaction.
    static func ordersAfterApplying(_ messages: [IngestedMessage]) throws -> [StoredOrder] {
        let reference = try TemporaryStore()
        try reference.apply(messages)
        return try reference.store.orders()
    }

    /// A checkpoint hook that throws at `point`, once.
    final class Failure: @unchecked Sendable {
        let point: String
        var thrown = false
        init(at point: String) { self.point = point }

        func hook(_ name: String) throws(StoreError) {
            guard name == point, !thrown else { return }
            thrown = true
            throw StoreError.badValue("injected failure at \(name)")
        }
    }

    @Test func aBatchGivesTheSameOrdersAsOneTransactionPerMessage() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        let outcomes = try db.store.batch { () throws(StoreError) in
            try thread.map { message throws(StoreError) in try db.store.apply(message) }
        }
        #expect(outcomes.allSatisfy { $0.effects != nil })
        #expect(outcomes.compactMap { $0.effects?.sequence } == Array(1...Int64(thread.count)))
        #expect(try db.store.orders() == Self.ordersAfterApplying(thread))
        #expect(try db.store.messageCount() == thread.count)
    }

    /// Every message of the thread in turn fails at every point of `apply`, in the middle of a
    /// batch: it alone is rolled back, the others commit, and the store is the one the others
    /// make without it; applied again afterwards, it joins as if it had never failed.
    @Test func aMessageThatFailsInsideABatchIsRolledBackAloneAndTheOthersCommit() throws {
        let thread = splitThread()
        var failures = 0
        for failing in thread.indices {
            for point in CrashSafetyTests.points {
                let db = try TemporaryStore()
                // A tiny page cache makes SQLite spill uncommitted pages into the WAL mid-batch.
                try db.store.connection.execute("PRAGMA cache_size = 2")
                let failure = Failure(at: point)
                typealias Outcome = Result<ApplyOutcome, StoreError>
                var current = -1
                db.store.checkpoint = { (name: String) throws(StoreError) in
                    if current == failing { try failure.hook(name) }
                }
                let outcomes = try db.store.batch { () throws(StoreError) -> [Outcome] in
                    var outcomes: [Outcome] = []
                    for (index, message) in thread.enumerated() {
                        current = index
                        do throws(StoreError) {
                            outcomes.append(.success(try db.store.apply(message)))
                        } catch {
                            outcomes.append(.failure(error))
                        }
                    }
                    return outcomes
                }
                db.store.checkpoint = nil
                var survivors = thread
                if failure.thrown {
                    failures += 1
                    survivors.remove(at: failing)
                    #expect(outcomes[failing] == Outcome.failure(.badValue("injected failure at \(point)")))
                }
                let context = "message \(failing) failing at \(point)"
                #expect(
                    outcomes.indices.allSatisfy {
                        $0 == failing || (try? outcomes[$0].get())?.effects != nil
                    },
                    "\(context)")
                #expect(try db.store.messageCount() == survivors.count, "\(context)")
                #expect(
                    try db.store.contains(contentHash: thread[failing].contentHash)
                        == !failure.thrown, "\(context)")
                #expect(try db.store.orders() == Self.ordersAfterApplying(survivors), "\(context)")
                #expect(try db.store.connection.first("PRAGMA integrity_check")?.text(0) == "ok")

                guard failure.thrown else { continue }
                #expect(try db.store.apply(thread[failing]).effects != nil, "\(context)")
                #expect(
                    try db.store.orders() == Self.ordersAfterApplying(survivors + [thread[failing]]),
                    "\(context)")
            }
        }
        #expect(failures >= thread.count * 3)
    }

    /// A real SQLite error: the database may not grow (`SQLITE_FULL`) while one message of a batch
    /// is applied, and SQLite rolls back the whole transaction. The messages after it then fail at
    /// once (none runs outside a transaction), the batch throws and stores nothing; the same calls
    /// again without a batch store every message but that one, as one transaction each would.
    @Test func whenSQLiteAbandonsTheBatchNothingOfItIsStoredAndTheCallsCanBeRepeated() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        try db.apply(thread[0])
        let before = try db.store.orders()
        let pages = try #require(try db.store.connection.first("PRAGMA page_count")?.int(0))
        try db.store.connection.query("PRAGMA max_page_count = \(pages + 8)")
        let huge = message(
            "huge", .orderConfirmation, at: november(2), orderNumber: "H-1",
            lineItems: [LineItem(title: String(repeating: "x", count: 400_000))])
        let batch = [thread[1], huge, thread[2]]
        func applyEach() -> [Result<ApplyOutcome, StoreError>] {
            batch.map { message in
                do throws(StoreError) {
                    return .success(try db.store.apply(message))
                } catch {
                    return .failure(error)
                }
            }
        }

        var insideBatch: [Result<ApplyOutcome, StoreError>] = []
        var thrown: StoreError?
        do throws(StoreError) {
            try db.store.batch { () throws(StoreError) in insideBatch = applyEach() }
        } catch {
            thrown = error
        }
        let full = try #require(thrown)
        guard case .sqlite(let code, _, _) = full else {
            Issue.record("unexpected error \(full)")
            return
        }
        #expect(code & 0xFF == 13)  // SQLITE_FULL
        #expect((try? insideBatch[0].get())?.effects != nil)
        #expect(insideBatch[1] == .failure(full))
        #expect(insideBatch[2] == .failure(full))
        #expect(try db.store.messageCount() == 1)
        #expect(try db.store.orders() == before)

        let oneByOne = applyEach()
        #expect((try? oneByOne[0].get())?.effects != nil)
        #expect((try? oneByOne[1].get()) == nil)
        #expect((try? oneByOne[2].get())?.effects != nil)
        #expect(try db.store.messageCount() == 3)
        #expect(try !db.store.contains(contentHash: huge.contentHash))
        #expect(try db.store.orders() == Self.ordersAfterApplying(Array(thread.prefix(3))))
        #expect(try db.store.connection.first("PRAGMA integrity_check")?.text(0) == "ok")
    }

    @Test func aBatchWhoseBodyThrowsLeavesTheStoreAsItWas() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        try db.apply(thread[0])
        let before = try db.store.orders()
        let order = try #require(before.first)
        let abandoned = StoreError.badValue("abandoned")
        var copyKnown = false
        var countInside = 0
        #expect(throws: abandoned) {
            try db.store.batch { () throws(StoreError) in
                for message in thread.dropFirst() { _ = try db.store.apply(message) }
                copyKnown = try db.store.recordCopyIfKnown(
                    origin: "copy/confirm.eml", contentHash: thread[0].contentHash)
                countInside = try db.store.messageCount()
                throw abandoned
            }
        }
        #expect(copyKnown)
        #expect(countInside == thread.count)
        #expect(try db.store.orders() == before)
        #expect(try db.store.messageCount() == 1)
        #expect(try db.store.latestSequence() == 1)
        #expect(try db.store.origins(orderID: order.id) == ["thread/confirm.eml"])
        #expect(!db.store.connection.inTransaction)

        // The store goes on: the same messages in another batch give the uninterrupted result.
        try db.store.batch { () throws(StoreError) in
            for message in thread.dropFirst() { _ = try db.store.apply(message) }
        }
        #expect(try db.store.orders() == Self.ordersAfterApplying(thread))
    }

    @Test func aFailureJustBeforeTheBatchCommitsStoresNothingOfIt() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        try db.apply(Array(thread.prefix(2)))
        let before = try db.store.orders()
        let failure = Failure(at: "batch before commit")
        db.store.checkpoint = failure.hook
        #expect(throws: StoreError.badValue("injected failure at batch before commit")) {
            try db.store.batch { () throws(StoreError) in
                for message in thread.dropFirst(2) { _ = try db.store.apply(message) }
            }
        }
        db.store.checkpoint = nil
        #expect(try db.store.orders() == before)
        #expect(try db.store.messageCount() == 2)
    }

    /// A process killed inside a batch: the files as they are at that moment, opened as the next
    /// run would, hold nothing of the batch; applying everything again gives the uninterrupted result.
    @Test func aCrashInsideABatchLosesTheBatchAndNothingElse() throws {
        let thread = splitThread()
        let final = try Self.ordersAfterApplying(thread)
        let points = ["message recorded", "facts recorded", "before commit", "batch before commit"]
        for point in points {
            let db = try TemporaryStore()
            try db.store.connection.execute("PRAGMA cache_size = 2")
            try db.apply(Array(thread.prefix(2)))
            let before = try db.store.orders()
            var crashCopy: String?
            let folder = db.folder
            let path = db.path
            var reached = 0
            db.store.checkpoint = { (name: String) throws(StoreError) in
                guard name == point else { return }
                reached += 1
                // The second time: one message of the batch is applied already.
                guard reached == 2 || point == "batch before commit", crashCopy == nil else { return }
                crashCopy = try? CrashSafetyTests.snapshot(of: path, into: folder)
            }
            try db.store.batch { () throws(StoreError) in
                for message in thread.dropFirst(2) { _ = try db.store.apply(message) }
            }
            db.store.checkpoint = nil
            let copy = try #require(crashCopy, "crash at \(point)")

            let restarted = try SQLiteOrderStore(path: copy)
            defer { restarted.close() }
            #expect(try restarted.connection.first("PRAGMA integrity_check")?.text(0) == "ok")
            #expect(try restarted.messageCount() == 2, "crash at \(point)")
            #expect(try restarted.orders() == before, "crash at \(point)")
            try restarted.batch { () throws(StoreError) in
                for message in thread
                where try !restarted.contains(contentHash: message.contentHash) {
                    _ = try restarted.apply(message)
                }
            }
            #expect(try restarted.orders() == final, "rerun after a crash at \(point)")
            #expect(try restarted.messageCount() == thread.count)
        }
    }

    /// A re-delivery (same Message-ID, other bytes) and a byte-for-byte copy in the same batch as
    /// their original: already applied, listed with the order, nothing changed.
    @Test func duplicatesOfAMessageEarlierInTheSameBatchAreAlreadyApplied() throws {
        let thread = splitThread()
        var redelivered = thread[0]
        redelivered.origin = "other/confirm-redelivered.eml"
        redelivered.contentHash = "hash-confirm-redelivered"
        let db = try TemporaryStore()
        let (outcomes, copyKnown) = try db.store.batch { () throws(StoreError) in
            let outcomes = try [thread[0], thread[1], redelivered, thread[2]].map {
                message throws(StoreError) in try db.store.apply(message)
            }
            let copyKnown = try db.store.recordCopyIfKnown(
                origin: "other/confirm-copy.eml", contentHash: thread[0].contentHash)
            return (outcomes, copyKnown)
        }
        #expect(outcomes[2] == .alreadyApplied)
        #expect(copyKnown)
        #expect(try db.store.messageCount() == 3)
        #expect(try db.store.orders() == Self.ordersAfterApplying(Array(thread.prefix(3))))
        let order = try #require(try db.store.orders().first { $0.orderNumber == "A-1" })
        #expect(
            try db.store.origins(orderID: order.id) == [
                "other/confirm-copy.eml", "other/confirm-redelivered.eml", "thread/confirm.eml",
                "thread/ship-ups.eml", "thread/ups-early.eml",
            ])
    }

    @Test func aBatchInsideABatchThatThrowsRollsBackOnlyItsOwnWrites() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        var inner: StoreError?
        try db.store.batch { () throws(StoreError) in
            _ = try db.store.apply(thread[0])
            do throws(StoreError) {
                try db.store.batch { () throws(StoreError) in
                    _ = try db.store.apply(thread[1])
                    _ = try db.store.apply(thread[2])
                    throw StoreError.badValue("inner")
                }
            } catch {
                inner = error
            }
            _ = try db.store.apply(thread[3])
        }
        #expect(inner == .badValue("inner"))
        #expect(try db.store.messageCount() == 2)
        #expect(try db.store.orders() == Self.ordersAfterApplying([thread[0], thread[3]]))
    }

    /// Another thread's call waits until the batch ends, so it is never part of the batch's
    /// transaction (here rolled back).
    @Test func anotherThreadWaitsUntilTheBatchEnds() throws {
        let thread = splitThread()
        let db = try TemporaryStore()
        let store = db.store
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let failures = Failures()
        let other = thread[1]
        #expect(throws: StoreError.badValue("abandoned")) {
            try store.batch { () throws(StoreError) in
                _ = try store.apply(thread[0])
                DispatchQueue.global().async {
                    started.signal()
                    do {
                        _ = try store.apply(other)
                    } catch {
                        failures.add("\(error)")
                    }
                    done.signal()
                }
                started.wait()
                Thread.sleep(forTimeInterval: 0.1)
                throw StoreError.badValue("abandoned")
            }
        }
        done.wait()
        #expect(failures.all.isEmpty)
        #expect(try store.messageCount() == 1)
        #expect(try store.contains(contentHash: other.contentHash))
        #expect(try !store.contains(contentHash: thread[0].contentHash))
    }
}
