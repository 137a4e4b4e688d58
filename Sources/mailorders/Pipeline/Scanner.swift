import Extraction
import Foundation
import Mailbox
import OrderStore
import WalletOrder

/// What one scan did, for the closing summary.
struct ScanSummary {
    var messagesRead = 0
    /// Copies of messages applied before: the same bytes, or the same Message-ID saying the same.
    var alreadyApplied = 0
    /// What could not be read or stored: the origin (`path` or `path#index`), the byte offset
    /// in the file when there is one, why, and whether it is a folder (one that could not be
    /// listed, one where a message file belongs) rather than one message. All of them are
    /// kept: each is a message lost, or a folder's.
    var skipped: [(origin: String, byteOffset: Int?, reason: String, isFolder: Bool)] = []
    /// Messages read with repairs or guesses (broken MIME, unknown charsets, limits hit): the
    /// first ``repairedKept`` of them; ``repairedCount`` counts all.
    var repaired: [(origin: String, warnings: [String])] = []
    var repairedCount = 0
    /// How many repaired messages are listed: the list must not grow with the mailbox.
    static let repairedKept = 10_000

    /// - Parameter isFolder: a folder could not be listed: its messages are not read, and it
    ///   is not counted as one message.
    mutating func skip(_ origin: String, byteOffset: Int? = nil, _ reason: String, isFolder: Bool = false) {
        skipped.append((origin, byteOffset, reason, isFolder))
    }

