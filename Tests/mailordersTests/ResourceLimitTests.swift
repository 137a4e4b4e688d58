import CZlib
import Foundation
import MIME
import MailDocument
import Testing

/// Every documented limit, hit through the real binary: the message or part over the
/// limit is reported (by `inspect`, in `scan`'s skipped list, or as a document warning) and
/// the rest of the run goes on.
@Suite(.serialized) struct ResourceLimitTests {
    static let header = """
        From: Shop <orders@shop.example>
        To: buyer@mail.example
        Subject: limits
        Date: Wed, 18 Nov 2026 09:42:00 -0500
        MIME-Version: 1.0

        """

    /// A folder with a Maildir holding `messages` plus one real order email from the examples.
    static func maildir(_ messages: [String: [UInt8]]) throws -> (folder: URL, maildir: URL) {
        let folder = try CommandRunner.temporaryFolder()
        let maildir = folder.appendingPathComponent("Maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (name, bytes) in messages {
            try Data(bytes).write(to: maildir.appendingPathComponent("new/\(name)"))
        }
        let example = CommandRunner.repository.appendingPathComponent(
            "examples/Maildir/cur/1764400001.M1P4242.mailhost:2,S")
        try FileManager.default.copyItem(
            at: example, to: maildir.appendingPathComponent("cur/1.M1P1.host:2,S"))
        return (folder, maildir)
    }

    /// Scans `maildir` into `folder/out` with `--json` and returns the summary object.
    /// - Parameter statuses: the exit statuses the run may end with.
    static func scanSummary(_ maildir: URL, in folder: URL, statuses: Set<Int32> = [0]) throws -> [String:
        Any]
    {
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["scan", maildir.path, "--out", out.path, "--json", "--quiet"])
        #expect(statuses.contains(result.status), "\(result.standardError)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    /// Scans and checks the run went on: the example order is still found.
    static func scanGoesOn(_ maildir: URL, in folder: URL, read: Int = 2) throws -> [String: Any] {
        let summary = try scanSummary(maildir, in: folder, statuses: [0, 1])
        #expect(summary["ordersCreated"] as? Int == 1, "\(summary)")
        #expect(summary["messagesRead"] as? Int == read, "\(summary)")
        return summary
    }

    static func inspect(_ path: URL, _ options: [String] = []) throws -> String {
        let result = try CommandRunner.run(["inspect"] + options + [path.path])
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput + result.standardError
    }

    static func nested(depth: Int) -> [UInt8] {
        var text = header + "Content-Type: multipart/mixed; boundary=\"b0\"\n\n"
        for level in 0..<depth {
            text += "--b\(level)\nContent-Type: multipart/mixed; boundary=\"b\(level + 1)\"\n\n"
        }
        text += "--b\(depth)\nContent-Type: text/plain\n\ninnermost\n"
        for level in stride(from: depth, through: 0, by: -1) { text += "--b\(level)--\n" }
        return Array(text.utf8)
    }

    static func manyParts(_ count: Int) -> [UInt8] {
        var text = header + "Content-Type: multipart/mixed; boundary=\"b\"\n\n"
        for index in 0..<count { text += "--b\nContent-Type: text/plain\n\npart \(index)\n" }
        return Array((text + "--b--\n").utf8)
    }

