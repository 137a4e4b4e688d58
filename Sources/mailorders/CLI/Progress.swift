import Foundation
import Mailbox

/// Progress of a long run on standard error.
///
/// On a terminal: one line redrawn at most ten times a second with messages done (and the
/// total when known), messages per second, the time left, and how many emails with an order
/// number and parcel mentions were read so far (an order's several emails count each: these
/// are not the orders of the summary). Not on a terminal: a plain line every 10,000 messages at most. Silent with `--quiet`.
///
/// The total is counted in messages (an mbox's each, ``MessageSource/estimatedMessageCount(shouldStop:)``)
/// on a thread of its own (``countTotal(of:)``), so the first line is drawn at once, without
/// the bar until the count is in. ``total`` and ``finish()`` may be used from any thread; the
/// rest from the one thread that reports.
final class ProgressReporter: @unchecked Sendable {
    private let isTerminal: Bool
    private let quiet: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var lastLoggedCount = 0
    private var drewOnTerminal = false
    /// Guards ``counted`` and ``finished``.
    private let lock = NSLock()
    private var counted: Int?
    private var finished = false

    /// The number of messages expected, once known.
    var total: Int? {
        get { lock.withLock { counted } }
        set { lock.withLock { counted = newValue } }
    }

    /// Whether ``finish()`` was called: a count still going on stops.
    var isFinished: Bool { lock.withLock { finished } }

    /// Whether ``total`` is shown: only the terminal line shows it, so counting the messages
    /// (a walk of every folder, a read of every mbox) is skipped otherwise.
    var showsTotal: Bool { !quiet && isTerminal }

    init(quiet: Bool, isTerminal: Bool = Console.standardErrorIsTerminal) {
        self.quiet = quiet
        self.isTerminal = isTerminal
    }

    /// Reports the counts so far; cheap to call for every message.
    func update(done: Int, orders: Int, shipments: Int, force: Bool = false) {
        guard !quiet else { return }
        let now = Date()
        if isTerminal {
            guard force || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            drewOnTerminal = true
            FileHandle.standardError.write(
                Data(("\r\u{1B}[2K" + line(done: done, orders: orders, shipments: shipments, now: now)).utf8))
        } else if done - lastLoggedCount >= 10_000 {
            lastLoggedCount = done
            Console.error(line(done: done, orders: orders, shipments: shipments, now: now))
        }
    }

    /// Sets ``total`` to the messages `source` holds, counted on a new thread, when
    /// ``showsTotal``; the count stops at ``finish()``.
    /// - Parameter source: makes the source to count (a source of its own: a source is read
    ///   by one thread).
    func countTotal(of source: @escaping @Sendable () -> MessageSource) {
        guard showsTotal else { return }
        Thread.detachNewThread { [self] in
            let total = source().estimatedMessageCount { self.isFinished }
            if let total, !isFinished { self.total = total }
        }
    }

    /// Clears the terminal line before the summary is printed, and stops a count of the
    /// total that is still going on.
    func finish() {
        lock.withLock { finished = true }
        if drewOnTerminal && !quiet {
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        }
    }

    func line(done: Int, orders: Int, shipments: Int, now: Date) -> String {
        let elapsed = max(now.timeIntervalSince(start), 0.001)
        let rate = Double(done) / elapsed
        var text: String
        if let total, total > 0 {
            let fraction = min(1, Double(done) / Double(total))
            let width = 24
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            text = "\(bar) \(done)/\(total) messages"
            if rate > 0, done < total {
                text += ", ETA \(formatDuration(Double(total - done) / rate))"
            }
        } else {
            text = "\(done) messages"
        }
        text += String(format: ", %.0f msg/s", rate)
        text += ", \(orders) order emails, \(shipments) parcel mentions"
        return text
    }
}

/// `1h02m`, `3m05s` or `12.3s`.
func formatDuration(_ seconds: Double) -> String {
    if seconds < 60 { return String(format: "%.1fs", seconds) }
    let whole = Int(seconds.rounded())
    if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
    return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
}
