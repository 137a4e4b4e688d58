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

    static func header(from: String, subject: String, reply: Bool = true, type: String = "text/plain")
        -> [String]
    {
        [
            "From: \(from)", "To: Someone <someone@example.com>", "Subject: \(subject)",
            "Date: Wed, 25 Nov 2026 08:03:11 -0800", "Message-ID: <m1@example.com>",
        ] + (reply ? ["In-Reply-To: <JP-30917.confirm@juniperandpine.example>"] : []) + [
            "MIME-Version: 1.0", "Content-Type: \(type); charset=utf-8", "",
        ]
    }

    /// The header of a message in the Juniper & Pine thread, from `from` to `recipient`.
    static func threadHeader(
        from: String = "Juniper & Pine <orders@juniperandpine.example>", to recipient: String,
        subject: String = "Your Juniper & Pine order JP-30917 has shipped"
    ) -> [String] {
        var lines = header(from: from, subject: subject)
        lines[1] = "To: \(recipient)"
        return lines
    }

    static let quotedConfirmation = [
        "On Tue, Nov 24, 2026 at 6:12 PM Juniper & Pine <orders@juniperandpine.example> wrote:",
        "> Thank you for your order!", ">", "> Order number: JP-30917", "> Order date: November 24, 2026",
        "> Total: $44.00",
    ]

    /// A customer's reply quoting the confirmation, under "Re:" or under the shop's subject
    /// unchanged (some clients keep it): the reply is known by the quote cut from it, and its
    /// subject, which names the order, is not read as the customer's.
    @Test(arguments: [
        "Re: Your Juniper & Pine order JP-30917 is confirmed",
        "Your Juniper & Pine order JP-30917 is confirmed",
    ])
    func customerReplyQuotingAConfirmationIsNotAnOrder(_ subject: String) throws {
        let result = try Self.extract(
            Self.header(from: "Jordan Lee <jordan.lee@example.com>", subject: subject)
                + ["Could you send the pillow in ochre instead?", "", "Jordan", ""] + Self.quotedConfirmation)
        #expect(result.kind == .notAnOrder, "\(subject)")
        #expect(result.orderNumber == nil, "\(subject)")
        #expect(result.merchant == nil, "\(subject)")
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

    /// Outlook keeps the In-Reply-To of a message it forwards; with its "FW:" deleted, the
    /// forward is told from a reply by where it goes: not back to the writer of the block.
    static func outlookBlock(
        to recipient: String, from sender: String = "Jordan Lee <jordan.lee@example.com>"
    )
        -> [String]
    {
        [
            "From: \(sender)", "To: \(recipient)", "Subject: Your Juniper & Pine order JP-30917 is confirmed",
            "Date: Wed, 25 Nov 2026 08:03:11 -0800", "Message-ID: <m1@example.com>",
            "In-Reply-To: <JP-30917.confirm@juniperandpine.example>", "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8", "",
            "Sam, here is the order for the pillow.", "", "________________________________",
            "From: Juniper & Pine <orders@juniperandpine.example>",
            "Sent: Tuesday, November 24, 2026 6:12 PM", "To: Jordan Lee <jordan.lee@example.com>",
            "Subject: Your Juniper & Pine order JP-30917 is confirmed", "", "Thank you for your order!",
            "Order number: JP-30917", "Total: $44.00",
        ]
    }

    @Test func outlookForwardWithoutPrefixIsReadAsItsOriginal() throws {
        let result = try Self.extract(Self.outlookBlock(to: "Sam Park <sam@example.org>"))
        #expect(result.kind == .orderConfirmation)
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
    }

    @Test(arguments: [
        "Juniper & Pine <orders@juniperandpine.example>", "Juniper & Pine Help <help@juniperandpine.example>",
        "Sam Park <sam@example.org>, ORDERS@juniperandpine.example",
    ])
    func outlookReplyWithoutPrefixToTheWriterIsStillAReply(_ recipient: String) throws {
        let result = try Self.extract(Self.outlookBlock(to: recipient))
        #expect(result.orderNumber == nil, "\(recipient)")
        #expect(result.merchant?.name != "Juniper & Pine", "\(recipient)")
    }

    @Test func aSendersBlockQuotingItsOwnEmailIsNotAForward() throws {
        // The shop's follow-up quoting its own confirmation: the block is the shop's, the
        // follow-up is read as itself, its quote cut.
        let lines = Self.outlookBlock(
            to: "Jordan Lee <jordan.lee@example.com>", from: "Juniper & Pine <orders@juniperandpine.example>")
        let document = MailDocument(message: try Message(bytes: Array(lines.joined(separator: "\r\n").utf8)))
        #expect(document.forwardedOriginal == nil)
        #expect(document.plainText?.text.contains("Total: $44.00") == false)
    }

    /// A customer's reply under the shop's subject unchanged, sent back to the shop: the subject
    /// is the shop's, not an order from the customer.
    @Test(arguments: [
        "Juniper & Pine <orders@juniperandpine.example>",
        "Sam <sam@example.org>, Juniper & Pine <ORDERS@juniperandpine.example>",
        "Juniper & Pine Help <help@juniperandpine.example>", "returns@mail.juniperandpine.example",
    ])
    func replyUnderTheUnchangedSubjectToTheQuotedWriterIsNotAnOrder(_ recipient: String) throws {
        let lines = Self.threadHeader(from: "Jordan Lee <jordan.lee@example.com>", to: recipient)
        let result = try Self.extract(
            lines + [
                "Hi, my order still has not arrived. Could you check the tracking for my order?", "",
                "Jordan",
                "",
            ] + Self.quotedConfirmation)
        #expect(result.orderNumber == nil, "\(recipient)")
        #expect(result.merchant == nil, "\(recipient)")
    }

    /// A shop's answer quoting its customer under the shop's own subject: the subject names
    /// the sender, so it is the shop's and is read.
    @Test func shopAnswerQuotingTheCustomerKeepsItsSubject() throws {
        let lines = Self.threadHeader(
            from: "Juniper & Pine Support <support@juniperandpine.example>",
            to: "Jordan Lee <jordan.lee@example.com>", subject: "Your Juniper & Pine order JP-30917")
        let body = [
            "Hi Jordan, we have sent the ochre pillow instead.", "",
            "On Tue, Nov 24, 2026 at 6:12 PM Jordan Lee <jordan.lee@example.com> wrote:",
            "> Could you send the pillow in ochre instead?",
        ]
        func document(_ lines: [String]) throws -> MailDocument {
            MailDocument(message: try Message(bytes: Array(lines.joined(separator: "\r\n").utf8)))
        }
        #expect(try document(lines + body).answersQuotedWriter == false)
        // The same answer from someone the subject does not name is a reply to the quoted writer.
        let other = Self.threadHeader(
            from: "Sam Park <sam@example.org>", to: "Jordan Lee <jordan.lee@example.com>",
            subject: "Your Juniper & Pine order JP-30917")
        #expect(try document(other + body).answersQuotedWriter == true)
        let sender = Sender(
            address: MailAddress(name: "Juniper & Pine Support", address: "support@juniperandpine.example"))
        #expect(MailDocument.subjectNames(sender, in: "Your Juniper & Pine order"))
        #expect(MailDocument.subjectNames(sender, in: "Ihre Bestellung bei JUNIPERANDPINE"))
        #expect(!MailDocument.subjectNames(sender, in: "Support request about your order"))
    }

    /// A shop's threaded email whose text only seems to quote (its own address in the
    /// "attribution") keeps its subject: the quoted writer is at the sender's own domain.
    @Test func shopEmailQuotingItsOwnDomainKeepsItsSubject() throws {
        let lines = Self.threadHeader(to: "Jordan Lee <jordan.lee@example.com>")
        let result = try Self.extract(
            lines + [
                "Good news: it is on its way.", "",
                "On Monday, Juniper & Pine Support <support@juniperandpine.example> wrote:",
                "> We are packing your order.",
            ])
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
    }

    @Test func theQuotedWritersAddressIsReadFromTheAttributionOrHeaderBlock() {
        #expect(
            ReplyQuote.writer(
                ofQuote: "On Tue, Nov 24, 2026 at 6:12 PM Shop <Orders@Shop.example> wrote:\n> hi")
                == "orders@shop.example")
        #expect(
            ReplyQuote.writer(ofQuote: "On Tue, Shop\n<orders@shop.example>\nwrote:\nhi")
                == "orders@shop.example")
        #expect(
            ReplyQuote.writer(ofQuote: "From: orders@shop.example\nSent: Monday\nTo: me@example.com")
                == "orders@shop.example")
        #expect(
            ReplyQuote.writer(
                ofQuote: "De : Boutique <commandes@boutique.example>\nEnvoyé : lundi\nÀ : moi@example.com")
                == "commandes@boutique.example")
        #expect(
            ReplyQuote.writer(ofQuote: "2026年11月24日(火) 18:12 Shop <orders@shop.example>:\n> ご注文ありがとうございます")
                == "orders@shop.example")
        // No writer: the block's From has no address, or the line only seems to introduce a quote.
        #expect(
            ReplyQuote.writer(ofQuote: "________________\nFrom: Shop\nSent: x\nTo: me@example.com\n") == nil)
        #expect(
            ReplyQuote.writer(ofQuote: "2 items shipped to Kim Park <kim@mail.example>:\n- Linen sheet")
                == nil)
        #expect(ReplyQuote.writer(ofQuote: "From: orders@shop.example\nOrder number: 12345") == nil)
        #expect(ReplyQuote.writer(ofQuote: "On Monday we packed your order.\n> thanks @team.") == nil)
        #expect(ReplyQuote.writer(ofQuote: "a\nb\nc\nd\ne <x@y.example> wrote:") == nil)
        #expect(ReplyQuote.writer(ofQuote: "Le colis a écrit :\n> user@localhost wrote") == nil)
    }

    /// A customer's answer written below (or between the lines of) the shop's email it quotes
    /// with `>`, without an attribution: not an order from the customer.
    @Test(arguments: [
        "Re: Your Juniper & Pine order JP-30917 has shipped",
        "Your Juniper & Pine order JP-30917 has shipped",
    ])
    func bottomPostedReplyWithoutAttributionIsNotAnOrder(_ subject: String) throws {
        let lines = Self.threadHeader(
            from: "Jordan Lee <jordan.lee@example.com>", to: "Juniper & Pine <orders@juniperandpine.example>",
            subject: subject)
        for body in [
            Self.shippedLines.map { $0.isEmpty ? ">" : "> \($0)" } + [
                "", "Could you leave it with my neighbour at 12 Alder Street?", "", "Jordan", "+1 555 0100",
            ],
            [
                "> Your Juniper & Pine order JP-30917 has shipped!", "> Order number: JP-30917", "",
                "Thanks!", "", "> Carrier: UPS", "> Tracking number: 1Z8A4F290361537848", "",
                "It says delivered, but nothing came.",
            ],
        ] {
            let result = try Self.extract(lines + body)
            #expect(result.kind == .notAnOrder, "\(subject)")
            #expect(result.orderNumber == nil, "\(subject)")
            #expect(result.merchant == nil, "\(subject)")
        }
    }

    /// A shop's threaded email with a gift message laid out as a header block without a time
    /// of day or a "To:" line, under the shop's subject or a "Re:": neither a forward from the
    /// gift's giver nor a quote, so the order and the tracking number after it stay.
    @Test(arguments: [
        "Your Juniper & Pine order JP-30917 has shipped", "Re: Your Juniper & Pine order JP-30917",
    ])
    func giftMessageBlockIsTheShopsOwnText(_ subject: String) throws {
        let lines = Self.threadHeader(to: "Kim Park <kim@mail.example>", subject: subject)
        let result = try Self.extract(
            lines + [
                "Hi Kim,", "", "A gift is on its way! Order JP-30917.", "", "From: Sam <sam@example.org>",
                "Date: 17 November 2026", "Subject: Happy birthday", "", "Carrier: UPS",
                "Tracking number: 1Z8A4F290361537848",
            ])
        #expect(result.orderNumber == "JP-30917", "\(subject)")
        #expect(result.merchant?.name == "Juniper & Pine", "\(subject)")
        #expect(result.shipments?.map(\.trackingNumber) == ["1Z8A4F290361537848"], "\(subject)")
    }

    /// A shop's threaded email with a gift message laid out as a header block, from someone
    /// at the customer's mail provider: not a reply to that writer, so the subject is read.
    @Test func giftMessageBlockFromTheCustomersProviderKeepsTheSubject() throws {
        let lines = Self.threadHeader(to: "Kim Park <kim@mail.example>")
        let result = try Self.extract(
            lines + [
                "Hi Kim,", "", "A gift is on its way!", "", "From: Sam <sam@mail.example>",
                "Date: 17 November 2026",
                "Subject: Happy birthday", "", "Carrier: UPS",
            ])
        #expect(result.orderNumber == "JP-30917")
    }

    /// A shop's threaded email whose line merely looks like an attribution (an address and a
    /// colon) keeps its subject.
    @Test func shopEmailWithALineThatLooksLikeAnAttributionKeepsItsSubject() throws {
        let lines = Self.threadHeader(to: "Jordan Lee <jordan.lee@example.com>")
        let result = try Self.extract(
            lines + [
                "Hi Jordan,", "", "2 items shipped to Jordan Lee <jordan.lee@example.com>:", "- Linen sheet",
                "- Pillow case", "", "Carrier: UPS",
            ])
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
    }

    /// The shipping confirmation the attributions below introduce, as quoted text.
    static let shippedLines = [
        "Your Juniper & Pine order JP-30917 has shipped!", "", "Order number: JP-30917", "Carrier: UPS",
        "Tracking number: 1Z8A4F290361537848",
    ]

    /// Gmail's attributions in German, Dutch, Japanese, Russian, Polish, Turkish and Greek.
    static let gmailAttributions = [
        "Am Di., 24. Nov. 2026 um 18:12 Uhr schrieb Juniper & Pine <orders@juniperandpine.example>:",
        "Op di 24 nov 2026 om 18:12 schreef Juniper & Pine <orders@juniperandpine.example>:",
        "2026年11月24日(火) 18:12 Juniper & Pine <orders@juniperandpine.example>:",
        "вт, 24 нояб. 2026 г. в 18:12, Juniper & Pine <orders@juniperandpine.example>:",
        "wt., 24 lis 2026 o 18:12 Juniper & Pine <orders@juniperandpine.example> napisał(a):",
        "Juniper & Pine <orders@juniperandpine.example>, 24 Kas 2026 Sal, 18:12 tarihinde şunu yazdı:",
        "Στις Τρί 24 Νοε 2026 στις 6:12 μ.μ., ο/η Juniper & Pine <orders@juniperandpine.example> έγραψε:",
    ]

    /// A customer's reply in Gmail, under "Re:" or under the shop's subject unchanged, quoting
    /// the shop's shipping confirmation with `>` or (as its HTML reads) without: neither the
    /// quote nor the subject is an order from the customer.
    @Test(arguments: gmailAttributions)
    func customerGmailReplyInEachLanguageIsNotAnOrder(_ attribution: String) throws {
        for subject in [
            "Re: Your Juniper & Pine order JP-30917 has shipped",
            "Your Juniper & Pine order JP-30917 has shipped",
        ] {
            for quoted in [Self.shippedLines.map { $0.isEmpty ? ">" : "> \($0)" }, Self.shippedLines] {
                var lines = Self.threadHeader(
                    from: "Jordan Lee <jordan.lee@example.com>",
                    to: "Juniper & Pine <orders@juniperandpine.example>",
                    subject: subject)
                lines +=
                    ["Could you leave it with my neighbour?", "", "Jordan", "", attribution, ""] + quoted
                let result = try Self.extract(lines)
                #expect(result.kind == .notAnOrder, "\(attribution) \(subject)")
                #expect(result.orderNumber == nil, "\(attribution) \(subject)")
                #expect(result.merchant == nil, "\(attribution) \(subject)")
                #expect(result.shipments?.isEmpty ?? true, "\(attribution) \(subject)")
            }
        }
    }

    /// A customer's reply under the shop's subject unchanged whose quote names its writer
    /// without an address (Apple Mail and Outlook for a contact, Thunderbird in German,
    /// Japanese, Korean and Chinese), or names no one (only `>` lines): it goes back to the
    /// shop the attribution or the subject names, so the subject is not the customer's order.
    @Test(arguments: [
        "On Tue, 24 Nov 2026, Juniper & Pine wrote:", "On Tue, Nov 24, 2026 at 6:12 PM Juniper & Pine wrote:",
        "Am 24.11.26 um 18:12 schrieb Juniper & Pine:", "Juniper & Pine schrieb am 24.11.2026 um 18:12:",
        "2026/11/24 18:12 に Juniper & Pine さんは書きました:", "26. 11. 24. 오후 6:12에 Juniper & Pine 이(가) 쓴 글:",
        "在 2026/11/24 18:12, Juniper & Pine 写道:", "",
    ])
    func replyWhoseQuoteNamesItsWriterWithoutAnAddressIsNotAnOrder(_ attribution: String) throws {
        let lines = Self.threadHeader(
            from: "Jordan Lee <jordan.lee@example.com>", to: "Juniper & Pine <orders@juniperandpine.example>")
        let quote =
            (attribution.isEmpty ? [] : [attribution])
            + Self.shippedLines.map { $0.isEmpty ? ">" : "> \($0)" }
        let result = try Self.extract(
            lines + ["Could you leave it with my neighbour?", "", "Jordan", ""] + quote)
        #expect(result.kind == .notAnOrder, "\(attribution)")
        #expect(result.orderNumber == nil, "\(attribution)")
        #expect(result.merchant == nil, "\(attribution)")
    }

    /// The shop's own threaded email whose last lines start with `>` (its text cut as if it
    /// quoted), or which answers its customer quoting them, keeps its subject when nothing
    /// says the quote is a recipient's: the subject names neither recipient nor its domain.
    @Test func shopsThreadedEmailEndingInQuotedLinesKeepsItsSubject() throws {
        let lines = Self.threadHeader(
            from: "Juniper & Pine <orders@juniperandpine.example>", to: "Jordan Lee <jordan.lee@example.com>",
            subject: "Your order JP-30917 has shipped")
        let result = try Self.extract(
            lines + ["Hi Jordan, good news: it is on its way.", "", "> Carrier: UPS", "> Arrives Friday"])
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
        // The customer's name in a quote's attribution, in the shop's answer to someone else.
        let other = Self.threadHeader(
            from: "Juniper & Pine <orders@juniperandpine.example>", to: "Sam Park <sam@example.org>",
            subject: "Your order JP-30917 has shipped")
        let answer = try Self.extract(
            other + [
                "Hi Sam, Jordan's gift is on its way.", "", "On Tue, 24 Nov 2026, Jordan Lee wrote:",
                "> Please send it to Sam.",
            ])
        #expect(answer.orderNumber == "JP-30917")
    }

    /// A shop's own threaded email (a "Re:" answer, or a shipping notice in the thread) with a
    /// line that only looks like an attribution keeps its order and tracking number.
    @Test(arguments: [
        ["What other customers say:", "On our blog, Kim wrote:", "\"The linen is lovely.\""],
        ["Your gift message:", "Sam Lee <sam.lee@example.com> wrote:", "Happy birthday, Jordan!"],
        ["On your card, Sam wrote:", "Happy birthday, Jordan!"],
        ["Kim schrieb:", "Alles Gute zum Geburtstag!"],
    ])
    func shopsThreadedEmailWithALookalikeAttributionKeepsItsTracking(_ lookalike: [String]) throws {
        for subject in [
            "Re: Your Juniper & Pine order JP-30917", "Your Juniper & Pine order JP-30917 has shipped",
        ] {
            let lines = Self.threadHeader(to: "Jordan Lee <jordan.lee@example.com>", subject: subject)
            let result = try Self.extract(
                lines + ["Hi Jordan,", "", "Your order JP-30917 has shipped.", ""] + lookalike
                    + ["", "Carrier: UPS", "Tracking number: 1Z8A4F290361537848"])
            #expect(result.orderNumber == "JP-30917", "\(lookalike) \(subject)")
            #expect(result.merchant?.name == "Juniper & Pine", "\(lookalike) \(subject)")
            #expect(
                result.shipments?.map(\.trackingNumber) == ["1Z8A4F290361537848"], "\(lookalike) \(subject)")
        }
    }

    /// Outlook's header block in each language, from `from`: its `From:`, `Sent:`, `To:` and
    /// `Subject:` lines.
    static func outlookHeaderBlock(_ language: String, from: String) -> [String] {
        let to = "Jordan Lee"
        let fields: [String: [String]] = [
            "en": [
                "From: \(from)", "Sent: Tuesday, November 24, 2026 6:12 PM", "To: \(to)",
                "Subject: Your Juniper & Pine order JP-30917 has shipped",
            ],
            "de": [
                "Von: \(from)", "Gesendet: Dienstag, 24. November 2026 18:12", "An: \(to)",
                "Betreff: Ihre Bestellung JP-30917 wurde versandt",
            ],
            "fr": [
                "De\u{A0}: \(from)", "Envoyé\u{A0}: mardi 24 novembre 2026 18:12", "À\u{A0}: \(to)",
                "Objet\u{A0}: Votre commande JP-30917 a été expédiée",
            ],
            "es": [
                "De: \(from)", "Enviado el: martes, 24 de noviembre de 2026 18:12", "Para: \(to)",
                "Asunto: Su pedido JP-30917 ha sido enviado",
            ],
            "it": [
                "Da: \(from)", "Inviato: martedì 24 novembre 2026 18:12", "A: \(to)",
                "Oggetto: Il tuo ordine JP-30917 è stato spedito",
            ],
            "pt": [
                "De: \(from)", "Enviado: terça-feira, 24 de novembro de 2026 18:12", "Para: \(to)",
                "Assunto: Seu pedido JP-30917 foi enviado",
            ],
            "nl": [
                "Van: \(from)", "Verzonden: dinsdag 24 november 2026 18:12", "Aan: \(to)",
                "Onderwerp: Uw bestelling JP-30917 is verzonden",
            ],
            "ja": ["差出人: \(from)", "送信日時: 2026年11月24日 18:12", "宛先: \(to)", "件名: ご注文 JP-30917 を発送しました"],
            "ko": [
                "보낸 사람: \(from)", "보낸 날짜: 2026년 11월 24일 화요일 오후 6:12", "받는 사람: \(to)",
                "제목: 주문 JP-30917 발송 완료",
            ],
            "zh": ["发件人: \(from)", "发送时间: 2026年11月24日 18:12", "收件人: \(to)", "主题: 您的订单 JP-30917 已发货"],
            "zh-Hant": [
                "寄件者: \(from)", "寄件日期: 2026年11月24日 下午 06:12", "收件者: \(to)",
                "主旨: 您的訂單 JP-30917 已出貨",
            ],
            "pl": [
                "Od: \(from)", "Wysłane: wtorek, 24 listopada 2026 18:12", "Do: \(to)",
                "Temat: Twoje zamówienie JP-30917 zostało wysłane",
            ],
            "ru": [
                "От: \(from)", "Отправлено: вторник, 24 ноября 2026 г. 18:12", "Кому: \(to)",
                "Тема: Ваш заказ JP-30917 отправлен",
            ],
            "tr": [
                "Kimden: \(from)", "Gönderildi: 24 Kasım 2026 Salı 18:12", "Kime: \(to)",
                "Konu: JP-30917 numaralı siparişiniz kargoya verildi",
            ],
            "el": [
                "Από: \(from)", "Στάλθηκε: Τρίτη, 24 Νοεμβρίου 2026 6:12 μ.μ.", "Προς: \(to)",
                "Θέμα: Η παραγγελία σας JP-30917 στάλθηκε",
            ],
        ]
        return ["________________________________"] + (fields[language] ?? []) + [""] + shippedLines
    }

    static let outlookLanguages = [
        "en", "de", "fr", "es", "it", "pt", "nl", "ja", "ko", "zh", "zh-Hant", "pl", "ru", "tr", "el",
    ]

    /// A customer's Outlook reply quoting the shop's email, its block naming the shop with or
    /// without an address, under "RE:" or under the shop's subject unchanged: not an order.
    @Test(arguments: outlookLanguages)
    func customersOutlookReplyInEachLanguageIsNotAnOrder(_ language: String) throws {
        for from in ["Juniper & Pine <orders@juniperandpine.example>", "Juniper & Pine"] {
            for subject in [
                "RE: Your Juniper & Pine order JP-30917 has shipped",
                "Your Juniper & Pine order JP-30917 has shipped",
            ] {
                let lines = Self.threadHeader(
                    from: "Jordan Lee <jordan.lee@example.com>",
                    to: "Juniper & Pine <orders@juniperandpine.example>",
                    subject: subject)
                let result = try Self.extract(
                    lines + ["Could you leave it with my neighbour?", "", "Jordan", ""]
                        + Self.outlookHeaderBlock(language, from: from))
                #expect(result.kind == .notAnOrder, "\(language) \(from) \(subject)")
                #expect(result.orderNumber == nil, "\(language) \(from) \(subject)")
                #expect(result.merchant == nil, "\(language) \(from) \(subject)")
            }
        }
    }

    /// Outlook's "-----Original Message-----" over a block that names the shop without an
    /// address, in a reply under the shop's subject unchanged (which does not name the shop):
    /// not an order.
    @Test func outlookOriginalMessageBlockWithoutAnAddressIsAQuote() throws {
        let lines = Self.threadHeader(
            from: "Jordan Lee <jordan.lee@example.com>", to: "Juniper & Pine <orders@juniperandpine.example>",
            subject: "Ihre Bestellung JP-30917 wurde versandt")
        let block = Self.outlookHeaderBlock("de", from: "Juniper & Pine").dropFirst()
        let result = try Self.extract(
            lines + ["Bitte beim Nachbarn abgeben.", "", "-----Ursprüngliche Nachricht-----"] + block)
        #expect(result.orderNumber == nil)
        #expect(result.merchant == nil)
    }

    /// The customer forwarding the shop's email from Outlook ("FW:", or with it deleted in
    /// the thread): the shop's order, under the shop's name, from the block's `From:`.
    @Test(arguments: outlookLanguages)
    func outlookForwardInEachLanguageIsTheShopsOrder(_ language: String) throws {
        for from in ["Juniper & Pine <orders@juniperandpine.example>", "Juniper & Pine"] {
            for (subject, threaded) in [
                ("FW: Your Juniper & Pine order JP-30917 has shipped", false),
                ("Your Juniper & Pine order JP-30917 has shipped", true),
            ] {
                var lines = Self.header(
                    from: "Jordan Lee <jordan.lee@example.com>", subject: subject, reply: threaded)
                lines[1] = "To: Sam Park <sam@example.org>"
                let result = try Self.extract(
                    lines + ["Sam, this is the parcel I told you about.", "", "Jordan", ""]
                        + Self.outlookHeaderBlock(language, from: from))
                #expect(result.kind == .shippingConfirmation, "\(language) \(from) \(subject)")
                #expect(result.orderNumber == "JP-30917", "\(language) \(from) \(subject)")
                #expect(result.merchant?.name == "Juniper & Pine", "\(language) \(from) \(subject)")
                #expect(
                    result.shipments?.map(\.trackingNumber) == ["1Z8A4F290361537848"],
                    "\(language) \(from) \(subject)")
            }
        }
    }

    /// A threaded shop email without a prefix quoting its customer's Outlook block (no address
    /// in it) to a recipient known by address only: the block may be that recipient's, so it
    /// is a quote, not a forward of the customer's message.
    @Test func outlookBlockWithoutAnAddressToAnUnnamedRecipientIsAQuote() throws {
        let lines = Self.threadHeader(
            to: "jordan.lee@example.com", subject: "Your order JP-30917 has shipped")
        let block = Self.outlookHeaderBlock("en", from: "Jordan Lee").prefix(5)
        let document = MailDocument(
            message: try Message(
                bytes: Array(
                    (lines + ["Hi Jordan, it is on its way.", "Tracking number: 1Z8A4F290361537848", ""]
                        + block
                        + ["", "Where is my order JP-30911?"]).joined(separator: "\r\n").utf8)))
        #expect(document.forwardedOriginal == nil)
        #expect(document.plainText?.text.contains("1Z8A4F290361537848") == true)
        #expect(document.plainText?.text.contains("JP-30911") == false)
    }

    /// The shop's answer above its customer's Outlook block (no address in it) keeps its own
    /// order and tracking number, and loses the customer's words.
    @Test(arguments: outlookLanguages)
    func shopsAnswerAboveAnOutlookBlockKeepsItsTracking(_ language: String) throws {
        let lines = Self.threadHeader(
            to: "Jordan Lee <jordan.lee@example.com>", subject: "RE: Where is my order JP-30917?")
        let block = Self.outlookHeaderBlock(language, from: "Jordan Lee").prefix(5)
        let result = try Self.extract(
            lines + [
                "Hi Jordan, your order JP-30917 shipped today.", "Carrier: UPS",
                "Tracking number: 1Z8A4F290361537848", "", "Juniper & Pine",
            ] + block + ["", "Where is my order JP-30911? Tracking 1Z12345E0205271688"])
        #expect(result.orderNumber == "JP-30917", "\(language)")
        #expect(result.merchant?.name == "Juniper & Pine", "\(language)")
        #expect(result.shipments?.map(\.trackingNumber) == ["1Z8A4F290361537848"], "\(language)")
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

    /// A customer forwarding their own reply ("Fw: Re: …"): the forwarded original is the
    /// customer's reply, whose quote of the confirmation is not the original's own content.
    @Test(arguments: [
        ("Fw: Re: Your Juniper & Pine order JP-30917 is confirmed", "---------- Forwarded message ---------"),
        ("WG: AW: Ihre Bestellung JP-30917 ist bestätigt", "-------- Weitergeleitete Nachricht --------"),
    ])
    func forwardedCustomerReplyIsNotAnOrderFromTheCustomer(_ subject: String, _ marker: String) throws {
        let result = try Self.extract(
            Self.header(from: "Jordan Lee <jordan.lee@example.com>", subject: subject, reply: false)
                + [
                    "See below.", "", marker,
                    "From: Jordan Lee <jordan.lee@example.com>", "Date: Wed, Nov 25, 2026 at 7:00 AM",
                    "Subject: Re: Your Juniper & Pine order JP-30917 is confirmed",
                    "To: Juniper & Pine <orders@juniperandpine.example>", "",
                    "Could you send the pillow in ochre instead?", "",
                ] + Self.quotedConfirmation)
        #expect(result.orderNumber == nil, "\(subject)")
        #expect(result.merchant?.name != "Jordan Lee", "\(subject)")
        #expect(result.kind == .notAnOrder, "\(subject)")
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

    /// The shop's confirmation as its HTML part reads, with its preview text and schema.org
    /// Order, quoted whole by the customer's mail client.
    static let confirmationHTML = """
        <div style="display:none;max-height:0;overflow:hidden">Your Juniper &amp; Pine order JP-30917 is \
        confirmed</div><table width="600"><tr><td><img src="https://juniperandpine.example/logo.png" \
        alt="Juniper &amp; Pine"></td></tr><tr><td><h2>Thank you for your order!</h2><table>\
        <tr><td>Order number</td><td><b>JP-30917</b></td></tr><tr><td>Order date</td>\
        <td>November 24, 2026</td></tr><tr><td><b>Total</b></td><td><b>$44.00</b></td></tr></table>\
        <p><a href="https://juniperandpine.example/account/orders/JP-30917">View your order</a></p>\
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Order",\
        "orderNumber":"JP-30917","merchant":{"@type":"Organization","name":"Juniper & Pine"}}</script>\
        </td></tr><tr><td>Juniper &amp; Pine · 18 Alder Street · Bend, OR 97701</td></tr></table>
        """

    /// HTML-only replies whose quote is marked only in the markup: their attribution lines
    /// (Gmail and Apple Mail in Polish) are not ones the text is cut at.
    static let markupOnlyReplies: [(client: String, html: String)] = [
        (
            "Gmail",
            """
            <div dir="ltr">Czy mogę zmienić kolor poduszki na ochrę? Dopłacę różnicę.<div><br></div>\
            <div>Jordan</div></div><br><div class="gmail_quote gmail_quote_container"><div dir="ltr" \
            class="gmail_attr">wt., 24 lis 2026 o 18:12 Juniper &amp; Pine &lt;<a \
            href="mailto:orders@juniperandpine.example">orders@juniperandpine.example</a>&gt; \
            napisał(a):<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;\
            border-left:1px solid rgb(204,204,204);padding-left:1ex">\(confirmationHTML)</blockquote></div>
            """
        ),
        (
            "Apple Mail",
            """
            <html><body style="overflow-wrap: break-word;"><div>Czy mogę zmienić kolor poduszki na \
            ochrę? Dopłacę różnicę.</div><div>Jordan</div><div><br><blockquote type="cite"><div>Wiadomość \
            napisana przez Juniper &amp; Pine &lt;orders@juniperandpine.example&gt; w dniu 24.11.2026, \
            o godz. 18:12:</div><br class="Apple-interchange-newline"><div>\(confirmationHTML)</div>\
            </blockquote></div></body></html>
            """
        ),
    ]

    @Test func customersHTMLOnlyReplyQuotingAConfirmationIsNotAnOrder() throws {
        // Under "Re:", and under the shop's subject unchanged, sent back to the shop.
        for subject in [
            "Re: Your Juniper & Pine order JP-30917 is confirmed", "Your order JP-30917 is confirmed",
        ] {
            for reply in Self.markupOnlyReplies {
                var lines = Self.header(
                    from: "Jordan Lee <jordan.lee@example.com>", subject: subject, type: "text/html")
                lines[1] = "To: Juniper & Pine <orders@juniperandpine.example>"
                let result = try Self.extract(lines + [reply.html])
                #expect(result.kind == .notAnOrder, "\(reply.client) \(subject)")
                #expect(result.orderNumber == nil, "\(reply.client) \(subject)")
                #expect(result.merchant == nil, "\(reply.client) \(subject)")
                #expect(result.total == nil, "\(reply.client) \(subject)")
            }
        }
    }

    @Test func theShopsOwnConfirmationStillGivesItsOrder() throws {
        // Sent on its own, and threaded (References) without a quote of its own.
        for reply in [false, true] {
            let result = try Self.extract(
                Self.header(
                    from: "Juniper & Pine <orders@juniperandpine.example>",
                    subject: "Your Juniper & Pine order JP-30917 is confirmed", reply: reply,
                    type: "text/html")
                    + ["<html><body>\(Self.confirmationHTML)</body></html>"])
            #expect(result.kind == .orderConfirmation, "reply: \(reply)")
            #expect(result.orderNumber == "JP-30917", "reply: \(reply)")
            #expect(result.merchant?.name == "Juniper & Pine", "reply: \(reply)")
        }
    }

    @Test func shopsHTMLAnswerAboveTheCustomersQuoteKeepsItsOrder() throws {
        let html = """
            <div>Hi Jordan, your order JP-30917 has been cancelled as you asked.</div>\
            <div>Refund: $44.00 to your card.</div><div>Juniper &amp; Pine</div>\
            <div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">\
            <div id="divRplyFwdMsg" dir="ltr"><b>Od:</b> Jordan Lee</div>\
            <div>Proszę anulować zamówienie JP-30917. Moje inne zamówienie to JP-30911.</div>
            """
        let result = try Self.extract(
            Self.header(
                from: "Juniper & Pine <orders@juniperandpine.example>",
                subject: "Re: Cancel my order", type: "text/html") + [html])
        #expect(result.kind == .cancellation)
        #expect(result.orderNumber == "JP-30917")
        #expect(result.merchant?.name == "Juniper & Pine")
    }
}
