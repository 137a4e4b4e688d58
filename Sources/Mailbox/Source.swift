import Foundation
import MIME

/// Where a message came from: every report about a message names it.
public struct MessageOrigin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file the message was read from, or `-` for standard input.
    public var path: String
    /// The byte offset of the message's first byte in that file (0 for a single-message
    /// file; in an mbox, the byte after the `From ` separator line).
    public var byteOffset: Int
    /// The 1-based index of the message in its file (1 for a single-message file).
    public var index: Int
    /// Whether the file holds several messages (mbox, stdin stream).
    public var isInMultiMessageFile: Bool

    public init(path: String, byteOffset: Int = 0, index: Int = 1, isInMultiMessageFile: Bool = false) {
        self.path = path
        self.byteOffset = byteOffset
        self.index = index
        self.isInMultiMessageFile = isInMultiMessageFile
    }

    /// `inbox.mbox#3` for a message in a multi-message file, else the path.
    public var description: String { isInMultiMessageFile ? "\(path)#\(index)" : path }
}

/// One message's bytes as read from a source, not yet parsed.
public struct RawMessage: Sendable {
    public var origin: MessageOrigin
    public var bytes: [UInt8]
    /// Maildir flags from the file name (`S`, `R`, …), when read from a Maildir.
    public var maildirFlags: String?
    /// What the source noticed about this message's framing (e.g. a truncated mbox).
    public var warnings: [String]
    /// What the source set right in this message's framing (a `Content-Length` that did not
    /// frame it, ignored); unlike ``warnings`` these leave the message whole, and ``parse(limits:)``
    /// adds them to the message's warnings as repairs.
    public var repairs: [String]

    public init(
        origin: MessageOrigin, bytes: [UInt8], maildirFlags: String? = nil, warnings: [String] = [],
        repairs: [String] = []
    ) {
        self.origin = origin
        self.bytes = bytes
        self.maildirFlags = maildirFlags
        self.warnings = warnings
        self.repairs = repairs
    }
}

/// A message that could not be read, with where and why.
public struct SourceProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var origin: MessageOrigin
    public var reason: String
    /// Whether the problem is the file's, found before any of its bytes was read (it cannot
    /// be opened, is no regular file, or grew past the message limit): no byte offset applies.
    public var isFileProblem: Bool
    /// Whether the problem is a folder's: one that could not be listed (`opendir(3)` failed),
    /// or one inside a Maildir's `cur/` or `new/`, where each entry is a message file. Not one
    /// message: the messages in it, however many, are not read. Also a ``isFileProblem``.
    public var isFolderProblem: Bool

    /// - Parameters:
    ///   - origin: where the message is (its byte offset is where the problem was found).
    ///   - reason: why it was skipped, on one line.
    ///   - isFileProblem: the file could not be read at all (``isFileProblem``).
    ///   - isFolderProblem: a folder could not be listed (``isFolderProblem``).
    public init(
        origin: MessageOrigin, reason: String, isFileProblem: Bool = false, isFolderProblem: Bool = false
    ) {
        self.origin = origin
        self.reason = reason
        self.isFileProblem = isFileProblem || isFolderProblem
        self.isFolderProblem = isFolderProblem
    }

    /// The byte offset to report with the problem: the origin's, or `nil` for a file that could
    /// not be read at all (``isFileProblem``).
    public var byteOffset: Int? { isFileProblem ? nil : origin.byteOffset }

    /// `inbox.mbox#3 at byte 5120: reason`: the message's origin (``MessageOrigin/description``),
    /// the byte offset, the reason; the form every command reports a skipped message in. A file
    /// that could not be read at all has no byte offset: `missing.eml: no such file or directory`.
    public var description: String {
        guard let byteOffset else { return "\(origin): \(reason)" }
        return "\(origin) at byte \(byteOffset): \(reason)"
    }
}

/// What a ``MessageSource`` hands out next (``MessageSource/nextEntry()``).
public enum SourceEntry: Sendable {
    /// A message read, or a problem that skipped one.
    case read(Result<RawMessage, SourceProblem>)
    /// A file to read with ``MessageFile/read()``, on any thread: a Maildir's message file, or
    /// a file of at most 1 MiB (``MessageSource/defersFileReads``).
    case unread(MessageFile)
}

/// A file a ``MessageSource`` found and left unread (``MessageSource/defersFileReads``), so
/// that it can be read on another thread: one message, or a small mbox.
public struct MessageFile: Sendable {
    /// The file's path, as the source found it and reports show it: a byte of its name that
    /// is not UTF-8 is written `\xHH` (`cur/caf\xE9:2,S`).
    public var path: String { location.display }
    /// The file's path as the file system holds it.
    let location: FileSystemPath
    /// Its size when it was listed (`stat(2)`), in bytes: what reading it will take.
    public let byteCount: Int
    let maxMessageBytes: Int
    let scratchPool: ReadScratchPool

    /// Reads the file as ``MessageSource`` reads any file: its message, the messages of an
    /// mbox, or the problems that skipped them, in file order (none for an mbox that holds
    /// no message, or a Maildir message deleted since it was listed). A Maildir message renamed
    /// since is read under its new name; a file grown past the message limit is reported.
    public func read() -> [Result<RawMessage, SourceProblem>] {
        let scratch = scratchPool.take()
        defer { scratchPool.put(scratch) }
        return MessageSource.readAll(path: location, maxMessageBytes: maxMessageBytes, scratch: scratch)
    }
}

