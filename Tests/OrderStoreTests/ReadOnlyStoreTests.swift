import Extraction
import Foundation
import Testing

@testable import OrderStore

/// The store opened for reading only, as `mailorders orders` opens it: it reads what a scan
/// stored and writes nothing, not even a missing file.
@Suite struct ReadOnlyStoreTests {
    @Test func readsWhatWasStoredAndWritesNothing() throws {
        let db = try TemporaryStore()
        _ = try db.store.apply(message("confirm", .orderConfirmation, at: november(1), orderNumber: "A-1"))
        db.store.close()

        let reader = try SQLiteOrderStore(readingOnly: db.path)
        #expect(try reader.orders().map(\.orderNumber) == ["A-1"])
        #expect(throws: StoreError.self) {
            try reader.apply(message("second", .orderConfirmation, at: november(2), orderNumber: "A-2"))
        }
        reader.close()
        let again = try SQLiteOrderStore(readingOnly: db.path)
        #expect(try again.orders().count == 1)
        again.close()
    }

    @Test func aMissingDatabaseIsNotCreated() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID()).sqlite")
            .path
        #expect(throws: StoreError.self) { try SQLiteOrderStore(readingOnly: path) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
