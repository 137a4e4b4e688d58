import CSQLite
import Foundation
import Testing

/// A store that cannot be written or read (read-only, damaged schema) stops `scan` with
/// exit status 2 and one line saying why, instead of skipping every message.
@Suite(.serialized) struct ScanStoreFailureTests {
    static let example = CommandRunner.repository.appendingPathComponent("examples/Maildir").path

    /// Bundle folders and files in `out`, by name.
    func bundles(in out: URL) throws -> Set<String> {
        Set(
            try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
                !$0.hasPrefix(".") && !$0.contains(".sqlite")
            })
    }

    func record(in out: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: out.appendingPathComponent(".mailorders-last-scan.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Runs SQL on the database file, as damage from outside would.
    func damage(_ database: URL, _ sql: String) throws {
        var handle: OpaquePointer?
        #expect(sqlite3_open(database.path, &handle) == SQLITE_OK)
        defer { sqlite3_close(handle) }
        #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK)
    }

    /// One example message scanned into `folder/orders`: the output folder and its bundles.
    func scanOneMessage(into folder: URL) throws -> (out: URL, bundles: Set<String>) {
        let out = folder.appendingPathComponent("orders")
        let first = try CommandRunner.run([
            "scan", Self.example + "/cur/1764400001.M1P4242.mailhost:2,S", "--out", out.path, "--quiet",
        ])
        #expect(first.status == 0, "\(first.standardError)")
        return (out, try bundles(in: out))
    }

    @Test func aDamagedSchemaStopsTheRun() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, before) = try scanOneMessage(into: folder)
        try damage(out.appendingPathComponent("mailorders.sqlite"), "DROP TABLE contributions")

        let result = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json"])
        #expect(result.status == 2)
        let lines = CommandRunner.withoutSanitizerReport(result.standardError).split(separator: "\n")
        #expect(lines.count == 1, "\(result.standardError)")
        #expect(result.standardError.contains("no such table: contributions"))
        #expect(result.standardError.contains(out.appendingPathComponent("mailorders.sqlite").path))
        #expect(!result.standardError.contains("Skipped"))
        let summary = try record(in: out)
        #expect(summary["exitCode"] as? Int == 2)
        #expect((summary["skipped"] as? [Any])?.isEmpty == true)
        // Nothing written from what the failed run half applied.
        #expect(try bundles(in: out) == before)
    }

    /// As another user, a store owned by someone else cannot be written (root writes anyway,
    /// so this runs only where the tests run as root and can switch user).
    @Test(
        .enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aReadOnlyStoreStopsTheRun() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (out, before) = try scanOneMessage(into: folder)
        chmod(folder.path, 0o755)
        chmod(out.path, 0o777)
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path)
        where name.hasPrefix("mailorders.sqlite") {
            chown(out.appendingPathComponent(name).path, 65534, 65534)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=1000", "--regid=1000", "--clear-groups", CommandRunner.executable.path, "scan",
            Self.example, "--out", out.path,
        ]
        process.currentDirectoryURL = CommandRunner.repository
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(text)")
        #expect(text.contains("readonly database"), "\(text)")
        #expect(CommandRunner.withoutSanitizerReport(text).split(separator: "\n").count == 1, "\(text)")
        #expect(try record(in: out)["exitCode"] as? Int == 2)
        #expect(try bundles(in: out) == before)
    }
}