/// Streams the messages of one or more paths (`.eml`, mbox, Maildir, directory tree, or
/// `-` for standard input) one at a time, in a stable order.
///
/// - A regular file is an mbox when it starts with a `From ` line (mboxo, mboxrd with
///   `>From ` unescaping, mboxcl2 with `Content-Length`), else one message; a first line
///   `From  : Shop <shop@example.com>` — `From`, white space and a colon — is a header field
///   in the obsolete syntax (RFC 5322 §4.5), not a separator. A file that
///   starts neither with `From ` nor with a header field but holds a separator line
///   followed by a header field (within the message size limit) is an mbox with junk before
///   it: the junk is reported as a ``SourceProblem`` at its byte offset and the mbox is read.
///   Inside an mbox, a separator is a `From ` line with a separator's shape — a sender and a
///   date with a time of day and a year (RFC 4155 §2) — in a separator's place: after a blank
///   line, or before a header field (``MboxReader``). A separator followed by another
///   separator, by nothing but white space to the end, or by bytes that are not a header
///   section (binary data, text with no header field) is reported as a ``SourceProblem`` at
///   the offset after it, and the message before it ends there.
/// - A directory is walked in name order: files anywhere below it but hidden ones. In a
///   Maildir (a folder with `cur/` and `new/`, or a Maildir++ folder's `maildirfolder` file)
///   the messages are the files in `cur/` and `new/` (with flags read from names after `:2,`,
///   `!2,` or `;2,`), and its subfolders that are Maildirs (Maildir++ `.Name` folders, nested
///   ones) are read; its other files and folders belong to the mail server (`dovecot-uidlist`,
///   `dovecot.index`, `maildirsize`, `courierimapkeywords/` …) and are passed over without a
///   report, `tmp/` too.
/// - `-` is standard input: an mbox stream when it starts with a `From ` separator line (not
///   a `From  :` header field), else one message.
///
/// Memory is bounded by the largest message: mbox files and streams are read in 1 MiB
/// chunks. A message larger than `maxMessageBytes` is skipped with a ``SourceProblem``
/// naming its origin, and so are empty files and binary junk; the stream goes on.
public final class MessageSource: Sequence, IteratorProtocol {
    private enum Input {
        /// A path given by the caller, or (`insideTree`) one found by listing a folder, and how
        /// it is read.
        case path(FileSystemPath, insideTree: Bool, role: Role = .any)
        case standardInput
    }

    /// How an entry found in a folder is read.
    private enum Role {
        /// Whatever it is: a file is read, a folder listed, anything else reported.
        case any
        /// A Maildir's `cur/` or `new/`: read as ``any``, and followed when it is a symbolic
        /// link to a folder.
        case maildirMessages
        /// An entry of a Maildir's `cur/` or `new/`: a message file. A folder there is no
        /// message: it is reported, not listed.
        case maildirMessage
        /// A hidden entry of a folder that is not a Maildir: a folder is listed (a Maildir++
        /// folder such as `.Sent`), anything else passed over.
        case ifFolder
        /// An entry of a Maildir beside `cur/`, `new/` and `tmp/`: listed when it is a Maildir
        /// itself (a Maildir++ folder `.Name`, or a subfolder in the layout that nests them),
        /// passed over otherwise, without a report — the mail server's files (`dovecot-uidlist`,
        /// `dovecot.index`, `maildirsize`, `subscriptions` …) and folders (`courierimapkeywords/`).
        case ifMaildir
    }

    /// What a folder is, from the names it holds.
    private enum FolderKind {
        /// Neither `cur/` nor `new/`: every file below it is read.
        case plain
        /// `cur/` or `new/` but not both (a Maildir copied without its empty folders): its
        /// `tmp/` is not read, the rest is.
        case partialMaildir
        /// A Maildir: `cur/` and `new/`, or a Maildir++ folder's `maildirfolder` file. Its
        /// messages are the files in `cur/` and `new/`, and its subfolders that are Maildirs
        /// are read; nothing else.
        case maildir
    }

    private var pending: [Input]
    /// Folders listed so far, as device and inode: a folder reached again (through a link to
    /// it) is not read twice, so links cannot make the walk loop.
    private var listedFolders = Set<FileIdentity>()
    private var reader: MboxReader?
    /// The read buffer every file of this source is read through, one after another.
    private let scratch: ReadScratch
    /// Messages of a file read at once (``MessageFile/read()``) and not handed out yet.
    private var readAhead: [Result<RawMessage, SourceProblem>] = []
    /// Read buffers for ``MessageFile/read()``, which runs on any thread.
    private let scratchPool = ReadScratchPool()
    /// Whether ``nextEntry()`` hands out files of one message unread
    /// (``SourceEntry/unread(_:)``) instead of reading them: a Maildir's files of at most
    /// `maxMessageBytes` bytes, and any other file of at most 1 MiB. Larger files (mboxes) are
    /// still streamed by the source, one message at a time.
    public var defersFileReads = false
    private let maxMessageBytes: Int
    private let topLevelPaths: [String]
    /// Files and folders never read (a scan's database inside the tree it reads), as device and
    /// inode, so that any spelling of their paths matches.
    private let excludedFiles: Set<FileIdentity>
    /// Output folders of `mailorders scan` (this run's), as device and inode: in them, and in
    /// any folder that holds ``outputFolderMarker``, what a scan writes is passed over
    /// (``isScanOutput(_:in:)``) and everything else read.
    private let outputFolders: Set<FileIdentity>
    /// The descriptor read for `-`; tests substitute a pipe.
    var standardInputDescriptor: Int32 = 0

    /// - Parameters:
    ///   - paths: files, directories, or `-` for standard input.
    ///   - maxMessageBytes: the largest message read; bigger ones are reported and skipped.
    ///   - excluded: files and folders that are passed over without a report wherever they
    ///     appear below `paths` (e.g. the database of a scan, given by `--db`, inside the
    ///     mailbox it reads); matched by device and inode, so they must exist when the source
    ///     is made. Paths that do not exist are ignored.
    ///   - outputFolders: output folders of `mailorders scan` that may lie below `paths` (the
    ///     run's `--out`): in them, what a scan writes (``isScanOutput(_:in:)``) is passed over
    ///     without a report and everything else is read, as it is in any folder that holds
    ///     ``outputFolderMarker``. Matched by device and inode, like `excluded`.
    public init(
        paths: [String], maxMessageBytes: Int = MIMELimits.default.maxMessageBytes,
        excluding excluded: [String] = [], outputFolders: [String] = []
    ) {
        self.topLevelPaths = paths
        self.excludedFiles = Set(excluded.compactMap(FileIdentity.init(path:)))
        self.outputFolders = Set(outputFolders.compactMap(FileIdentity.init(path:)))
        self.pending = paths.reversed().map {
            $0 == "-" ? .standardInput : .path(FileSystemPath($0), insideTree: false)
        }
        self.maxMessageBytes = maxMessageBytes
        self.scratch = ReadScratch()
    }

