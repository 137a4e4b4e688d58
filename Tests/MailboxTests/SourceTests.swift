import Foundation
import Testing

@testable import Mailbox

/// A fresh temporary folder, removed when the value is dropped.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mailbox-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: file)
        return file.path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

let corpusMbox = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpora/mime/jstedfast-MimeKit/UnitTests/TestData/mbox")

let corpusMaildir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/corpora/mime/stalwartlabs-mail-parser/resources/maildir")

func collect(_ source: MessageSource) -> (messages: [RawMessage], problems: [SourceProblem]) {
    var messages: [RawMessage] = []
    var problems: [SourceProblem] = []
    for result in source {
        switch result {
        case .success(let message): messages.append(message)
        case .failure(let problem): problems.append(problem)
        }
    }
    return (messages, problems)
}

func text(_ message: RawMessage) -> String { String(decoding: message.bytes, as: UTF8.self) }

@Test func readsOneEmlFileWhole() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("one.eml", "Subject: hi\r\n\r\nbody\r\n")
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.count == 1)
    #expect(messages.first?.origin == MessageOrigin(path: path))
    #expect(messages.first.map(text) == "Subject: hi\r\n\r\nbody\r\n")
}

@Test func splitsMboxByContentNotNameAndGivesOffsets() throws {
    let folder = try TemporaryFolder()
    let mbox =
        "From a@example.com Mon Jan  1 00:00:00 2024\nSubject: one\n\nfirst\n>From here\n>>From there\n\n"
        + "From b@example.com Mon Jan  1 00:00:00 2024\nSubject: two\n\nsecond\n"
    let path = try folder.write("inbox.txt", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.count == 2)
    #expect(
        messages.map(text) == ["Subject: one\n\nfirst\nFrom here\n>From there\n", "Subject: two\n\nsecond\n"])
    #expect(messages[0].origin.byteOffset == 44)
    #expect(messages[1].origin.index == 2)
    #expect(messages[1].origin.description == "\(path)#2")
    let secondStart = Array(mbox.utf8).firstIndex(of: UInt8(ascii: "S"))
    #expect(secondStart == 44)
}

@Test func splitsCRLFMbox() throws {
    let folder = try TemporaryFolder()
    let mbox = "From x\r\nSubject: one\r\n\r\nfirst\r\n\r\nFrom y\r\nSubject: two\r\n\r\nsecond\r\n"
    let path = try folder.write("crlf.mbox", mbox)
    let (messages, _) = collect(MessageSource(paths: [path]))
    #expect(messages.map(text) == ["Subject: one\r\n\r\nfirst\r\n", "Subject: two\r\n\r\nsecond\r\n"])
}

@Test func unmungedFromLineInBodyDoesNotSplitMessage() throws {
    let (messages, problems) = collect(
        MessageSource(paths: [corpusMbox.appendingPathComponent("unmunged.mbox.txt").path]))
    #expect(problems.isEmpty)
    #expect(messages.count == 2)
    #expect(messages.first.map(text)?.contains("From Russia with love") == true)
}

@Test func contentLengthFramingMatchesMimeKitOffsets() throws {
    for (file, offsets) in [
        ("content-length.mbox.txt", "content-length.unix-offsets.json"),
        ("issue1189.mbox.txt", "issue1189.unix-offsets.json"),
    ] {
        let expected =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: corpusMbox.appendingPathComponent(offsets))) as? [[String: Any]] ?? []
        let (messages, problems) = collect(
            MessageSource(paths: [corpusMbox.appendingPathComponent(file).path]))
        #expect(problems.isEmpty)
        #expect(messages.count == expected.count, "\(file)")
        let begins = expected.compactMap { $0["beginOffset"] as? Int }
        #expect(messages.map(\.origin.byteOffset) == begins, "\(file)")
    }
}

