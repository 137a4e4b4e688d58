import Dispatch
import Foundation
import Testing

@testable import Mailbox

/// `MessageSource.defersFileReads`: files are listed unread and read later with
/// `MessageFile.read()`, on any thread, giving what reading them in place gives.
@Suite struct DeferredReadTests {
    /// Every entry of `source`, files left unread.
    func entries(_ source: MessageSource) -> [SourceEntry] {
        source.defersFileReads = true
        var entries: [SourceEntry] = []
        while let entry = source.nextEntry() { entries.append(entry) }
        return entries
    }

    /// What the entries give once read, in order: messages as their origin and text, problems
    /// as their origin and reason.
    func described(_ results: [Result<RawMessage, SourceProblem>]) -> [String] {
        results.map {
            switch $0 {
            case .success(let raw):
                "\(raw.origin.description)@\(raw.origin.byteOffset) [\(raw.maildirFlags ?? "-")] \(text(raw))"
            case .failure(let problem):
                "\(problem.origin.description)@\(problem.origin.byteOffset): \(problem.reason)"
            }
        }
    }

    func readInPlace(_ paths: [String], maxMessageBytes: Int = 64 << 20) -> [String] {
        described(Array(MessageSource(paths: paths, maxMessageBytes: maxMessageBytes)))
    }

    func readLater(_ entries: [SourceEntry]) -> [String] {
        described(
            entries.flatMap { entry -> [Result<RawMessage, SourceProblem>] in
                switch entry {
                case .read(let result): [result]
                case .unread(let file): file.read()
                }
            })
    }

    @Test func maildirFilesAreListedUnreadWithTheirSizes() throws {
        let folder = try TemporaryFolder()
        try folder.write("Maildir/tmp/.keep", "")
        let first = "Subject: one\r\n\r\nfirst body\r\n"
        try folder.write("Maildir/cur/1.host:2,RS", first)
        try folder.write("Maildir/new/2.host", "Subject: two\n\nsecond\n")
        let maildir = folder.url.appendingPathComponent("Maildir").path
        let listed = entries(MessageSource(paths: [maildir]))
        let files = listed.compactMap { entry -> MessageFile? in
            if case .unread(let file) = entry { return file }
            return nil
        }
        #expect(files.count == 2 && listed.count == 2)
        #expect(files.map { ($0.path as NSString).lastPathComponent } == ["1.host:2,RS", "2.host"])
        #expect(files.first?.byteCount == first.utf8.count)
        let later = readLater(listed)
        #expect(later == readInPlace([maildir]))
        #expect(later.first?.contains("[RS] Subject: one") == true)
        #expect(later.last?.contains("[] Subject: two") == true)
    }

    @Test func aSmallMboxIsReadLaterWithEveryMessageAndOffset() throws {
        let folder = try TemporaryFolder()
        let mbox = """
            From a@example.com Mon Jan  1 00:00:00 2024
            Subject: one

            body one

            From b@example.com Mon Jan  1 00:00:01 2024
            Subject: two

            body two

            """
        try folder.write("mail/inbox.mbox", mbox)
        try folder.write("mail/single.eml", "Subject: single\n\nhi\n")
        let path = folder.url.appendingPathComponent("mail").path
        let listed = entries(MessageSource(paths: [path]))
        #expect(listed.count == 2)
        let later = readLater(listed)
        #expect(later.count == 3)
        #expect(later == readInPlace([path]))
        #expect(later[1].hasPrefix(folder.url.appendingPathComponent("mail/inbox.mbox").path + "#2@"))
    }