    /// A source with nothing to walk, that reads one file handed to it (``MessageFile/read()``).
    private init(maxMessageBytes: Int, scratch: ReadScratch) {
        self.topLevelPaths = []
        self.excludedFiles = []
        self.outputFolders = []
        self.pending = []
        self.maxMessageBytes = maxMessageBytes
        self.scratch = scratch
    }

    /// About how many messages the given paths hold, for a progress bar; `nil` when a path is
    /// standard input (or not there).
    ///
    /// A file in a Maildir's `cur/` or `new/` is one message. Any other file is read once, in
    /// chunks, to count the messages of an mbox (see ``MessageCounter``: the count may be off
    /// by a separator the reader takes for body text, or the reverse); a file that is one
    /// message is read only up to its first line. Folders are walked as ``next()`` walks them.
    /// - Parameter shouldStop: asked before each folder entry and each chunk read; `true`
    ///   ends the count and gives `nil`.
    public func estimatedMessageCount(shouldStop: () -> Bool = { false }) -> Int? {
        var total = 0
        for path in topLevelPaths {
            guard path != "-" else { return nil }
            guard let count = countMessages(in: FileSystemPath(path), shouldStop: shouldStop) else {
                return nil
            }
            total += count
        }
        return shouldStop() ? nil : total
    }

    /// The next message, or a problem that skipped one; `nil` at the end.
    public func next() -> Result<RawMessage, SourceProblem>? {
        if !readAhead.isEmpty { return readAhead.removeFirst() }
        switch nextEntry() {
        case .read(let result): return result
        case .unread(let file):
            readAhead = file.read()
            return readAhead.isEmpty ? next() : readAhead.removeFirst()
        case nil: return nil
        }
    }

    /// The next message or problem, or (with ``defersFileReads``) the next file to read; `nil`
    /// at the end. Unread files let the caller read them on other threads
    /// (``MessageFile/read()``), in the order they come.
    public func nextEntry() -> SourceEntry? {
        while true {
            if let reader {
                if let result = reader.next() { return .read(result) }
                self.reader = nil
                continue
            }
            guard let input = pending.popLast() else { return nil }
            switch input {
            case .standardInput:
                if let result = open(
                    descriptor: standardInputDescriptor, path: "-", flags: nil, isStandardInput: true)
                {
                    return .read(result)
                }
            case .path(let path, let insideTree, let role):
                if let entry = visit(path, insideTree: insideTree, role: role) {
                    return entry
                }
            }
        }
    }

    /// The file `mailorders scan` keeps in its output folder (the bundle watermark): a folder
    /// that holds it is an earlier scan's output, in which what a scan writes
    /// (``isScanOutput(_:in:)``) is passed over without a report and everything else is read.
    public static let outputFolderMarker = ".mailorders-bundled"

    /// The name of the order database `mailorders scan` keeps in its output folder unless
    /// told otherwise (`--db`); SQLite keeps its `-wal`, `-shm` and `-journal` files beside it.
    public static let defaultDatabaseName = "mailorders.sqlite"

    /// Whether the entry `name` of the output folder `folder` is something `mailorders scan`
    /// writes there, never mail:
    ///
    /// - the order database (``defaultDatabaseName``) and its `-wal`, `-shm` and `-journal`
    ///   files;
    /// - its hidden files and folders, all named `.mailorders-…`: the marker
    ///   (``outputFolderMarker``), the last run's summary, the staging folder where bundles are
    ///   written before they are put in place;
    /// - bundles: a folder named `<merchant>-<order>-<10 lower-case hex digits>` that holds an
    ///   `order.json`, or a file of that name with `.order` (a zipped bundle).
    ///
    /// Anything else in an output folder (a mail folder kept there, a Maildir) is read as
    /// anywhere else.
    /// - Parameters:
    ///   - name: the entry's name, as listed.
    ///   - folder: the output folder's path.
    public static func isScanOutput(_ name: String, in folder: String) -> Bool {
        isScanOutput(listed: Array(name.utf8), in: FileSystemPath(folder))
    }

    /// ``isScanOutput(_:in:)`` for a name listed as bytes: a name that is not UTF-8 is no name a
    /// scan writes.
    static func isScanOutput(listed name: [UInt8], in folder: FileSystemPath) -> Bool {
        guard let text = String(validating: name, as: UTF8.self) else { return false }
        if text.hasPrefix(".mailorders-") { return true }
        if text == defaultDatabaseName
            || ["-wal", "-shm", "-journal"].contains(where: { text == defaultDatabaseName + $0 })
        {
            return true
        }
        guard looksLikeBundleName(text) else { return false }
        if text.hasSuffix(".order") { return true }
        return folder.appending(name + Array("/order.json".utf8)).withCString { access($0, F_OK) } == 0
    }

    /// Whether a file or folder name has the shape `mailorders scan` gives bundles:
    /// `…-<10 lower-case hex digits>`, optionally followed by `.order`.
    /// - Parameter name: a name without a folder (`shop.example-A-1-0123456789`).
    public static func looksLikeBundleName(_ name: String) -> Bool {
        let base = name.hasSuffix(".order") ? name.dropLast(6) : Substring(name)
        guard base.count > 11 else { return false }
        let hash = base.suffix(10)
        let dash = base.dropLast(10).last
        return dash == "-" && hash.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
    }

    /// Whether `path` itself is a symbolic link (not what it points to; `lstat(2)`).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// Why a path that does not resolve to a file or folder cannot be read: the system's
    /// reason from `stat(2)` (a loop of symbolic links is `ELOOP`, a link to nothing `ENOENT`,
    /// a folder without search permission `EACCES`).
    ///
    /// A path with U+FFFD in it that is not there is taken for a name that was not UTF-8 (a
    /// command-line argument decoded with U+FFFD for each such byte), which no longer names the
    /// file: the reason says so, and that the folder holding it reads it (names listed from a
    /// folder are read by their bytes).
    /// - Parameter path: a path that `stat(2)` may not resolve.
    /// - Returns: the reason, lower-cased (`no such file or directory`, `symbolic link to a
    ///   missing file`, `permission denied` …).
    public static func missingReason(_ path: String) -> String {
        let location = FileSystemPath(path)
        let reason = missingReason(location)
        // A name whose own bytes were found (in `argv`) is missing as those bytes.
        guard path.unicodeScalars.contains("\u{FFFD}"), location.bytes == Array(path.utf8),
            reason == systemReason(ENOENT)
        else { return reason }
        return "file name is not valid UTF-8: cannot be opened by that name; give the folder that holds it"
    }

