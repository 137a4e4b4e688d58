import Foundation

/// How many messages a file holds, told from its bytes without parsing them: for the total of
/// a progress bar (`mailorders scan` on a terminal), not for anything that must be exact.
///
/// A file whose first line (after a UTF-8 byte order mark) is not an mbox separator is one
/// message. In an mbox (RFC 4155), a message starts at its first line and at every later
/// `From ` line that has a separator's shape (``MboxReader/separatorShape(_:)``: dated, or
/// undated when the first one is) and is followed by a header field line (`Name: value`), as
/// ``MboxReader`` splits. The reader also splits on a few more lines (after a blank line,
/// before an empty message or binary data) and reads a few of these as body text (a field
/// that no message field follows); the count can be off by those.
///
/// Bytes are fed in chunks of any size, as a file is read: a line may run across them.
struct MessageCounter {
    /// Messages counted so far.
    private(set) var count = 0
    /// `nil` until the first line is read, then whether the file is an mbox.
    private(set) var isMbox: Bool?
    /// Whether the first separator has no date, so that undated ones count.
    private var acceptsUndated = false
    /// The line being read: its first bytes (up to ``keptLineBytes``) and its length.
    private var line: [UInt8] = []
    private var lineLength = 0
    /// Whether the line before the one being read has a separator's shape: the line being
    /// read tells whether a message starts there.
    private var previousLineMaySeparate = false
    private var bytesSeen = 0
    /// How much of a line is kept: a separator line is short, a longer line is no separator.
    private static let keptLineBytes = 1024

    /// Reads more of the file. Once the first line shows it is not an mbox, the rest is not
    /// looked at (``isDone``).
    mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count, !isDone {
            let lineFeed = memchr(base + start, 0x0A, bytes.count - start).map {
                base.distance(to: UnsafeRawPointer($0))
            }
            let end = lineFeed ?? bytes.count
            let segment = bytes[start..<min(end, start + max(0, Self.keptLineBytes - line.count))]
            // Only a line that may matter is kept: the first, one that starts with `From ` (or
            // may, when a chunk ends before its fifth byte), and the one after a
            // separator-shaped line.
            let keep: Bool
            if isMbox == nil || previousLineMaySeparate {
                keep = true
            } else if lineLength == 0 {
                keep =
                    segment.starts(with: MboxReader.fromLine)
                    || (segment.count < MboxReader.fromLine.count
                        && MboxReader.fromLine.starts(with: segment))
            } else {
                keep = !line.isEmpty
            }
            if keep { line.append(contentsOf: segment) }
            lineLength += end - start
            bytesSeen += end - start
            start = end
            if lineFeed != nil {
                bytesSeen += 1
                start += 1
                endLine()
            }
        }
    }

    /// Counts the last line, which has no line feed after it.
    mutating func finish() {
        if lineLength > 0 { endLine() }
        if isMbox == nil && bytesSeen > 0 { count = 1 }
    }

    /// Whether the rest of the file cannot change the count: it is one message.
    var isDone: Bool { isMbox == false }

    private mutating func endLine() {
        defer {
            line.removeAll(keepingCapacity: true)
            lineLength = 0
        }
        var content = line[...]
        if isMbox == nil, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if content.last == 0x0D { content = content.dropLast() }
        let shape =
            lineLength <= Self.keptLineBytes && content.starts(with: MboxReader.fromLine)
            ? MboxReader.separatorShape(content) : nil
        guard let isMbox else {
            isMbox = shape != nil
            acceptsUndated = shape == .undated
            count = 1
            return
        }
        guard isMbox else { return }
        if previousLineMaySeparate, MessageSource.startsWithHeaderField(Array(content)) { count += 1 }
        previousLineMaySeparate = shape.map { $0 == .dated || acceptsUndated } == true
    }

    /// The messages of the file at `path`, read in chunks of 1 MiB; a file that cannot be
    /// opened or read counts one (the reader reports it).
    /// - Parameter shouldStop: asked before each chunk; `true` ends the count early, with
    ///   what was counted so far.
    static func count(atPath path: String, shouldStop: () -> Bool = { false }) -> Int {
        count(at: FileSystemPath(path), shouldStop: shouldStop)
    }

    /// ``count(atPath:shouldStop:)`` for a path of any bytes (a name that is not UTF-8).
    static func count(at path: FileSystemPath, shouldStop: () -> Bool = { false }) -> Int {
        let descriptor = path.withCString { Foundation.open($0, O_RDONLY | O_NONBLOCK) }
        guard descriptor >= 0 else { return 1 }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var counter = MessageCounter()
        while !counter.isDone, !shouldStop() {
            guard let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else { break }
            data.withUnsafeBytes { counter.feed($0) }
        }
        counter.finish()
        return max(1, counter.count)
    }
}
