import Foundation
import Testing

@testable import mailorders

/// `scan --json`'s summary object: every field, skipped entries with and without a byte
/// offset, and long lists kept whole.
@Suite struct ScanSummaryTests {
    @Test func jsonHoldsEveryFieldAndEverySkippedEntry() throws {
        var summary = ScanSummary()
        summary.messagesRead = 50_003
        summary.notOrders = 2
        summary.ordersCreated = 1
        summary.elapsed = 1.23456
        summary.outputDirectory = "/tmp/out/orders"
        for index in 0..<50_000 {
            summary.skip(
                "box.mbox#\(index)", byteOffset: index * 7,
                "no message after the From line: followed directly by another From line"
            )
        }
        summary.skip("cur/junk", "binary data, not a message")
        summary.noteRepaired("cur/a", warnings: ["1: unknown charset \"x-foo\": read as windows-1252"])
        let text = summary.json()
        #expect(text.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["messagesRead"] as? Int == 50_003)
        #expect(object["ordersCreated"] as? Int == 1)
        #expect(object["elapsedSeconds"] as? Double == 1.235)
        #expect(object["outputDirectory"] as? String == "/tmp/out/orders")
        #expect(text.contains("\"/tmp/out/orders\""))  // slashes are not escaped
        let skipped = try #require(object["skipped"] as? [[String: Any]])
        #expect(skipped.count == 50_001)
        #expect(skipped[49_999]["byteOffset"] as? Int == 49_999 * 7)
        // The key is there when the offset is unknown, as null.
        #expect(skipped[50_000]["byteOffset"] is NSNull)
        #expect(skipped[50_000]["reason"] as? String == "binary data, not a message")
        let repaired = try #require(object["repaired"] as? [[String: Any]])
        #expect(
            repaired.first?["warnings"] as? [String] == ["1: unknown charset \"x-foo\": read as windows-1252"]
        )
        #expect(object["repairedCount"] as? Int == 1)
        #expect(object["exitCode"] as? Int == 1)
        #expect(object["error"] is NSNull)
        let keys = Set(object.keys)
        #expect(
            keys == [
                "alreadyApplied", "beforeSince", "bundlesRemoved", "bundlesRewrittenUnchanged",
                "bundlesWritten",
                "elapsedSeconds", "error", "exitCode",
                "messagesRead",
                "notOrders", "notWritten", "ordersCreated", "ordersUpdated", "outputDirectory", "repaired",
                "repairedCount",
                "shipmentRecordsCreated", "shipmentRecordsUpdated", "shipmentsLinked", "skipped",
                "unlinkedShipments", "withoutOrderNumber", "withoutOrderNumberOrigins",
            ])
    }

    /// Shipment-only records are counted apart from orders, as `mailorders orders` lists them,
    /// and named only when there are some.
    @Test func shipmentOnlyRecordsAreNotCountedAsOrders() {
        var summary = ScanSummary()
        summary.ordersCreated = 3
        #expect(summary.text().contains("orders: 3 new, 0 updated; shipments linked: 0\n"))
        #expect(!summary.text().contains("shipment-only"))
        summary.shipmentRecordsCreated = 2
        summary.shipmentRecordsUpdated = 1
        #expect(
            summary.text().contains(
                "orders: 3 new, 0 updated; shipments linked: 0; shipment-only records: 2 new, 1 updated"))
    }

    /// A folder that cannot be listed (or cannot hold a message) is not one message: it is
    /// counted apart, in the text and in the JSON (`isFolder`).
    @Test func aFolderThatCannotBeListedIsNotCountedAsAMessage() throws {
        var summary = ScanSummary()
        summary.messagesRead = 2
        summary.skip("Mail/cur/junk", "binary data, not a message")
        summary.skip("Mail/.Archive", "cannot list directory: permission denied", isFolder: true)
        #expect(summary.text().contains("Skipped 1 message and 1 folder:\n"))
        summary.skip("Mail/cur/junk2", "binary data, not a message")
        #expect(summary.text().contains("Skipped 2 messages and 1 folder:\n"))
        var onlyFolders = ScanSummary()
        onlyFolders.skip("Mail/.Archive", "cannot list directory: permission denied", isFolder: true)
        onlyFolders.skip("Mail/.Sent", "cannot list directory: permission denied", isFolder: true)
        #expect(onlyFolders.text().contains("Skipped 2 folders:\n"))
        #expect(onlyFolders.exitCode == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let skipped = try #require(object["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["isFolder"] as? Bool } == [true, false, false])  // in mailbox order
    }

    /// Skipped entries are listed in mailbox order, whatever order they were found in:
    /// by file, then by message number (`#9` before `#10`).
    @Test func skippedEntriesAreInMailboxOrder() throws {
        var summary = ScanSummary()
        summary.skip("box.mbox#10", byteOffset: 900, "empty message after a From line")
        summary.skip("a.eml", "binary data, not a message")
        summary.skip("box.mbox#9", byteOffset: 800, "no header field")
        summary.skip("box.mbox#9", byteOffset: 850, "second problem")
        #expect(
            summary.skippedInMailboxOrder.map(\.origin) == [
                "a.eml", "box.mbox#9", "box.mbox#9", "box.mbox#10",
            ])
        #expect(summary.skippedInMailboxOrder.map(\.byteOffset) == [nil, 800, 850, 900])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let origins = (object["skipped"] as? [[String: Any]] ?? []).compactMap { $0["origin"] as? String }
        #expect(origins == ["a.eml", "box.mbox#9", "box.mbox#9", "box.mbox#10"])
    }

    /// A file name with a line break cannot add a line of its own to the summary.
    @Test func originsWithLineBreaksStayOnTheirLine() {
        var summary = ScanSummary()
        summary.messagesRead = 1
        summary.skip("cur/evil\nSkipped 0 messages\r", "binary data, not a message")
        summary.noteRepaired("cur/a\nb", warnings: ["x\ny"])
        let lines = summary.text().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.contains { $0 == "  cur/evil\\nSkipped 0 messages\\r: binary data, not a message" })
        #expect(lines.contains { $0 == "  cur/a\\nb: x\\ny" })
        #expect(!lines.contains { $0.hasPrefix("Skipped 0") })
    }

    /// Every warning of a message read with repairs is listed, one per line under it when
    /// there are several: up to six, or five and how many more.
    @Test func everyWarningOfARepairedMessageIsListed() throws {
        var summary = ScanSummary()
        summary.noteRepaired("cur/one", warnings: ["1: unknown charset \"x-foo\": read as windows-1252"])
        summary.noteRepaired(
            "box.mbox#2", warnings: ["1: no closing boundary", "1.2: bad base64", "1.3: unknown charset"])
        summary.noteRepaired("cur/scanned", warnings: (1...5).map { "warning \($0)" } + ["… 4 more"])
        summary.noteRepaired("cur/many", warnings: (1...8).map { "part \($0): cut\nshort" })
        let text = summary.text()
        #expect(text.contains("\n  cur/one: 1: unknown charset \"x-foo\": read as windows-1252\n"))
        #expect(
            text.contains(
                "\n  box.mbox#2:\n    1: no closing boundary\n    1.2: bad base64\n    1.3: unknown charset\n"
            ))
        #expect(
            text.contains(
                "\n  cur/scanned:\n" + (1...5).map { "    warning \($0)\n" }.joined() + "    … 4 more\n"))
        #expect(
            text.hasSuffix(
                "\n  cur/many:\n" + (1...5).map { "    part \($0): cut\\nshort\n" }.joined()
                    + "    … and 3 more (see --json)"))
        // The JSON keeps every warning it was given.
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        let repaired = try #require(object["repaired"] as? [[String: Any]])
        #expect(repaired.map { ($0["warnings"] as? [String])?.count } == [1, 3, 6, 8])
    }

    /// The messages about an order without an order number are named, so that `check` can be
    /// run on them.
    @Test func messagesWithoutAnOrderNumberAreNamed() throws {
        var summary = ScanSummary()
        summary.withoutOrderNumber = 12
        summary.withoutOrderNumberOrigins = (1...12).map { "cur/\($0).eml" }
        let text = summary.text()
        #expect(
            text.contains("no order number or tracking number found: 12 (see `mailorders check FILE`):\n"))
        #expect(text.contains("\n    cur/1.eml\n"))
        #expect(text.contains("\n    cur/10.eml\n"))
        #expect(!text.contains("cur/11.eml"))
        #expect(text.contains("… and 2 more (see --json)"))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect((object["withoutOrderNumberOrigins"] as? [String])?.count == 12)
    }
}