    /// The path given as text as reports show it: a command-line argument that is not UTF-8
    /// with each of its own bytes that is not part of UTF-8 written `\xHH` (`FileSystemPath`).
    public static func displayPath(_ path: String) -> String { FileSystemPath(path).display }

    /// Whether `stat(2)` finds the path given as text (a command-line argument), symbolic
    /// links followed; a path that is not UTF-8 is looked up by its own bytes
    /// (`FileSystemPath`).
    public static func pathExists(_ path: String) -> Bool {
        var status = stat()
        return FileSystemPath(path).withCString { stat($0, &status) } == 0
    }

    /// Whether the path given as text is a regular file (symbolic links followed), looked up
    /// as ``pathExists(_:)`` looks it up.
    public static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return FileSystemPath(path).withCString { stat($0, &status) } == 0
            && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// ``missingReason(_:)`` for a path of any bytes.
    static func missingReason(_ path: FileSystemPath) -> String {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) != 0 else { return "not a readable file or directory" }
        let code = errno
        if code == ENOENT && isSymbolicLink(path) { return "symbolic link to a missing file" }
        return systemReason(code)
    }

    /// ``isSymbolicLink(_:)`` for a path of any bytes.
    static func isSymbolicLink(_ path: FileSystemPath) -> Bool {
        var status = stat()
        return path.withCString { lstat($0, &status) } == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    /// The system's description of an `errno` value (`strerror(3)`), lower-cased as every
    /// reason this tool prints is: `permission denied`.
    static func systemReason(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// Reads a file, or lists a folder into `pending`.
    ///
    /// One `stat(2)` (following links) tells whether the path exists, whether it is excluded,
    /// and whether it is a folder, a regular file or something else.
    /// - Parameters:
    ///   - insideTree: the path was found by listing a folder: a symbolic link to a folder is
    ///     then not followed (it may lead anywhere, up to `/`) but reported, unless it is a
    ///     Maildir's `cur/` or `new/`.
    ///   - role: how the entry is read (``Role``).
    ///   - renamed: `path` is a Maildir message's new name (followed once, not again).
    private func visit(
        _ location: FileSystemPath, insideTree: Bool, role: Role = .any, renamed: Bool = false
    )
        -> SourceEntry?
    {
        let path = location.display
        func problem(_ reason: String) -> SourceEntry {
            .read(
                .failure(
                    SourceProblem(origin: MessageOrigin(path: path), reason: reason, isFileProblem: true)))
        }
        let isOptional = role == .ifFolder || role == .ifMaildir
        var status = stat()
        guard location.withCString({ stat($0, &status) }) == 0 else {
            if isOptional { return nil }
            // A Maildir message renamed or deleted by a mail reader since its folder was listed:
            // read under its new name, or passed over. (Not a dangling link.)
            var entry = stat()
            if errno == ENOENT && insideTree && Self.isInMaildirMessagesFolder(path)
                && location.withCString({ lstat($0, &entry) }) != 0
            {
                guard !renamed, let newName = Self.renamedMaildirMessage(location) else { return nil }
                return visit(newName, insideTree: insideTree, role: role, renamed: true)
            }
            return problem(insideTree ? Self.missingReason(location) : Self.missingReason(path))
        }
        if excludedFiles.contains(FileIdentity(status)) { return nil }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            if insideTree && role != .maildirMessages && MessageSource.isSymbolicLink(location) {
                return problem(
                    "symbolic link to a folder, not followed inside a mailbox; give it as a path to read it")
            }
            if role == .maildirMessage {
                return .read(
                    .failure(
                        SourceProblem(
                            origin: MessageOrigin(path: path),
                            reason:
                                "folder inside a Maildir's cur/ or new/, which hold one message per file: "
                                + "not read; give it as a path to read it",
                            isFolderProblem: true)))
            }
            guard !listedFolders.contains(FileIdentity(status)) else { return nil }
            switch entries(ofFolder: location, status, role: role) {
            case .success(let entries?):
                listedFolders.insert(FileIdentity(status))
                pending.append(contentsOf: entries.reversed())
                return nil
            case .success(nil):
                return nil
            case .failure(let problem):
                return .read(.failure(problem))
            }
        }
        if isOptional { return nil }
        // FIFOs, sockets and devices are not mail files, and a FIFO would block the read.
        if (status.st_mode & S_IFMT) != S_IFREG { return problem("not a regular file") }
        // A file of one message — a Maildir's (up to the message limit), or a small one — can
        // be read anywhere, all at once; a larger file (an mbox of many messages) is streamed
        // here, so that no reader holds more than one message's worth of bytes.
        let size = Int(status.st_size)
        if defersFileReads
            && (size <= Self.smallFileBytes
                || (size <= maxMessageBytes && Self.isInMaildirMessagesFolder(path)))
        {
            return .unread(
                MessageFile(
                    location: location, byteCount: size, maxMessageBytes: maxMessageBytes,
                    scratchPool: scratchPool))
        }
        let descriptor = location.withCString { Foundation.open($0, O_RDONLY | O_NONBLOCK) }
        guard descriptor >= 0 else { return problem(Self.systemReason(errno)) }
        return open(
            descriptor: descriptor, path: path, flags: Self.maildirFlags(location), isStandardInput: false,
            isMaildirMessage: Self.isInMaildirMessagesFolder(path)
        ).map(SourceEntry.read)
    }

    /// The largest file outside a Maildir that ``defersFileReads`` leaves unread: one read
    /// chunk, 1 MiB.
    static let smallFileBytes = ChunkedReader.chunkSize

    /// Whether `path` names an entry of a folder named `cur` or `new` (a Maildir's messages,
    /// one per file), as ``maildirFlags(_:)`` tells them.
    static func isInMaildirMessagesFolder(_ path: String) -> Bool {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return false }
        let parent = utf8[..<slash]
        let name = parent[
            (parent.lastIndex(of: UInt8(ascii: "/")).map(utf8.index(after:)) ?? parent.startIndex)...]
        return name.elementsEqual("cur".utf8) || name.elementsEqual("new".utf8)
    }

    /// The messages of the file at `path`, read on the calling thread (``MessageFile/read()``).
    ///
    /// The file may have changed since it was listed:
    /// - a Maildir message renamed meanwhile (its flags changed, or moved from `new/` to
    ///   `cur/`, as mail readers do all the time) is read under its new name, found by its
    ///   unique name (the part before `:2,`); one deleted meanwhile gives nothing;
    /// - a file grown past the message limit is reported, not read: only a file streamed by
    ///   the source itself may hold more than one message's worth of bytes.
    fileprivate static func readAll(
        path location: FileSystemPath, maxMessageBytes: Int, scratch: ReadScratch
    ) -> [Result<RawMessage, SourceProblem>] {
        let isMaildirMessage = isInMaildirMessagesFolder(location.display)
        var location = location
        var descriptor = location.withCString { Foundation.open($0, O_RDONLY | O_NONBLOCK) }
        if descriptor < 0 && errno == ENOENT && isMaildirMessage {
            guard let renamed = renamedMaildirMessage(location) else { return [] }
            location = renamed
            descriptor = location.withCString { Foundation.open($0, O_RDONLY | O_NONBLOCK) }
        }
        let path = location.display
        guard descriptor >= 0 else {
            return [
                .failure(
                    SourceProblem(
                        origin: MessageOrigin(path: path), reason: systemReason(errno), isFileProblem: true))
            ]
        }
        // The file was a regular one when it was listed; it may have been replaced since.
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            _ = Foundation.close(descriptor)
            return [
                .failure(
                    SourceProblem(
                        origin: MessageOrigin(path: path), reason: "not a regular file", isFileProblem: true))
            ]
        }
        guard Int(status.st_size) <= maxMessageBytes else {
            _ = Foundation.close(descriptor)
            return [
                .failure(
                    SourceProblem(
                        origin: MessageOrigin(path: path),
                        reason:
                            "grew to \(status.st_size) bytes after it was listed, past the \(maxMessageBytes)-byte message limit; read again on the next run",
                        isFileProblem: true))
            ]
        }
        let source = MessageSource(maxMessageBytes: maxMessageBytes, scratch: scratch)
        guard
            let first = source.open(
                descriptor: descriptor, path: path, flags: maildirFlags(location), isStandardInput: false,
                isMaildirMessage: isMaildirMessage)
        else { return [] }
        var results = [first]
        while let next = source.next() { results.append(next) }
        return results
    }

    /// The path a Maildir message has now, when it was renamed in its Maildir since it was
    /// listed: a file of `cur/` or `new/` beside the one it was in whose name has the same
    /// unique part (before `:`, `!` or `;`, the info separators of ``maildirFlags(_:)``).
    static func renamedMaildirMessage(_ path: String) -> String? {
        renamedMaildirMessage(FileSystemPath(path))?.display
    }

    /// ``renamedMaildirMessage(_:)`` for a path of any bytes, compared byte for byte.
    static func renamedMaildirMessage(_ path: FileSystemPath) -> FileSystemPath? {
        let name = Array(path.lastComponent)
        let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: ";")]
        let unique = name.prefix { !separators.contains($0) }
        guard !unique.isEmpty else { return nil }
        let maildir = path.parent.parent
        for folder in ["cur", "new"] {
            let folderPath = maildir.appending(Array(folder.utf8))
            guard case .success(let names) = folderPath.listFolder() else { continue }
            for candidate in names
            where candidate.starts(with: unique) && candidate != name
                && (candidate.count == unique.count || separators.contains(candidate[unique.count]))
            {
                return folderPath.appending(candidate)
            }
        }
        return nil
    }

    /// The entries of the folder at `path` to read, in name order; `nil` when the folder is
    /// passed over (an entry of a Maildir that is not a Maildir itself).
    ///
    /// In an output folder (``isScanOutput(_:in:)``) what a scan writes is left out. In a
    /// Maildir, `cur/` and `new/` are read and every other entry is ``Role/ifMaildir``; in a
    /// folder with `cur/` or `new/` but not both, `tmp/` is left out; elsewhere hidden entries
    /// are ``Role/ifFolder`` and the rest is read. No `stat(2)` for each message: whether an
    /// entry is a file or a folder is told when it is visited.
    /// - Parameters:
    ///   - status: the folder's `stat(2)`.
    ///   - role: how the folder itself was reached.
    private func entries(ofFolder path: FileSystemPath, _ status: stat, role: Role)
        -> Result<[Input]?, SourceProblem>
    {
        let children: [[UInt8]]
        switch path.listFolder() {
        case .success(let names):
            children = names
        case .failure(let error):
            // The system's reason (`permission denied`).
            return .failure(
                SourceProblem(
                    origin: MessageOrigin(path: path.display),
                    reason: "cannot list directory: \(Self.systemReason(error.code))", isFolderProblem: true))
        }
        let kind = Self.folderKind(path, children: children)
        if role == .ifMaildir && kind == .plain { return .success(nil) }
        // In an output folder (this run's, or an earlier scan's, which its bundle watermark
        // names) the bundles, the order database and the scan's hidden files are not mail;
        // anything else there is.
        let isOutputFolder =
            outputFolders.contains(FileIdentity(status))
            || children.contains(Array(Self.outputFolderMarker.utf8))
        let cur = Array("cur".utf8)
        let new = Array("new".utf8)
        let tmp = Array("tmp".utf8)
        var entries: [Input] = []
        for name in children {
            if isOutputFolder && Self.isScanOutput(listed: name, in: path) { continue }
            let child = path.appending(name)
            // A Maildir's `cur/` and `new/` hold one message per file; hidden entries there are
            // passed over, as in any folder.
            if role == .maildirMessages {
                if name.first != UInt8(ascii: ".") {
                    entries.append(.path(child, insideTree: true, role: .maildirMessage))
                }
                continue
            }
            switch kind {
            case .maildir:
                if name == cur || name == new {
                    entries.append(.path(child, insideTree: true, role: .maildirMessages))
                } else if name != tmp {
                    entries.append(.path(child, insideTree: true, role: .ifMaildir))
                }
            case .partialMaildir, .plain:
                if kind == .partialMaildir && name == tmp { continue }
                let isMessages = kind == .partialMaildir && (name == cur || name == new)
                let role: Role =
                    isMessages ? .maildirMessages : name.first == UInt8(ascii: ".") ? .ifFolder : .any
                entries.append(.path(child, insideTree: true, role: role))
            }
        }
        return .success(entries)
    }

    /// Whether the folder holding `children` is a Maildir (`cur/` and `new/` folders, or a
    /// Maildir++ folder's `maildirfolder` file), half of one, or neither.
    private static func folderKind(_ path: FileSystemPath, children: [[UInt8]]) -> FolderKind {
        func isFolder(_ name: String) -> Bool {
            guard children.contains(Array(name.utf8)) else { return false }
            var status = stat()
            return path.appending(Array(name.utf8)).withCString { stat($0, &status) } == 0
                && (status.st_mode & S_IFMT) == S_IFDIR
        }
        let hasCur = isFolder("cur")
        let hasNew = isFolder("new")
        if (hasCur && hasNew) || children.contains(Array("maildirfolder".utf8)) { return .maildir }
        return hasCur || hasNew ? .partialMaildir : .plain
    }

    /// Reads the start of a file or stream and decides: mbox, or one message.
    /// - Parameter isStandardInput: `descriptor` is standard input: left open when done, and
    ///   read as a stream that cannot be read again, whether it is a pipe, a terminal or a file.
    /// - Parameter isMaildirMessage: the file is a Maildir's message (``isInMaildirMessagesFolder(_:)``):
    ///   one message whatever it holds, a `From ` line first being its envelope, not an mbox
    ///   separator (some delivery agents write one).
    private func open(
        descriptor: Int32, path: String, flags: String?, isStandardInput: Bool, isMaildirMessage: Bool = false
    ) -> Result<RawMessage, SourceProblem>? {
        let stream = ChunkedReader(descriptor: descriptor, closeWhenDone: !isStandardInput, scratch: scratch)
        stream.fill(atLeast: 5)
        var origin = MessageOrigin(path: path)
        if stream.buffer.isEmpty {
            stream.close()
            if stream.failed {
                return .failure(SourceProblem(origin: origin, reason: "read error"))
            }
            return .failure(SourceProblem(origin: origin, reason: "empty file"))
        }
        // A UTF-8 byte order mark some editors write is not part of the content.
        if stream.buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            stream.fill(atLeast: 8)
            stream.drop(3)
        }
        // A Maildir file is one message: a `From ` line before its header is dropped, and
        // nothing in it is read as a separator or unescaped.
        let isEnvelopeLine = isMaildirMessage && stream.startsWithSeparator(at: 0)
        if isEnvelopeLine {
            while stream.buffer.firstIndex(of: 0x0A) == nil && !stream.atEnd && stream.buffer.count <= 4096 {
                stream.fill(atLeast: stream.buffer.count + 4096)
            }
            stream.drop((stream.buffer.firstIndex(of: 0x0A) ?? (stream.buffer.count - 1)) + 1)
            origin.byteOffset = stream.bufferOffset
        }
        // Junk before an mbox's first separator (a stray line, a partial copy): the mbox is read
        // from its first `From ` line and what came before is reported.
        var leadingJunk: SourceProblem?
        if !isEnvelopeLine && !stream.startsWithSeparator(at: 0) {
            stream.fill(atLeast: 4096)
            let isJunk = !MessageSource.startsWithHeaderField(stream.buffer)
            // Not a message's start either: read on (as a single message would be read, up to
            // the message limit) and look for a separator anywhere in that.
            while isJunk && !stream.atEnd && stream.buffer.count <= maxMessageBytes {
                stream.fill(atLeast: stream.buffer.count + ChunkedReader.chunkSize)
            }
            if isJunk, let separator = MboxReader.firstSeparator(in: stream.buffer[...]) {
                let skipped = stream.buffer[0..<separator]
                if skipped.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
                    leadingJunk = SourceProblem(
                        origin: MessageOrigin(path: path, byteOffset: stream.bufferOffset),
                        reason:
                            "\(separator) bytes before the mbox's first From line are not a message")
                }
                stream.drop(separator)
            }
        }
        if !isEnvelopeLine && stream.startsWithSeparator(at: 0) {
            stream.fill(atLeast: 4096)
            if stream.startsWithBareCR { stream.crAsLineFeed = true }
            let mbox = MboxReader(
                stream: stream, path: path, maxMessageBytes: maxMessageBytes, isStandardInput: isStandardInput
            )
            reader = mbox
            if let leadingJunk { return .failure(leadingJunk) }
            return mbox.next()
        }
        // One message: read it whole, up to the limit.
        while !stream.atEnd && stream.buffer.count <= maxMessageBytes {
            stream.fill(atLeast: stream.buffer.count + ChunkedReader.chunkSize)
        }
        let tooLarge = stream.buffer.count > maxMessageBytes
        let failed = stream.failed
        let bytes = tooLarge ? [] : stream.buffer
        stream.close()
        if failed {
            return .failure(SourceProblem(origin: origin, reason: "read error"))
        }
        if tooLarge {
            return .failure(
                SourceProblem(
                    origin: origin, reason: "message larger than the \(maxMessageBytes)-byte limit"))
        }
        if let junk = MessageSource.junkReason(bytes) {
            return .failure(SourceProblem(origin: origin, reason: junk))
        }
        return .success(RawMessage(origin: origin, bytes: bytes, maildirFlags: flags))
    }

    /// Why these bytes are not a message at all, or nil when they may be one: nothing but
    /// white space, or binary data.
    ///
    /// Looks at the first 1,024 bytes: binary data has many control bytes there (more than one
    /// in ten), or NUL bytes and no line that starts like a header field (`Name:`, RFC 5322
    /// §2.2). A stray NUL in a message that does start with header fields is not enough: the
    /// message is read and the parser deals with the NUL. Neither is a body of such bytes
    /// (UTF-16 text, a page of form feeds) after a header section of text that holds a message
    /// field (``headerSectionEnd(_:)``): only the header section is looked at then.
    static func junkReason(_ bytes: [UInt8]) -> String? {
        if !bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) {
            let count = bytes.count == 1 ? "1 byte" : "\(bytes.count) bytes"
            return "only white space (\(count) of spaces, tabs and line breaks), not a message"
        }
        // The header section is looked for only when the first kilobyte looks binary: most
        // messages are told apart by that kilobyte alone.
        guard looksBinary(bytes.prefix(1024)) else { return nil }
        let head = headerSectionEnd(bytes).map { bytes[..<$0] } ?? bytes[...]
        if looksBinary(head.prefix(1024)) { return "binary data, not a message" }
        return nil
    }

    /// Names of a message's own header fields (RFC 5322 §3.6, RFC 2045 §3), lower-cased, with
    /// the colon.
    private static let messageFieldPrefixes = [
        "from:", "to:", "subject:", "date:", "message-id:", "mime-version:", "content-type:", "received:",
        "return-path:", "sender:", "reply-to:",
    ].map { Array($0.utf8) }

    /// Where the header section the bytes start with ends (the offset of the blank line after
    /// it), when it ends within the first 64 KiB and one of its lines starts with a message's
    /// own field (``messageFieldPrefixes``, any case); nil otherwise.
    static func headerSectionEnd(_ bytes: [UInt8]) -> Int? {
        let limit = Swift.min(bytes.count, 65_536)
        var lineStart = 0
        var holdsMessageField = false
        while lineStart < limit {
            var lineEnd = lineStart
            while lineEnd < limit, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let line = bytes[lineStart..<lineEnd]
            if line.isEmpty || line.elementsEqual([0x0D]) { return holdsMessageField ? lineStart : nil }
            if !holdsMessageField {
                holdsMessageField = messageFieldPrefixes.contains { prefix in
                    line.count >= prefix.count
                        && zip(line.prefix(prefix.count), prefix).allSatisfy { byte, expected in
                            (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected
                        }
                }
            }
            lineStart = lineEnd + 1
        }
        return nil
    }

    /// Whether `head` (the first bytes, up to 1,024) is binary data rather than text: more than
    /// one control byte in ten, or a NUL byte and no line that starts like a header field.
    static func looksBinary(_ head: ArraySlice<UInt8>) -> Bool {
        var control = 0
        var nul = false
        for byte in head where byte < 0x20 {
            if byte == 0 { nul = true }
            if byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B { control += 1 }
        }
        if control * 10 > head.count { return true }
        return nul && !startsLikeHeaderField(head)
    }

    /// Whether the first line starts with a field name — printable ASCII but `:` — and `:`
    /// (RFC 5322 §2.2), with white space allowed before the colon (the obsolete syntax,
    /// §4.5: `From  : Shop`): the bytes begin like a message.
    static func startsWithHeaderField(_ bytes: [UInt8]) -> Bool {
        var index = 0
        var inWhiteSpace = false
        while index < bytes.count, index < 1000 {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index > 0 }
            if (byte == 0x20 || byte == 0x09) && index > 0 {
                inWhiteSpace = true
            } else if byte < 0x21 || byte > 0x7E || inWhiteSpace {
                return false
            }
            index += 1
        }
        return false
    }

    /// Whether some line of `head` (the first, or one after a line feed) starts with a
    /// field name — printable ASCII but `:` — followed by `:` (RFC 5322 §3.6.8), with white
    /// space allowed before the colon (§4.5).
    static func startsLikeHeaderField(_ head: ArraySlice<UInt8>) -> Bool {
        var atLineStart = true
        var nameLength = 0
        var inWhiteSpace = false
        for byte in head {
            if byte == 0x0A {
                atLineStart = true
                nameLength = 0
                inWhiteSpace = false
                continue
            }
            guard atLineStart else { continue }
            if byte == UInt8(ascii: ":") {
                if nameLength > 0 { return true }
                atLineStart = false
            } else if (byte == 0x20 || byte == 0x09) && nameLength > 0 {
                inWhiteSpace = true
            } else if byte >= 0x21 && byte <= 0x7E && !inWhiteSpace {
                nameLength += 1
            } else {
                atLineStart = false
            }
        }
        return false
    }

    /// Maildir flags from a file name in `cur/` or `new/`: the letters after `:2,`
    /// (or `!2,`, or `;2,` where `:` is not allowed in file names).
    static func maildirFlags(_ path: FileSystemPath) -> String? {
        // Flags are ASCII letters: a byte that is not UTF-8 is none.
        maildirFlags(String(decoding: path.bytes, as: UTF8.self))
    }

    /// ``maildirFlags(_:)-(FileSystemPath)`` for a path given as text.
    static func maildirFlags(_ path: String) -> String? {
        // A file, not a folder: said, so that making the URL needs no stat(2).
        let url = URL(fileURLWithPath: path, isDirectory: false)
        let folder = url.deletingLastPathComponent().lastPathComponent
        guard folder == "cur" || folder == "new" else { return nil }
        let name = url.lastPathComponent
        for separator in [":2,", "!2,", ";2,"] {
            if let range = name.range(of: separator, options: .backwards) {
                return String(name[range.upperBound...].filter { $0.isLetter })
            }
        }
        return folder == "new" ? "" : nil
    }

    /// The number of files below `path` that are read as messages, walking its folders as
    /// ``next()`` does, without opening files.
    private func countMessages(in path: FileSystemPath, shouldStop: () -> Bool) -> Int? {
        var count = 0
        var pending: [Input] = [.path(path, insideTree: false)]
        var listed = Set<FileIdentity>()
        while case .path(let path, let insideTree, let role)? = pending.popLast() {
            if shouldStop() { return nil }
            var status = stat()
            guard path.withCString({ stat($0, &status) }) == 0, !excludedFiles.contains(FileIdentity(status))
            else { continue }
            if (status.st_mode & S_IFMT) == S_IFDIR {
                if insideTree && role != .maildirMessages && MessageSource.isSymbolicLink(path) { continue }
                if role == .maildirMessage { continue }
                guard !listed.contains(FileIdentity(status)),
                    case .success(let entries?) = entries(ofFolder: path, status, role: role)
                else { continue }
                listed.insert(FileIdentity(status))
                pending.append(contentsOf: entries)
            } else if (status.st_mode & S_IFMT) == S_IFREG && role != .ifFolder && role != .ifMaildir {
                count +=
                    Self.isInMaildirMessagesFolder(path.display)
                    ? 1 : MessageCounter.count(at: path, shouldStop: shouldStop)
            }
        }
        return count
    }
}

