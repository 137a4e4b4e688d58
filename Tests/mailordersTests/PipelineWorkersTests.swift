import Foundation
import Testing

@testable import mailorders

/// The scan's worker threads: every item of every job once, results in item order, urgent
/// jobs ahead of the rest, with any number of threads and however uneven the work.
@Suite struct PipelineWorkersTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var calls: [String] = []
        func record(_ call: String) {
            lock.lock()
            calls.append(call)
            lock.unlock()
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func everyItemOnceInOrder(threads: Int) {
        let workers = PipelineWorkers(jobs: threads)
        let log = Log()
        // Several jobs handed over before any is waited for, as the scan does.
        let jobs = [0, 1, 2, 5, 97, 40].enumerated().map { number, count in
            let job = WorkerJob(count: count) { index -> String in
                log.record("\(number)/\(index)")
                // Uneven work: every seventh item is much slower.
                if index % 7 == 0 { usleep(1_000) }
                return "\(number):\(index * index)"
            }
            workers.submit(job)
            return job
        }
        for (number, job) in jobs.enumerated() {
            #expect(job.wait() == (0..<job.count).map { "\(number):\($0 * $0)" })
        }
        workers.finish()
        #expect(log.calls.count == 145)
        #expect(Set(log.calls).count == 145)
    }

    @Test func urgentItemsGoBeforeTheRest() {
        let workers = PipelineWorkers(jobs: 1)
        let log = Log()
        // The one thread is held by the first item until the urgent job is queued.
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let slow = WorkerJob(count: 3) { index -> Int in
            if index == 0 {
                started.signal()
                gate.wait()
            }
            log.record("slow \(index)")
            return index
        }
        workers.submit(slow)
        started.wait()
        let urgent = WorkerJob(count: 2) { index -> Int in
            log.record("urgent \(index)")
            return index
        }
        workers.submit(urgent, urgent: true)
        gate.signal()
        #expect(urgent.wait() == [0, 1])
        #expect(slow.wait() == [0, 1, 2])
        workers.finish()
        #expect(log.calls == ["slow 0", "urgent 0", "urgent 1", "slow 1", "slow 2"])
    }

    @Test func runHereDoesEveryItemOnTheCallingThread() {
        let job = WorkerJob(count: 4) { index in index + 1 }
        job.runHere()
        #expect(job.wait() == [1, 2, 3, 4])
        let empty = WorkerJob(count: 0) { index in index }
        empty.runHere()
        #expect(empty.wait().isEmpty)
    }

    /// Once every item is done, a job lets go of its work and what the work holds (a batch's
    /// messages), while its results stay.
    @Test func aFinishedJobReleasesWhatItsWorkHolds() {
        final class Payload: Sendable {
            let bytes = [UInt8](repeating: 7, count: 1 << 20)
        }
        weak var watched: Payload?
        var job: WorkerJob<Int>?
        do {
            let payload = Payload()
            watched = payload
            job = WorkerJob(count: 3) { index in Int(payload.bytes[index]) + index }
        }
        #expect(watched != nil)
        let workers = PipelineWorkers(jobs: 2)
        if let job { workers.submit(job) }
        #expect(job?.wait() == [7, 8, 9])
        workers.finish()
        #expect(watched == nil)
        #expect(job?.wait() == [7, 8, 9])
    }
}