@Test func largeMboxIsReadAcrossChunks() throws {
    let folder = try TemporaryFolder()
    var mbox = ""
    let body = String(repeating: "line of text for the chunk boundary test\n", count: 200)
    for index in 1...400 {
        mbox += "From sender@example.com Mon Jan  1 00:00:00 2024\nSubject: \(index)\n\n\(body)\n"
    }
    let path = try folder.write("big.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.count == 400)
    #expect(messages.allSatisfy { text($0).hasSuffix(body) })
    #expect(text(messages[399]).hasPrefix("Subject: 400\n"))
}

@Test func oversizedMessageIsReportedAndSkipped() throws {
    let folder = try TemporaryFolder()
    let big = String(repeating: "x", count: 5000)
    let mbox = "From a\nSubject: 1\n\n\(big)\n\nFrom b\nSubject: 2\n\nsmall\n"
    let path = try folder.write("mixed.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path], maxMessageBytes: 1000))
    #expect(messages.map(text) == ["Subject: 2\n\nsmall\n"])
    #expect(problems.count == 1)
    #expect(problems.first?.origin.index == 1)
    #expect(problems.first?.reason.contains("limit") == true)
}

@Test func emptyFileBinaryJunkAndTruncatedMboxAreOrdinaryCases() throws {
    let folder = try TemporaryFolder()
    let empty = try folder.write("Maildir/cur/1.host:2,S", "")
    let junk = try folder.write(
        "Maildir/cur/2.host:2,", bytes: [0x00, 0x01, 0xFF, 0x00, 0x13, 0x37, 0x00, 0x42])
    try folder.write("Maildir/cur/3.host:2,RS", "Subject: fine\n\nok\n")
    let truncated = try folder.write(
        "cut.mbox", "From a\nSubject: whole\n\nyes\n\nFrom b\nSubject: cut\n\nhalf a li")
    let onlySeparator = try folder.write("sep.mbox", "From a\nSubject: x\n\ny\n\nFrom b")
    let (messages, problems) = collect(
        MessageSource(paths: [folder.url.appendingPathComponent("Maildir").path, truncated, onlySeparator]))
    #expect(Set(problems.map(\.origin.path)) == [empty, junk, onlySeparator])
    #expect(problems.first { $0.origin.path == empty }?.reason == "empty file")
    #expect(problems.first { $0.origin.path == junk }?.reason.contains("binary") == true)
    #expect(messages.count == 4)
    let cut = messages.first { $0.origin.path == truncated && $0.origin.index == 2 }
    #expect(cut?.warnings.first?.contains("truncated") == true)
    #expect(messages.first { $0.maildirFlags == "RS" } != nil)
}

/// An mbox whose last line has no line end is read whole once nobody has written to it for
/// ten minutes: the line is how the file ends, not a message still being written.
@Test func anUnterminatedLastLineOfASettledMboxIsReadAsItsEnd() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
        "old.mbox", "From a\nSubject: whole\n\nyes\n\nFrom b\nSubject: last\n\nno line end")
    let longAgo = Date().addingTimeInterval(-2 * MboxReader.settledAge)
    try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: path)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    let last = try #require(messages.first { $0.origin.index == 2 })
    #expect(last.warnings.isEmpty)
    #expect(last.repairs.first?.hasPrefix("mbox ends without a line end") == true)
    #expect(String(decoding: last.bytes, as: UTF8.self).hasSuffix("no line end"))
    // The same file just written: the last message may still be growing.
    try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: path)
    let (fresh, _) = collect(MessageSource(paths: [path]))
    #expect(fresh.first { $0.origin.index == 2 }?.warnings.first?.contains("truncated") == true)
}