/// A read buffer reused by the readers of one ``MessageSource``, one file after another
/// (never by two threads at once: a source is read by one, and a ``ReadScratchPool`` lends
/// each buffer to one reader at a time).
final class ReadScratch {
    private var storage = UnsafeMutableRawBufferPointer.allocate(
        byteCount: ChunkedReader.chunkSize, alignment: 16)

    /// The buffer, grown to at least `count` bytes (its contents are not kept when it grows).
    func bytes(atLeast count: Int) -> UnsafeMutableRawBufferPointer {
        if storage.count < count {
            storage.deallocate()
            storage = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        }
        return storage
    }

    deinit { storage.deallocate() }
}

/// Read buffers for files read on several threads at once (``MessageFile/read()``): each
/// read takes one and puts it back, so a thread reads file after file through the same one.
final class ReadScratchPool: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var free: [ReadScratch] = []

    func take() -> ReadScratch {
        lock.lock()
        defer { lock.unlock() }
        return free.popLast() ?? ReadScratch()
    }

    func put(_ scratch: ReadScratch) {
        lock.lock()
        free.append(scratch)
        lock.unlock()
    }
}

/// A file descriptor read in chunks into a growing buffer.
final class ChunkedReader {
    static let chunkSize = 1 << 20
    let descriptor: Int32
    let closeWhenDone: Bool
    /// Bytes read and not yet dropped.
    var buffer: [UInt8] = []
    /// The file offset of `buffer[0]`.
    var bufferOffset = 0
    private(set) var atEnd = false
    private(set) var failed = false
    private var closed = false
    /// Where `read(2)` puts bytes before they are appended to ``buffer``: one per
    /// ``MessageSource``, so that reading a Maildir does not map and unmap a fresh
    /// megabyte (and take its page faults) for every file.
    private let scratch: ReadScratch