    @Test func nestingDeeperThan32IsCutWithAWarningAndTheRunGoesOn() throws {
        let (folder, maildir) = try Self.maildir(["deep": Self.nested(depth: 40)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.inspect(maildir.appendingPathComponent("new/deep"))
        #expect(report.contains("nesting deeper than 32"), "\(report.prefix(2000))")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    @Test func moreThan2000PartsAreCutWithAWarningAndTheRunGoesOn() throws {
        let (folder, maildir) = try Self.maildir(["parts": Self.manyParts(2_100)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.inspect(maildir.appendingPathComponent("new/parts"))
        #expect(report.contains("more than 2000 parts"), "\(report.suffix(2000))")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    @Test func aHeaderSectionOver1MiBIsCutWithAWarningAndTheRunGoesOn() throws {
        let big = Self.header + "X-Big: " + String(repeating: "a", count: 1_100 << 10) + "\n\nbody\n"
        let (folder, maildir) = try Self.maildir(["header": Array(big.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.inspect(maildir.appendingPathComponent("new/header"))
        #expect(report.contains("header section longer than 1048576 bytes"), "\(report.prefix(2000))")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    @Test func aHeaderFieldOver256KiBIsCutWithAWarningAndTheRunGoesOn() throws {
        let long =
            Self.header.replacingOccurrences(
                of: "Subject: limits", with: "Subject: " + String(repeating: "s", count: 300 << 10))
            + "Content-Type: text/plain\n\n" + String(repeating: "long line ", count: 100_000) + "\n"
        let (folder, maildir) = try Self.maildir(["long": Array(long.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.inspect(maildir.appendingPathComponent("new/long"))
        #expect(report.contains("262144"), "\(report.prefix(2000))")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    @Test func aMessageOver64MiBIsSkippedWithItsOriginAndTheRunGoesOn() throws {
        var big = Array((Self.header + "Content-Type: text/plain\n\n").utf8)
        big += [UInt8](repeating: 0x61, count: (64 << 20) + 1)
        let (folder, maildir) = try Self.maildir(["huge": big])
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try Self.scanGoesOn(maildir, in: folder)
        let skipped = try #require(summary["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1, "\(skipped)")
        let entry = String(describing: skipped.first ?? [:])
        #expect(entry.contains("huge") && entry.contains("limit"), "\(entry)")
    }

    @Test func htmlNested100000DeepIsRenderedWithoutCrashingAndTheRunGoesOn() throws {
        let html =
            Self.header + "Content-Type: text/html\n\n<html><body>"
            + String(repeating: "<div>", count: 100_000)
            + "deep text" + String(repeating: "</div>", count: 100_000) + "</body></html>\n"
        let (folder, maildir) = try Self.maildir(["html": Array(html.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = MailDocument(message: try Message(bytes: Array(html.utf8)))
        #expect(document.htmlText?.text.contains("deep text") == true)
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    /// HTML cut by the document stage (a tag with 40,000 attributes; 1 MB of small elements)
    /// is listed under "read with repairs" by `scan` and printed by `extract`.
    @Test func htmlCutAtItsLimitsIsReportedByScanAndExtract() throws {
        let attributes = (0..<40_000).map { "a\($0)=\"x\"" }.joined(separator: " ")
        // An order subject, so the prefilter lets the messages through to the document stage.
        let header = Self.header.replacingOccurrences(
            of: "Subject: limits", with: "Subject: Your order 12345")
        let manyAttributes =
            header + "Content-Type: text/html\n\n<p>before</p><div \(attributes)>hi</div>\n"
        let manyElements =
            header + "Content-Type: text/html\n\n<p>before</p>"
            + String(repeating: "<b>x</b>", count: 160_000) + "\n"
        let (folder, maildir) = try Self.maildir([
            "attributes": Array(manyAttributes.utf8), "elements": Array(manyElements.utf8),
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try Self.scanGoesOn(maildir, in: folder, read: 3)
        let repaired = try #require(summary["repaired"] as? [[String: Any]])
        let text = repaired.map { String(describing: $0) }.joined(separator: "\n")
        #expect(text.contains("attributes") && text.contains("would cost the parser"), "\(text)")
        #expect(text.contains("more than 150000 elements"), "\(text)")
        let extract = try CommandRunner.run([
            "extract", maildir.appendingPathComponent("new/attributes").path,
        ])
        #expect(extract.status == 0)
        #expect(
            extract.standardError.contains("warning")
                && extract.standardError.contains("text/html part cut at byte"))
        // check says so too (MO701): what stood past the cut is not in the report.
        let check = try CommandRunner.run([
            "check", "--format", "json", maildir.appendingPathComponent("new/elements").path,
        ])
        let report = try #require(
            ((try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])?[
                "reports"] as? [[String: Any]])?.first)
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(
            findings.contains {
                $0["code"] as? String == "MO701"
                    && ($0["message"] as? String)?.contains("more than 150000 elements") == true
            }, "\(findings)")
    }

    /// The prefilter's bounded keyword scan, extraction's 2,000,000 bytes per rendered text
    /// and its 50 line items lose nothing in silence: an order whose words stand past what the
    /// prefilter scans is still found, and `scan` (under "read with repairs"), `extract` (on
    /// standard error) and `check` (finding MO701) say when extraction stopped short.
    @Test func prefilterAndExtractionLimitsAreNotSilent() throws {
        func mail(_ id: String, subject: String, type: String = "text/plain", _ body: String) -> [UInt8] {
            let header = Self.header.replacingOccurrences(
                of: "Subject: limits", with: "Subject: \(subject)\nMessage-ID: <\(id)@shop.example>")
            return Array((header + "Content-Type: \(type); charset=utf-8\n\n" + body + "\n").utf8)
        }
        let filler = (0..<12_000).map { "lorem ipsum dolor sit amet \($0)\n" }.joined()
        let late = mail("late", subject: "Hello", filler + "Thank you for your order.\nOrder number: A-10024")
        let big = mail(
            "big", subject: "Your order",
            String(repeating: filler, count: 6) + "Thank you for your order.\nOrder number: A-10026")
        let rows = (0..<60).map { "<tr><td>Widget number \($0)</td><td>1</td><td>$10.00</td></tr>" }.joined()
        let items = mail(
            "items", subject: "Your order A-10025", type: "text/html",
            "<p>Thank you for your order!</p><p>Order number: A-10025</p><table>\(rows)"
                + "<tr><td>Order total</td><td>$600.00</td></tr></table>")
        let (folder, maildir) = try Self.maildir(["late": late, "big": big, "items": items])
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try Self.scanSummary(maildir, in: folder)
        #expect(summary["messagesRead"] as? Int == 4, "\(summary)")
        #expect(summary["ordersCreated"] as? Int == 3, "the example's, A-10024 and A-10025: \(summary)")
        let repaired = try #require(summary["repaired"] as? [[String: Any]])
        let text = repaired.map { String(describing: $0) }.joined(separator: "\n")
        #expect(text.contains("big") && text.contains("longer than the 2000000 extraction reads"), "\(text)")
        #expect(text.contains("items") && text.contains("more than 50 line items"), "\(text)")
        #expect(!text.contains("late"), "\(text)")

        let extract = try CommandRunner.run(["extract", maildir.appendingPathComponent("new/items").path])
        #expect(extract.status == 0)
        #expect(
            extract.standardError.contains("warning")
                && extract.standardError.contains("more than 50 line items"))
        #expect(!extract.standardOutput.contains("more than 50"), "the extraction JSON is unchanged")

        let check = try CommandRunner.run([
            "check", "--format", "json", maildir.appendingPathComponent("new/big").path,
            maildir.appendingPathComponent("new/items").path,
        ])
        let reports = try #require(
            (try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])?[
                "reports"]
                as? [[String: Any]])
        let codes = reports.map {
            ($0["findings"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
        }
        #expect(codes.count == 2 && codes.allSatisfy { $0.contains("MO701") }, "\(codes)")
    }

    /// The document stage's warnings for a message, one per line.
    static func documentWarnings(_ bytes: [UInt8]) throws -> String {
        let document = MailDocument(message: try Message(bytes: bytes))
        #expect(document.attachedOrders.isEmpty)
        return document.warnings.map { "\($0)" }.joined(separator: "\n")
    }

    /// An email carrying a `.order` attachment built from the given archive.
    static func orderAttachment(_ archive: [UInt8]) -> [UInt8] {
        let text =
            Self.header + """
                Content-Type: multipart/mixed; boundary="b"

                --b
                Content-Type: text/plain

                Your order is attached.
                --b
                Content-Type: application/vnd.apple.finance.order; name="bomb.order"
                Content-Disposition: attachment; filename="bomb.order"
                Content-Transfer-Encoding: base64

                \(Data(archive).base64EncodedString(options: .lineLength76Characters))
                --b--

                """
        return Array(text.utf8)
    }

    @Test(
        arguments: [
            (8 << 20, nil, "compression ratio too high"),
            (40 << 20, nil, "exceeds the limit"),
            (8 << 20, 1_000, "inflate failed"),
        ] as [(Int, Int?, String)])
    func zipBombsInAnOrderAttachmentAreRefusedAndTheRunGoesOn(size: Int, declared: Int?, reason: String)
        throws
    {
        let zeros = [UInt8](repeating: 0, count: size)
        let archive = DeflatedZip.archive(name: "order.json", data: zeros, declaredSize: declared)
        #expect(archive.count < size / 100)
        let (folder, maildir) = try Self.maildir(["bomb": Self.orderAttachment(archive)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.documentWarnings(Self.orderAttachment(archive))
        #expect(report.contains("unreadable") && report.contains(reason), "\(report)")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }

    @Test func aZipWithMoreThan1000EntriesIsRefusedAndTheRunGoesOn() throws {
        let members = (0..<1_001).map { ("e\($0).txt", [UInt8]("x".utf8)) }
        let (folder, maildir) = try Self.maildir(["many": Self.orderAttachment(StoredZip.archive(members))])
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try Self.documentWarnings(Self.orderAttachment(StoredZip.archive(members)))
        #expect(report.contains("1001 entries exceed the limit"), "\(report)")
        _ = try Self.scanGoesOn(maildir, in: folder, read: 2)
    }
}

/// A one-entry deflated zip whose central directory may lie about the uncompressed size.
enum DeflatedZip {
    static func archive(name: String, data: [UInt8], declaredSize: Int?) -> [UInt8] {
        var stream = z_stream()
        _ = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        var source = data
        var produced = 0
        source.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                _ = deflate(&stream, Z_FINISH)
                produced = out.count - Int(stream.avail_out)
            }
        }
        deflateEnd(&stream)
        let body = Array(output[..<produced])
        let crc = data.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        let size = UInt32(declaredSize ?? data.count)
        let nameBytes = Array(name.utf8)
        typealias Z = StoredZip
        var zip = Z.le32(0x0403_4B50) + Z.le16(20) + Z.le16(0) + Z.le16(8) + Z.le16(0) + Z.le16(0)
        zip +=
            Z.le32(crc) + Z.le32(UInt32(body.count)) + Z.le32(size) + Z.le16(UInt16(nameBytes.count))
            + Z.le16(0)
        zip += nameBytes + body
        let directoryOffset = zip.count
        var directory = Z.le32(0x0201_4B50) + Z.le16(20) + Z.le16(20) + Z.le16(0) + Z.le16(8) + Z.le16(0)
        directory += Z.le16(0) + Z.le32(crc) + Z.le32(UInt32(body.count)) + Z.le32(size)
        directory +=
            Z.le16(UInt16(nameBytes.count)) + Z.le16(0) + Z.le16(0) + Z.le16(0) + Z.le16(0) + Z.le32(0)
        directory += Z.le32(0) + nameBytes
        zip += directory
        zip += Z.le32(0x0605_4B50) + Z.le16(0) + Z.le16(0) + Z.le16(1) + Z.le16(1)
        zip += Z.le32(UInt32(directory.count)) + Z.le32(UInt32(directoryOffset)) + Z.le16(0)
        return zip
    }
}
