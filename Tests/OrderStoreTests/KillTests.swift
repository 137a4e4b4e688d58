import Extraction
import Foundation
import Testing

@testable import OrderStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real `kill -9`: this test binary is started again as a child that applies a long thread of
/// messages, killed with SIGKILL mid-run, and the store it leaves is checked and completed.
@Suite struct KillTests {
    static let workerVariable = "ORDERSTORE_KILL_WORKER_DB"
    static let messageCount = 400

    /// 100 purchases, each: the carrier's email first, then confirmation, shipping, delivery.
    static func messages() -> [IngestedMessage] {
        var result: [IngestedMessage] = []
        for index in 0..<(messageCount / 4) {
            let number = "K-\(index)"
            let tracking = "1Z\(String(format: "%016d", index))"
            let day = 1 + index % 20
            result.append(
                message(
                    "\(number)-carrier", .carrierUpdate, at: november(day + 2, 8), merchant: nil,
                    shipments: [ups(tracking, .onTheWay)]))
            result.append(
                message("\(number)-confirm", .orderConfirmation, at: november(day), orderNumber: number))
            result.append(
                message(
                    "\(number)-ship", .shippingConfirmation, at: november(day + 1), orderNumber: number,
                    shipments: [ups(tracking)]))
            result.append(
                message(
                    "\(number)-done", .carrierUpdate, at: november(day + 3), merchant: nil,
                    shipments: [ups(tracking, .delivered)]))
        }
        return result
    }

    /// The child's side: does nothing unless started by the test below with the store's path.
    @Test func killWorkerAppliesTheThreadWhenStartedAsChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.workerVariable] else { return }
        let store = try SQLiteOrderStore(path: path)
        for message in Self.messages() { _ = try store.apply(message) }
        store.close()
    }

    #if os(Linux)
        @Test func killedMidRunLosesDuplicatesAndHalfAppliesNothing() throws {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let all = Self.messages()
            var survivors: [(path: String, count: Int)] = []
            var folders: [URL] = []
            defer { for folder in folders { try? FileManager.default.removeItem(at: folder) } }

            for target in [20, 150, 300] {
                let folder = FileManager.default.temporaryDirectory
                    .appendingPathComponent("orderstore-kill-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                folders.append(folder)
                let path = folder.appendingPathComponent("mailorders.sqlite").path
                _ = try SQLiteOrderStore(path: path)  // created and migrated before the child starts

                let child = Process()
                child.executableURL = URL(fileURLWithPath: executable)
                child.arguments = [
                    "--testing-library", "swift-testing", "--filter", "killWorkerAppliesTheThread",
                ]
                var environment = ProcessInfo.processInfo.environment
                environment[Self.workerVariable] = path
                child.environment = environment
                child.standardOutput = FileHandle.nullDevice
                child.standardError = FileHandle.nullDevice
                try child.run()

                let watcher = try SQLiteOrderStore(path: path)
                let deadline = Date().addingTimeInterval(60)
                while child.isRunning, try watcher.messageCount() < target, Date() < deadline {
                    usleep(2_000)
                }
                watcher.close()
                kill(child.processIdentifier, SIGKILL)
                child.waitUntilExit()

                let restarted = try SQLiteOrderStore(path: path)
                #expect(try restarted.connection.first("PRAGMA integrity_check")?.text(0) == "ok")
                let count = try restarted.messageCount()
                #expect(count >= min(target, all.count))
                #expect(try restarted.latestSequence() == Int64(count))
                restarted.close()
                survivors.append((path, count))
            }

            #expect(survivors.contains { $0.count < all.count }, "no kill landed mid-run")

            // The uninterrupted run, compared after the same number of messages as each killed run.
            let reference = try SQLiteOrderStore(path: ":memory:")
            var statesAt: [Int: [StoredOrder]] = [:]
            let wanted = Set(survivors.map(\.count))
            if wanted.contains(0) { statesAt[0] = [] }
            for (index, message) in all.enumerated() {
                _ = try reference.apply(message)
                if wanted.contains(index + 1) { statesAt[index + 1] = try reference.orders() }
            }
            let final = try reference.orders()
            #expect(final.count == all.count / 4)
            #expect(final.allSatisfy { $0.status == .completed })

            for survivor in survivors {
                let store = try SQLiteOrderStore(path: survivor.path)
                defer { store.close() }
                #expect(
                    try store.orders() == statesAt[survivor.count], "killed after \(survivor.count) messages")
                var applied = 0
                for message in all where try !store.contains(contentHash: message.contentHash) {
                    if try store.apply(message) != .alreadyApplied { applied += 1 }
                }
                #expect(applied == all.count - survivor.count)
                #expect(try store.orders() == final, "rerun after a kill at \(survivor.count) messages")
            }
        }
    #endif
}
