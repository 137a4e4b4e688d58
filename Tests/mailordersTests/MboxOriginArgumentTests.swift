import Foundation
import Testing

/// `check`, `extract` and `inspect` open an origin as a scan summary lists it: `FILE#N`, the
/// `N`-th message of the mbox `FILE`.
@Suite struct MboxOriginArgumentTests {
    static let cur = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur")

    /// An mbox of the example Maildir's first two messages, junk before the first separator.
    func mbox(in folder: URL) throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.cur.path).sorted()
        var text = "stray line\n"
        for name in names.prefix(2) {
            text += "From shop@example.com Fri Jul  8 12:08:34 2011\n"
            text += try String(contentsOf: Self.cur.appendingPathComponent(name), encoding: .utf8) + "\n"
        }
        let url = folder.appendingPathComponent("box.mbox")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// An mbox whose name is not UTF-8, given as reports write it (`M\xE4rz.mbox#2`).
    @Test func theNthMessageOfAnMboxNamedInOtherBytesIsRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = try mbox(in: folder)
        let renamed = Array(folder.path.utf8) + Array("/M".utf8) + [0xE4] + Array("rz.mbox".utf8) + [0]
        let moved = renamed.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { rename(box.path, $0.baseAddress!) }
        }
        #expect(moved == 0)
        let shown = folder.path + "/M\\xE4rz.mbox"
        let second = try CommandRunner.run(["extract", shown + "#2"])
        #expect(second.status == 0, "\(second.standardError)")
        let source =
            (try? JSONSerialization.jsonObject(with: Data(second.standardOutput.utf8)) as? [String: Any])?[
                "source"]
            as? String
        #expect(source == shown + "#2")
    }

    @Test func theNthMessageOfAnMboxIsRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = try mbox(in: folder)
        // Counted as scan and extract count the whole mbox.
        let all = try CommandRunner.run(["extract", box.path])
        let sources = all.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["source"] as? String
        }
        #expect(sources == [box.path + "#1", box.path + "#2"])
        for index in 1...2 {
            let extract = try CommandRunner.run(["extract", "\(box.path)#\(index)"])
            #expect(extract.status == 0, "\(extract.standardError)")
            let line = String(all.standardOutput.split(separator: "\n")[index - 1])
            #expect(extract.standardOutput == line + "\n")
        }
        let check = try CommandRunner.run(["check", box.path + "#2"])
        #expect(check.status != 2, "\(check.standardError)")
        #expect(check.standardOutput.hasPrefix(box.path + "#2: "))
        let inspect = try CommandRunner.run(["inspect", box.path + "#1"])
        #expect(inspect.status == 0, "\(inspect.standardError)")
        #expect(inspect.standardOutput.hasPrefix("origin: " + box.path + "#1\n"))
    }

    @Test func aMissingMessageOrASingleMessageFileIsNamedInTheError() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let box = try mbox(in: folder)
        let missing = try CommandRunner.run(["check", box.path + "#3"])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("is an mbox of 2 messages, it has no message 3"))
        let zero = try CommandRunner.run(["check", box.path + "#0"])
        #expect(zero.status == 2)
        #expect(
            zero.standardError.contains(
                "the messages of an mbox are counted from 1 (\(box.path)#1 is the first)"),
            "\(zero.standardError)")
        let single = folder.appendingPathComponent("one.eml")
        try FileManager.default.copyItem(
            at: Self.cur.appendingPathComponent(
                try FileManager.default.contentsOfDirectory(atPath: Self.cur.path).sorted()[0]),
            to: single)
        let notMbox = try CommandRunner.run(["extract", single.path + "#1"])
        #expect(notMbox.status == 1)
        #expect(notMbox.standardError.contains("is one message, not an mbox"))
        // A file whose name ends in #N is read as it is.
        let named = folder.appendingPathComponent("order#1")
        try FileManager.default.copyItem(at: single, to: named)
        let plain = try CommandRunner.run(["extract", named.path])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardOutput.contains("\"source\":\"\(named.path)\""))
    }
}