    init(descriptor: Int32, closeWhenDone: Bool, scratch: ReadScratch = ReadScratch()) {
        self.descriptor = descriptor
        self.closeWhenDone = closeWhenDone
        self.scratch = scratch
    }

    /// Reads until the buffer holds at least `count` bytes or the input ends.
    func fill(atLeast count: Int) {
        while buffer.count < count && !atEnd {
            let want = max(ChunkedReader.chunkSize, count - buffer.count)
            let bytes = scratch.bytes(atLeast: want)
            let got = Foundation.read(descriptor, bytes.baseAddress, want)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 {
                atEnd = true
                failed = got < 0
                close()
                return
            }
            let start = buffer.count
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<got]))
            if crAsLineFeed { translateCarriageReturns(from: start) }
        }
    }

    /// Reads bare CR line endings (old Mac OS mail) as LF, byte for byte, so offsets stay
    /// those of the file.
    var crAsLineFeed = false {
        didSet { if crAsLineFeed { translateCarriageReturns(from: 0) } }
    }

    private func translateCarriageReturns(from start: Int) {
        for index in start..<buffer.count where buffer[index] == 0x0D { buffer[index] = 0x0A }
    }

    /// Whether the first line break of the buffer is a bare CR.
    var startsWithBareCR: Bool {
        guard let carriageReturn = buffer.firstIndex(of: 0x0D) else { return false }
        if let lineFeed = buffer.firstIndex(of: 0x0A), lineFeed < carriageReturn { return false }
        return carriageReturn + 1 < buffer.count && buffer[carriageReturn + 1] != 0x0A
    }

    /// Whether the line at `offset` of the buffer starts like an mbox separator line: `From `,
    /// and not a `From` header field with white space before its colon (`From  : Shop`, RFC
    /// 5322 §4.5; ``FromLine/startsSeparator(_:)``). Reads as much input as that takes.
    func startsWithSeparator(at offset: Int) -> Bool {
        fill(atLeast: offset + 5)
        guard offset + 5 <= buffer.count else { return false }
        guard
            buffer[offset] == 0x46 && buffer[offset + 1] == 0x72 && buffer[offset + 2] == 0x6F
                && buffer[offset + 3] == 0x6D && buffer[offset + 4] == 0x20
        else { return false }
        // Read on past the white space after `From`, to the byte that tells.
        while FromLine.whiteSpaceEnd(buffer[offset...]) == buffer.count && !atEnd {
            fill(atLeast: buffer.count + 4096)
        }
        return FromLine.startsSeparator(buffer[offset...])
    }

    /// Forgets the first `count` bytes of the buffer.
    func drop(_ count: Int) {
        guard count > 0 else { return }
        buffer.removeFirst(count)
        bufferOffset += count
    }

    func close() {
        guard !closed else { return }
        closed = true
        atEnd = true
        if closeWhenDone { _ = Foundation.close(descriptor) }
    }

    deinit {
        close()
    }
}

extension RawMessage {
    /// Parses the bytes into a ``Message``; the source's own repairs and warnings (an ignored
    /// `Content-Length`, a truncated mbox) are added to the message's.
    /// - Parameter limits: the parser's resource limits.
    /// - Returns: the message, or a ``SourceProblem`` naming this message's origin when it
    ///   cannot be parsed at all.
    public func parse(limits: MIMELimits = .default) -> Result<Message, SourceProblem> {
        do {
            var message = try Message(bytes: bytes, limits: limits)
            message.warnings += (repairs + warnings).map { MIMEWarning(message: $0) }
            return .success(message)
        } catch {
            var origin = origin
            if let offset = error.byteOffset { origin.byteOffset += offset }
            return .failure(SourceProblem(origin: origin, reason: error.reason))
        }
    }
}

/// A file's device and inode number (`stat(2)`), which name it whatever path leads to it.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