    /// ``skipped`` in mailbox order: by file, then by message number within an mbox
    /// (`box.mbox#9` before `box.mbox#10`), each file's problems in the order found. Problems
    /// are found in two places (reading a file, parsing a message), so the list as kept is
    /// not in that order.
    var skippedInMailboxOrder: [(origin: String, byteOffset: Int?, reason: String, isFolder: Bool)] {
        func key(_ origin: String) -> (path: Substring, index: Int) {
            if let hash = origin.lastIndex(of: "#"), let index = Int(origin[origin.index(after: hash)...]) {
                return (origin[..<hash], index)
            }
            return (origin[...], 0)
        }
        return skipped.enumerated().sorted { left, right in
            let (a, b) = (key(left.element.origin), key(right.element.origin))
            if a.path != b.path { return a.path < b.path }
            if a.index != b.index { return a.index < b.index }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// Bundles (or all of them) that could not be written, and why: the orders are stored and
    /// every later run tries again, so these are not messages lost.
    var notWritten: [(subject: String, reason: String)] = []

    /// Whether anything was skipped or not written: exit status 1.
    var isPartial: Bool { !skipped.isEmpty || !notWritten.isEmpty }

    mutating func noteRepaired(_ origin: String, warnings: [String]) {
        repairedCount += 1
        if repaired.count < Self.repairedKept { repaired.append((origin, warnings)) }
    }
    var notOrders = 0
    /// New messages about an order in which neither an order number nor a tracking number was
    /// found: recorded, but nothing to link them by.
    var withoutOrderNumber = 0
    /// Their origins: the first ``repairedKept``, to run `mailorders check` on.
    var withoutOrderNumberOrigins: [String] = []
    var beforeSince = 0
    var ordersCreated = 0
    var ordersUpdated = 0
    /// Shipment-only records (carrier emails that matched no order) whose bundles this run
    /// created or rewrote: counted apart from orders, as `mailorders orders` lists them.
    var shipmentRecordsCreated = 0
    var shipmentRecordsUpdated = 0
    var shipmentsLinked = 0
    var unlinkedShipments = 0
    var bundlesWritten = 0
    /// Of ``bundlesWritten``, the bundles of orders no message of this run changed: written
    /// again after a switch between folders and `--zip`, or after a run stopped before its
    /// bundles were written. Not counted as orders updated.
    var bundlesRewrittenUnchanged = 0
    var bundlesRemoved = 0
    var elapsed: TimeInterval = 0
    var outputDirectory = ""
    /// Why the run stopped, when a fatal error stopped it (exit status 2): one line. The
    /// counts are then what was done before it stopped (all zero when it stopped before
    /// reading anything), and no bundle was written.
    var error: String?

    /// The exit status the run ends with: 2 after a fatal error, 1 when anything was skipped
    /// or not written, else 0.
    var exitCode: Int32 {
        if error != nil { return ExitCode.fatal }
        return isPartial ? ExitCode.partial : ExitCode.success
    }

    func text() -> String {
        var lines = [
            "Read \(messagesRead) message\(messagesRead == 1 ? "" : "s") in \(formatDuration(elapsed))"
                + (alreadyApplied > 0
                    ? " (\(alreadyApplied) already applied: the same bytes, or the same Message-ID and content,"
                        + " as a message read before)"
                    : "") + ".",
            "  orders: \(ordersCreated) new, \(ordersUpdated) updated; shipments linked: \(shipmentsLinked)"
                + (shipmentRecordsCreated + shipmentRecordsUpdated > 0
                    ? "; shipment-only records: \(shipmentRecordsCreated) new, \(shipmentRecordsUpdated) updated"
                    : ""),
            "  not about orders: \(notOrders)"
                + (beforeSince > 0 ? "; before --since: \(beforeSince)" : ""),
        ]
        if withoutOrderNumber > 0 {
            lines.append(
                "  about an order, but no order number or tracking number found: \(withoutOrderNumber)"
                    + " (see `mailorders check FILE`):")
            for origin in withoutOrderNumberOrigins.prefix(10) { lines.append("    \(Self.oneLine(origin))") }
            if withoutOrderNumber > 10 {
                lines.append("    … and \(withoutOrderNumber - 10) more (see --json)")
            }
        }
        lines += [
            "  carrier emails still unlinked: \(unlinkedShipments)",
            "  bundles written: \(bundlesWritten) in \(outputDirectory)"
                + (bundlesRewrittenUnchanged > 0
                    ? " (\(bundlesRewrittenUnchanged) of them for orders no message of this run changed)"
                    : "")
                + (bundlesRemoved > 0 ? " (\(bundlesRemoved) outdated bundles removed)" : ""),
        ]
        if repairedCount > 0 {
            lines.append(
                "Read with repairs (\(repairedCount)): what was broken was read as far as it could be:")
            for item in repaired.prefix(10) {
                // One warning on the message's line; several one per line below it: up to six
                // (a scan keeps five and a last "… N more"), or five and a count of the rest.
                guard item.warnings.count > 1 else {
                    lines.append("  \(Self.oneLine(item.origin)): \(Self.oneLine(item.warnings.first ?? ""))")
                    continue
                }
                lines.append("  \(Self.oneLine(item.origin)):")
                let shown = item.warnings.count <= 6 ? item.warnings : Array(item.warnings.prefix(5))
                lines += shown.map { "    \(Self.oneLine($0))" }
                if shown.count < item.warnings.count {
                    lines.append("    … and \(item.warnings.count - shown.count) more (see --json)")
                }
            }
            if repairedCount > 10 { lines.append("  … and \(repairedCount - 10) more (see --json)") }
        }
        if !skipped.isEmpty {
            let folders = skipped.count(where: \.isFolder)
            let messages = skipped.count - folders
            let counts = [
                messages > 0 ? "\(messages) message\(messages == 1 ? "" : "s")" : nil,
                folders > 0 ? "\(folders) folder\(folders == 1 ? "" : "s")" : nil,
            ].compactMap { $0 }
            lines.append("Skipped \(counts.joined(separator: " and ")):")
            for item in skippedInMailboxOrder.prefix(50) {
                lines.append(
                    "  \(Self.oneLine(item.origin))\(item.byteOffset.map { " at byte \($0)" } ?? ""): "
                        + Self.oneLine(item.reason))
            }
            if skipped.count > 50 { lines.append("  … and \(skipped.count - 50) more (see --json)") }
        }
        if !notWritten.isEmpty {
            lines.append("Not written (\(notWritten.count)); stored, tried again by the next run:")
            for item in notWritten.prefix(50) {
                lines.append("  \(Self.oneLine(item.subject)): \(Self.oneLine(item.reason))")
            }
            if notWritten.count > 50 { lines.append("  … and \(notWritten.count - 50) more (see --json)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` on one line: a file name or reason holding a line break or another control
    /// character (a Maildir file may be named so) shows it escaped, as `\n`, `\r`, `\t` or
    /// `\u{1B}`, instead of starting a line of its own (``TerminalText/oneLine(_:)``).
    static func oneLine(_ text: String) -> String { TerminalText.oneLine(text) }

    /// The file in the output folder that keeps the last run's ``json()`` (written by every
    /// run, `--quiet` or not): what a run from cron skipped, and why.
    static let recordName = ".mailorders-last-scan.json"

    /// The summary as one JSON object (keys sorted), encoded by `JSONEncoder` from typed
    /// entries: a mailbox with 200,000 unreadable entries lists them all in a second or two.
    /// `exitCode` is always there, and `error` too: `null`, or why a fatal error stopped the run.
    /// - Parameter exitCode: the exit status to give instead of ``exitCode`` (64 after a usage
    ///   error, which stops the run before it reads anything).
    func json(exitCode: Int32? = nil) -> String {
        struct Skipped: Encodable {
            var origin: String
            /// `null` when unknown: the key is always there.
            var byteOffset: Nullable<Int>
            var reason: String
            /// A folder that could not be listed, not one message.
            var isFolder: Bool
        }
        struct Repaired: Encodable {
            var origin: String
            var warnings: [String]
        }
        struct NotWritten: Encodable {
            var subject: String
            var reason: String
        }
        struct Object: Encodable {
            var messagesRead, alreadyApplied, notOrders, withoutOrderNumber, beforeSince: Int
            var withoutOrderNumberOrigins: [String]
            var ordersCreated, ordersUpdated, shipmentRecordsCreated, shipmentRecordsUpdated: Int
            var shipmentsLinked, unlinkedShipments, bundlesWritten, bundlesRewrittenUnchanged,
                bundlesRemoved: Int
            var elapsedSeconds: Double
            var outputDirectory: String
            var skipped: [Skipped]
            var notWritten: [NotWritten]
            var repaired: [Repaired]
            var repairedCount: Int
            var exitCode: Int32
            var error: Nullable<String>
        }
        let object = Object(
            messagesRead: messagesRead, alreadyApplied: alreadyApplied, notOrders: notOrders,
            withoutOrderNumber: withoutOrderNumber, beforeSince: beforeSince,
            withoutOrderNumberOrigins: withoutOrderNumberOrigins, ordersCreated: ordersCreated,
            ordersUpdated: ordersUpdated, shipmentRecordsCreated: shipmentRecordsCreated,
            shipmentRecordsUpdated: shipmentRecordsUpdated,
            shipmentsLinked: shipmentsLinked, unlinkedShipments: unlinkedShipments,
            bundlesWritten: bundlesWritten, bundlesRewrittenUnchanged: bundlesRewrittenUnchanged,
            bundlesRemoved: bundlesRemoved,
            elapsedSeconds: (elapsed * 1000).rounded() / 1000, outputDirectory: outputDirectory,
            skipped: skippedInMailboxOrder.map {
                Skipped(
                    origin: $0.origin, byteOffset: Nullable($0.byteOffset), reason: $0.reason,
                    isFolder: $0.isFolder)
            },
            notWritten: notWritten.map { NotWritten(subject: $0.subject, reason: $0.reason) },
            repaired: repaired.map { Repaired(origin: $0.origin, warnings: $0.warnings) },
            repairedCount: repairedCount, exitCode: exitCode ?? self.exitCode, error: Nullable(error))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(object)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// An optional value that JSON always shows: `null` when it is `nil`, where a synthesized
/// `Encodable` would leave the key out.
struct Nullable<Wrapped: Encodable>: Encodable {
    var value: Wrapped?

    init(_ value: Wrapped?) { self.value = value }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let value { try container.encode(value) } else { try container.encodeNil() }
    }
}

/// Reads sources, runs the pipeline on all cores, applies results in order through the one
/// store writer, then writes the bundles of every order the run changed.
///
/// The scanning thread lists the files and streams large mboxes; the worker threads read
/// the other files (``MessageSource/defersFileReads``), hash them, and run the pipeline. The
/// scanning thread checks each batch against the store and applies it, in the order listed.
///
/// Memory is bounded by a few batches of messages (`jobs × 32` each, or 16 MB), not by the
/// mailbox.
struct Scanner {
    let options: ScanOptions
    let pipeline: MessagePipeline
    let store: SQLiteOrderStore
    let bundles: BundleOutput

    init(options: ScanOptions) throws {
        self.options = options
        // A mailbox path that is not there is a mistake in the command (a mistyped or unmounted
        // path), not a message to skip: the run stops before it creates anything.
        // A symbolic link is followed: one to a missing file is as missing.
        for path in options.paths where path != "-" {
            if !MessageSource.pathExists(path) {
                throw ScanSetupError(
                    "cannot read \(MessageSource.displayPath(path)): \(MessageSource.missingReason(path))")
            }
        }
        // A --db that is a folder, or in a folder that is not there, is a mistake in the command
        // too: said before the output folder is made (which holds the database by default).
        let databaseFolder = URL(
            fileURLWithPath: (options.databasePath as NSString).deletingLastPathComponent
        ).standardizedFileURL
        if databaseFolder.path != options.outputDirectory.path,
            let problem = SQLiteOrderStore.pathProblem(options.databasePath)
        {
            throw ScanSetupError(
                "cannot open the order store \(options.databasePath): \(problem)")
        }
        var probe = options.outputDirectory
        var isDirectory: ObjCBool = false
        while !FileManager.default.fileExists(atPath: probe.path, isDirectory: &isDirectory)
            && probe.path != "/"
        {
            probe.deleteLastPathComponent()
        }
        if !isDirectory.boolValue {
            throw ScanSetupError(
                "cannot use \(options.outputDirectory.path) as the output folder (--out): \(probe.path) is a file"
            )
        }
        do {
            try FileManager.default.createDirectory(
                at: options.outputDirectory, withIntermediateDirectories: true)
        } catch {
            var reason = fileErrorReason(error)
            // A parent that exists but takes no new folder (/proc, /sys) gives no reason of its own.
            let parent = options.outputDirectory.deletingLastPathComponent().path
            if reason == "no such file or directory", FileManager.default.fileExists(atPath: parent) {
                reason = "\(parent) does not allow new folders"
            }
            throw ScanSetupError(
                "cannot create the output folder \(options.outputDirectory.path) (--out): \(reason)")
        }
        guard FileManager.default.isWritableFile(atPath: options.outputDirectory.path) else {
            throw ScanSetupError("the output folder \(options.outputDirectory.path) (--out) is not writable")
        }
        // An output folder inside the mailbox is left out of the reading; one that is the
        // mailbox, or holds it, would leave out everything.
        let output = Scanner.resolvedPath(options.outputDirectory.path)
        for path in options.paths where path != "-" {
            let input = Scanner.resolvedPath(path)
            if input == output || input.hasPrefix(output.hasSuffix("/") ? output : output + "/") {
                throw ScanSetupError(
                    "the output folder \(options.outputDirectory.path) (--out) is the mailbox \(path) or holds it;"
                        + " choose a folder outside the mailbox, or a new folder inside it",
                    leavesRecord: false)
            }
        }
        let rules = try MessagePipeline.loadRules(from: options.rulesDirectory)
        pipeline = MessagePipeline(rules: rules, prefilter: options.prefilter)
        if let problem = SQLiteOrderStore.pathProblem(options.databasePath) {
            throw ScanSetupError("cannot open the order store \(options.databasePath): \(problem)")
        }
        do {
            store = try SQLiteOrderStore(path: options.databasePath)
        } catch {
            throw ScanSetupError("cannot open the order store \(options.databasePath): \(error.reason)")
        }
        bundles = try BundleOutput(
            directory: options.outputDirectory, zip: options.zip,
            orderTypeIdentifier: options.orderTypeIdentifier, signing: options.signing,
            carriers: rules.carriers)
    }

    /// Reads, applies and writes the bundles, counting into `summary`.
    /// - Throws: ``ScanStoreFailure`` when the store itself fails (see
    ///   ``StoreError/isStoreFailure``): the run stops there, with nothing of the batch in
    ///   progress stored and no bundle written after the failure; `summary` then holds what was
    ///   done before.
    mutating func run(into summary: inout ScanSummary) throws {
        let start = Date()
        // Orders whose change sequence passes this one were changed by this run's messages.
        let startSequence = try fromStore { () throws(StoreError) in try store.latestSequence() }
        summary.outputDirectory = options.outputDirectory.path
        let progress = ProgressReporter(quiet: options.quiet)
        // The database, wherever it is, and what this run writes in its output folder are not
        // mail; the rest of an output folder inside the mailbox is.
        let database = options.databasePath
        let source = MessageSource(
            paths: options.paths,
            excluding: [database, database + "-wal", database + "-shm", database + "-journal"],
            outputFolders: [options.outputDirectory.path])
        // Files are read on the worker threads, with their hashes: this thread lists them.
        source.defersFileReads = true
        let (paths, outputFolder) = (options.paths, options.outputDirectory.path)
        progress.countTotal {
            MessageSource(
                paths: paths,
                excluding: [database, database + "-wal", database + "-shm", database + "-journal"],
                outputFolders: [outputFolder])
        }
        var created = Set<Int64>()
        var ordersSeen = 0
        // Messages read so far, for the progress line: each message of a file (an mbox's each)
        // once its file is read, where listed entries count files.
        var messagesSeen = 0
        var shipmentsSeen = 0
        let jobs = max(1, options.jobs)
        // Large enough that the wait for a batch's slowest message is small beside the batch.
        let batchSize = max(16, jobs * 32)
        // A batch is also handed over once it holds this many bytes, so that a few batches of
        // large messages (60 MB attachments) stay a few of them in memory, not thousands.
        let batchBytes = 16 << 20
        var batch: [SourceEntry] = []
        var bytesInBatch = 0
        // With more than one job, batches are hashed and processed on worker threads while this
        // thread reads the next batches and applies the ones before.
        let workers = jobs > 1 ? PipelineWorkers(jobs: jobs) : nil
        defer { workers?.finish() }
        // Batches handed over and not applied yet, oldest first: up to two, so the worker
        // threads have the next batch at hand while this thread reads and stores.
        var inFlight: [InFlightBatch] = []
        let pipeline = self.pipeline

        // The batch's store work in one transaction, then its counting.
        func applyResults(of pending: InFlightBatch) throws {
            let results = pending.job.wait()
            let steps = try inOneTransaction { () throws(StoreError) in
                var steps: [StoreStep] = []
                for (ready, recheck) in zip(results, pending.recheck) {
                    steps.append(try storeStep(for: ready, recheck: recheck))
                }
                return steps
            }
            for (processed, step) in zip(results.lazy.map(\.processed), steps) {
                count(processed, step, summary: &summary, created: &created)
                if case .copyOfKnownMessage = step { continue }
                if let extraction = processed.extraction, extraction.kind != .notAnOrder {
                    if extraction.orderNumber != nil { ordersSeen += 1 }
                    shipmentsSeen += extraction.shipments?.count ?? 0
                }
            }
            progress.update(done: messagesSeen, orders: ordersSeen, shipments: shipmentsSeen)
        }

        // Batches read and being hashed (on the worker threads, before the rest of their
        // work), oldest first: a batch's hashes are asked for only once the next batch is read,
        // so this thread does not wait for them.
        var hashing: [(job: WorkerJob<[HashedEntry]>, bytes: Int)] = []
        // The bytes of the batches read or being read and not applied yet (their files' sizes
        // as listed): past this, the oldest batch is applied before the next is handed on, so
        // that a few messages of 50 MB are not all in memory at once.
        let maxBytesInFlight = 4 * batchBytes
        func bytesInFlight() -> Int {
            hashing.reduce(0) { $0 + $1.bytes } + inFlight.reduce(0) { $0 + $1.bytes }
        }

        // Hands the batch listed to the worker threads, which read its files and hash its
        // messages, then checks the batch listed before it.
        func submit() throws {
            let entries = batch
            let bytes = bytesInBatch
            batch = []
            batch.reserveCapacity(batchSize)
            bytesInBatch = 0
            while bytesInFlight() + bytes > maxBytesInFlight, !inFlight.isEmpty {
                try applyResults(of: inFlight.removeFirst())
            }
            let job = WorkerJob(count: entries.count) { HashedEntry.reading(entries[$0]) }
            if let workers { workers.submit(job, urgent: true) } else { job.runHere() }
            hashing.append((job, bytes))
            if hashing.count > 1 { try check(hashing.removeFirst().job) }
        }

        // Reports the problems of a batch read and hashed, and hands its messages on, a batch's
        // worth at a time.
        func check(_ read: WorkerJob<[HashedEntry]>) throws {
            // Problems and messages cut short are reported in the order they were listed.
            var hashed: [(raw: RawMessage, hash: String)] = []
            let entries = read.wait().joined()
            messagesSeen += entries.count
            for entry in entries {
                switch entry {
                case .problem(let problem):
                    // A folder that cannot be listed is not a message read.
                    if !problem.isFolderProblem { summary.messagesRead += 1 }
                    summary.skip(
                        problem.origin.description, byteOffset: problem.byteOffset, problem.reason,
                        isFolder: problem.isFolderProblem)
                case .cutShort(let raw):
                    // A message the source may have cut short (an mbox still being written) is
                    // not applied: applied once, its complete copy would be taken for a duplicate.
                    summary.messagesRead += 1
                    summary.skip(
                        raw.origin.description, byteOffset: raw.origin.byteOffset,
                        raw.warnings.joined(separator: "; ") + "; not applied, read again on the next run")
                case .message(let raw, let hash):
                    hashed.append((raw, hash))
                }
            }
            // A small mbox read as one entry may hold more messages than a batch.
            for start in stride(from: 0, to: hashed.count, by: batchSize) {
                try handOver(hashed[start..<min(start + batchSize, hashed.count)])
            }
        }

        // Skips the messages the store knows, hands the rest to the worker threads (which take
        // them up as soon as they are done with the batches before), then applies the oldest
        // batch in flight once two are ahead of it.
        func handOver(_ hashed: ArraySlice<(raw: RawMessage, hash: String)>) throws {
            let known = try inOneTransaction { () throws(StoreError) in
                var known: [Bool] = []
                for (raw, hash) in hashed {
                    known.append(try isKnownCopy(origin: raw.origin.description, contentHash: hash))
                }
                return known
            }
            // Hashes of messages not applied yet: those of the batches in flight, then this one's.
            var pendingHashes = Set(inFlight.flatMap(\.hashes))
            var messages: [RawMessage] = []
            var kept: [String] = []
            var recheck: [Bool] = []
            for ((raw, hash), isKnown) in zip(hashed, known) {
                if isKnown {
                    summary.messagesRead += 1
                    summary.alreadyApplied += 1
                    continue
                }
                messages.append(raw)
                kept.append(hash)
                recheck.append(!pendingHashes.insert(hash).inserted)
            }
            let job = WorkerJob(count: messages.count) { [messages, kept] in
                ReadyMessage(pipeline.process(messages[$0], contentHash: kept[$0]))
            }
            if let workers { workers.submit(job) } else { job.runHere() }
            let bytes = messages.reduce(0) { $0 + $1.bytes.count }
            inFlight.append(InFlightBatch(job: job, hashes: kept, recheck: recheck, bytes: bytes))
            if inFlight.count > 2 { try applyResults(of: inFlight.removeFirst()) }
            while inFlight.count > 1, bytesInFlight() > maxBytesInFlight {
                try applyResults(of: inFlight.removeFirst())
            }
        }

        while let next = source.nextEntry() {
            batch.append(next)
            switch next {
            case .read(.success(let raw)): bytesInBatch += raw.bytes.count
            case .read(.failure): break
            case .unread(let file): bytesInBatch += file.byteCount
            }
            if batch.count >= batchSize || bytesInBatch >= batchBytes { try submit() }
            progress.update(done: messagesSeen, orders: ordersSeen, shipments: shipmentsSeen)
        }
        if !batch.isEmpty { try submit() }
        for read in hashing { try check(read.job) }
        hashing.removeAll()
        for pending in inFlight { try applyResults(of: pending) }
        inFlight.removeAll()
        progress.update(done: summary.messagesRead, orders: ordersSeen, shipments: shipmentsSeen, force: true)
        progress.finish()
        try writeBundles(summary: &summary, created: created, startSequence: startSequence)
        summary.unlinkedShipments = try fromStore { () throws(StoreError) in try store.unlinkedShipmentCount()
        }
        summary.elapsed = Date().timeIntervalSince(start)
    }

    /// What `body` returns; a ``StoreError`` it throws stops the run (``ScanStoreFailure``):
    /// a store that cannot be read is not one to write bundles from.
    private func fromStore<T>(_ body: () throws(StoreError) -> T) throws(ScanStoreFailure) -> T {
        do {
            return try body()
        } catch {
            throw ScanStoreFailure(path: options.databasePath, error: error)
        }
    }

    /// Whether a message with these bytes was applied before (its copy at `origin` is then
    /// recorded). A failure of the store is thrown; any other counts as not known, and the
    /// message is applied, which finds the copy again.
    private func isKnownCopy(origin: String, contentHash: String) throws(StoreError) -> Bool {
        do {
            return try store.recordCopyIfKnown(origin: origin, contentHash: contentHash)
        } catch  where error.isStoreFailure {
            throw error
        } catch {
            return false
        }
    }

    /// Writes the bundle of every order changed since the bundles were last written completely
    /// (a watermark in the output folder, so a run killed before this step is caught up by the
    /// next one), removes the bundles of orders merged away, then moves the watermark.
    /// - Parameters:
    ///   - created: the orders this run's messages created.
    ///   - startSequence: the store's latest sequence before this run applied any message.
    /// - Throws: ``ScanStoreFailure`` when the store cannot be read.
    private func writeBundles(summary: inout ScanSummary, created: Set<Int64>, startSequence: Int64)
        throws(ScanStoreFailure)
    {
        let watermark = BundleWatermark(directory: options.outputDirectory)
        let (written, mode) = watermark.read()
        let modeChanged = mode != nil && mode != bundles.mode
        let since = modeChanged ? 0 : written
        let latest = try fromStore { () throws(StoreError) in try store.latestSequence() }
        let deleted = try fromStore { () throws(StoreError) in try store.deletedOrderIDs(after: since) }
        bundles.writer.removeAbandonedTemporaryFiles()
        let createdNow = created.subtracting(deleted)
        var failures = 0
        // Page by page, so memory does not grow with the number of orders changed.
        var lastID: Int64 = 0
        while true {
            let page = try fromStore { () throws(StoreError) in
                try store.orders(changedAfter: since, idAbove: lastID, limit: 256)
            }
            guard let last = page.last else { break }
            lastID = last.id
            // Each order's bundle is a folder (or file) of its own: written on all worker threads.
            let bundles = self.bundles
            let outcomes = MessagePipeline.map(page.count, jobs: max(1, options.jobs)) { index in
                Result { try bundles.write(page[index]) }
            }
            for (order, outcome) in zip(page, outcomes) {
                let changedNow = order.changeSequence > startSequence
                switch (order.isShipmentOnly, createdNow.contains(order.id)) {
                case (true, true): summary.shipmentRecordsCreated += 1
                case (true, false) where changedNow: summary.shipmentRecordsUpdated += 1
                case (false, true): summary.ordersCreated += 1
                case (false, false) where changedNow: summary.ordersUpdated += 1
                default: break
                }
                do {
                    _ = try outcome.get()
                    summary.bundlesWritten += 1
                    if !changedNow && !createdNow.contains(order.id) {
                        summary.bundlesRewrittenUnchanged += 1
                    }
                    if order.orderNumber != nil && (changedNow || createdNow.contains(order.id)) {
                        summary.shipmentsLinked += order.fulfillments.count
                    }
                } catch {
                    failures += 1
                    summary.notWritten.append(("order \(order.orderNumber ?? "#\(order.id)")", "\(error)"))
                }
            }
        }
        if !deleted.isEmpty || modeChanged {
            let all = try fromStore { () throws(StoreError) in try store.orders() }
            summary.bundlesRemoved = bundles.removeStaleBundles(keeping: all)
        }
        // The watermark moves only once the bundles are on the disk: after a crash before
        // this point the next run writes them again.
        if failures == 0 {
            do {
                try bundles.writer.synchronize()
                watermark.write(latest, mode: bundles.mode)
            } catch {
                summary.notWritten.append(("bundles", "\(error)"))
            }
        }
    }

    /// What the store did with one processed message (or why it was not asked).
    private enum StoreStep {
        /// A copy of a message applied meanwhile, found by the recheck; recorded as a copy.
        case copyOfKnownMessage
        /// The message could not be read: nothing to apply.
        case unreadable
        /// Dated before `--since`: not applied.
        case beforeSince
        /// Applied, or why the store refused it (nothing of it is stored then).
        case stored(Result<ApplyOutcome, StoreError>)
    }

    /// Runs `body`, whose store calls commit together (``SQLiteOrderStore/batch(_:)``): one
    /// transaction per batch of messages instead of one per message. `body` throws only a
    /// failure of the store itself (``StoreError/isStoreFailure``), which rolls the whole batch
    /// back and stops the run: nothing of the batch is stored, and its messages are read again
    /// by the next run. When the batch cannot be committed for another reason, nothing of it is
    /// stored, and `body` runs again without a batch, so that each message succeeds or fails on
    /// its own as it would in a transaction of its own.
    /// - Throws: ``ScanStoreFailure``.
    private func inOneTransaction<T>(_ body: () throws(StoreError) -> T) throws(ScanStoreFailure) -> T {
        do {
            return try store.batch(body)
        } catch  where error.isStoreFailure {
            throw ScanStoreFailure(path: options.databasePath, error: error)
        } catch {
            return try fromStore(body)
        }
    }

    /// The store's part of a processed message: the recheck for a copy of a message applied
    /// meanwhile, then applying it. Counted afterwards by ``count(_:_:summary:created:)``.
    /// - Parameter recheck: whether a copy of this message was pending (not applied yet) when
    ///   the batch was checked, in the batch ahead or earlier in this batch.
    /// - Throws: a failure of the store itself; a message's own failure is a step.
    private func storeStep(for ready: ReadyMessage, recheck: Bool) throws(StoreError) -> StoreStep {
        let processed = ready.processed
        if recheck,
            try isKnownCopy(origin: processed.origin.description, contentHash: processed.contentHash)
        {
            return .copyOfKnownMessage
        }
        guard let message = ready.message, let factsDigest = ready.factsDigest else { return .unreadable }
        if let since = options.since, let date = processed.date, date < since { return .beforeSince }
        do {
            return .stored(.success(try store.apply(message, factsDigest: factsDigest)))
        } catch  where error.isStoreFailure {
            throw error
        } catch {
            return .stored(.failure(error))
        }
    }

    /// Counts one message's ``StoreStep`` into the summary, and the orders it created.
    private func count(
        _ processed: ProcessedMessage, _ step: StoreStep, summary: inout ScanSummary,
        created: inout Set<Int64>
    ) {
        summary.messagesRead += 1
        let outcome: Result<ApplyOutcome, StoreError>
        switch step {
        case .copyOfKnownMessage:
            summary.alreadyApplied += 1
            return
        case .unreadable:
            summary.skip(
                processed.origin.description, byteOffset: processed.origin.byteOffset,
                processed.failure ?? "not read")
            return
        case .beforeSince:
            summary.beforeSince += 1
            return
        case .stored(let result):
            outcome = result
        }
        let warnings = processed.warningDescriptions
        if !warnings.isEmpty {
            summary.noteRepaired(
                processed.origin.description,
                warnings: warnings.prefix(5) + (warnings.count > 5 ? ["… \(warnings.count - 5) more"] : []))
        }
        switch outcome {
        case .success(.applied(let effects)):
            // Each message is counted once: as not about orders only when it was new.
            if let extraction = processed.extraction {
                if extraction.kind == .notAnOrder {
                    summary.notOrders += 1
                } else if extraction.orderNumber == nil, extraction.additionalOrders?.isEmpty ?? true,
                    !(extraction.shipments ?? []).contains(where: { $0.trackingNumber != nil })
                {
                    summary.withoutOrderNumber += 1
                    if summary.withoutOrderNumberOrigins.count < ScanSummary.repairedKept {
                        summary.withoutOrderNumberOrigins.append(processed.origin.description)
                    }
                }
            }
            created.formUnion(effects.createdOrderIDs)
        case .success(.alreadyApplied):
            summary.alreadyApplied += 1
        case .failure(let error):
            summary.skip(
                processed.origin.description, byteOffset: processed.origin.byteOffset,
                "not stored: \(error.reason)")
        }
    }
}

/// The store sequence up to which every changed order's bundle was written, and in which
/// form (``BundleOutput/mode``), kept in the output folder as `.mailorders-bundled`
/// (`<sequence> <mode>`), written atomically.
struct BundleWatermark {
    let url: URL

    init(directory: URL) {
        url = directory.appendingPathComponent(MessageSource.outputFolderMarker)
    }

    func read() -> (sequence: Int64, mode: String?) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return (0, nil) }
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = line.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let sequence = Int64(first) else { return (0, nil) }
        return (sequence, parts.count > 1 ? String(parts[1]) : nil)
    }

    func write(_ sequence: Int64, mode: String) {
        try? "\(sequence) \(mode)\n".write(to: url, atomically: true, encoding: .utf8)
    }
}

/// Why a scan could not start: exit status 2.
struct ScanSetupError: Error, CustomStringConvertible {
    var description: String
    /// Whether the run's record is written in the output folder (when the folder is already
    /// there: a run stopped before it starts creates nothing): not when that folder is the
    /// mailbox or holds it.
    var leavesRecord = true
    init(_ description: String, leavesRecord: Bool = true) {
        self.description = description
        self.leavesRecord = leavesRecord
    }
}

/// Why a scan stopped: the order store itself failed (``StoreError/isStoreFailure``). Exit
/// status 2.
struct ScanStoreFailure: Error, CustomStringConvertible {
    /// The database file.
    var path: String
    var error: StoreError

    var description: String {
        "the order store \(path) failed: \(error.reason); the run stopped before writing bundles,"
            + " and the messages not stored are read again by the next run"
    }
}

/// What one entry of a source gave once read and hashed: a file gives each of its messages.
private enum HashedEntry {
    /// A message to check against the store, with the SHA-256 hex of its bytes.
    case message(RawMessage, hash: String)
    /// A message the source may have cut short (its ``RawMessage/warnings``): not applied.
    case cutShort(RawMessage)
    /// A message that could not be read.
    case problem(SourceProblem)

    /// Reads `entry` when it is a file left unread, and hashes what it gives.
    static func reading(_ entry: SourceEntry) -> [HashedEntry] {
        func hashed(_ result: Result<RawMessage, SourceProblem>) -> HashedEntry {
            switch result {
            case .failure(let problem): return .problem(problem)
            case .success(let raw) where !raw.warnings.isEmpty: return .cutShort(raw)
            case .success(let raw): return .message(raw, hash: sha256Hex(raw.bytes))
            }
        }
        switch entry {
        case .read(let result): return [hashed(result)]
        case .unread(let file): return file.read().map(hashed)
        }
    }
}

/// A processed message with what the store needs of it, made on a worker thread.
private struct ReadyMessage: Sendable {
    let processed: ProcessedMessage
    /// What is applied; `nil` when the message could not be read.
    let message: IngestedMessage?
    /// `message`'s ``IngestedMessage/factsDigest``, computed here rather than by the store on
    /// the scanning thread.
    let factsDigest: String?

    init(_ processed: ProcessedMessage) {
        self.processed = processed
        message = processed.extraction.map { extraction in
            IngestedMessage(
                origin: processed.origin.description, messageID: processed.messageID,
                contentHash: processed.contentHash, date: processed.date, extraction: extraction,
                orderManagementURL: extraction.orderManagementURL, references: processed.references)
        }
        factsDigest = message?.factsDigest
    }
}

/// One batch handed to the worker threads and not applied yet.
private struct InFlightBatch {
    /// The batch's processing, in the batch's order.
    let job: WorkerJob<ReadyMessage>
    /// SHA-256 hex of each message, in order.
    let hashes: [String]
    /// Per message: whether to look for a known copy again before applying it.
    let recheck: [Bool]
    /// The bytes of its messages.
    let bytes: Int
}

extension Scanner {
    /// `path` absolute, with `.`, `..` and symbolic links resolved (`realpath(3)`); the
    /// standardized path when it cannot be resolved.
    static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else {
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
