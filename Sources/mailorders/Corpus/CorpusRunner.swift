import Extraction
import Foundation
import Mailbox

/// True and false positives and negatives of one field over a corpus.
struct FieldScore: Equatable {
    var truePositives = 0
    var falsePositives = 0
    var falseNegatives = 0

    var precision: Double? {
        truePositives + falsePositives == 0
            ? nil : Double(truePositives) / Double(truePositives + falsePositives)
    }
    var recall: Double? {
        truePositives + falseNegatives == 0
            ? nil : Double(truePositives) / Double(truePositives + falseNegatives)
    }
    var f1: Double? {
        guard let precision, let recall, precision + recall > 0 else { return nil }
        return 2 * precision * recall / (precision + recall)
    }

    mutating func add(expected: Set<String>, actual: Set<String>) {
        truePositives += expected.intersection(actual).count
        falsePositives += actual.subtracting(expected).count
        falseNegatives += expected.subtracting(actual).count
    }
}

/// The outcome of one corpus case or thread.
/// A corpus folder with nothing to run.
struct CorpusLayoutError: Error, CustomStringConvertible {
    var description: String
}

struct CorpusCaseResult {
    var name: String
    /// `nil` when the case passed.
    var diff: String?
    /// Set when the case could not be run (unreadable email, invalid expected file).
    var error: String?
    var passed: Bool { diff == nil && error == nil }
}

/// Runs extraction over `Corpus/<case>.eml` files and linking over `Corpus/<thread>/`
/// folders, and compares with the expected files (see Corpus/README.md).
struct CorpusRunner {
    static let scoredFields = [
        "kind", "merchant", "orderNumber", "trackingNumber", "carrier", "status", "estimatedDelivery",
        "total",
    ]

    let directory: URL
    let pipeline: MessagePipeline
    var update = false

    var scores: [String: FieldScore] = Dictionary(
        uniqueKeysWithValues: scoredFields.map { ($0, FieldScore()) })
    var results: [CorpusCaseResult] = []
    var written: [String] = []
    /// Names ``layout()`` listed that cannot be opened (not UTF-8): each is a failed case.
    private(set) var unreadableNames: [String] = []

    init(directory: URL, pipeline: MessagePipeline, update: Bool) {
        self.directory = directory
        self.pipeline = pipeline
        self.update = update
    }

