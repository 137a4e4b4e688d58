import Foundation
import Testing

/// `extract`, `inspect` and `check` read their inputs through one loop: an unreadable message is
/// reported with its path and skipped, the good ones are still processed, the exit status says so.
@Suite struct MessageLoopTests {
    static let good = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400001.M1P4242.mailhost:2,S"
    ).path

    func junkFile(in folder: URL) throws -> String {
        var junk = [UInt8](repeating: 0, count: 4096)
        for index in junk.indices { junk[index] = UInt8((index * 7919) & 0xFF) }
        let path = folder.appendingPathComponent("junk.eml").path
        try Data(junk).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [("extract", Int32(1)), ("inspect", Int32(1)), ("check", Int32(2))])
    func badInputsAreReportedAndTheGoodMessageIsStillRead(command: String, status: Int32) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = try junkFile(in: folder)
        let missing = folder.appendingPathComponent("missing.eml").path
        let result = try CommandRunner.run([command, junk, Self.good, missing])
        #expect(result.status == status)
        #expect(result.standardError.contains("mailorders \(command): skipped \(junk)"))
        #expect(
            result.standardError.contains("mailorders \(command): skipped \(missing) at byte 0: no such file")
        )
        switch command {
        case "extract": #expect(result.standardOutput.contains("\"orderNumber\""))
        case "inspect": #expect(result.standardOutput.contains(Self.good))
        default: #expect(result.standardOutput.contains("1764400001.M1P4242"))
        }
    }
}
