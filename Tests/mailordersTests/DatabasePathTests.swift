import Foundation
import Testing

/// `scan --db` and `orders --db` with a folder, or a file in a folder that is not there: a
/// fatal error (exit status 2) that names the path and what is wrong with it, in JSON too
/// with `--json`, and nothing created.
@Suite struct DatabasePathTests {
    static let maildir = CommandRunner.repository.appendingPathComponent("examples/Maildir").path

    @Test func scanWithAFolderAsDatabase() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("db")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run([
            "scan", Self.maildir, "--out", out.path, "--db", database.path, "--json", "--quiet",
        ])
        #expect(result.status == 2)
        let expected = "cannot open the order store \(database.path): it is a folder, not a database file"
        #expect(result.standardError == "mailorders scan: \(expected)\n")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(summary["error"] as? String == expected)
        #expect(summary["exitCode"] as? Int == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path), "the output folder is not made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: database.path).isEmpty)
    }

    /// A run stopped by its command line after an earlier run replaces that run's record in
    /// an output folder that is there: the record never tells of an earlier run.
    @Test func aStoppedRunReplacesAnEarlierRunsRecord() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        let first = try CommandRunner.run(["scan", Self.maildir, "--out", out.path, "--quiet"])
        #expect(first.status == 0)
        let record = out.appendingPathComponent(".mailorders-last-scan.json")
        let database = folder.appendingPathComponent("db")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        for arguments in [
            ["--db", database.path], ["--db", folder.path + "/gone/"],
        ] {
            let stopped = try CommandRunner.run(
                ["scan", Self.maildir, "--out", out.path, "--quiet"] + arguments)
            #expect(stopped.status == 2)
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
            #expect(summary["exitCode"] as? Int == 2)
            #expect((summary["error"] as? String)?.hasPrefix("cannot open the order store") == true)
        }
        let missing = try CommandRunner.run([
            "scan", folder.appendingPathComponent("no-mailbox").path, "--out", out.path, "--quiet",
        ])
        #expect(missing.status == 2)
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        #expect((summary["error"] as? String)?.hasPrefix("cannot read ") == true)
    }

    @Test func scanWithADatabaseInAMissingFolder() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no/such")
        let database = missing.appendingPathComponent("orders.sqlite").path
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run([
            "scan", Self.maildir, "--out", out.path, "--db", database, "--quiet",
        ])
        #expect(result.status == 2)
        #expect(
            result.standardError
                == "mailorders scan: cannot open the order store \(database): its folder \(missing.path) does not exist\n"
        )
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    /// The default database place, inside the output folder, taken by a folder.
    @Test func scanWithAFolderWhereTheDefaultDatabaseGoes() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("mailorders.sqlite")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let result = try CommandRunner.run(["scan", Self.maildir, "--out", folder.path, "--quiet"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("\(database.path): it is a folder, not a database file"))
    }

    @Test func ordersWithAFolderAsDatabase() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["orders", "--db", folder.path, "--json"])
        #expect(result.status == 2)
        let expected = "cannot read the order store \(folder.path): it is a folder, not a database file"
        #expect(result.standardError == "mailorders orders: \(expected)\n")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["error"] as? String == expected)
        #expect(object["exitCode"] as? Int == 2)
    }

    @Test func ordersWithALoopOfLinksOrAMissingDatabaseGiven() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: "b.sqlite")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("b.sqlite").path, withDestinationPath: "a.sqlite")
        let loop = try CommandRunner.run(["orders", "--db", first])
        #expect(loop.status == 2)
        #expect(
            loop.standardError.contains(
                "cannot read the order store \(first): its symbolic links form a loop"))
        // A database given that is not there: the scan to run names it.
        let missing = folder.appendingPathComponent("none.sqlite").path
        let none = try CommandRunner.run(["orders", "--db", missing])
        #expect(none.status == 2)
        #expect(
            none.standardError
                == "mailorders orders: no order database at \(missing); run 'mailorders scan --db \(missing)' first\n"
        )
    }
}