    @Test func aFileOverOneMebibyteOutsideAMaildirIsStreamedInPlace() throws {
        let folder = try TemporaryFolder()
        var mbox = ""
        for index in 0..<5 {
            mbox += "From a@example.com Mon Jan  1 00:00:0\(index) 2024\nSubject: \(index)\n\n"
            mbox += String(repeating: "line of body text \(index)\n", count: 12_000) + "\n"
        }
        #expect(mbox.utf8.count > MessageSource.smallFileBytes)
        let path = try folder.write("big.mbox", mbox)
        // An mbox is read here, message by message, not all at once elsewhere.
        let listed = entries(MessageSource(paths: [path]))
        #expect(listed.count == 5)
        #expect(
            listed.allSatisfy {
                if case .read(.success) = $0 { return true }
                return false
            })
        #expect(readLater(listed) == readInPlace([path]))
    }

    @Test func aMaildirFileIsLeftUnreadUpToTheMessageLimit() throws {
        let folder = try TemporaryFolder()
        let body = String(repeating: "attachment line\r\n", count: 120_000)
        try folder.write("Maildir/cur/1.host:2,S", "Subject: big\r\n\r\n" + body)
        try folder.write("Maildir/cur/2.host:2,S", "Subject: too big\r\n\r\n" + body + body)
        try folder.write("Maildir/new/.keep-out", "")
        let maildir = folder.url.appendingPathComponent("Maildir").path
        let limit = 3 << 20
        let listed = entries(MessageSource(paths: [maildir], maxMessageBytes: limit))
        #expect(listed.count == 2)
        guard case .unread(let file) = listed.first else {
            Issue.record("a Maildir file under the limit is read in place")
            return
        }
        #expect(file.byteCount > MessageSource.smallFileBytes)
        // Over the limit: read (and refused) in place, as before.
        guard case .read(.failure(let problem)) = listed.last else {
            Issue.record("a Maildir file over the limit is not refused in place")
            return
        }
        #expect(problem.reason.contains("limit"))
        #expect(readLater(listed) == readInPlace([maildir], maxMessageBytes: limit))
    }

    @Test func maildirMessageFoldersAreToldByTheirName() {
        #expect(MessageSource.isInMaildirMessagesFolder("/m/Maildir/cur/1:2,S"))
        #expect(MessageSource.isInMaildirMessagesFolder("new/1"))
        #expect(MessageSource.isInMaildirMessagesFolder("Maildir/.Sent/new/x"))
        #expect(!MessageSource.isInMaildirMessagesFolder("/m/Maildir/tmp/1"))
        #expect(!MessageSource.isInMaildirMessagesFolder("/m/recur/1"))
        #expect(!MessageSource.isInMaildirMessagesFolder("/m/cur"))
        #expect(!MessageSource.isInMaildirMessagesFolder("cur"))
    }

    @Test func problemsFoundWhenListingComeInOrder() throws {
        let folder = try TemporaryFolder()
        try folder.write("mail/a.eml", "Subject: a\n\nhi\n")
        try folder.write("mail/b.eml", "")
        try folder.write("mail/c.eml", "Subject: c\n\nhi\n")
        let path = folder.url.appendingPathComponent("mail").path
        let missing = folder.url.appendingPathComponent("missing.eml").path
        let listed = entries(MessageSource(paths: [path, missing]))
        #expect(listed.count == 4)
        let later = readLater(listed)
        #expect(later == readInPlace([path, missing]))
        #expect(later[1].hasSuffix("b.eml@0: empty file"))
        #expect(later[3].hasSuffix("missing.eml@0: no such file or directory"))
    }

    @Test func aFileGoneOrReplacedSinceItWasListedIsAProblem() throws {
        let folder = try TemporaryFolder()
        let gone = try folder.write("mail/gone.eml", "Subject: a\n\nhi\n")
        let replaced = try folder.write("mail/replaced.eml", "Subject: b\n\nhi\n")
        let listed = entries(MessageSource(paths: [folder.url.appendingPathComponent("mail").path]))
        try FileManager.default.removeItem(atPath: gone)
        try FileManager.default.removeItem(atPath: replaced)
        try FileManager.default.createDirectory(atPath: replaced, withIntermediateDirectories: false)
        let later = readLater(listed)
        #expect(later == ["\(gone)@0: no such file or directory", "\(replaced)@0: not a regular file"])
    }

    @Test func aMaildirMessageRenamedOrDeletedSinceItWasListed() throws {
        let folder = try TemporaryFolder()
        let flagged = try folder.write("Maildir/cur/1.host:2,S", "Subject: one\n\nhi\n")
        let moved = try folder.write("Maildir/new/2.host", "Subject: two\n\nhi\n")
        let deleted = try folder.write("Maildir/cur/3.host:2,S", "Subject: three\n\nhi\n")
        let listed = entries(MessageSource(paths: [folder.url.appendingPathComponent("Maildir").path]))
        #expect(listed.count == 3)
        // A mail reader marks one answered, moves the new one to cur/, deletes the third.
        let cur = folder.url.appendingPathComponent("Maildir/cur")
        try FileManager.default.moveItem(
            atPath: flagged, toPath: cur.appendingPathComponent("1.host:2,RS").path)
        try FileManager.default.moveItem(atPath: moved, toPath: cur.appendingPathComponent("2.host:2,").path)
        try FileManager.default.removeItem(atPath: deleted)
        let later = readLater(listed)
        #expect(
            later == [
                cur.appendingPathComponent("1.host:2,RS").path + "@0 [RS] Subject: one\n\nhi\n",
                cur.appendingPathComponent("2.host:2,").path + "@0 [] Subject: two\n\nhi\n",
            ])
        #expect(MessageSource.renamedMaildirMessage(cur.appendingPathComponent("1.host").path) != nil)
        #expect(MessageSource.renamedMaildirMessage(cur.appendingPathComponent("1.hos:2,S").path) == nil)
    }

    /// Renamed or deleted between the listing of its folder and its own `stat(2)`: the same.
    @Test func aMaildirMessageRenamedOrDeletedBeforeItIsVisited() throws {
        let folder = try TemporaryFolder()
        let cur = folder.url.appendingPathComponent("Maildir/cur")
        for index in 1...3 { try folder.write("Maildir/cur/\(index).host:2,S", "Subject: \(index)\n\nhi\n") }
        try folder.write("Maildir/new/.keep-out", "")
        let dangling = cur.appendingPathComponent("4.host:2,S").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/x")
        let source = MessageSource(paths: [folder.url.appendingPathComponent("Maildir").path])
        source.defersFileReads = true
        // The first entry lists the Maildir and its cur/ before any message is visited.
        var results: [Result<RawMessage, SourceProblem>] = []
        var renamedAndDeleted = false
        while let entry = source.nextEntry() {
            if !renamedAndDeleted {
                try FileManager.default.moveItem(
                    atPath: cur.appendingPathComponent("2.host:2,S").path,
                    toPath: cur.appendingPathComponent("2.host:2,RS").path)
                try FileManager.default.removeItem(atPath: cur.appendingPathComponent("3.host:2,S").path)
                renamedAndDeleted = true
            }
            switch entry {
            case .read(let result): results.append(result)
            case .unread(let file): results += file.read()
            }
        }
        let got = described(results)
        #expect(got.count == 3, "\(got)")
        #expect(got.contains { $0.hasPrefix(cur.appendingPathComponent("2.host:2,RS").path + "@0 [RS]") })
        // A dangling link is still reported.
        #expect(got.contains { $0.hasPrefix(dangling + "@0: ") })
    }

    @Test func aFileGrownPastTheLimitSinceItWasListedIsReportedNotRead() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("Maildir/cur/1.host:2,S", "Subject: one\n\nhi\n")
        try folder.write("Maildir/new/.keep-out", "")
        let listed = entries(
            MessageSource(paths: [folder.url.appendingPathComponent("Maildir").path], maxMessageBytes: 3000))
        var mbox = ""
        for index in 0..<100 {
            mbox += "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: \(index)\n\nbody\n\n"
        }
        try Data(mbox.utf8).write(to: URL(fileURLWithPath: path))
        let later = readLater(listed)
        #expect(later.count == 1)
        #expect(
            later.first?.contains(
                "grew to \(mbox.utf8.count) bytes after it was listed, past the 3000-byte message limit")
                == true)
    }

    @Test(arguments: [false, true])
    func aMaildirFileThatStartsWithAFromLineIsOneMessage(defers: Bool) throws {
        let folder = try TemporaryFolder()
        let envelope = "From shop@example.com Mon Jan  1 00:00:00 2024\n"
        let text =
            "Subject: one\n\nhello\n\nFrom me@example.com Tue Jan  2 00:00:00 2024\nSubject: lunch?\n\n>From here on\n"
        let path = try folder.write("Maildir/cur/1.host:2,S", envelope + text)
        try folder.write("Maildir/new/.keep-out", "")
        let source = MessageSource(paths: [folder.url.appendingPathComponent("Maildir").path])
        source.defersFileReads = defers
        let got = described(Array(source))
        #expect(got == ["\(path)@\(envelope.utf8.count) [S] \(text)"])
    }

    @Test func filesReadOnSeveralThreadsAtOnceGiveWhatReadingInPlaceGives() throws {
        let folder = try TemporaryFolder()
        for index in 0..<200 {
            let body = String(repeating: "message \(index) text\r\n", count: index * 7 + 1)
            try folder.write(
                String(format: "Maildir/cur/%04d.host:2,S", index), "Subject: \(index)\r\n\r\n" + body)
        }
        try folder.write("Maildir/new/.keep-out", "")
        let maildir = folder.url.appendingPathComponent("Maildir").path
        let listed = entries(MessageSource(paths: [maildir]))
        let results = ResultSlots(count: listed.count)
        DispatchQueue.concurrentPerform(iterations: listed.count) { index in
            if case .unread(let file) = listed[index] { results.set(index, file.read()) }
        }
        #expect(described(results.all.flatMap { $0 }) == readInPlace([maildir]))
        #expect(results.all.count == 200)
    }

    @Test func nextReadsDeferredFilesItself() throws {
        let folder = try TemporaryFolder()
        try folder.write("mail/1.eml", "Subject: a\n\nhi\n")
        try folder.write(
            "mail/2.mbox",
            "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: b\n\nx\n\nFrom a@example.com Mon Jan  1 00:00:00 2024\nSubject: c\n\ny\n"
        )
        try folder.write("mail/3.eml", "")
        let path = folder.url.appendingPathComponent("mail").path
        let source = MessageSource(paths: [path])
        source.defersFileReads = true
        let got = described(Array(source))
        #expect(got.count == 4)
        #expect(got == readInPlace([path]))
    }
}

/// Results written by several threads, one slot each.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[Result<RawMessage, SourceProblem>]]

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ index: Int, _ value: [Result<RawMessage, SourceProblem>]) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var all: [[Result<RawMessage, SourceProblem>]] {
        lock.lock()
        defer { lock.unlock() }
        return slots.filter { !$0.isEmpty }
    }
}
