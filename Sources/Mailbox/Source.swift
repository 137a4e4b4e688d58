import Foundation
import MIME

// PLACEHOLDER SIGNATURES: the Mailbox work replaces these bodies; the signatures are the
// contract the command line codes against.

/// Where a message came from: every report about a message names it.
public struct MessageOrigin: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file the message was read from, or `-` for standard input.
    public var path: String
    /// The byte offset of the message's first byte in that file (0 for a single-message file).
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

    public init(origin: MessageOrigin, bytes: [UInt8], maildirFlags: String? = nil) {
        self.origin = origin
        self.bytes = bytes
        self.maildirFlags = maildirFlags
    }
}

/// A message that could not be read, with where and why.
public struct SourceProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var origin: MessageOrigin
    public var reason: String

    public init(origin: MessageOrigin, reason: String) {
        self.origin = origin
        self.reason = reason
    }

    public var description: String { "\(origin.path) at byte \(origin.byteOffset): \(reason)" }
}

/// Streams the messages of one or more paths (`.eml`, mbox, Maildir, directory tree, or
/// `-` for standard input) one at a time, in a stable order.
public final class MessageSource: Sequence, IteratorProtocol {
    public init(paths: [String]) {}
    /// The next message, or a problem that skipped one; `nil` at the end.
    public func next() -> Result<RawMessage, SourceProblem>? { nil }
}
