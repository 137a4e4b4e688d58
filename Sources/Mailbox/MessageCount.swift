import Foundation
import MIME

/// How many messages a file holds, told from its bytes without parsing them: for the total of
/// a progress bar (`mailorders scan` on a terminal), not for anything that must be exact.
///
/// A file whose first line that is not blank (after a UTF-8 byte order mark) is not an mbox
/// separator is one message. In an mbox (RFC 4155), a message starts at its first separator
/// and at every later `From ` line that has a separator's shape
/// (``MboxReader/separatorShape(_:)``: dated, or undated when the first one is) and is
/// followed, after any blank lines, by one of ``Header/messageFieldNames`` or by a block of
/// header fields (`Name: value`) that holds one, as ``MboxReader`` splits. The reader also
/// splits on a few more lines (before an empty message or binary data); the count can be off
/// by those.
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
    /// What the lines read since the last separator-shaped line say about it: the next lines
    /// tell whether a message starts there.
    private var pending = Pending.none
    /// After a separator-shaped line: blank lines, then header fields up to one of a message's.
    private enum Pending: Equatable {
        /// No separator-shaped line is waiting.
        case none
        /// One is, followed so far by blank lines only.
        case separator
        /// One is, followed by this many header field lines (folded lines included), none of
        /// them a message's own (`X-Mozilla-Status: 0001`).
        case fields(Int)
    }
    private var previousLineMaySeparate: Bool { pending != .none }
    /// Whether the file started with junk and no separator has come yet.
    private var awaitsFirstSeparator = false
    /// Whether the line before the one being read is blank.
    private var previousLineIsBlank = false
    /// Whether the pending separator-shaped line came after a blank line.
    private var separatorFollowsBlankLine = false
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
        // A separator after a blank line with nothing after it: an empty message, which the
        // reader reports (one entry).
        if isMbox == true && pending == .separator && separatorFollowsBlankLine && !awaitsFirstSeparator {
            count += 1
        }
    }

    /// Whether the rest of the file cannot change the count: it is one message.
    var isDone: Bool { isMbox == false }

    private mutating func endLine() {
        var isBlank = false
        defer {
            line.removeAll(keepingCapacity: true)
            lineLength = 0
            previousLineIsBlank = isBlank
        }
        var content = line[...]
        if isMbox == nil, content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
        if content.last == 0x0D { content = content.dropLast() }
        let shape =
            lineLength <= Self.keptLineBytes && content.starts(with: MboxReader.fromLine)
            ? MboxReader.separatorShape(content) : nil
        isBlank = content.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        guard let isMbox else {
            // Blank lines before the first separator are passed over, as the reader does.
            if isBlank { return }
            count = 1
            if let shape {
                isMbox = true
                acceptsUndated = shape == .undated
            } else if MessageSource.startsWithHeaderField(Array(content)) {
                isMbox = false
            } else {
                // Neither a separator nor a header field: junk before an mbox's first
                // separator (reported by the reader, one entry), or one message when no
                // separator follows.
                isMbox = true
                awaitsFirstSeparator = true
            }
            return
        }
        guard isMbox else { return }
        switch pending {
        case .none:
            break
        case .separator where isBlank:
            return
        case .separator where !awaitsFirstSeparator && shape.map({ $0 == .dated || acceptsUndated }) == true:
            // A separator next, right after one or after blank lines: an empty message, which
            // the reader reports (one entry).
            count += 1
            return
        case .separator, .fields:
            if Self.startsWithMessageField(content) {
                count += 1
                pending = .none
                awaitsFirstSeparator = false
                return
            }
            if case .fields(let lines) = pending, lines < 256,
                content.first == 0x20 || content.first == 0x09
            {
                pending = .fields(lines + 1)
                return
            }
            // The first field needs a value on its line (`wrote:` alone is body text); later
            // ones in the block may have none (Thunderbird's `X-Mozilla-Keys:` padded with spaces).
            let isField: Bool
            if case .fields = pending {
                isField = Self.fieldName(content) != nil
            } else {
                isField = Self.startsWithFieldAndValue(content)
            }
            if !isBlank, isField {
                if case .fields(let lines) = pending {
                    pending = lines < 256 ? .fields(lines + 1) : .none
                } else {
                    pending = .fields(1)
                }
                return
            }
            pending = .none
        }
        if awaitsFirstSeparator {
            // After junk, the first separator of either shape that a header field follows
            // starts the mbox.
            if let shape {
                acceptsUndated = shape == .undated
                pending = .separator
            }
            return
        }
        if shape.map({ $0 == .dated || acceptsUndated }) == true {
            pending = .separator
            separatorFollowsBlankLine = previousLineIsBlank
        }
    }

    /// Whether the line starts with one of ``Header/messageFieldNames`` and a colon.
    private static func startsWithMessageField(_ line: ArraySlice<UInt8>) -> Bool {
        guard let name = fieldName(line) else { return false }
        return Header.messageFieldNames.contains(String(decoding: name, as: UTF8.self).lowercased())
    }

    /// Whether the line is a header field with a value on it (`X-Status: RO`; `wrote:` alone
    /// under a quoted `From … 2026` line is body text).
    private static func startsWithFieldAndValue(_ line: ArraySlice<UInt8>) -> Bool {
        guard let name = fieldName(line),
            let colon = line[name.endIndex...].firstIndex(of: UInt8(ascii: ":"))
        else { return false }
        return line[(colon + 1)...].contains { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
    }

    /// The field name a line starts with (printable ASCII but `:`, white space allowed before
    /// the colon, RFC 5322 §3.6.8 and §4.5), or nil: as the mbox reader reads one.
    private static func fieldName(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        MboxReader.fieldNameEnd(line, at: line.startIndex).map { line[line.startIndex..<$0] }
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
