import Foundation
import MIME
import Mailbox
import MerchantCheck

/// The loop `extract`, `inspect` and `check` share: every message of the given paths, in
/// ``MessageSource`` order, with the ones that cannot be read reported on standard error
/// (`mailorders <command>: skipped <path> at byte <offset>: <reason>`) and counted.
final class MessageLoop {
    /// The command's name, as it starts each report line.
    let command: String
    /// The paths as given on the command line (files, folders, `-`).
    let paths: [String]
    /// The inputs that could not be read or parsed so far, in order.
    private(set) var skippedInputs: [SkippedInput] = []
    /// How many inputs could not be read or parsed so far.
    var skipped: Int { skippedInputs.count }

    init(command: String, paths: [String]) {
        self.command = command
        self.paths = paths
    }

    /// Calls `body` with each message's bytes as read, reporting and counting the messages the
    /// source could not read (a file that vanished, a message over the size limit).
    ///
    /// A path `FILE#N` that does not exist as given, where `FILE` is a regular file, names the
    /// `N`-th message (from 1) of the mbox `FILE`, counted as `scan` counts when it lists
    /// origins: `check`, `extract` and `inspect` read what a scan summary names.
    func forEachRawMessage(_ body: (RawMessage) -> Void) {
        var plain: [String] = []
        func readPlain() {
            guard !plain.isEmpty else { return }
            read(MessageSource(paths: plain), body)
            plain = []
        }
        for path in paths {
            guard let (file, index) = Self.mboxMessageReference(path) else {
                plain.append(path)
                continue
            }
            readPlain()
            readMessage(index, of: file, givenAs: path, body)
        }
        readPlain()
    }

    private func read(_ source: MessageSource, _ body: (RawMessage) -> Void) {
        while let next = source.next() {
            switch next {
            case .failure(let problem):
                skip(problem)
            case .success(let raw):
                body(raw)
            }
        }
    }

    /// Reads the `index`-th message of the mbox `file`, or says why there is none.
    private func readMessage(
        _ index: Int, of file: String, givenAs path: String, _ body: (RawMessage) -> Void
    ) {
        guard index >= 1 else {
            skip(path, "the messages of an mbox are counted from 1 (\(file)#1 is the first)")
            return
        }
        let source = MessageSource(paths: [file])
        var last = 0
        var isMbox = false
        while let next = source.next() {
            let origin: MessageOrigin
            switch next {
            case .failure(let problem): origin = problem.origin
            case .success(let raw): origin = raw.origin
            }
            // Junk before the first separator is reported without an index: not a message.
            guard origin.isInMultiMessageFile else {
                if case .success = next { break }
                continue
            }
            isMbox = true
            guard origin.index == index else {
                last = max(last, origin.index)
                continue
            }
            switch next {
            case .failure(let problem): skip(problem)
            case .success(let raw): body(raw)
            }
            return
        }
        if isMbox {
            skip(
                path,
                "\(file) is an mbox of \(last) message\(last == 1 ? "" : "s"), it has no message \(index)")
        } else {
            skip(path, "no such file, and \(file) is one message, not an mbox")
        }
    }

    /// `(FILE, N)` for a path `FILE#N` (N from 1; 0 is taken to be refused with a reason) that does not exist as given, where `FILE` is
    /// a regular file: the origin `scan` gives the `N`-th message of an mbox.
    static func mboxMessageReference(_ path: String) -> (file: String, index: Int)? {
        guard let hash = path.lastIndex(of: "#") else { return nil }
        let digits = path[path.index(after: hash)...]
        // `#0` is taken too, to be told that messages are counted from 1.
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(digits),
            index >= 0
        else { return nil }
        let file = String(path[..<hash])
        // Looked up as the source opens paths: one that is not UTF-8 by its own bytes.
        guard !MessageSource.pathExists(path), !MessageSource.isSymbolicLink(path),
            MessageSource.isRegularFile(file)
        else { return nil }
        return (file, index)
    }

    /// Calls `body` with each message parsed (RFC 5322 / MIME) beside its raw form, reporting and
    /// counting the messages that could not be read or parsed, and the files that are not
    /// messages at all: a header with no Internet message field
    /// (``Header/holdsMessageField``), which `scan` and `extract` pass over too.
    func forEachMessage(_ body: (RawMessage, Message) -> Void) {
        forEachRawMessage { raw in
            switch raw.parse() {
            case .success(let message):
                guard message.header.holdsMessageField else {
                    skip(
                        SourceProblem(origin: raw.origin, reason: "no header field: not an Internet message"))
                    return
                }
                body(raw, message)
            case .failure(let problem): skip(problem)
            }
        }
    }

    /// Reports an input as skipped, on standard error (`skipped <path> at byte <offset>:
    /// <reason>`), and keeps it in ``skippedInputs``.
    /// - Parameters:
    ///   - origin: the path as given, or `path#N` for a message of an mbox.
    ///   - byteOffset: where the message starts in its file, when there is such a place.
    ///   - reason: why it could not be read.
    func skip(_ origin: String, byteOffset: Int? = nil, _ reason: String) {
        skippedInputs.append(SkippedInput(origin: origin, byteOffset: byteOffset, reason: reason))
        let place = byteOffset.map { "\(origin) at byte \($0)" } ?? origin
        // A file name with a line break stays on its line, as in scan's summary.
        Console.error("mailorders \(command): skipped \(ScanSummary.oneLine("\(place): \(reason)"))")
    }

    /// Reports a message the source or the parser could not read.
    func skip(_ problem: SourceProblem) {
        skip(problem.origin.description, byteOffset: problem.byteOffset, problem.reason)
    }
}
