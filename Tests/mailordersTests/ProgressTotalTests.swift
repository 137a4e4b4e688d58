import Foundation
import Mailbox
import Testing

@testable import mailorders

/// `scan`'s progress bar on a terminal counts messages, an mbox's each, as the run does; the
/// count runs on a thread of its own and stops when the run ends.
@Suite struct ProgressTotalTests {
    static let example = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur")

    /// A folder with an mbox of three messages, a Maildir of two, and one `.eml`.
    static func mailbox(in folder: URL) throws -> URL {
        let mail = folder.appendingPathComponent("mail")
        try FileManager.default.createDirectory(
            at: mail.appendingPathComponent("box/cur"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: mail.appendingPathComponent("box/new"), withIntermediateDirectories: true)
        let files = try FileManager.default.contentsOfDirectory(atPath: example.path).sorted()
        let messages = try files.map { try Data(contentsOf: example.appendingPathComponent($0)) }
        try #require(messages.count >= 3)
        var mbox = Data()
        for message in messages.prefix(3) {
            mbox += Data("From orders@northwind-outfitters.example Thu Nov 19 21:05:00 2026\n".utf8)
            mbox += message + Data("\n".utf8)
        }
        try mbox.write(to: mail.appendingPathComponent("inbox.mbox"))
        try messages[0].write(to: mail.appendingPathComponent("box/cur/1.a:2,S"))
        try messages[1].write(to: mail.appendingPathComponent("box/new/2.b"))
        try messages[2].write(to: mail.appendingPathComponent("one.eml"))
        return mail
    }

    @Test func theTotalCountsMessagesOnATerminal() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mail = try Self.mailbox(in: folder)
        let progress = ProgressReporter(quiet: true, isTerminal: true)
        #expect(!progress.showsTotal)
        let shown = ProgressReporter(quiet: false, isTerminal: true)
        #expect(shown.showsTotal)
        shown.countTotal { MessageSource(paths: [mail.path]) }
        for _ in 0..<500 where shown.total == nil { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(shown.total == 6)
        let line = shown.line(done: 6, orders: 2, shipments: 1, now: Date())
        #expect(line.contains(" 6/6 messages"), "\(line)")

        // As many as the scan reads.
        let result = try CommandRunner.run([
            "scan", mail.path, "--out", folder.appendingPathComponent("orders").path, "--json", "--quiet",
        ])
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(summary["messagesRead"] as? Int == 6, "\(result.standardError)")
    }

    /// Not on a terminal, or after the run ended, no total is counted.
    @Test func noCountWhereItIsNotShown() async throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mail = try Self.mailbox(in: folder)
        let plain = ProgressReporter(quiet: false, isTerminal: false)
        plain.countTotal { MessageSource(paths: [mail.path]) }
        let finished = ProgressReporter(quiet: false, isTerminal: true)
        finished.finish()
        finished.countTotal { MessageSource(paths: [mail.path]) }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(plain.total == nil)
        #expect(finished.total == nil)
    }
}
