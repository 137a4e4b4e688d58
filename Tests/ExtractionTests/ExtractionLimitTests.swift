import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// The bounds of the prefilter and of extraction never lose an order in silence: the prefilter
/// lets through what it did not read to the end, and extraction says which of its limits it
/// reached.
@Suite struct ExtractionLimitTests {
    static let filler = (0..<12_000).map { "lorem ipsum dolor sit amet \($0)\n" }.joined()

    static func message(parts: [String], subject: String = "Hello") throws -> Message {
        var text = """
            From: Shop <orders@shop.example>
            To: buyer@mail.example
            Subject: \(subject)
            Date: Wed, 18 Nov 2026 09:42:00 -0500
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="b"


            """
        for part in parts { text += "--b\nContent-Type: text/plain; charset=utf-8\n\n\(part)\n" }
        text += "--b--\n"
        return try Message(bytes: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    @Test func aKeywordPastWhatThePrefilterScansLetsTheMessageThrough() throws {
        let prefilter = Prefilter(rules: Fixture.rules)
        #expect(Self.filler.utf8.count > prefilter.maxBytesPerPart)
        // Past the part's limit.
        let long = try Self.message(parts: [Self.filler + "Order number: A-10023"])
        let decision = prefilter.decide(long)
        #expect(decision.needsFullWork)
        #expect(decision.reason.contains("not scanned"), "\(decision.reason)")
        // In a part past the message's budget.
        let chunk = String(Self.filler.prefix(prefilter.maxBytesPerPart))
        let many = try Self.message(parts: Array(repeating: chunk, count: 5) + ["Order number: A-10023"])
        #expect(prefilter.decide(many).needsFullWork)
        // All of it scanned and nothing found: left out as before.
        let short = try Self.message(parts: [chunk.prefix(10_000) + "\nSee you tomorrow."])
        #expect(
            prefilter.decide(short) == Prefilter.Decision(needsFullWork: false, reason: "no order signal"))
    }

    @Test func aRenditionLongerThanExtractionReadsIsReported() throws {
        let padding = String(
            repeating: "lorem ipsum dolor sit amet\n", count: Extractor.maximumTextBytes / 27 + 10)
        let document = Fixture.document(
            subject: "Your order",
            plain: ["Thank you for your order!", "Order number: A-10023", padding, "Total: $5.00"])
        let (result, warnings) = Fixture.extractor.extractReportingLimits(document)
        #expect(result.orderNumber == "A-10023")
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(
            warning.message.hasPrefix("rendered plain text of ")
                && warning.message.contains("longer than the 2000000 extraction reads"),
            "\(warnings)")
        // Past the limit, a value is not found; the warning is what says so.
        let late = Fixture.document(subject: "Your order", plain: [padding, "Order number: A-10023"])
        let (lateResult, lateWarnings) = Fixture.extractor.extractReportingLimits(late)
        #expect(lateResult.orderNumber == nil)
        #expect(lateWarnings.count == 1)
        // A short email reaches no limit.
        #expect(
            Fixture.extractor.extractReportingLimits(Fixture.document(plain: ["Order number: A-10023"]))
                .warnings.isEmpty)
    }

    static func itemTable(rows: Int) -> MailDocument {
        Fixture.document(
            subject: "Your order A-10023",
            html: ["Thank you for your order!", "Order number: A-10023"]
                + (0..<rows).map { "Widget number \($0)\t1\t$10.00" } + ["Order total\t$\(rows * 10).00"])
    }

    @Test func moreLineItemsThanKeptAreReported() throws {
        let (result, warnings) = Fixture.extractor.extractReportingLimits(Self.itemTable(rows: 60))
        #expect(result.lineItems?.count == Extractor.maximumLineItems)
        #expect(result.lineItems?.last?.title == "Widget number 49")
        #expect(warnings.map(\.message) == ["more than 50 line items: the first 50 kept, the rest left out"])
        let (exact, none) = Fixture.extractor.extractReportingLimits(Self.itemTable(rows: 50))
        #expect(exact.lineItems?.count == 50)
        #expect(none.isEmpty)
        // The same result as without the report.
        #expect(Fixture.extract(Self.itemTable(rows: 60)) == result)
    }

    /// An email listing `count` labelled order numbers, `NW-10000` first, each followed by a
    /// line with its own UPS tracking number when `tracked` says so.
    static func orderList(count: Int, tracked: Set<Int> = []) -> MailDocument {
        var lines = ["Thank you for your orders!"]
        for index in 0..<count {
            lines.append("Order number: NW-\(10_000 + index)")
            if tracked.contains(index) { lines.append("Tracking number: \(Self.upsNumber)") }
        }
        var document = Fixture.document(subject: "Your orders")
        document.plainText = PlainTextRenderer.render(text: lines.joined(separator: "\n"), partPath: "1").text
        return document
    }

    /// A UPS number with a valid check digit.
    static let upsNumber = "1ZA7X9252601815900"

    @Test func moreOrdersThanKeptAreReported() throws {
        let (result, warnings) = Fixture.extractor.extractReportingLimits(Self.orderList(count: 150))
        #expect(result.orderNumber == "NW-10000")
        let additional = try #require(result.additionalOrders)
        #expect(additional.count == Extractor.maximumOrders - 1)
        // The first ones in the email, in its order.
        #expect(additional.first?.orderNumber == "NW-10001")
        #expect(additional.last?.orderNumber == "NW-10099")
        #expect(warnings.map(\.message) == ["more than 100 orders: the first 100 kept, the rest left out"])
        #expect(warnings.first?.partPath == "1")
        let (exact, none) = Fixture.extractor.extractReportingLimits(Self.orderList(count: 100))
        #expect(exact.additionalOrders?.count == 99)
        #expect(none.isEmpty)
        // The same result as without the report.
        #expect(Fixture.extract(Self.orderList(count: 150)) == result)
    }

    /// A shipment printed under an order past the limit is left out with its order, not given
    /// to the last order kept.
    @Test func aShipmentOfAnOrderPastTheLimitIsLeftOut() throws {
        let result = Fixture.extract(Self.orderList(count: 101, tracked: [100]))
        let additional = try #require(result.additionalOrders)
        #expect(additional.count == 99)
        #expect(additional.allSatisfy { $0.shipments == nil }, "\(additional.compactMap(\.shipments))")
        #expect(result.shipments == nil)
        // Within the limit, the same shipment is its order's.
        let kept = Fixture.extract(Self.orderList(count: 100, tracked: [99]))
        #expect(kept.additionalOrders?.last?.shipments?.first?.trackingNumber == Self.upsNumber)
    }
}