@Test func junkBeforeTheFirstSeparatorIsReportedAndTheMboxStillRead() throws {
    let folder = try TemporaryFolder()
    let junk = "partial copy, not mail\n\u{1}\u{2} more\n"
    let mbox =
        junk + "From a@example.com Sat Nov 28 10:00:00 2026\nSubject: 1\n\nx\n\n"
        + "From b@example.com Sat Nov 28 10:05:00 2026\nSubject: 2\n\ny\n"
    let path = try folder.write("junk.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(messages.map(text) == ["Subject: 1\n\nx\n", "Subject: 2\n\ny\n"])
    #expect(problems.count == 1)
    #expect(problems.first?.origin.byteOffset == 0)
    #expect(
        problems.first?.reason
            == "\(junk.utf8.count) bytes before the mbox's first From line are not a message")
    // Byte offsets still count from the start of the file.
    let separator = junk.utf8.count + "From a@example.com Sat Nov 28 10:00:00 2026\n".utf8.count
    #expect(messages.first?.origin.byteOffset == separator)
    #expect(messages.first?.origin.index == 1)

    // However long the junk, in text or binary, short of the message size limit.
    for junkByte: UInt8 in [0x61, 0x00] {
        var big = [UInt8](repeating: junkByte, count: 200_000)
        big[99_999] = 0x0A
        big += Array("\nFrom a\nSubject: far\n\nx\n".utf8)
        let far = try folder.write("far-\(junkByte).mbox", bytes: big)
        let (farMessages, farProblems) = collect(MessageSource(paths: [far]))
        #expect(farMessages.map(text) == ["Subject: far\n\nx\n"])
        #expect(farProblems.first?.reason.hasPrefix("200001 bytes before") == true, "\(farProblems)")
    }

    // Blank lines before the first separator are nothing to report.
    let blank = try folder.write("blank.mbox", "\n\r\n\nFrom a\nSubject: 1\n\nx\n")
    let (blankMessages, blankProblems) = collect(MessageSource(paths: [blank]))
    #expect(blankProblems.isEmpty)
    #expect(blankMessages.map(text) == ["Subject: 1\n\nx\n"])

    // A message that starts with header fields stays one message, "From " lines and all.
    let eml = try folder.write("one.eml", "Subject: quoted\n\nhello\nFrom me\nSubject: not a header\n")
    let (emlMessages, emlProblems) = collect(MessageSource(paths: [eml]))
    #expect(emlProblems.isEmpty)
    #expect(emlMessages.count == 1)
    // Text with a "From " line not followed by a header field is not an mbox either.
    let note = try folder.write("note.txt", "notes\nFrom here on, nothing\nmore text\n")
    let (noteMessages, _) = collect(MessageSource(paths: [note]))
    #expect(noteMessages.count == 1)
}

@Test func maildirReadsCurAndNewSkipsTmpAndNestedFolders() throws {
    let folder = try TemporaryFolder()
    try folder.write("Mail/cur/1.a:2,FS", "Subject: a\n\n")
    try folder.write("Mail/new/2.b", "Subject: b\n\n")
    try folder.write("Mail/tmp/3.c", "Subject: half written\n\n")
    try folder.write("Mail/.Sub.Folder/cur/4.d!2,T", "Subject: d\n\n")
    try folder.write("Mail/.Sub.Folder/cur/.hidden", "Subject: hidden\n\n")
    let source = MessageSource(paths: [folder.url.appendingPathComponent("Mail").path])
    #expect(source.estimatedMessageCount() == 3)
    let (messages, problems) = collect(source)
    #expect(problems.isEmpty)
    #expect(messages.map(text).sorted() == ["Subject: a\n\n", "Subject: b\n\n", "Subject: d\n\n"])
    #expect(Set(messages.compactMap(\.maildirFlags)) == ["FS", "", "T"])
}

/// A Maildir's `cur/` and `new/` hold one message per file: a folder there is reported (as
/// a folder, without a byte offset) and not read; a hidden entry there is passed over.
@Test func aFolderInsideCurIsReportedNotRead() throws {
    let folder = try TemporaryFolder()
    try folder.write("Mail/cur/1.a:2,S", "Subject: a\n\n")
    try folder.write("Mail/cur/folder/msg", "Subject: inside a folder\n\n")
    try folder.write("Mail/new/.hidden/msg", "Subject: hidden\n\n")
    try folder.write("Mail/new/2.b", "Subject: b\n\n")
    let source = MessageSource(paths: [folder.url.appendingPathComponent("Mail").path])
    #expect(source.estimatedMessageCount() == 2)
    let (messages, problems) = collect(source)
    #expect(messages.map(text).sorted() == ["Subject: a\n\n", "Subject: b\n\n"])
    let problem = try #require(problems.first)
    #expect(problems.count == 1)
    #expect(problem.origin.path.hasSuffix("Mail/cur/folder"))
    #expect(problem.isFolderProblem && problem.byteOffset == nil)
    #expect(problem.reason.hasPrefix("folder inside a Maildir's cur/ or new/"))
}

