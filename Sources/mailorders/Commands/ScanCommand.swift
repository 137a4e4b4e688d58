import Extraction
import Foundation
import Mailbox
import OrderStore
import WalletOrder

/// `mailorders scan`: the main job. Reads every message of the given sources, extracts,
/// links in the order store, and writes a Wallet order bundle per changed order.
enum ScanCommand: Subcommand {
    static let spec = CommandSpec(
        name: "scan",
        summary: "Find the orders in a mailbox and write a Wallet order bundle for each.",
        usage:
            "PATH…|- [--out DIR] [--db PATH] [--zip] [--jobs N] [--no-prefilter] [--since DATE] [--json] [--quiet]"
            + " [--rules DIR] [--order-type-id ID] [--sign-cert CERT.pem --sign-key KEY.pem [--wwdr WWDR.pem]]",
        options: [
            OptionSpec(
                name: "out", valueName: "DIR", help: "Where bundles and the database go (default ./orders)."),
            OptionSpec(
                name: "db", valueName: "PATH", help: "The order database (default DIR/mailorders.sqlite)."),
            OptionSpec(
                name: "zip", valueName: nil,
                help: "Write each order as a zipped .order file instead of a folder."),
            OptionSpec(
                name: "jobs", valueName: "N", help: "Parse and extract on N threads (default: all cores)."),
            OptionSpec(
                name: "since", valueName: "DATE", help: "Skip messages dated before DATE (YYYY-MM-DD)."),
            OptionSpec(
                name: "no-prefilter", valueName: nil,
                help: "Run the full extraction on every message, not only on likely order emails."),
            OptionSpec(name: "json", valueName: nil, help: "Print the summary as JSON on standard output."),
            OptionSpec(
                name: "quiet", valueName: nil,
                help:
                    "No progress and no summary on standard error (DIR/.mailorders-last-scan.json keeps it)."),
            OptionSpec(
                name: "rules", valueName: "DIR", help: "Use this rules folder instead of the bundled one."),
            OptionSpec(
                name: "order-type-id", valueName: "ID",
                help:
                    "orderTypeIdentifier of the bundles (default \(OrderBuilder.defaultOrderTypeIdentifier))."
            ),
            OptionSpec(
                name: "sign-cert", valueName: "CERT.pem", help: "Sign each bundle with this certificate…"),
            OptionSpec(
                name: "sign-key", valueName: "KEY.pem", help: "…and this private key (PKCS#7, detached)."),
            OptionSpec(
                name: "wwdr", valueName: "WWDR.pem",
                help: "Intermediate certificate to include in the signature."),
        ],
        examples: [
            "mailorders scan ~/Maildir --out ~/orders",
            "mailorders scan inbox.mbox --zip --json",
            "mailorders scan - --out ~/orders --quiet < message.eml    # one message from a mail delivery agent",
        ],
        details: """
            PATH may be an .eml file, an mbox, a Maildir, a folder holding any mix of them, or - for
            standard input (one message or an mbox stream). Running scan again only reads what is new.
            Exit status: 0 every message was read and every bundle written, 1 some messages were skipped
            or some bundles not written (each is listed with its origin and reason), 2 fatal error
            (unwritable output, corrupt database, unreadable rules).
            """)

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let start = Date()
        let options: ScanOptions
        do {
            options = try ScanOptions(arguments)
        } catch {
            return usageError("\(error)", json: arguments.has("json"), showingUsage: true)
        }
        var summary = ScanSummary()
        summary.outputDirectory = options.outputDirectory.path
        var runLock: ScanRunLock?
        do {
            var scanner = try Scanner(options: options)
            runLock = ScanRunLock(outputDirectory: options.outputDirectory)
            // Until the run ends, the record says that a run started and did not end, so that a
            // run that is killed (or loses its machine) does not leave an earlier run's record.
            var unfinished = summary
            unfinished.error = Self.unfinishedReason(startedAt: start)
            writeRecord(unfinished.json(), options: options, reportingFailure: true)
            try scanner.run(into: &summary)
        } catch {
            // A fatal error leaves its record too, so that the record never tells of an earlier
            // run; where the output folder cannot be written, the line on standard error is all.
            summary.error = ScanSummary.oneLine("\(error)")
            summary.elapsed = Date().timeIntervalSince(start)
            Console.error("mailorders scan: \(summary.error ?? "")")
            let json = summary.json()
            if (error as? ScanSetupError)?.leavesRecord ?? true, runLock?.isTheOnlyRun() ?? true {
                writeRecord(json, options: options, reportingFailure: false)
            }
            if options.json { Console.out(json, json: true) }
            return summary.exitCode
        }
        // Encoded once: 200,000 skipped entries take a second or two.
        let json = summary.json()
        // While another scan of the same output folder goes on, its "did not finish" record
        // stands: it writes its own when it ends, and says so if it is killed.
        if runLock?.isTheOnlyRun() ?? true {
            writeRecord(json, options: options, reportingFailure: true)
        }
        if options.json {
            Console.out(json, json: true)
        }
        if !options.quiet {
            Console.error(summary.text())
        }
        return summary.exitCode
    }

    /// The summary of a run that a usage error stopped: nothing read, `error` and `exitCode` set.
    static func errorJSON(_ message: String, exitCode: Int32) -> String? {
        var summary = ScanSummary()
        summary.error = message
        return summary.json(exitCode: exitCode)
    }

    /// The record's `error` while a run is going on, and after it when it was killed.
    static func unfinishedReason(startedAt start: Date) -> String {
        let time = ISO8601DateFormatter().string(from: start)
        return "the scan started at \(time) did not finish: it is still running, or it was interrupted"
    }

    /// Leaves what the run did in the output folder, for runs from cron with `--quiet`:
    /// ``ScanSummary/recordName``, replaced whole.
    /// - Parameter reportingFailure: say on standard error when it cannot be written (after a
    ///   fatal error the reason is said already, and the folder may not exist).
    private static func writeRecord(_ json: String, options: ScanOptions, reportingFailure: Bool) {
        let record = options.outputDirectory.appendingPathComponent(ScanSummary.recordName)
        if !reportingFailure {
            var isDirectory: ObjCBool = false
            guard
                FileManager.default.fileExists(
                    atPath: options.outputDirectory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else { return }
        }
        do {
            try json.write(to: record, atomically: true, encoding: .utf8)
        } catch  where reportingFailure {
            Console.error(
                "mailorders scan: "
                    + TerminalText.oneLine(
                        "cannot write \(record.path): \(fileErrorReason(error, path: record.path))"))
        } catch {}
    }
}

