import Extraction
import Foundation
import Mailbox
import OrderStore

extension CorpusRunner {
    /// Links every `.eml` of a thread folder in a fresh store, in name order and again in
    /// reverse order (linking must not depend on arrival order), and compares the orders and
    /// unlinked shipments with `expected-orders.json` (see Corpus/README.md).
    mutating func runThread(_ folder: URL) {
        let name = folder.lastPathComponent + "/"
        let expectedURL = folder.appendingPathComponent("expected-orders.json")
        let files =
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".eml") }.sorted()
        guard !files.isEmpty else {
            results.append(CorpusCaseResult(name: name, error: "no .eml files"))
            return
        }
        var extracted: [(file: String, processed: ProcessedMessage)] = []
        for file in files {
            let url = folder.appendingPathComponent(file)
            let source = MessageSource(paths: [url.path])
            guard case .success(let raw)? = source.next() else {
                results.append(CorpusCaseResult(name: name, error: "\(file): cannot be read"))
                return
            }
            let processed = pipeline.process(raw)
            guard processed.extraction != nil else {
                results.append(
                    CorpusCaseResult(name: name, error: "\(file): \(processed.failure ?? "not read")"))
                return
            }
            extracted.append((file, processed))
        }
        let forward: Any
        let backward: Any
        do {
            forward = try linkedOrders(extracted)
            backward = try linkedOrders(extracted.reversed())
        } catch {
            results.append(CorpusCaseResult(name: name, error: "linking failed: \(error)"))
            return
        }
        let actualText = canonicalJSON(forward)
        guard FileManager.default.fileExists(atPath: expectedURL.path) else {
            if update {
                do {
                    try (actualText + "\n").write(to: expectedURL, atomically: true, encoding: .utf8)
                    written.append(name + "expected-orders.json")
                } catch {
                    results.append(
                        CorpusCaseResult(name: name, error: "cannot write \(expectedURL.path): \(error)"))
                }
            } else {
                results.append(
                    CorpusCaseResult(
                        name: name, error: "no expected-orders.json (write one, or run with --update)"))
            }
            return
        }
        guard let data = try? Data(contentsOf: expectedURL),
            let expectedObject = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            results.append(CorpusCaseResult(name: name, error: "expected-orders.json is not a JSON object"))
            return
        }
        let expectedText = canonicalJSON(Self.sortedThread(expectedObject))
        var diffs: [String] = []
        if expectedText != actualText {
            diffs.append(
                unifiedDiff(
                    expected: expectedText, actual: actualText, expectedLabel: "\(name)expected-orders.json",
                    actualLabel: "\(name) (linked in name order)"))
        }
        let backwardText = canonicalJSON(backward)
        if expectedText != backwardText {
            diffs.append(
                unifiedDiff(
                    expected: expectedText, actual: backwardText,
                    expectedLabel: "\(name)expected-orders.json",
                    actualLabel: "\(name) (linked in reverse order)"))
        }
        results.append(
            CorpusCaseResult(name: name, diff: diffs.isEmpty ? nil : diffs.joined(separator: "\n")))
    }

    /// Applies the messages to a store in a temporary folder and returns the comparable
    /// `expected-orders.json` object.
    func linkedOrders<S: Sequence>(_ messages: S) throws -> [String: Any]
    where S.Element == (file: String, processed: ProcessedMessage) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "mailorders-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteOrderStore(path: folder.appendingPathComponent("thread.sqlite").path)
        // A re-delivery (the same bytes, or the same Message-ID saying the same: the store's
        // identity, see OrderStore) changes nothing but is listed with the orders of the
        // message it repeats; another email reusing a Message-ID is a message of its own.
        var firstFileForKey: [String: String] = [:]
        var repeats: [String: [String]] = [:]
        for (file, processed) in messages {
            guard let extraction = processed.extraction else { continue }
            let message = IngestedMessage(
                origin: file, messageID: processed.messageID, contentHash: processed.contentHash,
                date: processed.date, extraction: extraction,
                orderManagementURL: extraction.orderManagementURL, references: processed.references)
            var keys = [processed.contentHash]
            if let messageID = processed.messageID { keys.append(messageID + "\u{0}" + message.factsDigest) }
            let outcome = try store.apply(message)
            let first = keys.lazy.compactMap { firstFileForKey[$0] }.first
            if case .alreadyApplied = outcome, let first {
                repeats[first, default: []].append(file)
            } else {
                for key in keys where firstFileForKey[key] == nil { firstFileForKey[key] = file }
            }
        }
        func files(of order: StoredOrder) throws -> [Any] {
            let contributing = Set(try store.contributions(orderID: order.id).map(\.origin))
            return contributing.union(contributing.flatMap { repeats[$0] ?? [] }).sorted()
        }
        func fulfillments(_ order: StoredOrder) -> [[String: Any]] {
            order.fulfillments.map { fulfillment in
                var object: [String: Any] = ["status": fulfillment.status.rawValue]
                if let carrier = fulfillment.carrier { object["carrier"] = carrier }
                if let number = fulfillment.normalizedTrackingNumber ?? fulfillment.trackingNumber {
                    object["trackingNumber"] = number
                }
                return object
            }
        }
        var orders: [[String: Any]] = []
        var unlinked: [[String: Any]] = []
        for order in try store.orders() {
            var merchant: [String: Any] = [:]
            if let merchantName = order.merchantName { merchant["name"] = merchantName }
            if let domain = order.merchantDomain { merchant["domain"] = domain }
            if let number = order.orderNumber {
                var object: [String: Any] = [
                    "orderNumber": number, "status": order.status.rawValue,
                    "fulfillments": fulfillments(order), "messages": try files(of: order),
                ]
                if !merchant.isEmpty { object["merchant"] = merchant }
                orders.append(object)
            } else {
                for fulfillment in fulfillments(order) {
                    var object = fulfillment
                    if !merchant.isEmpty { object["merchant"] = merchant }
                    object["messages"] = try files(of: order)
                    unlinked.append(object)
                }
            }
        }
        return Self.sortedThread(["orders": orders, "unlinkedShipments": unlinked])
    }

    /// Orders sorted by (merchant domain, order number), fulfillments and unlinked shipments
    /// by tracking number, message lists by name: the thread format compares as sets.
    static func sortedThread(_ object: [String: Any]) -> [String: Any] {
        func string(_ value: Any?) -> String { value as? String ?? "" }
        func sortFulfillments(_ list: Any?) -> [[String: Any]] {
            ((list as? [[String: Any]]) ?? []).sorted {
                string($0["trackingNumber"]) < string($1["trackingNumber"])
            }
        }
        var orders = ((object["orders"] as? [[String: Any]]) ?? []).map { order -> [String: Any] in
            var copy = order
            copy["fulfillments"] = sortFulfillments(order["fulfillments"])
            copy["messages"] = ((order["messages"] as? [String]) ?? []).sorted()
            return copy
        }
        orders.sort {
            let left =
                string(($0["merchant"] as? [String: Any])?["domain"]) + "\u{0}" + string($0["orderNumber"])
            let right =
                string(($1["merchant"] as? [String: Any])?["domain"]) + "\u{0}" + string($1["orderNumber"])
            return left < right
        }
        let unlinked = sortFulfillments(object["unlinkedShipments"]).map { shipment -> [String: Any] in
            var copy = shipment
            copy["messages"] = ((shipment["messages"] as? [String]) ?? []).sorted()
            return copy
        }
        return ["orders": orders, "unlinkedShipments": unlinked]
    }
}