/// A Maildir as Dovecot and Courier keep it: beside `cur/`, `new/` and `tmp/` the server's
/// own files (indexes, uid lists, keywords, quota, subscriptions) and folders
/// (`courierimapkeywords/`) are not mail and are passed over without a report; Maildir++
/// folders (`.Archive`, with its `maildirfolder` file and files of its own) and subfolders
/// that are Maildirs themselves are read, a folder that is not a Maildir is not.
@Test func aMaildirsServerFilesAreNotMail() throws {
    let folder = try TemporaryFolder()
    try folder.write("box/cur/1.a:2,S", "Subject: a\n\n")
    try folder.write("box/new/2.b", "Subject: b\n\n")
    try folder.write("box/tmp/3.c", "Subject: half written\n\n")
    var random = SystemRandomNumberGenerator()
    let binary = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
    for name in [
        "dovecot.index", "dovecot.index.log", "dovecot.index.cache", "dovecot.list.index.log",
        "dovecot-uidvalidity.65f1a2b3", "courierimapacl",
    ] {
        try folder.write("box/" + name, bytes: binary)
    }
    for (name, text) in [
        ("dovecot-uidlist", "3 V1 N14\n"), ("dovecot-keywords", "0 $Forwarded\n"),
        ("dovecot-uidvalidity", "65f1a2b3"),
        ("subscriptions", "Archive\n"), ("maildirsize", "1000000S\n123 1\n"), ("courierimapuiddb", "1 2 3\n"),
        ("courierimapkeywords/:list", "$Label1\n"), ("courierimapkeywords/.1.x", "x"),
        ("notes/readme.eml", "Subject: not in a Maildir folder\n\n"),
    ] {
        try folder.write("box/" + name, text)
    }
    try folder.write("box/.Archive/maildirfolder", "")
    try folder.write("box/.Archive/dovecot-uidlist", "3 V1 N1\n")
    try folder.write("box/.Archive/cur/4.d:2,S", "Subject: archived\n\n")
    try FileManager.default.createDirectory(
        at: folder.url.appendingPathComponent("box/.Archive/new"), withIntermediateDirectories: true)
    try folder.write("box/Sent/cur/5.e:2,S", "Subject: sent\n\n")
    try folder.write("box/Sent/new/6.f", "Subject: sent new\n\n")
    try folder.write("box/Sent/dovecot.index.log", bytes: binary)
    let source = MessageSource(paths: [folder.url.appendingPathComponent("box").path])
    #expect(source.estimatedMessageCount() == 5)
    let (messages, problems) = collect(source)
    #expect(problems.isEmpty, "\(problems)")
    #expect(
        messages.map(text).sorted() == [
            "Subject: a\n\n", "Subject: archived\n\n", "Subject: b\n\n", "Subject: sent\n\n",
            "Subject: sent new\n\n",
        ])

    // A folder that is not a Maildir (no `cur/` and `new/`) is read whole, as before.
    try folder.write("plain/order.eml", "Subject: plain\n\n")
    try folder.write("plain/new/7.g", "Subject: only new\n\n")
    let plain = collect(MessageSource(paths: [folder.url.appendingPathComponent("plain").path]))
    #expect(plain.messages.map(text).sorted() == ["Subject: only new\n\n", "Subject: plain\n\n"])
}

@Test func readsCorpusMaildirWithSemicolonFlags() throws {
    let (messages, problems) = collect(MessageSource(paths: [corpusMaildir.path]))
    #expect(problems.isEmpty)
    #expect(messages.count == 6)
    #expect(messages.contains { $0.maildirFlags == "STln" })
}

/// `input` written to a pipe, closed, and read as standard input (`-`).
private func readThroughAPipe(_ input: String) -> (messages: [RawMessage], problems: [SourceProblem]) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else { return ([], []) }
    let bytes = Array(input.utf8)
    _ = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
    close(descriptors[1])
    let source = MessageSource(paths: ["-"])
    source.standardInputDescriptor = descriptors[0]
    defer { close(descriptors[0]) }
    return collect(source)
}

@Test func standardInputIsOneMessageOrAnMboxStream() throws {
    for (input, expected) in [
        ("Subject: one\n\nbody\n", ["Subject: one\n\nbody\n"]),
        ("From a\nSubject: 1\n\nx\n\nFrom b\nSubject: 2\n\ny\n", ["Subject: 1\n\nx\n", "Subject: 2\n\ny\n"]),
    ] {
        let (messages, problems) = readThroughAPipe(input)
        #expect(problems.isEmpty)
        #expect(messages.map(text) == expected)
        #expect(messages.allSatisfy { $0.origin.path == "-" })
    }
}