/// The scan command line, checked.
struct ScanOptions {
    var paths: [String]
    var outputDirectory: URL
    var databasePath: String
    var zip: Bool
    var jobs: Int
    var prefilter: Bool
    var since: Date?
    var json: Bool
    var quiet: Bool
    var rulesDirectory: String?
    var orderTypeIdentifier: String
    var signing: (certificate: String, key: String, wwdr: String?)?

    /// The most `--jobs` a scan uses: four threads per core, and at least 16.
    static func maximumJobs(cores: Int) -> Int { max(16, 4 * cores) }

    init(_ arguments: ParsedArguments) throws {
        paths = arguments.positionals
        guard !paths.isEmpty else {
            throw UsageError(message: "give at least one PATH, or - for standard input")
        }
        guard paths.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError(message: "- (standard input) can be read only once; give it once")
        }
        let out = arguments.value("out") ?? "orders"
        outputDirectory = URL(fileURLWithPath: out).standardizedFileURL
        databasePath =
            arguments.value("db")
            ?? outputDirectory.appendingPathComponent(MessageSource.defaultDatabaseName).path
        zip = arguments.has("zip")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // More threads than cores only add batches held in memory (each job keeps 32 messages).
        jobs = min(try arguments.positiveInteger("jobs") ?? cores, Self.maximumJobs(cores: cores))
        prefilter = !arguments.has("no-prefilter")
        if let text = arguments.value("since") {
            guard let date = parseDay(text) else {
                throw UsageError(message: "--since takes a date as YYYY-MM-DD, not '\(text)'")
            }
            since = date
        }
        json = arguments.has("json")
        quiet = arguments.has("quiet")
        rulesDirectory = arguments.value("rules")
        orderTypeIdentifier = arguments.value("order-type-id") ?? OrderBuilder.defaultOrderTypeIdentifier
        switch (arguments.value("sign-cert"), arguments.value("sign-key")) {
        case (let certificate?, let key?): signing = (certificate, key, arguments.value("wwdr"))
        case (nil, nil): signing = nil
        default: throw UsageError(message: "--sign-cert and --sign-key go together")
        }
    }
}

/// `YYYY-MM-DD` at 00:00 UTC.
func parseDay(_ text: String) -> Date? {
    let parts = text.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
    var components = DateComponents()
    components.year = parts[0]
    components.month = parts[1]
    components.day = parts[2]
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
    return calendar.date(from: components)
}

/// Tells whether other scans of the same output folder are running: each holds a shared
/// `flock(2)` on `DIR/.mailorders-scan.lock` while it runs (the system lets go of it when the
/// process ends, killed or not).
final class ScanRunLock {
    static let name = ".mailorders-scan.lock"
    private let descriptor: Int32

    /// Takes the shared lock; `nil` when the lock file cannot be opened (the scan then runs as
    /// if alone).
    init?(outputDirectory: URL) {
        let path = outputDirectory.appendingPathComponent(Self.name).path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
    }

    /// Whether no other scan of the folder is running now: this run's lock is made exclusive,
    /// which fails while another run holds its shared one.
    func isTheOnlyRun() -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    deinit { close(descriptor) }
}
