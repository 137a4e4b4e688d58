import MIME
import Mailbox

/// The loop `extract`, `inspect` and `check` share: every message of the given paths, in
/// ``MessageSource`` order, with the ones that cannot be read reported on standard error
/// (`mailorders <command>: skipped <path> at byte <offset>: <reason>`) and counted.
final class MessageLoop {
    /// The command's name, as it starts each report line.
    let command: String
    /// The paths as given on the command line (files, folders, `-`).
    let paths: [String]
    /// Messages that could not be read or parsed so far.
    private(set) var skipped = 0

    init(command: String, paths: [String]) {
        self.command = command
        self.paths = paths
    }

    /// Calls `body` with each message's bytes as read, reporting and counting the messages the
    /// source could not read (a file that vanished, a message over the size limit).
    func forEachRawMessage(_ body: (RawMessage) -> Void) {
        let source = MessageSource(paths: paths)
        while let next = source.next() {
            switch next {
            case .failure(let problem):
                skip(problem.description)
            case .success(let raw):
                body(raw)
            }
        }
    }

    /// Calls `body` with each message parsed (RFC 5322 / MIME) beside its raw form, reporting and
    /// counting the messages that could not be read or parsed.
    func forEachMessage(_ body: (RawMessage, Message) -> Void) {
        forEachRawMessage { raw in
            switch raw.parse() {
            case .success(let message): body(raw, message)
            case .failure(let problem): skip(problem.description)
            }
        }
    }

    /// Reports one message as skipped: `reason` names the file, the byte offset and why.
    func skip(_ reason: String) {
        skipped += 1
        Console.error("mailorders \(command): skipped \(reason)")
    }
}
