import Foundation
import Testing

@testable import mailorders

/// The pipeline's parallel map: every index once, results in index order, with any number
/// of threads and however uneven the work.
@Suite struct PipelineMapTests {
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var calls: [Int: Int] = [:]
        func record(_ index: Int) {
            lock.lock()
            calls[index, default: 0] += 1
            lock.unlock()
        }
    }

    @Test(arguments: [1, 2, 3, 8])
    func everyIndexOnceInOrder(jobs: Int) {
        for count in [0, 1, 2, 5, 97] {
            let counter = Counter()
            let values = MessagePipeline.map(count, jobs: jobs) { index -> Int in
                counter.record(index)
                // Uneven work: every seventh item is much slower.
                if index % 7 == 0 { usleep(2_000) }
                return index * index
            }
            #expect(values == (0..<count).map { $0 * $0 })
            #expect(counter.calls.count == count)
            #expect(counter.calls.values.allSatisfy { $0 == 1 })
        }
    }
}