/// An mbox stream on standard input whose last line has no line end: the writer closed the
/// pipe and it cannot be read again, so the last message is read, with a repair note.
@Test func anMboxStreamWithoutAFinalLineEndIsReadWhole() throws {
    let (messages, problems) = readThroughAPipe("From a\nSubject: 1\n\nx\n\nFrom b\nSubject: 2\n\nlast line")
    #expect(problems.isEmpty)
    #expect(messages.map(text) == ["Subject: 1\n\nx\n", "Subject: 2\n\nlast line"])
    #expect(messages.allSatisfy { $0.warnings.isEmpty })
    #expect(messages.last?.repairs.first?.hasPrefix("standard input ends without a line end") == true)
}

/// Standard input redirected from a file (`scan - < file`) is a stream too: the file was just
/// written (the rule for mbox files would leave its last message for a next run), but what is
/// read from standard input cannot be read again, so its last message is read, with a repair
/// note, as from a pipe.
@Test func standardInputFromAFileIsReadAsAStream() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("one.mbox", "From a\nSubject: only\n\nlast line")
    let descriptor = open(path, O_RDONLY)
    #expect(descriptor >= 0)
    defer { close(descriptor) }
    let source = MessageSource(paths: ["-"])
    source.standardInputDescriptor = descriptor
    let (messages, problems) = collect(source)
    #expect(problems.isEmpty)
    #expect(messages.map(text) == ["Subject: only\n\nlast line"])
    #expect(messages.allSatisfy { $0.warnings.isEmpty && $0.origin.path == "-" })
    #expect(messages.first?.repairs.first?.hasPrefix("standard input ends without a line end") == true)
}

@Test func missingPathIsAProblemAndTheStreamGoesOn() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write("ok.eml", "Subject: ok\n\n")
    let (messages, problems) = collect(MessageSource(paths: ["/nonexistent/x.eml", path]))
    #expect(problems.count == 1)
    #expect(problems.first?.reason == "no such file or directory")
    #expect(messages.count == 1)
}

@Test func brokenSymbolicLinksSayWhy() throws {
    let folder = try TemporaryFolder()
    let loop = folder.url.appendingPathComponent("loop.eml").path
    try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
    let dangling = folder.url.appendingPathComponent("dangling.eml").path
    try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "gone.eml")
    let (messages, problems) = collect(MessageSource(paths: [loop, dangling]))
    #expect(messages.isEmpty)
    #expect(
        problems.map(\.reason) == ["too many levels of symbolic links", "symbolic link to a missing file"])
}

@Test func parsingARawMessageNamesItsOriginOnFailure() throws {
    let junk = RawMessage(
        origin: MessageOrigin(path: "box.mbox", byteOffset: 100, index: 3), bytes: [0, 0, 1])
    guard case .failure(let problem) = junk.parse() else {
        Issue.record("junk parsed")
        return
    }
    #expect(problem.origin.index == 3)
    #expect(problem.origin.byteOffset == 100)
    let cut = RawMessage(
        origin: MessageOrigin(path: "box.mbox"), bytes: Array("Subject: x\n\nhal".utf8),
        warnings: ["truncated"])
    let message = try cut.parse().get()
    #expect(message.warnings.map(\.message) == ["truncated"])
}

@Test func splitsBareCRMbox() throws {
    let folder = try TemporaryFolder()
    let path = try folder.write(
        "mac.mbox", "From a\rSubject: one\r\rfirst\r\rFrom b\rSubject: two\r\rsecond\r")
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.map(text) == ["Subject: one\n\nfirst\n", "Subject: two\n\nsecond\n"])
    #expect(messages.map(\.origin.byteOffset) == [7, 35])
}

@Test func crlfMboxOffsetsMatchMimeKitDosOffsets() throws {
    let unix = try Data(contentsOf: corpusMbox.appendingPathComponent("content-length.mbox.txt"))
    var dos: [UInt8] = []
    for byte in unix {
        if byte == 0x0A { dos.append(0x0D) }
        dos.append(byte)
    }
    let folder = try TemporaryFolder()
    let path = try folder.write("dos.mbox", bytes: dos)
    let expected =
        try JSONSerialization.jsonObject(
            with: Data(contentsOf: corpusMbox.appendingPathComponent("content-length.dos-offsets.json")))
        as? [[String: Any]] ?? []
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(messages.map(\.origin.byteOffset) == expected.compactMap { $0["beginOffset"] as? Int })
}

