import Foundation
import Testing

@testable import mailorders

/// Report files named on the command line are written through a symbolic link, as a shell's
/// `>` writes, and the link stays.
@Suite(.serialized) struct OutputFileTests {
    @Test func checkOutWritesThroughALink() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let artefacts = folder.appendingPathComponent("artefacts")
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("report.json").path
        // A relative link to a file that does not exist yet: it is created where the link points.
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "artefacts/check.json")
        let result = try CommandRunner.run(
            ["check", CheckCommandTests.shipped, "--format", "json", "--out", link])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "artefacts/check.json")
        let written = try String(contentsOf: artefacts.appendingPathComponent("check.json"), encoding: .utf8)
        #expect(written.contains("NW-48213"))
    }

    @Test func corpusJUnitWritesThroughALink() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let corpus = folder.appendingPathComponent("corpus")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        try Data("From: a@b.example\nSubject: hi\n\nHello.\n".utf8).write(
            to: corpus.appendingPathComponent("hello.eml"))
        try Data(#"{"kind": "notAnOrder"}"#.utf8).write(
            to: corpus.appendingPathComponent("hello.expected.json"))
        let target = folder.appendingPathComponent("junit-target.xml").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = folder.appendingPathComponent("junit.xml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let result = try CommandRunner.run(["corpus", corpus.path, "--junit", link])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains("<testsuite"))
    }

    @Test func aLoopOfLinksIsAnError() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("a").path
        let second = folder.appendingPathComponent("b").path
        try FileManager.default.createSymbolicLink(atPath: first, withDestinationPath: second)
        try FileManager.default.createSymbolicLink(atPath: second, withDestinationPath: first)
        #expect(throws: POSIXError(.ELOOP)) { try OutputFile.destination(of: first) }
        let result = try CommandRunner.run(["check", CheckCommandTests.shipped, "--out", first])
        #expect(result.status == 2)
        #expect(result.standardError.contains("too many levels of symbolic links"), "\(result.standardError)")
        // The links are left as they were.
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: first) == second)
    }

    @Test func aPlainPathIsItsOwnDestination() throws {
        #expect(
            try OutputFile.destination(of: "/nonexistent-folder/report.txt")
                == "/nonexistent-folder/report.txt")
    }
}
