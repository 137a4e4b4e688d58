import Foundation
import Testing

@testable import OrderStore

/// A database path that cannot be a database file is said so, naming what is wrong, before
/// SQLite is asked (SQLite says "disk I/O error" for a folder, "unable to open database
/// file" for a missing folder).
@Suite struct StorePathTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-path-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func reason(_ open: () throws(StoreError) -> SQLiteOrderStore) -> String? {
        do throws(StoreError) {
            _ = try open()
            return nil
        } catch {
            guard case .cannotOpen(_, let message) = error else { return "\(error)" }
            return message
        }
    }

    @Test func aFolderIsNoDatabaseFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path
        #expect(
            reason { () throws(StoreError) in try SQLiteOrderStore(path: path) }
                == "it is a folder, not a database file")
        #expect(
            reason { () throws(StoreError) in try SQLiteOrderStore(readingOnly: path) }
                == "it is a folder, not a database file")
        #expect(SQLiteOrderStore.pathProblem(path + "/") == "it is a folder, not a database file")
    }

    @Test func aMissingFolderIsNamed() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no/such")
        let path = missing.appendingPathComponent("orders.sqlite").path
        #expect(
            reason { () throws(StoreError) in try SQLiteOrderStore(path: path) }
                == "its folder \(missing.path) does not exist")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        #expect(SQLiteOrderStore.pathProblem(file.path + "/orders.sqlite") == "\(file.path) is not a folder")
    }

    @Test func aMissingNameEndingInASlashOrADanglingLinkIsSaidSo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing").path + "/"
        #expect(
            reason { () throws(StoreError) in try SQLiteOrderStore(path: missing) }
                == "it names a folder (it ends with /), not a database file")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing").path))
        let link = folder.appendingPathComponent("dangling.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "nowhere.sqlite")
        #expect(
            SQLiteOrderStore.pathProblem(link)
                == "it is a symbolic link to nowhere.sqlite, which does not exist")
    }

    @Test func aLoopOfSymbolicLinksIsSaidSo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.sqlite").path
        let second = folder.appendingPathComponent("b.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "b.sqlite")
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: "a.sqlite")
        let expected = "its symbolic links form a loop (or are nested too deep): it names no file"
        #expect(SQLiteOrderStore.pathProblem(first) == expected)
        #expect(reason { () throws(StoreError) in try SQLiteOrderStore(path: second) } == expected)
    }

    @Test func aNewFileInAFolderOrInMemoryIsFine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(SQLiteOrderStore.pathProblem(folder.appendingPathComponent("new.sqlite").path) == nil)
        #expect(SQLiteOrderStore.pathProblem("relative.sqlite") == nil)
        #expect(SQLiteOrderStore.pathProblem(":memory:") == nil)
        let store = try SQLiteOrderStore(path: folder.appendingPathComponent("new.sqlite").path)
        #expect(try store.orders().isEmpty)
        store.close()
    }
}
