import Foundation
import Testing

@testable import Mailbox

/// File and folder names that are not UTF-8 (Latin-1 bytes from an old mail server) are read
/// by their bytes, and shown in reports with each such byte written `\xHH`.
@Suite struct NonUTF8FileNameTests {
    /// `folder/relative` as bytes, `relative` given as bytes too.
    func path(_ folder: TemporaryFolder, _ relative: [UInt8]) -> [UInt8] {
        Array(folder.url.path.utf8) + [UInt8(ascii: "/")] + relative
    }

    func withCString<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// Creates a folder with `mkdir(2)`.
    func makeFolder(_ path: [UInt8]) {
        #expect(withCString(path) { mkdir($0, 0o755) } == 0)
    }

    /// Creates a file with `open(2)` and `write(2)`.
    func makeFile(_ path: [UInt8], _ text: String) {
        let descriptor = withCString(path) { open($0, O_CREAT | O_WRONLY | O_TRUNC, 0o644) }
        #expect(descriptor >= 0)
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count)
        close(descriptor)
    }

    /// A Maildir with `cur/`, `new/` and `tmp/`.
    func makeMaildir(_ folder: TemporaryFolder) -> [UInt8] {
        let maildir = path(folder, Array("Maildir".utf8))
        makeFolder(maildir)
        for name in ["cur", "new", "tmp"] { makeFolder(maildir + Array("/\(name)".utf8)) }
        return maildir
    }

    @Test func everyByteFrom0x80To0xFFInAMaildirNameIsRead() throws {
        let folder = try TemporaryFolder()
        let maildir = makeMaildir(folder)
        for byte in UInt8(0x80)...UInt8(0xFF) {
            makeFile(maildir + Array("/cur/m".utf8) + [byte] + Array(":2,S".utf8), "Subject: \(byte)\n\nhi\n")
        }
        let (messages, problems) = collect(MessageSource(paths: [folder.url.path + "/Maildir"]))
        #expect(problems.isEmpty)
        #expect(messages.count == 128)
        #expect(messages.allSatisfy { $0.maildirFlags == "S" })
        let names = messages.map { URL(fileURLWithPath: $0.origin.path).lastPathComponent }
        #expect(
            names == (0x80...0xFF).map { "m\\x" + String($0, radix: 16, uppercase: true) + ":2,S" })
        #expect(messages.first.map(text) == "Subject: 128\n\nhi\n")
    }

    @Test func aLatin1NameBesideUTF8NamesIsShownEscapedAndItsMessageRead() throws {
        let folder = try TemporaryFolder()
        let maildir = makeMaildir(folder)
        makeFile(maildir + Array("/cur/caf".utf8) + [0xE9] + Array(":2,RS".utf8), "Subject: latin\n\nhi\n")
        makeFile(maildir + Array("/new/caf\u{E9}".utf8), "Subject: utf8\n\nhi\n")
        let (messages, problems) = collect(MessageSource(paths: [folder.url.path + "/Maildir"]))
        #expect(problems.isEmpty)
        #expect(
            messages.map { "\($0.origin.description) [\($0.maildirFlags ?? "-")]" } == [
                folder.url.path + "/Maildir/cur/caf\\xE9:2,RS [RS]",
                folder.url.path + "/Maildir/new/caf\u{E9} []",
            ])
    }

    @Test func aFolderWhoseNameIsNotUTF8IsWalkedAndDeferredReadsWork() throws {
        let folder = try TemporaryFolder()
        // A Maildir++ folder ".Entwürfe" written in Latin-1, and a plain folder of .eml files.
        let maildir = makeMaildir(folder)
        let drafts = maildir + Array("/.Entw".utf8) + [0xFC] + Array("rfe".utf8)
        makeFolder(drafts)
        for name in ["cur", "new", "tmp"] { makeFolder(drafts + Array("/\(name)".utf8)) }
        makeFile(drafts + Array("/cur/1.host:2,D".utf8), "Subject: draft\n\nhi\n")
        let plain = path(folder, [0xC4] + Array("rger".utf8))
        makeFolder(plain)
        makeFile(
            plain + Array("/Bestellung ".utf8) + [0xA7, 0x31] + Array(".eml".utf8), "Subject: order\n\nhi\n")
        let source = MessageSource(paths: [folder.url.path])
        source.defersFileReads = true
        var origins: [String] = []
        var problems: [SourceProblem] = []
        var unread = 0
        while let entry = source.nextEntry() {
            let results: [Result<RawMessage, SourceProblem>]
            switch entry {
            case .read(let result): results = [result]
            case .unread(let file):
                unread += 1
                results = file.read()
            }
            for result in results {
                switch result {
                case .success(let message): origins.append(message.origin.path + " " + text(message))
                case .failure(let problem): problems.append(problem)
                }
            }
        }
        #expect(problems.isEmpty)
        #expect(unread == 2)
        #expect(
            origins.sorted() == [
                folder.url.path + "/Maildir/.Entw\\xFCrfe/cur/1.host:2,D Subject: draft\n\nhi\n",
                folder.url.path + "/\\xC4rger/Bestellung \\xA71.eml Subject: order\n\nhi\n",
            ])
        #expect(MessageSource(paths: [folder.url.path]).estimatedMessageCount() == 2)
    }

    @Test func aMaildirMessageWithANameThatIsNotUTF8RenamedAfterListingIsFollowed() throws {
        let folder = try TemporaryFolder()
        let maildir = makeMaildir(folder)
        let unique = Array("1.h".utf8) + [0xF6, 0x73, 0x74]  // "1.höst" in Latin-1
        makeFile(maildir + Array("/new/".utf8) + unique, "Subject: one\n\nhi\n")
        let source = MessageSource(paths: [folder.url.path + "/Maildir"])
        source.defersFileReads = true
        guard case .unread(let file)? = source.nextEntry() else {
            Issue.record("the message was not listed")
            return
        }
        // A mail reader moves it to cur/ and flags it seen.
        let renamed = maildir + Array("/cur/".utf8) + unique + Array(":2,S".utf8)
        #expect(
            withCString(maildir + Array("/new/".utf8) + unique) { old in
                withCString(renamed) { rename(old, $0) }
            } == 0)
        let results = file.read()
        #expect(results.count == 1)
        guard case .success(let message)? = results.first else {
            Issue.record("not read: \(results)")
            return
        }
        #expect(message.origin.path == folder.url.path + "/Maildir/cur/1.h\\xF6st:2,S")
        #expect(message.maildirFlags == "S")
        #expect(text(message) == "Subject: one\n\nhi\n")
    }

    @Test func aProblemInAFileWithANameThatIsNotUTF8NamesItAndTheByteOffset() throws {
        let folder = try TemporaryFolder()
        let mbox =
            "stray line\n\nFrom a@example.com Mon Jan  1 00:00:00 2024\nSubject: 1\n\nfirst\n"
        makeFile(path(folder, Array("inbox-".utf8) + [0xFF] + Array(".mbox".utf8)), mbox)
        makeFile(path(folder, Array("empty-".utf8) + [0x80] + Array(".eml".utf8)), "")
        let (messages, problems) = collect(MessageSource(paths: [folder.url.path]))
        #expect(messages.map(\.origin.description) == [folder.url.path + "/inbox-\\xFF.mbox#1"])
        #expect(messages.map(\.origin.byteOffset) == [56])
        #expect(
            problems.map(\.description) == [
                folder.url.path + "/empty-\\x80.eml at byte 0: empty file",
                folder.url.path
                    + "/inbox-\\xFF.mbox at byte 0: 12 bytes before the mbox's first From line are not a message",
            ])
    }

    @Test func namesAreEscapedByteForByteOnlyWhereTheyAreNotUTF8() {
        #expect(
            FileSystemPath(bytes: Array("Bestellbestätigung.eml".utf8)).display == "Bestellbestätigung.eml")
        #expect(FileSystemPath(bytes: [0x61, 0xE9, 0x62]).display == "a\\xE9b")
        // A truncated sequence, an overlong form, a UTF-16 surrogate, a byte past U+10FFFF.
        #expect(FileSystemPath(bytes: [0xE2, 0x82]).display == "\\xE2\\x82")
        #expect(FileSystemPath(bytes: [0xC0, 0xAF]).display == "\\xC0\\xAF")
        #expect(FileSystemPath(bytes: [0xED, 0xA0, 0x80]).display == "\\xED\\xA0\\x80")
        #expect(FileSystemPath(bytes: [0xF4, 0x90, 0x80, 0x80]).display == "\\xF4\\x90\\x80\\x80")
        #expect(FileSystemPath(bytes: [0xE2, 0x82, 0xAC, 0x0A]).display == "€\n")
        #expect(FileSystemPath("a/b").appending([0xE9]).bytes == [0x61, 0x2F, 0x62, 0x2F, 0xE9])
        #expect(FileSystemPath("/").appending([0xE9]).display == "/\\xE9")
        #expect(FileSystemPath(bytes: [0x61, 0x2F, 0xE9]).parent.display == "a")
    }

    @Test func aPathWrittenAsReportsShowItNamesTheFileOfThoseBytes() throws {
        let folder = try TemporaryFolder()
        makeFile(path(folder, Array("caf".utf8) + [0xE9] + Array(".eml".utf8)), "Subject: order\n\nhi\n")
        let shown = folder.url.path + "/caf\\xE9.eml"
        #expect(
            FileSystemPath(shown).bytes
                == Array(folder.url.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".eml".utf8))
        #expect(FileSystemPath(shown).display == shown)
        #expect(MessageSource.pathExists(shown))
        let (messages, problems) = collect(MessageSource(paths: [shown]))
        #expect(messages.count == 1)
        #expect(problems.isEmpty)
        // A file that has the name as written is that file.
        makeFile(Array(shown.utf8), "Subject: literal\n\nhi\n")
        #expect(FileSystemPath(shown).bytes == Array(shown.utf8))
    }

    @Test func aMissingPathWrittenAsReportsShowItIsSimplyMissing() throws {
        let folder = try TemporaryFolder()
        let shown = folder.url.path + "/miss\\xE4"
        #expect(MessageSource.missingReason(shown) == "no such file or directory")
        #expect(MessageSource.displayPath(shown) == shown)
        #expect(!MessageSource.pathExists(shown))
    }

    @Test func escapesAreReadBackOnlyAsTwoHexDigits() {
        #expect(FileSystemPath.unescaped("a\\xE9b") == [0x61, 0xE9, 0x62])
        #expect(FileSystemPath.unescaped("a\\xe9") == [0x61, 0xE9])
        #expect(FileSystemPath.unescaped("a\\xZ9") == nil)
        #expect(FileSystemPath.unescaped("a\\x9") == nil)
        #expect(FileSystemPath.unescaped("plain") == nil)
    }

    /// The escapes a one-line report writes for control characters (`TerminalText.oneLine`)
    /// are read back too: a name copied from a summary opens its file.
    @Test func controlEscapesOfReportsAreReadBack() throws {
        #expect(FileSystemPath.unescaped("a\\tb\\nc\\rd") == Array("a\tb\nc\rd".utf8))
        #expect(FileSystemPath.unescaped("a\\u{1B}b") == [0x61, 0x1B, 0x62])
        #expect(FileSystemPath.unescaped("a\\u{2028}") == [0x61, 0xE2, 0x80, 0xA8])
        // Not escapes: no digits, too many, past U+10FFFF, a surrogate, another letter.
        #expect(FileSystemPath.unescaped("a\\u{}b") == nil)
        #expect(FileSystemPath.unescaped("a\\u{1234567}") == nil)
        #expect(FileSystemPath.unescaped("a\\u{110000}") == nil)
        #expect(FileSystemPath.unescaped("a\\u{D800}") == nil)
        #expect(FileSystemPath.unescaped("C:\\path\\q") == nil)
        let folder = try TemporaryFolder()
        makeFile(path(folder, Array("order\t2\u{1B}.eml".utf8)), "Subject: order\n\nhi\n")
        let shown = folder.url.path + "/order\\t2\\u{1B}.eml"
        #expect(FileSystemPath(shown).bytes == Array((folder.url.path + "/order\t2\u{1B}.eml").utf8))
        let (messages, problems) = collect(MessageSource(paths: [shown]))
        #expect(messages.count == 1)
        #expect(problems.isEmpty)
    }
}

/// A path given as text that lost its bytes to U+FFFD (a command-line argument that was not
/// UTF-8) says so, and what to give instead.
@Test func aPathGivenAsTextThatLostItsBytesSaysSo() throws {
    let folder = try TemporaryFolder()
    let given = folder.url.path + "/caf\u{FFFD}.eml"
    let (messages, problems) = collect(MessageSource(paths: [given]))
    #expect(messages.isEmpty)
    #expect(
        problems.map(\.reason) == [
            "file name is not valid UTF-8: cannot be opened by that name; give the folder that holds it"
        ])
    #expect(MessageSource.missingReason(folder.url.path + "/gone.eml") == "no such file or directory")
}