/// What is read, passed over or reported below a folder, whatever each entry is: links to
/// files are read, links to folders inside the tree are not followed (links can loop), a
/// broken link and a FIFO are reported, excluded files and folders are passed over by
/// identity, a file named `tmp` is mail while a Maildir's `tmp/` folder is not.
@Test func entriesOfATreeAreToldApartByWhatTheyAre() throws {
    let folder = try TemporaryFolder()
    let manager = FileManager.default
    let mail = folder.url.appendingPathComponent("Mail")
    try folder.write("Mail/cur/1.a:2,S", "Subject: a\n\n")
    try folder.write("Mail/new/tmp", "Subject: named tmp\n\n")
    try folder.write("Mail/tmp/2.b", "Subject: half written\n\n")
    try folder.write("Mail/.Archive/cur/3.c:2,S", "Subject: archived\n\n")
    try folder.write("Mail/.hidden", "Subject: hidden\n\n")
    let outside = try folder.write("elsewhere/4.d", "Subject: linked file\n\n")
    try folder.write("elsewhere/sub/5.e", "Subject: behind a folder link\n\n")
    try manager.createSymbolicLink(atPath: mail.path + "/cur/4.d:2,S", withDestinationPath: outside)
    try manager.createSymbolicLink(
        atPath: mail.path + "/linked-folder", withDestinationPath: folder.url.path + "/elsewhere/sub")
    try manager.createSymbolicLink(atPath: mail.path + "/loop", withDestinationPath: mail.path)
    try manager.createSymbolicLink(atPath: mail.path + "/.hidden-loop", withDestinationPath: mail.path)
    try manager.createSymbolicLink(atPath: mail.path + "/cur/broken", withDestinationPath: "/nonexistent/x")
    #expect(mkfifo(mail.path + "/cur/fifo", 0o600) == 0)
    try folder.write("Mail/out/order.json", "{}")
    try folder.write("Mail/mailorders.sqlite", "SQLite format 3")

    let source = MessageSource(
        paths: [mail.path],
        excluding: [folder.url.path + "/Mail/cur/../out", mail.path + "/mailorders.sqlite"])
    let (messages, problems) = collect(source)
    #expect(
        messages.map(text).sorted() == [
            "Subject: a\n\n", "Subject: archived\n\n", "Subject: linked file\n\n", "Subject: named tmp\n\n",
        ])
    #expect(messages.first { text($0) == "Subject: linked file\n\n" }?.maildirFlags == "S")
    #expect(messages.first { text($0) == "Subject: named tmp\n\n" }?.maildirFlags == "")
    // A link to a folder inside a mailbox may lead anywhere (here: back to the mailbox, twice,
    // and out of it): it is not followed, and said so.
    let notFollowed = "symbolic link to a folder, not followed inside a mailbox; give it as a path to read it"
    #expect(
        problems.map { "\(($0.origin.path as NSString).lastPathComponent): \($0.reason)" }.sorted() == [
            ".hidden-loop: \(notFollowed)", "broken: symbolic link to a missing file",
            "fifo: not a regular file",
            "linked-folder: \(notFollowed)", "loop: \(notFollowed)",
        ])

    // Given by the caller, a link to a folder is followed.
    let link = folder.url.appendingPathComponent("link-to-sub").path
    try manager.createSymbolicLink(atPath: link, withDestinationPath: folder.url.path + "/elsewhere/sub")
    #expect(collect(MessageSource(paths: [link])).messages.map(text) == ["Subject: behind a folder link\n\n"])
}

/// A Maildir whose `cur/` and `new/` are links to folders elsewhere (mail kept on another
/// disk) is read through them; a folder reached twice is read once.
@Test func maildirFoldersThatAreLinksAreFollowedOnce() throws {
    let folder = try TemporaryFolder()
    let manager = FileManager.default
    try folder.write("store/cur/1.a:2,S", "Subject: read\n\n")
    try folder.write("store/new/2.b", "Subject: new\n\n")
    let mail = folder.url.appendingPathComponent("Mail")
    try manager.createDirectory(at: mail, withIntermediateDirectories: true)
    try manager.createSymbolicLink(
        atPath: mail.path + "/cur", withDestinationPath: folder.url.path + "/store/cur")
    try manager.createSymbolicLink(
        atPath: mail.path + "/new", withDestinationPath: folder.url.path + "/store/new")
    let (messages, problems) = collect(MessageSource(paths: [mail.path]))
    #expect(messages.map(text).sorted() == ["Subject: new\n\n", "Subject: read\n\n"])
    #expect(problems.isEmpty)
    #expect(messages.first { text($0) == "Subject: read\n\n" }?.maildirFlags == "S")

    // `new` a link to the same folder as `cur`: its messages are read once.
    let twice = folder.url.appendingPathComponent("Twice")
    try folder.write("Twice/cur/3.c:2,", "Subject: once\n\n")
    try manager.createSymbolicLink(atPath: twice.path + "/new", withDestinationPath: twice.path + "/cur")
    let once = collect(MessageSource(paths: [twice.path]))
    #expect(once.messages.map(text) == ["Subject: once\n\n"])
    #expect(once.problems.isEmpty)
}

