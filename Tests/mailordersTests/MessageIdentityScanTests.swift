import Foundation
import OrderStore
import Testing

/// What counts as "already applied", end to end through the built binary: the same bytes, or
/// the same Message-ID saying the same; never the Message-ID alone.
@Suite(.serialized) struct MessageIdentityScanTests {
    static let example = CommandRunner.repository.appendingPathComponent("examples/Maildir").path
    /// Northwind's shipping email (NW-48213, UPS 1ZA7X9252601815900).
    static let shipped = example + "/cur/1764400002.M2P4242.mailhost:2,S"
    static let northwindConfirmation = example + "/cur/1764400001.M1P4242.mailhost:2,S"
    static let bergmannConfirmation = example + "/cur/1764400005.M5P4242.mailhost:2,S"

    func scan(_ path: String, out: URL) throws -> [String: Any] {
        let result = try CommandRunner.run(["scan", path, "--out", out.path, "--json", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    func text(_ path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// The value of the message's (folded) Message-ID header field.
    func messageID(in message: String) throws -> String {
        let range = try #require(message.range(of: "Message-ID:"))
        let rest = message[range.upperBound...]
        let end = try #require(rest.range(of: ">"))
        return rest[..<end.upperBound].trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func twoDifferentEmailsWithOneMessageIDBothReachTheirOrders() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cur = folder.appendingPathComponent("Maildir/cur")
        try FileManager.default.createDirectory(at: cur, withIntermediateDirectories: true)
        for sub in ["new", "tmp"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("Maildir/" + sub), withIntermediateDirectories: true)
        }
        let northwind = try text(Self.northwindConfirmation)
        let bergmann = try text(Self.bergmannConfirmation)
        let reused = try messageID(in: northwind)
        let bergmannID = try messageID(in: bergmann)
        try Data(northwind.utf8).write(to: cur.appendingPathComponent("1.northwind:2,S"))
        // The sender reuses Northwind's Message-ID for an email about another order.
        try Data(bergmann.replacingOccurrences(of: bergmannID, with: reused).utf8)
            .write(to: cur.appendingPathComponent("2.bergmann:2,S"))
        // A re-delivered copy of Northwind's: transport header fields added on the way.
        let redelivered =
            "Received: from mx2.mail.example by mailhost; Sat, 21 Nov 2026 09:00:00 +0000\r\n"
            + "Delivered-To: jamie.rivera@mail.example\r\nX-Spam-Score: 0.1\r\n" + northwind
        try Data(redelivered.utf8).write(to: cur.appendingPathComponent("3.northwind-again:2,S"))

        let out = folder.appendingPathComponent("orders")
        let summary = try scan(folder.appendingPathComponent("Maildir").path, out: out)
        #expect(summary["messagesRead"] as? Int == 3)
        #expect(summary["alreadyApplied"] as? Int == 1)
        #expect(summary["ordersCreated"] as? Int == 2)

        let store = try SQLiteOrderStore(path: out.appendingPathComponent("mailorders.sqlite").path)
        defer { store.close() }
        let numbers = try store.orders().compactMap(\.orderNumber).sorted()
        #expect(numbers == ["2026-11-30417", "NW-48213"])
        #expect(try store.messageCount() == 2)
        let order = try #require(try store.orders().first { $0.orderNumber == "NW-48213" })
        #expect(try store.origins(orderID: order.id).count == 2)

        // A second scan skips all three by their bytes.
        let again = try scan(folder.appendingPathComponent("Maildir").path, out: out)
        #expect(again["alreadyApplied"] as? Int == 3)
    }

    @Test func messageReadCutShortAtALineEndThenWholeGetsItsTrackingNumber() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbox = folder.appendingPathComponent("inbox.mbox")
        let separator = "From orders@northwind-outfitters.example Thu Nov 19 21:05:00 2026\r\n"
        let whole = try text(Self.shipped)
        // The mbox as it was while the message was still being written: cut at a line end,
        // before the tracking number.
        let cut = try #require(whole.range(of: "Carrier: UPS\r\n"))
        #expect(!whole[..<cut.upperBound].contains("1ZA7X9252601815900"))
        try Data((separator + whole[..<cut.upperBound]).utf8).write(to: mbox)
        let out = folder.appendingPathComponent("orders")
        let first = try scan(mbox.path, out: out)
        #expect(first["ordersCreated"] as? Int == 1)

        try Data((separator + whole).utf8).write(to: mbox)
        let second = try scan(mbox.path, out: out)
        #expect(second["alreadyApplied"] as? Int == 0)
        #expect(second["ordersUpdated"] as? Int == 1)

        let store = try SQLiteOrderStore(path: out.appendingPathComponent("mailorders.sqlite").path)
        defer { store.close() }
        let order = try #require(try store.orders().first)
        #expect(try store.orders().count == 1)
        #expect(order.orderNumber == "NW-48213")
        #expect(order.fulfillments.compactMap(\.normalizedTrackingNumber) == ["1ZA7X9252601815900"])
    }
}
