import Foundation
import OrderStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// kill -9 in the middle of a scan, then the same scan again: nothing lost, duplicated or
/// half-applied, compared with an uninterrupted run.
@Suite(.serialized) struct CrashSafetyTests {
    /// An mbox of `count` order confirmations, each with its own Message-ID and order number.
    static func makeMailbox(count: Int, at url: URL) throws {
        let example = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur")
        let name = try #require(
            try FileManager.default.contentsOfDirectory(atPath: example.path).sorted().first)
        let template = try String(contentsOf: example.appendingPathComponent(name), encoding: .utf8)
        #expect(template.contains("NW-48213"))
        var mbox = ""
        for index in 0..<count {
            var message = template.replacingOccurrences(of: "NW-48213", with: "NW-\(60000 + index)")
            message = message.replacingOccurrences(
                of: #"Message-ID:\s*<[^>]*>"#,
                with: "Message-ID: <crash-\(index)@northwind-outfitters.example>",
                options: .regularExpression)
            message = message.replacingOccurrences(of: "\r\n", with: "\n")
            mbox += "From orders@northwind-outfitters.example Wed Nov 18 09:42:00 2026\n"
            mbox += message.replacingOccurrences(of: "\nFrom ", with: "\n>From ")
            if !mbox.hasSuffix("\n") { mbox += "\n" }
            mbox += "\n"
        }
        try Data(mbox.utf8).write(to: url)
    }

    func orderSummary(_ out: URL) throws -> [String] {
        let result = try CommandRunner.run(["orders", "--out", out.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        let list =
            (object as? [[String: Any]]) ?? ((object as? [String: Any])?["orders"] as? [[String: Any]]) ?? []
        return list.map { order in
            "\(order["orderNumber"] ?? "-") \(order["status"] ?? "-") \(order["messageCount"] ?? order["messages"] ?? "-")"
        }.sorted()
    }

    @Test func killedScanResumesToTheSameOrdersAsAnUninterruptedOne() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbox = folder.appendingPathComponent("orders.mbox")
        let count = 600
        try Self.makeMailbox(count: count, at: mbox)

        let reference = folder.appendingPathComponent("reference")
        let full = try CommandRunner.run([
            "scan", mbox.path, "--out", reference.path, "--quiet", "--jobs", "2",
        ])
        #expect(full.status == 0, "\(full.standardError)")
        let expected = try orderSummary(reference)
        #expect(expected.count == count)

        let interrupted = folder.appendingPathComponent("interrupted")
        // Kill at growing delays until a run is caught with some, but not all, messages applied.
        var killedMidRun = false
        for delay in [0.5, 1.0, 1.5, 2.5, 4.0, 6.0] {
            try? FileManager.default.removeItem(at: interrupted)
            let (process, _, _) = try CommandRunner.start(
                ["scan", mbox.path, "--out", interrupted.path, "--quiet", "--jobs", "2"])
            Thread.sleep(forTimeInterval: delay)
            guard process.isRunning else {
                process.waitUntilExit()
                break
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let database = interrupted.appendingPathComponent("mailorders.sqlite").path
            guard FileManager.default.fileExists(atPath: database) else { continue }
            let applied = try SQLiteOrderStore(path: database).messageCount()
            if applied > 0 && applied < count {
                killedMidRun = true
                // The killed run's record tells of it, not of an earlier run.
                let record = try JSONSerialization.jsonObject(
                    with: Data(
                        contentsOf: interrupted.appendingPathComponent(".mailorders-last-scan.json")))
                let fields = record as? [String: Any]
                #expect(fields?["exitCode"] as? Int == 2)
                #expect((fields?["error"] as? String)?.contains("did not finish") == true)
                break
            }
        }
        #expect(killedMidRun, "no run was caught with some but not all messages applied")
        let resumed = try CommandRunner.run([
            "scan", mbox.path, "--out", interrupted.path, "--quiet", "--json", "--jobs", "2",
        ])
        #expect(resumed.status == 0, "\(resumed.standardError)")
        #expect(try orderSummary(interrupted) == expected)
        // Every bundle is there after the resumed run, and valid.
        let bundles = try FileManager.default.contentsOfDirectory(atPath: interrupted.path).filter {
            !$0.contains(".sqlite") && !$0.hasPrefix(".")
        }
        #expect(bundles.count == count)
    }

    /// Two scans of one output folder (a cron run and a delivery hook): the one that ends while
    /// the other still runs leaves the other's "did not finish" record in place.
    @Test func aScanEndingWhileAnotherRunsLeavesItsRecordAlone() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbox = folder.appendingPathComponent("orders.mbox")
        try Self.makeMailbox(count: 1500, at: mbox)
        let out = folder.appendingPathComponent("out")
        let record = out.appendingPathComponent(".mailorders-last-scan.json")
        func fields() -> [String: Any]? {
            guard let data = try? Data(contentsOf: record) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
        let (long, _, _) = try CommandRunner.start([
            "scan", mbox.path, "--out", out.path, "--quiet", "--jobs", "1",
        ])
        // Until the long run's record says it has started.
        let deadline = Date().addingTimeInterval(60)
        while (fields()?["error"] as? String)?.contains("did not finish") != true && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let short = try CommandRunner.run([
            "scan", CrashSafetyTests.exampleMessage, "--out", out.path, "--quiet",
        ])
        #expect(short.status == 0, "\(short.standardError)")
        let longStillRunning = long.isRunning
        let during = fields()
        long.waitUntilExit()
        #expect(long.terminationStatus == 0)
        if longStillRunning {
            #expect(
                (during?["error"] as? String)?.contains("did not finish") == true,
                "\(String(describing: during))")
            #expect(during?["exitCode"] as? Int == 2)
        }
        let after = fields()
        #expect(after?["exitCode"] as? Int == 0)
        #expect(after?["messagesRead"] as? Int == 1500)
        #expect(longStillRunning, "the long scan ended before the short one: nothing was checked")
    }

    static let exampleMessage = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400001.M1P4242.mailhost:2,S"
    ).path
}
