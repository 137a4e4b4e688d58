import Foundation
import MIME
import MailDocument
import Testing

@testable import Extraction

/// Replies: what a reply quotes, and the subject it answers, are not read as its own content.
@Suite struct ReplyExtractionTests {
    static func extract(_ lines: [String]) throws -> ExtractionResult {
        let message = try Message(bytes: Array(lines.joined(separator: "\r\n").utf8))
        return Fixture.extract(MailDocument(message: message))
    }

    static func header(from: String, subject: String, reply: Bool = true) -> [String] {
        [
            "From: \(from)", "To: Someone <someone@example.com>", "Subject: \(subject)",
            "Date: Wed, 25 Nov 2026 08:03:11 -0800", "Message-ID: <m1@example.com>",
        ] + (reply ? ["In-Reply-To: <JP-30917.confirm@juniperandpine.example>"] : []) + [
            "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "",
        ]
    }

    static let quotedConfirmation = [
        "On Tue, Nov 24, 2026 at 6:12 PM Juniper & Pine <orders@juniperandpine.example> wrote:",
        "> Thank you for your order!", ">", "> Order number: JP-30917", "> Order date: November 24, 2026",
        "> Total: $44.00",
    ]

    @Test func customerReplyQuotingAConfirmationIsNotAnOrder() throws {
        let result = try Self.extract(
            Self.header(
                from: "Jordan Lee <jordan.lee@example.com>",
                subject: "Re: Your Juniper & Pine order JP-30917 is confirmed")
                + ["Could you send the pillow in ochre instead?", "", "Jordan", ""] + Self.quotedConfirmation)
        #expect(result.kind == .notAnOrder)
        #expect(result.orderNumber == nil)
        #expect(result.merchant == nil)
    }

    @Test func customerOutlookReplyIsNotReadAsTheShopsEmail() throws {
        let result = try Self.extract(
            Self.header(
                from: "Jordan Lee <jordan.lee@example.com>",
                subject: "RE: Your Juniper & Pine order JP-30917 is confirmed")
                + [
                    "Could you send the pillow in ochre instead?", "", "________________________________",
                    "From: Juniper & Pine <orders@juniperandpine.example>",
                    "Sent: Tuesday, November 24, 2026 6:12 PM", "To: Jordan Lee <jordan.lee@example.com>",
                    "Subject: Your Juniper & Pine order JP-30917 is confirmed", "",
                    "Thank you for your order!",
                    "Order number: JP-30917", "Total: $44.00",
                ])
        #expect(result.kind == .notAnOrder)
        #expect(result.orderNumber == nil)
    }

    @Test func sameTextWithoutReplyFieldsIsStillRead() throws {
        // Without In-Reply-To the "quote" is the email's own text (and the subject is read).
        let result = try Self.extract(
            Self.header(
                from: "Juniper & Pine <orders@juniperandpine.example>",
                subject: "Your Juniper & Pine order JP-30917 is confirmed", reply: false)
                + ["Order number: JP-30917", "Total: $44.00"])
        #expect(result.kind == .orderConfirmation)
        #expect(result.orderNumber == "JP-30917")
    }

    /// A customer's answer to a forward ("Re: Fw: …", "AW: WG: …") is a reply: neither the
    /// forwarded confirmation it quotes nor its subject is read as an order from the customer.
    @Test(arguments: [
        "Re: Fw: Your Juniper & Pine order JP-30917 is confirmed",
        "AW: WG: Ihre Bestellung JP-30917 ist bestätigt",
        "RE: TR: Votre commande JP-30917 est confirmée",
    ])
    func customerReplyToAForwardIsNotAnOrder(_ subject: String) throws {
        let result = try Self.extract(
            Self.header(from: "Jordan Lee <jordan.lee@example.com>", subject: subject)
                + [
                    "Thanks, I'll keep an eye out for it.", "",
                    "On Wed, Nov 25, 2026 at 7:00 AM Sam Lee <sam.lee@example.com> wrote:",
                    "> ---------- Forwarded message ---------",
                    "> From: Juniper & Pine <orders@juniperandpine.example>",
                    "> Date: Tue, Nov 24, 2026 at 6:12 PM",
                    "> Subject: Your Juniper & Pine order JP-30917 is confirmed",
                    "> To: Sam Lee <sam.lee@example.com>", ">", "> Thank you for your order!", ">",
                    "> Order number: JP-30917", "> Total: $44.00",
                ])
        #expect(result.kind == .notAnOrder, "\(subject)")
        #expect(result.orderNumber == nil, "\(subject)")
        #expect(result.merchant == nil, "\(subject)")
    }

    /// A forward of a reply ("WG: AW: …") is a forward: the original it passes on is read.
    @Test(arguments: [
        "WG: AW: Your Juniper & Pine order JP-30917", "Fw: Re: Your Juniper & Pine order JP-30917",
    ])
    func forwardOfAReplyIsReadAsItsOriginal(_ subject: String) throws {
        let result = try Self.extract(
            Self.header(from: "Jordan Lee <jordan.lee@example.com>", subject: subject)
                + [
                    "FYI", "", "---------- Forwarded message ---------",
                    "From: Juniper & Pine <orders@juniperandpine.example>",
                    "Date: Tue, Nov 24, 2026 at 6:12 PM",
                    "Subject: Re: Your Juniper & Pine order JP-30917",
                    "To: Jordan Lee <jordan.lee@example.com>", "",
                    "Hi Jordan, your order has been cancelled as you asked.", "", "Order number: JP-30917",
                ])
        #expect(result.kind == .cancellation, "\(subject)")
        #expect(result.orderNumber == "JP-30917", "\(subject)")
        #expect(result.merchant?.name == "Juniper & Pine", "\(subject)")
    }

    @Test func shopAnswerKeepsWhatItSaysItself() throws {
        let result = try Self.extract(
            Self.header(
                from: "Juniper & Pine <orders@juniperandpine.example>",
                subject: "Re: Your Juniper & Pine order JP-30917 is confirmed")
                + [
                    "Hi Jordan, your order has been cancelled as you asked.", "", "Order number: JP-30917",
                    "Refund: $44.00 to your card.", "",
                ] + Self.quotedConfirmation)
        #expect(result.kind == .cancellation)
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
        #expect(result.orderDate == nil, "the order date was only in the quote")
    }
}
