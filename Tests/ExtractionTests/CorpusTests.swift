import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// The repository's `Corpus/`: every `<case>.eml` beside `<case>.expected.json`, extracted and
/// compared field by field. Precision is what must hold: a field we fill must be right.
@Suite struct CorpusTests {
    static let corpus = Fixture.rulesDirectory.deletingLastPathComponent().appendingPathComponent("Corpus")

    struct Outcome {
        var name: String
        var expected: ExtractionResult
        var actual: ExtractionResult
    }

    static func outcomes() -> [Outcome] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
        var result: [Outcome] = []
        for name in names.sorted() where name.hasSuffix(".eml") {
            let base = String(name.dropLast(4))
            let expectedURL = corpus.appendingPathComponent(base + ".expected.json")
            guard let expectedData = try? Data(contentsOf: expectedURL),
                let expected = try? JSONDecoder().decode(ExtractionResult.self, from: expectedData),
                let bytes = try? Data(contentsOf: corpus.appendingPathComponent(name)),
                let message = try? Message(bytes: Array(bytes))
            else { continue }
            let document = MailDocument(message: message)
            result.append(
                Outcome(name: base, expected: expected, actual: Fixture.extractor.extract(document)))
        }
        return result
    }

    static func fields(_ result: ExtractionResult) -> [String: String] {
        var fields: [String: String] = ["kind": result.kind.rawValue]
        fields["merchant.name"] = result.merchant?.name
        fields["merchant.domain"] = result.merchant?.domain
        fields["orderNumber"] = result.orderNumber
        fields["orderDate"] = result.orderDate
        fields["total"] = result.total.map { "\($0.amount) \($0.currency)" }
        let tracking = (result.shipments ?? []).compactMap(\.trackingNumber).sorted()
        if !tracking.isEmpty { fields["trackingNumbers"] = tracking.joined(separator: ",") }
        if let first = result.shipments?.first {
            fields["shipments[0].carrier"] = first.carrier
            fields["shipments[0].status"] = first.status?.rawValue
            fields["shipments[0].estimatedDelivery"] = first.estimatedDelivery.map {
                "\($0.from)..\($0.until)"
            }
        }
        if let items = result.lineItems, !items.isEmpty { fields["lineItems.count"] = String(items.count) }
        if let orders = result.additionalOrders {
            fields["additionalOrders"] = orders.map(\.orderNumber).joined(separator: ",")
        }
        return fields
    }

    @Test func orderAndTrackingNumbersAreNeverWrong() {
        let outcomes = CorpusTests.outcomes()
        var report: [String: (right: Int, wrong: Int, missed: Int)] = [:]
        var lines: [String] = []
        for outcome in outcomes {
            let expected = CorpusTests.fields(outcome.expected)
            let actual = CorpusTests.fields(outcome.actual)
            for key in Set(expected.keys).union(actual.keys) {
                var entry = report[key] ?? (0, 0, 0)
                switch (expected[key], actual[key]) {
                case (let want?, let got?) where want == got: entry.right += 1
                case (let want, let got?):
                    entry.wrong += 1
                    lines.append("WRONG \(outcome.name) \(key): expected \(want ?? "-") got \(got)")
                case (let want?, nil):
                    entry.missed += 1
                    lines.append("MISSED \(outcome.name) \(key): expected \(want)")
                default: break
                }
                report[key] = entry
            }
        }
        if ProcessInfo.processInfo.environment["CORPUS_REPORT"] != nil {
            for line in lines.sorted() { print(line) }
            for (key, entry) in report.sorted(by: { $0.key < $1.key }) {
                print("FIELD \(key): right \(entry.right) wrong \(entry.wrong) missed \(entry.missed)")
            }
            print("CASES \(outcomes.count)")
        }
        #expect(outcomes.count > 0)
        // Precision first: a wrong order number or total is worse than none.
        for key in ["orderNumber", "total"] {
            let entry = report[key] ?? (0, 0, 0)
            let filled = entry.right + entry.wrong
            #expect(filled == 0 || Double(entry.right) / Double(filled) >= 0.97, "\(key): \(entry)")
        }
    }
}

extension CorpusTests {
    /// `CORPUS_DUMP=<case>` prints the rendered document and the extraction of one case.
    @Test func dumpOneCase() throws {
        guard let name = ProcessInfo.processInfo.environment["CORPUS_DUMP"] else { return }
        let bytes = try Data(contentsOf: CorpusTests.corpus.appendingPathComponent(name + ".eml"))
        let document = MailDocument(message: try Message(bytes: Array(bytes)))
        print(
            "SUBJECT", document.subject ?? "-", "FROM", document.sender?.name ?? "-",
            document.sender?.address ?? "-")
        print("HTML>>>\n" + (document.htmlText?.text ?? "-") + "\n<<<")
        print("PLAIN>>>\n" + (document.plainText?.text ?? "-") + "\n<<<")
        print("JSON", ExtractionJSON.line(Fixture.extractor.extract(document)))
    }
}
