import Foundation
import Testing

/// A message dated after the run (a sender's wrong clock, a forged 2099) is read as undated,
/// with a warning: its date cannot pin the order's `updatedAt`, which never goes back.
@Suite(.serialized) struct FutureDateTests {
    @Test func aDateAfterTheRunDatesNoOrder() throws {
        let email = """
            From: Blue Kettle <orders@bluekettle.example>
            To: buyer@mail.example
            Subject: Your order BK-20991 is confirmed
            Date: Tue, 01 Dec 2099 09:00:00 +0000
            Message-ID: <future-1@bluekettle.example>
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8

            Thank you for your order!
            Order number: BK-20991
            Order date: Nov 19
            Estimated delivery: Nov 24 - Nov 26
            Your parcel ships tomorrow with UPS: 1ZA7X9252601815900

            """
        let (folder, maildir) = try ResourceLimitTests.maildir(["future": Array(email.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let summary = try ResourceLimitTests.scanSummary(maildir, in: folder)
        let repaired = (summary["repaired"] as? [[String: Any]] ?? []).map { String(describing: $0) }
        #expect(
            repaired.contains {
                $0.contains("Date field 2099-12-01T09:00:00Z is after the time of this run")
            },
            "\(repaired)")
        let bundles = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            $0.contains("BK-20991")
        }
        #expect(bundles.count == 1, "\(bundles)")
        let order = try String(
            contentsOf: out.appendingPathComponent(bundles[0]).appendingPathComponent("order.json"),
            encoding: .utf8)
        #expect(!order.contains("2099-"), "\(order)")
    }
    /// A forwarded order email dates its order by the original's Date, as written in the
    /// forward (a time without a zone is the forwarder's, from the Date field's zone).
    @Test func aForwardedOrderIsDatedByItsOriginal() throws {
        let email = """
            From: Sam <sam@mail.example>
            To: pat@mail.example
            Subject: Fwd: Your order BK-20992 is confirmed
            Date: Sun, 29 Nov 2026 20:00:00 -0800
            Message-ID: <fwd-1@mail.example>
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8

            FYI

            ---------- Forwarded message ---------
            From: Blue Kettle <orders@bluekettle.example>
            Date: Sun, Nov 29, 2026 at 6:12 PM
            Subject: Your order BK-20992 is confirmed
            To: Sam <sam@mail.example>

            Thank you for your order!
            Order number: BK-20992

            """
        let (folder, maildir) = try ResourceLimitTests.maildir(["forward": Array(email.utf8)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try CommandRunner.run(["scan", maildir.path, "--out", out.path, "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let bundle = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out.path).first { $0.contains("BK-20992") })
        let order = try String(
            contentsOf: out.appendingPathComponent(bundle).appendingPathComponent("order.json"),
            encoding: .utf8)
        #expect(order.contains("\"createdAt\" : \"2026-11-30T02:12:00Z\""), "\(order)")
    }
}