    /// Case files (`*.eml` directly in the folder) and thread folders (sub-folders with an
    /// `expected-orders.json` or `.eml` files), sorted by name.
    /// - Throws: ``CorpusLayoutError`` when the folder holds neither: a wrong path must not
    ///   pass as an empty corpus.
    mutating func layout() throws -> (cases: [URL], threads: [URL]) {
        let fileManager = FileManager.default
        var isFolder: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isFolder) else {
            throw CorpusLayoutError(description: "cannot read \(directory.path): no such file or directory")
        }
        guard isFolder.boolValue else {
            throw CorpusLayoutError(
                description:
                    "cannot read \(directory.path): it is a file; give the folder that holds the cases")
        }
        let names: [String]
        do {
            names = try fileManager.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw CorpusLayoutError(description: "cannot read \(directory.path): \(fileErrorReason(error))")
        }
        var cases: [URL] = []
        var threads: [URL] = []
        var unreadable: [String] = []
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                // Listed but not there under that name: its bytes are not UTF-8 (read with
                // U+FFFD in their place), so it cannot be opened; said, not passed over.
                // A case's expectation beside its email is the same case, failed once.
                let stem =
                    name.hasSuffix(".expected.json") ? String(name.dropLast(".expected.json".count)) : nil
                if name.contains("\u{FFFD}") && !(stem.map { names.contains($0 + ".eml") } ?? false) {
                    unreadable.append(name)
                }
                continue
            }
            if isDirectory.boolValue {
                let inside = (try? fileManager.contentsOfDirectory(atPath: url.path)) ?? []
                if inside.contains("expected-orders.json") || inside.contains(where: { $0.hasSuffix(".eml") })
                {
                    threads.append(url)
                }
            } else if name.hasSuffix(".eml") {
                cases.append(url)
            }
        }
        unreadableNames = unreadable
        if cases.isEmpty && threads.isEmpty && !unreadable.isEmpty {
            throw CorpusLayoutError(
                description: "no case can be read in \(directory.path): "
                    + unreadable.map(TerminalText.oneLine).joined(separator: ", ")
                    + Self.notUTF8Reason)
        }
        if cases.isEmpty && threads.isEmpty {
            throw CorpusLayoutError(
                description: "no cases: no .eml file and no thread folder in \(directory.path)"
                    + " (a case is NAME.eml beside NAME.expected.json; see Corpus/README.md)")
        }
        return (cases, threads)
    }

    /// `NAME.expected.json` files with no `NAME.eml` beside them: a case whose email was
    /// renamed or deleted, which would otherwise never be run.
    func orphanedExpectations() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let emails = Set(names.filter { $0.hasSuffix(".eml") }.map { String($0.dropLast(4)) })
        return names.filter { $0.hasSuffix(".expected.json") && !$0.hasPrefix(".") }
            .filter { !emails.contains(String($0.dropLast(".expected.json".count))) }.sorted()
    }

    /// Why a case or thread whose name is not UTF-8 is not run.
    static let notUTF8Reason =
        ": the file name is not valid UTF-8 (shown with U+FFFD), so it cannot be opened; rename it"

    mutating func run() throws {
        let (cases, threads) = try layout()
        for name in unreadableNames {
            results.append(CorpusCaseResult(name: name, error: "cannot open the case" + Self.notUTF8Reason))
        }
        for url in cases { runCase(url) }
        for name in orphanedExpectations() {
            results.append(
                CorpusCaseResult(
                    name: String(name.dropLast(".expected.json".count)),
                    error: "\(name) has no .eml beside it: its case is never run"))
        }
        for url in threads { runThread(url) }
    }

    // MARK: - Single emails

    mutating func runCase(_ url: URL) {
        let name = url.deletingPathExtension().lastPathComponent
        let expectedURL = url.deletingPathExtension().appendingPathExtension("expected.json")
        let actual: ExtractionResult
        switch extract(url) {
        case .failure(let message):
            results.append(CorpusCaseResult(name: name, error: message.description))
            return
        case .success(let result):
            actual = result
        }
        let actualObject = comparable(actual)
        guard FileManager.default.fileExists(atPath: expectedURL.path) else {
            if update {
                do {
                    try (canonicalJSON(actualObject) + "\n").write(
                        to: expectedURL, atomically: true, encoding: .utf8)
                    written.append(expectedURL.lastPathComponent)
                } catch {
                    results.append(
                        CorpusCaseResult(name: name, error: "cannot write \(expectedURL.path): \(error)"))
                }
            } else {
                results.append(
                    CorpusCaseResult(
                        name: name,
                        error: "no \(expectedURL.lastPathComponent) (write one, or run with --update)"))
            }
            return
        }
        let expectedData: Data
        do {
            expectedData = try Data(contentsOf: expectedURL)
        } catch {
            results.append(
                CorpusCaseResult(
                    name: name,
                    error:
                        "cannot read \(expectedURL.path): \(fileErrorReason(error, path: expectedURL.path))"))
            return
        }
        let expectedObject: Any
        do {
            expectedObject = try JSONSerialization.jsonObject(with: expectedData)
            _ = try JSONDecoder().decode(ExtractionResult.self, from: expectedData)
        } catch {
            results.append(
                CorpusCaseResult(
                    name: name,
                    error:
                        "\(expectedURL.lastPathComponent) is not valid extraction JSON: \(Self.jsonErrorReason(error))"
                ))
            return
        }
        let compared = Self.trimmed(actualObject, like: expectedObject as? [String: Any] ?? [:])
        score(expected: expectedObject as? [String: Any] ?? [:], actual: compared)
        let expectedText = canonicalJSON(expectedObject)
        let actualText = canonicalJSON(compared)
        if expectedText == actualText {
            results.append(CorpusCaseResult(name: name))
        } else {
            let diff = unifiedDiff(
                expected: expectedText, actual: actualText, expectedLabel: expectedURL.lastPathComponent,
                actualLabel: "\(url.lastPathComponent) (extracted)")
            results.append(CorpusCaseResult(name: name, diff: diff))
        }
    }

    func extract(_ url: URL) -> Result<ExtractionResult, CorpusFailure> {
        let source = MessageSource(paths: [url.path])
        guard let first = source.next() else { return .failure(CorpusFailure("\(url.path): no message")) }
        switch first {
        case .failure(let problem): return .failure(CorpusFailure("\(problem)"))
        case .success(let raw):
            let processed = pipeline.process(raw)
            guard let extraction = processed.extraction else {
                return .failure(CorpusFailure("\(url.path): \(processed.failure ?? "not read")"))
            }
            return .success(extraction)
        }
    }

    /// The extraction as a JSON object without the keys a corpus does not compare.
    func comparable(_ result: ExtractionResult) -> [String: Any] {
        var copy = result
        copy.source = nil
        copy.evidence = nil
        let data = (try? JSONEncoder().encode(copy)) ?? Data("{}".utf8)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// Keys an expected file may leave out: descriptive fields a corpus need not record. They
    /// are compared only where the expected file has them (in any order or shipment).
    static let optionalKeys: Set<String> = ["messageID", "lineItems", "orderManagementURL"]
    static let optionalShipmentKeys: Set<String> = ["trackingURL", "shippedAt", "deliveredAt"]

    /// `actual` without the optional keys that `expected` does not record.
    static func trimmed(_ actual: [String: Any], like expected: [String: Any]) -> [String: Any] {
        let expectedOrders = [expected] + ((expected["additionalOrders"] as? [[String: Any]]) ?? [])
        let recordedOrderKeys = Set(expectedOrders.flatMap(\.keys))
        let recordedShipmentKeys = Set(
            expectedOrders.flatMap { ($0["shipments"] as? [[String: Any]]) ?? [] }.flatMap(\.keys))
        func trimOrder(_ order: [String: Any]) -> [String: Any] {
            var copy = order
            for key in optionalKeys where !recordedOrderKeys.contains(key) { copy.removeValue(forKey: key) }
            if let shipments = order["shipments"] as? [[String: Any]] {
                copy["shipments"] = shipments.map { shipment in
                    var trimmedShipment = shipment
                    for key in optionalShipmentKeys where !recordedShipmentKeys.contains(key) {
                        trimmedShipment.removeValue(forKey: key)
                    }
                    return trimmedShipment
                }
            }
            return copy
        }
        var result = trimOrder(actual)
        if let additional = actual["additionalOrders"] as? [[String: Any]] {
            result["additionalOrders"] = additional.map(trimOrder)
        }
        return result
    }

    mutating func score(expected: [String: Any], actual: [String: Any]) {
        let expectedKeys = Self.shipmentKeys(in: expected)
        let actualKeys = Self.shipmentKeys(in: actual, pairedWith: expectedKeys)
        for field in Self.scoredFields {
            scores[field, default: FieldScore()].add(
                expected: Self.values(of: field, in: expected, shipmentKeys: expectedKeys),
                actual: Self.values(of: field, in: actual, shipmentKeys: actualKeys))
        }
    }

    /// The shipments of an extraction JSON object (its own and its additional orders'), in order.
    static func shipments(in object: [String: Any]) -> [[String: Any]] {
        let orders = [object] + ((object["additionalOrders"] as? [[String: Any]]) ?? [])
        return orders.flatMap { ($0["shipments"] as? [[String: Any]]) ?? [] }
    }

    /// The key each shipment's carrier, status and delivery window are compared under: its
    /// tracking number (`#index` without one). With `expectedKeys`, an actual shipment whose
    /// tracking number no expected shipment has takes the key of the next expected shipment
    /// no actual one matched, in order: a parcel read with a wrong number still has its
    /// carrier and status judged against that parcel's, and only the number counts as wrong.
    static func shipmentKeys(in object: [String: Any], pairedWith expectedKeys: [String]? = nil) -> [String] {
        let own = shipments(in: object).enumerated().map { index, shipment in
            (shipment["trackingNumber"] as? String) ?? "#\(index)"
        }
        guard let expectedKeys else { return own }
        var unmatched = expectedKeys.filter { !own.contains($0) }[...]
        return own.map { key in
            expectedKeys.contains(key) ? key : (unmatched.popFirst() ?? key)
        }
    }

    /// The comparable values of one scored field in an extraction JSON object.
    /// - Parameter shipmentKeys: the key of each shipment (``shipmentKeys(in:pairedWith:)``).
    static func values(of field: String, in object: [String: Any], shipmentKeys: [String]? = nil) -> Set<
        String
    > {
        let orders = [object] + ((object["additionalOrders"] as? [[String: Any]]) ?? [])
        let shipments = Self.shipments(in: object)
        let keys = shipmentKeys ?? Self.shipmentKeys(in: object)
        func shipmentKey(_ shipment: [String: Any], _ index: Int) -> String {
            index < keys.count ? keys[index] : "#\(index)"
        }
        switch field {
        case "kind":
            return Set([object["kind"] as? String].compactMap { $0 })
        case "merchant":
            return Set([(object["merchant"] as? [String: Any])?["name"] as? String].compactMap { $0 })
        case "orderNumber":
            return Set(orders.compactMap { $0["orderNumber"] as? String })
        case "trackingNumber":
            return Set(shipments.compactMap { $0["trackingNumber"] as? String })
        case "carrier":
            return Set(
                shipments.enumerated().compactMap { index, shipment in
                    (shipment["carrier"] as? String).map { "\(shipmentKey(shipment, index))=\($0)" }
                })
        case "status":
            return Set(
                shipments.enumerated().compactMap { index, shipment in
                    (shipment["status"] as? String).map { "\(shipmentKey(shipment, index))=\($0)" }
                })
        case "estimatedDelivery":
            return Set(
                shipments.enumerated().compactMap { index, shipment in
                    guard let window = shipment["estimatedDelivery"] as? [String: Any] else { return nil }
                    return "\(shipmentKey(shipment, index))=\(window["from"] ?? "")..\(window["until"] ?? "")"
                })
        case "total":
            return Set(
                orders.compactMap { order in
                    guard let total = order["total"] as? [String: Any] else { return nil }
                    return "\(total["amount"] ?? "") \(total["currency"] ?? "")"
                })
        default:
            return []
        }
    }
}

extension CorpusRunner {
    /// Why an expected file is not extraction JSON, in one line: where the JSON breaks, or
    /// which key has a value of the wrong type.
    static func jsonErrorReason(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
                .joined()
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        default:
            return fileErrorReason(error)
        }
    }
}

struct CorpusFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Pretty JSON with sorted keys, the form expected files are compared in.
func canonicalJSON(_ object: Any) -> String {
    guard
        let data = try? JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else { return "\(object)" }
    return String(decoding: data, as: UTF8.self)
}