/// The output folder of an earlier scan inside the mailbox (it holds the bundle watermark):
/// what the scan wrote there (bundles, the database and its files, its hidden files and
/// staging folder) is passed over without a report, and mail kept there is read.
@Test func anEarlierScansOutputFolderIsReadButForWhatTheScanWrote() throws {
    let folder = try TemporaryFolder()
    try folder.write("Mail/cur/1.a:2,S", "Subject: mail\n\n")
    let out = "Mail/old-orders/"
    try folder.write(out + ".mailorders-bundled", "12 folders\n")
    try folder.write(out + ".mailorders-last-scan.json", "{}")
    try folder.write(out + ".mailorders-staging/shop-7-0123456789.AB12.tmp/order.json", "{}")
    for name in [
        "mailorders.sqlite", "mailorders.sqlite-wal", "mailorders.sqlite-shm", "mailorders.sqlite-journal",
    ] {
        try folder.write(out + name, "Subject: not mail\n\n")
    }
    try folder.write(out + "shop.example-A-1-0a1b2c3d4e/order.json", "{}")
    try folder.write(out + "shop.example-A-1-0a1b2c3d4e/manifest.json", "{}")
    try folder.write(out + "shop.example-B-2-0a1b2c3d4f.order", bytes: [0x50, 0x4B, 0x03, 0x04, 0, 0, 0])
    // Mail kept there: a Maildir, a loose message, and a folder whose name only looks like a
    // bundle's (no order.json in it).
    try folder.write(out + "archive/box/cur/2.b:2,S", "Subject: archived\n\n")
    try folder.write(out + "archive/box/new/3.c", "Subject: archived new\n\n")
    try folder.write(out + "kept.eml", "Subject: kept\n\n")
    try folder.write(out + "backup-2024061501/4.d", "Subject: backup\n\n")
    let mail = folder.url.appendingPathComponent("Mail").path
    let (messages, problems) = collect(MessageSource(paths: [mail]))
    #expect(
        messages.map(text).sorted() == [
            "Subject: archived\n\n", "Subject: archived new\n\n", "Subject: backup\n\n", "Subject: kept\n\n",
            "Subject: mail\n\n",
        ])
    #expect(problems.isEmpty, "\(problems)")
    // Given as a path itself, the same.
    #expect(collect(MessageSource(paths: [mail + "/old-orders"])).messages.count == 4)
}

/// This run's output folder, given as `outputFolders` before it holds the watermark: mail in
/// it is read, its bundles are not; so is a Maildir's `cur/` chosen as the output folder.
@Test func thisRunsOutputFolderIsReadButForWhatTheScanWrites() throws {
    for relative in ["Mail/archive", "Mail/archive/box/cur"] {
        let folder = try TemporaryFolder()
        try folder.write("Mail/archive/box/cur/1.a:2,S", "Subject: one\n\n")
        try folder.write("Mail/archive/box/new/2.b", "Subject: two\n\n")
        try folder.write(relative + "/mailorders.sqlite", "SQLite format 3")
        try folder.write(relative + "/shop.example-A-1-0a1b2c3d4e/order.json", "{}")
        let mail = folder.url.appendingPathComponent("Mail").path
        let out = folder.url.appendingPathComponent(relative).path
        let (messages, problems) = collect(MessageSource(paths: [mail], outputFolders: [out]))
        #expect(messages.map(text).sorted() == ["Subject: one\n\n", "Subject: two\n\n"], "\(relative)")
        #expect(problems.isEmpty, "\(relative): \(problems)")
        #expect(messages.first { text($0) == "Subject: one\n\n" }?.maildirFlags == "S")
    }
}

