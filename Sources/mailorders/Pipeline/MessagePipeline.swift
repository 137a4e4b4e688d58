import Extraction
import Foundation
import MIME
import MailDocument
import Mailbox
import OrderStore
import WalletOrder

/// One message after MIME parsing, document building and extraction.
struct ProcessedMessage: Sendable {
    var origin: MessageOrigin
    /// SHA-256 of the raw bytes, lower-case hex: the store's key when there is no Message-ID.
    var contentHash: String
    var messageID: String?
    /// The Message-IDs the message answers or follows: In-Reply-To, then References newest
    /// first (RFC 5322 §3.6.4); see ``IngestedMessage/references``.
    var references: [String] = []
    /// The Date header field.
    var date: Date?
    var subject: String?
    /// `nil` when the message was skipped (see ``failure``) or left out by the prefilter.
    var extraction: ExtractionResult?
    /// Why the message could not be read at all.
    var failure: String?
    /// What the MIME parser repaired or guessed.
    var warnings: [MIMEWarning] = []
    /// What the document stage cut, refused or repaired (HTML over a size or work limit,
    /// links, images or JSON-LD blocks over their limits, unreadable JSON-LD or `.order`
    /// attachments), forwarded originals included; empty when the prefilter left the
    /// message out.
    var documentWarnings: [DocumentWarning] = []
    /// The limits extraction reached (a rendered text longer than it searches, more line items
    /// than it keeps; ``Extractor/extractReportingLimits(_:)``): what the extraction may lack.
    var extractionWarnings: [DocumentWarning] = []

    /// ``warnings``, ``documentWarnings`` then ``extractionWarnings``, one line each: what
    /// `scan` lists under "read with repairs" and `extract` prints on standard error.
    var warningDescriptions: [String] {
        warnings.map(\.description) + documentWarnings.map(\.description)
            + extractionWarnings.map(\.description)
    }
}

/// The stateless part of the pipeline: MIME → MailDocument → Extraction for one message.
/// A pure function of the message's bytes, so it runs on every core at once.
struct MessagePipeline: Sendable {
    let extractor: Extractor
    var limits = MIMELimits.default
    /// Decides which messages need the document and extraction work; `nil` runs it on all.
    var prefilter: Prefilter?
    /// A Date field later than this is a sender's wrong clock or a forged date (a message dated
    /// 2099): it is read as no date, with a warning, so that it cannot date an order — Wallet's
    /// `updatedAt` never goes back, and one from 2099 would hide every later change
    /// (``MailDocument/discardDates(after:)``). A day after the pipeline was made.
    var latestPlausibleDate = MailDocument.latestPlausibleDate()

    init(rules: Rules, prefilter usePrefilter: Bool = true) {
        extractor = Extractor(rules: rules)
        prefilter = usePrefilter ? Prefilter(rules: rules) : nil
    }

    /// Loads the rules from `directory`, or from the default place (see ``RulesFile``).
    static func loadRules(from directory: String?) throws -> Rules {
        let url: URL
        if let directory {
            url = URL(fileURLWithPath: directory)
        } else if let found = RulesFile.defaultDirectory() {
            url = found
        } else {
            throw RulesError(
                path: "rules", reason: "no rules folder found; pass --rules DIR or set MAILORDERS_RULES")
        }
        return try Rules.load(from: url)
    }

    /// - Parameter contentHash: SHA-256 hex of `raw.bytes` when the caller computed it already.
    func process(_ raw: RawMessage, contentHash: String? = nil) -> ProcessedMessage {
        var result = ProcessedMessage(origin: raw.origin, contentHash: contentHash ?? sha256Hex(raw.bytes))
        let message: Message
        switch raw.parse(limits: limits) {
        case .success(let parsed):
            message = parsed
        case .failure(let problem):
            result.origin = problem.origin
            result.failure = problem.reason
            return result
        }
        // A file of text with no message header field (a README, a JSON file beside the mail,
        // whose `{"key":` reads as a field name) is not an Internet message.
        if !message.header.holdsMessageField {
            result.failure = "no header field: not an Internet message"
            return result
        }
        result.warnings = message.warnings
        result.messageID = message.messageID
        // The Date field, parsed once.
        let date = message.date
        let dateIsAfterTheRun = date.map { $0 > latestPlausibleDate } ?? false
        result.date = dateIsAfterTheRun ? nil : date
        if dateIsAfterTheRun, let date {
            result.warnings.append(
                MIMEWarning(
                    message:
                        "Date field \(ISO8601DateFormatter().string(from: date)) is after the time of this "
                        + "run: read as no date, so that it does not date the order"))
        }
        result.subject = message.subject
        if let prefilter, !prefilter.needsFullWork(message) {
            result.extraction = ExtractionResult(
                source: raw.origin.description, messageID: message.messageID, kind: .notAnOrder)
            return result
        }
        // What the message answers or follows, for linking by thread: read only for messages
        // that get the full work (the prefilter's are not about an order).
        result.references = IngestedMessage.threadReferences(
            inReplyTo: message.inReplyTo, references: message.references)
        var document = MailDocument(message: message)
        // A date after the run is not the sender's day either: "tomorrow", "Monday" and dates
        // without a year are not read against it, in the email or the originals it forwards.
        document.discardDates(after: latestPlausibleDate)
        // A forwarded order email happened when its original was sent, not when it was passed on.
        if let originalDate = document.forwardedOriginal?.date { result.date = originalDate }
        result.documentWarnings = document.warnings
        var original = document.forwardedOriginal
        while let next = original {
            result.documentWarnings += next.warnings
            original = next.forwardedOriginal
        }
        var (extraction, extractionWarnings) = extractor.extractReportingLimits(document)
        result.extractionWarnings = extractionWarnings
        extraction.source = raw.origin.description
        if extraction.messageID == nil { extraction.messageID = message.messageID }
        result.extraction = extraction
        return result
    }

    /// `transform` of `0 ..< count` on up to `jobs` threads, in index order.
    ///
    /// Each thread takes the next index nobody has taken yet, so a thread that drew a 150 KB
    /// newsletter does not hold up the others while they sit idle on shorter messages.
    static func map<Value: Sendable>(
        _ count: Int, jobs: Int, _ transform: @Sendable (Int) -> Value
    ) -> [Value] {
        if jobs <= 1 || count <= 1 { return (0..<count).map(transform) }
        let results = ResultSlots<Value>(count: count)
        DispatchQueue.concurrentPerform(iterations: min(jobs, count)) { _ in
            while let index = results.claim() { results.set(index, transform(index)) }
        }
        return results.values()
    }
}

/// Slots written by concurrent workers, each slot by exactly one worker: the one that
/// claimed its index.
private final class ResultSlots<Value>: @unchecked Sendable {
    private var storage: [Value?]
    private var next = 0
    private let lock = NSLock()

    init(count: Int) { storage = Array(repeating: nil, count: count) }

    /// The next index no worker has claimed, or nil when all are taken.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < storage.count else { return nil }
        next += 1
        return next - 1
    }

    func set(_ index: Int, _ value: Value) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    func values() -> [Value] { storage.compactMap { $0 } }
}
