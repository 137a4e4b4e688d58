import Foundation
import MIME
import Testing

@testable import Extraction

@Suite struct PrefilterTests {
    static let prefilter = Prefilter(rules: Fixture.rules)
    static let corpus = Fixture.rulesDirectory.deletingLastPathComponent().appendingPathComponent("Corpus")

    static func message(_ text: String) throws -> Message {
        try Message(bytes: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8))
    }

    static func mail(from: String, subject: String, type: String = "text/plain", body: String) -> String {
        """
        From: \(from)
        To: Jordan Lee <jordan.lee@mail.example>
        Subject: \(subject)
        Date: Tue, 24 Nov 2026 17:20:00 +0100
        Message-ID: <\(UUID().uuidString)@mail.example>
        MIME-Version: 1.0
        Content-Type: \(type); charset=utf-8
        Content-Transfer-Encoding: 8bit

        \(body)
        """
    }

    @Test func everyCorpusOrderOrShippingMessagePasses() throws {
        let files =
            FileManager.default.enumerator(at: Self.corpus, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" } ?? []
        #expect(files.count > 100)
        var rejected: [String] = []
        var notOrdersLeftOut = 0
        for file in files {
            let message = try Message(bytes: Array(try Data(contentsOf: file)))
            guard !Self.prefilter.needsFullWork(message) else { continue }
            // A case that is not about orders, and says nothing more, may be left out: the
            // pipeline then records exactly what its expected file says.
            let expectedURL = file.deletingPathExtension().appendingPathExtension("expected.json")
            if let data = try? Data(contentsOf: expectedURL),
                let expected = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                expected["kind"] as? String == "notAnOrder",
                Set(expected.keys).isSubset(of: ["kind", "messageID"])
            {
                notOrdersLeftOut += 1
            } else {
                rejected.append(file.lastPathComponent)
            }
        }
        #expect(rejected.isEmpty, "rejected: \(rejected.sorted())")
        #expect(notOrdersLeftOut > 0)
    }

    @Test func weakOrderWordCountsOnlyBeforeANumber() throws {
        let numbered = try Self.message(
            Self.mail(from: "a@shop.example", subject: "Hi", body: "Order BZ-2026-560310: Trail Headlamp"))
        #expect(Self.prefilter.needsFullWork(numbered))
        let plain = try Self.message(
            Self.mail(
                from: "a@mail.example", subject: "Hi", body: "In order to meet, we order a pizza first."))
        #expect(!Self.prefilter.needsFullWork(plain))
    }

    @Test func ordinaryMailIsMostlyRejected() throws {
        let paragraph =
            "The garden looked wonderful this weekend and the river was high after the rain. "
            + "We walked up the mountain trail, had coffee in the old town and talked about the project."
        var html = "<html><body><table width=\"600\">"
        for index in 0..<400 {
            html +=
                "<tr><td style=\"padding:24px\"><img src=\"https://img.news.example/\(index).jpg\">"
                + "<h2>Story \(index)</h2><p>\(paragraph)</p>"
                + "<a href=\"https://click.news.example/\(index)\">Read more</a></td></tr>"
        }
        html += "</table><p>Unsubscribe from the newsletter</p></body></html>"
        let messages = [
            Self.mail(
                from: "Garden Weekly <news@gardenweekly.example>", subject: "Your weekly digest",
                type: "text/html", body: html),
            Self.mail(from: "Anna Beispiel <anna@mail.example>", subject: "Sunday?", body: paragraph),
            Self.mail(
                from: "Lena Muster <lena@mail.example>", subject: "Re: Wochenende",
                body: "Hallo Jonas, wir können am Samstag in den Garten gehen und danach Kaffee trinken."),
            Self.mail(
                from: "<notifications@code.example>", subject: "[repo/project] New comment on issue #12",
                body: "Someone commented on issue #12: looks good to me, merging after the tests."),
            Self.mail(
                from: "<calendar@mail.example>", subject: "Invitation: Team meeting",
                body: "You have been invited to Team meeting on Monday. Join: https://meet.example/42"),
            Self.mail(
                from: "Paula Sample <paula@mail.example>", subject: "Les photos",
                body: "Salut, voici les photos du week-end au jardin. À bientôt, Paula"),
        ]
        let rejected = try messages.filter { !Self.prefilter.needsFullWork(try Self.message($0)) }
        #expect(rejected.count == messages.count)
    }

    @Test func carrierSenderDomainPasses() throws {
        let message = try Self.message(
            Self.mail(from: "UPS <pkginfo@ups.com>", subject: "Hello", body: "Nothing else here."))
        #expect(Self.prefilter.decide(message).reason == "sender domain ups.com")
    }

    @Test func keywordSplitByHTMLTagsAndEntitiesPasses() throws {
        let html = "<p>Ihre <b>Bestellbest&auml;tigung</b></p><td>Order</td>\n<td>number</td>"
        let message = try Self.message(
            Self.mail(from: "shop@shop.example", subject: "Hallo", type: "text/html", body: html))
        #expect(Self.prefilter.needsFullWork(message))
    }

    @Test func carrierNameMatchesOnlyAsAWord() throws {
        let groups = try Self.message(
            Self.mail(
                from: "a@mail.example", subject: "Groups", body: "Our groups and setups meet on Monday."))
        #expect(!Self.prefilter.needsFullWork(groups))
        let ups = try Self.message(
            Self.mail(from: "a@mail.example", subject: "Parcel", body: "It comes with UPS tomorrow."))
        #expect(Self.prefilter.needsFullWork(ups))
    }

    @Test func walletOrderAttachmentPasses() throws {
        let text = """
            From: shop@shop.example
            Subject: Hello
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="b"

            --b
            Content-Type: text/plain

            See attached.
            --b
            Content-Type: application/octet-stream
            Content-Disposition: attachment; filename="receipt.order"
            Content-Transfer-Encoding: base64

            UEsDBA==
            --b--
            """
        #expect(Self.prefilter.decide(try Self.message(text)).reason == "attachment receipt.order")
    }

    @Test func schemaOrgMarkupPasses() throws {
        let html = "<div itemscope itemtype=\"http://schema.org/ParcelDelivery\">Hello</div>"
        let message = try Self.message(
            Self.mail(from: "shop@shop.example", subject: "Hello", type: "text/html", body: html))
        #expect(Self.prefilter.needsFullWork(message))
    }
}