/// A file or standard input whose first line is `From`, white space and `:` (the obsolete
/// syntax's white space before the colon, RFC 5322 §4.5) starts with a header field: it is
/// one message, read whole with that line, not an mbox whose first separator is that line.
@Test func aFirstFromFieldWithBlanksBeforeTheColonIsOneMessageNotAnMbox() throws {
    for first in [
        "From  : Shop <shop@example.com>", "From \t : Shop <shop@example.com>", "From :x@example.com",
    ] {
        let input =
            first + "\nSubject: Your order 123\n\nbody\n\nFrom a@example.com Mon Jan  1 00:00:00 2024\nmore\n"
        let folder = try TemporaryFolder()
        let path = try folder.write("one.eml", input)
        for (messages, problems) in [collect(MessageSource(paths: [path])), readThroughAPipe(input)] {
            #expect(problems.isEmpty, "\(first)")
            #expect(messages.map(text) == [input], "\(first)")
            #expect(messages.allSatisfy { !$0.origin.isInMultiMessageFile }, "\(first)")
        }
    }
}

/// Inside an mbox, a `From  :` field right after a separator is the message's first header
/// field, and a `From  :` line is never a separator.
@Test func aFromFieldWithBlanksBeforeTheColonInAnMboxIsAField() throws {
    let mbox =
        "From a@example.com Mon Jan  1 00:00:00 2024\nFrom  : Shop <shop@example.com>\nSubject: 1\n\nfirst\n\n"
        + "From :\nSubject: still 1\n\n"
        + "From b@example.com Mon Jan  1 00:00:00 2024\nFrom  : Shop <shop@example.com>\nSubject: 2\n\nsecond\n"
    let folder = try TemporaryFolder()
    let path = try folder.write("inbox.mbox", mbox)
    let (messages, problems) = collect(MessageSource(paths: [path]))
    #expect(problems.isEmpty)
    #expect(
        messages.map(text) == [
            "From  : Shop <shop@example.com>\nSubject: 1\n\nfirst\n\nFrom :\nSubject: still 1\n",
            "From  : Shop <shop@example.com>\nSubject: 2\n\nsecond\n",
        ])
    #expect(MboxReader.separatorShape(Array("From :".utf8)[...]) == nil)
    #expect(MboxReader.separatorShape(Array("From  : Shop".utf8)[...]) == nil)
    #expect(MboxReader.separatorShape(Array("From -".utf8)[...]) == .undated)
}

/// A message whose body is UTF-16 text (NUL bytes) or pages of form feeds and vertical tabs
/// is read, as its header section is text with a message field; the same bytes without such
/// a header section are binary data.
@Test func aBinaryLookingBodyAfterAHeaderSectionIsAMessage() throws {
    let folder = try TemporaryFolder()
    let header = Array(
        "From: Shop <a@shop.example>\r\nSubject: Order 1\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n"
            .utf8)
    let body = Array("Order number: A-1\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    let utf16 = try folder.write("utf16.eml", bytes: header + body)
    let pages = try folder.write(
        "pages.eml",
        bytes: Array("Subject: pages\n\n".utf8) + Array(repeating: 0x0B, count: 2_000) + Array("end\n".utf8))
    let junk = try folder.write("junk.bin", bytes: body + body + body)
    let (messages, problems) = collect(MessageSource(paths: [utf16, pages, junk]))
    #expect(messages.count == 2)
    #expect(problems.map(\.reason) == ["binary data, not a message"])
    let mbox = try folder.write(
        "box.mbox", bytes: Array("From a@x Tue Nov 24 10:00:00 2026\n".utf8) + header + body + [0x0A])
    let (boxed, boxProblems) = collect(MessageSource(paths: [mbox]))
    #expect(boxed.count == 1 && boxProblems.isEmpty, "\(boxProblems)")
}

@Test func aFileOfOnlyWhiteSpaceIsNotCalledEmpty() throws {
    let folder = try TemporaryFolder()
    let blank = try folder.write("blank.eml", "\n\n\r\n \t\n")
    let empty = try folder.write("empty.eml", "")
    #expect(
        MessageSource.junkReason([0x0A])
            == "only white space (1 byte of spaces, tabs and line breaks), not a message")
    for defers in [false, true] {
        let source = MessageSource(paths: [blank, empty])
        source.defersFileReads = defers
        let (messages, problems) = collect(source)
        #expect(messages.isEmpty)
        #expect(
            problems.map(\.reason) == [
                "only white space (7 bytes of spaces, tabs and line breaks), not a message", "empty file",
            ])
    }
}
