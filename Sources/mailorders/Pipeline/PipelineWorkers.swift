import Foundation

/// Threads that run the scan's per-message work: the messages of a batch are handed out one at
/// a time, batch after batch, so a thread that finishes its last message of one batch goes
/// straight on with the next instead of waiting for the slowest message (a 150 KB newsletter)
/// on another thread.
///
/// Two queues: urgent jobs (a batch's content hashes, which the scanning thread waits for
/// before it asks the store which messages it knows) are handed out before the rest (the
/// batches' MIME, document and extraction work). Each job keeps its results in its own order,
/// so what a scan stores does not depend on which thread was faster.
///
/// The threads run until ``finish()``.
final class PipelineWorkers: @unchecked Sendable {
    private let condition = NSCondition()
    /// Jobs with items no thread has taken yet, oldest first. Guarded by `condition`.
    private var urgent: [any QueuedJob] = []
    private var waiting: [any QueuedJob] = []
    private var finished = false
    private let stopped = DispatchGroup()

    /// Starts `jobs` threads.
    /// - Parameter jobs: the number of threads, at least 1.
    init(jobs: Int) {
        for index in 0..<max(1, jobs) {
            stopped.enter()
            let thread = Thread { [self] in
                while let (job, item) = next() { job.run(item) }
                stopped.leave()
            }
            thread.name = "mailorders worker \(index + 1)"
            // As much stack as the scanning thread: deeply nested MIME and HTML are parsed here.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Hands `job`'s items to the threads; returns at once.
    /// - Parameter isUrgent: whether its items go before those of every job that is not.
    func submit<Value>(_ job: WorkerJob<Value>, urgent isUrgent: Bool = false) {
        guard job.count > 0 else { return }
        condition.lock()
        if isUrgent { urgent.append(job) } else { waiting.append(job) }
        condition.broadcast()
        condition.unlock()
    }

    /// Lets the threads end once every submitted item is done, and waits for them.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
        stopped.wait()
    }

    /// The next item no thread has taken, waiting for one; `nil` once ``finish()`` was called
    /// and none is left.
    private func next() -> (any QueuedJob, Int)? {
        condition.lock()
        defer { condition.unlock() }
        while urgent.isEmpty && waiting.isEmpty {
            if finished { return nil }
            condition.wait()
        }
        let job = urgent.first ?? waiting[0]
        let item = job.claim()
        if item + 1 == job.count {
            if urgent.isEmpty { waiting.removeFirst() } else { urgent.removeFirst() }
        }
        return (job, item)
    }
}

/// What ``PipelineWorkers`` hands out: `count` items, claimed under the workers' lock.
protocol QueuedJob: AnyObject {
    var count: Int { get }
    /// The next unclaimed item; called under the workers' lock only.
    func claim() -> Int
    func run(_ item: Int)
}

/// `count` independent items of work (`transform(0) …`), run by ``PipelineWorkers`` or on the
/// calling thread, with their results in item order.
final class WorkerJob<Value>: QueuedJob, @unchecked Sendable {
    let count: Int
    /// Released once every item is done, and with it what it holds (a batch's messages).
    private var transform: (@Sendable (Int) -> Value)?
    private var claimed = 0
    private let lock = NSLock()
    private var results: [Value?]
    private var remaining: Int
    private let done = DispatchGroup()

    /// - Parameters:
    ///   - count: the number of items.
    ///   - transform: the work of one item, given its index; called once per item, on any thread.
    init(count: Int, _ transform: @escaping @Sendable (Int) -> Value) {
        self.count = count
        self.transform = transform
        remaining = count
        results = Array(repeating: nil, count: count)
        for _ in 0..<count { done.enter() }
    }

    func claim() -> Int {
        claimed += 1
        return claimed - 1
    }

    func run(_ item: Int) {
        // Every item reads `transform` before it is done, and it is released only when all are.
        let value = transform!(item)
        lock.lock()
        results[item] = value
        remaining -= 1
        if remaining == 0 { transform = nil }
        lock.unlock()
        done.leave()
    }

    /// Runs every item on the calling thread (`--jobs 1`); the job must not be submitted.
    func runHere() {
        while claimed < count { run(claim()) }
    }

    /// The results in item order, once every item is done.
    func wait() -> [Value] {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return results.map { $0! }
    }
}
