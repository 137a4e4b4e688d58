import Foundation
import MIME
import Testing

@testable import MailDocument

/// A reply's quoted earlier message is cut from its renditions and kept apart.
@Suite struct ReplyQuoteTests {
    /// A document from a raw message (CRLF line ends).
    static func document(_ lines: [String]) throws -> MailDocument {
        try MailDocument(message: Message(bytes: Array(lines.joined(separator: "\r\n").utf8)))
    }

    static let replyHeader = [
        "From: Jordan Lee <jordan.lee@example.com>",
        "To: Northwind Outfitters <orders@northwind-outfitters.example>",
        "Subject: Re: Your Northwind order #NW-448201 is confirmed",
        "Date: Sat, 21 Nov 2026 10:00:00 +0000",
        "Message-ID: <reply1@example.com>",
        "In-Reply-To: <confirm.NW448201@northwind-outfitters.example>",
        "References: <confirm.NW448201@northwind-outfitters.example>",
        "MIME-Version: 1.0",
    ]

    /// A text/plain reply (``replyHeader``) under `subject`, with `body` as its lines.
    static func plainReply(subject: String, _ body: [String]) throws -> MailDocument {
        var header = replyHeader
        header[2] = "Subject: \(subject)"
        return try document(header + ["Content-Type: text/plain; charset=utf-8", ""] + body)
    }

    @Test func aQuotesFirstLinesAreTheLinesOfItsWholeText() {
        let texts = [
            "", "one line", "a\nb\nc", "a\r\nb\nc\n\n\nd\ne\nf\ng", "\n\n\n\n\n\n\n",
            "On Tue, Shop <s@shop.example> wrote:\n> Order 1\n> Total\n>\n> Thanks\n> more\n",
            "café\r\n\r\n日本語\n" + String(repeating: "x", count: 900) + "\nend",
        ]
        for text in texts {
            for count in 1...6 {
                let whole = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count)
                let head = ReplyQuote.firstLines(of: text, count: count)
                    .split(separator: "\n", omittingEmptySubsequences: false).prefix(count)
                #expect(whole.map(String.init) == head.map(String.init), "\(text.debugDescription) \(count)")
            }
        }
    }

    /// An answer sent or exported without In-Reply-To and References is a reply by its
    /// subject's prefix: what it quotes is cut all the same.
    @Test func aReplyPrefixWithoutThreadingFieldsIsAReply() throws {
        for subject in ["Re: Your order NW-48221 has shipped!", "RE: Your order", "回复：您的订单已发货"] {
            let document = try Self.document([
                "From: Anna Becker <anna.becker@mail.example>", "To: orders@northwind-outfitters.example",
                "Subject: \(subject)", "Date: Sat, 21 Nov 2026 10:00:00 +0000", "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8", "", "Where is it? It has not arrived.", "",
                "On Mon, Nov 16, 2026 at 6:00 PM Northwind Outfitters <orders@northwind-outfitters.example> wrote:",
                "> Your order NW-48221 has shipped.", "> Tracking number: 1ZA7X9252601815900",
            ])
            #expect(document.isReply, "\(subject)")
            #expect(document.plainText?.text == "Where is it? It has not arrived.", "\(subject)")
        }
        // Without the prefix or the fields, a message is no reply.
        let plain = try Self.document([
            "From: Shop <orders@shop.example>", "Subject: Your order has shipped", "MIME-Version: 1.0", "",
            "Shipped!",
        ])
        #expect(!plain.isReply)
    }

    @Test func plainReplyLosesTheAttributionAndQuote() throws {
        let document = try Self.document(
            Self.replyHeader + [
                "Content-Type: text/plain; charset=utf-8", "",
                "Hi, can I still change the size of the jacket?", "", "Thanks, Jordan", "",
                "On Fri, Nov 20, 2026 at 9:00 PM Northwind Outfitters <orders@northwind-outfitters.example> wrote:",
                "> Thank you for your order!", ">", "> Order number: NW-448201",
                "> Track it: https://www.ups.com/track?tracknum=1Z8A4F290361537848",
            ])
        #expect(document.isReply)
        #expect(document.inReplyTo == ["<confirm.NW448201@northwind-outfitters.example>"])
        let plain = try #require(document.plainText)
        #expect(plain.text == "Hi, can I still change the size of the jacket?\n\nThanks, Jordan")
        #expect(plain.quotedText.hasPrefix("On Fri, Nov 20, 2026 at 9:00 PM"))
        #expect(plain.quotedText.contains("> Order number: NW-448201"))
        #expect(plain.spans.allSatisfy { $0.range.upperBound <= plain.text.utf8.count })
        #expect(document.links.isEmpty, "the quoted tracking link went with the quote")
    }

    @Test func attributionOverTwoLinesIsCutWhole() throws {
        let document = try Self.document(
            Self.replyHeader + [
                "Content-Type: text/plain; charset=utf-8", "", "Where is my parcel?", "",
                "On Fri, Nov 20, 2026 at 9:00 PM Northwind Outfitters <",
                "orders@northwind-outfitters.example> wrote:", "", "> Order number: NW-448201",
            ])
        #expect(document.plainText?.text == "Where is my parcel?")
        #expect(document.plainText?.quotedText.hasPrefix("On Fri,") == true)
    }

    @Test func attributionOverThreeLinesIsCutWhole() {
        let text =
            "Where is it?\nOn Sun, Nov 29, 2026 at 10:00 AM Lumen Shop Customer\nService Team <orders@lumen.example>\nwrote:\n> Order LS-1"
        #expect(ReplyQuote.quoteStart(in: text, isPlainText: true) == "Where is it?\n".utf8.count)
    }

    @Test func decorativeQuoteLinesInAThreadedShopEmailStay() throws {
        // The shop's next email of the thread: its own subject, no reply prefix.
        let document = try Self.plainReply(
            subject: "Your Northwind order NW-448201 has shipped",
            [
                "Your order has shipped!", "> Order number: NW-448201", "> Carrier: UPS",
                "Tracking number: 1Z8A4F290361537848", "Thank you for shopping with us.",
            ])
        #expect(document.plainText?.quotedText == "")
        #expect(document.plainText?.text.contains("Tracking number: 1Z8A4F290361537848") == true)
    }

    @Test func outlookReplyLosesTheHeaderBlockQuote() throws {
        let document = try Self.document(
            Self.replyHeader + [
                "Content-Type: text/plain; charset=utf-8", "",
                "Hi Jordan, your order NW-448201 shipped today with UPS.",
                "Tracking number: 1Z8A4F290361537848", "", "________________________________",
                "From: Jordan Lee <jordan.lee@example.com>", "Sent: Friday, November 20, 2026 9:00 PM",
                "To: Northwind Outfitters <orders@northwind-outfitters.example>",
                "Subject: Where is my order NW-448201?", "", "Has it shipped yet?",
            ])
        #expect(document.forwardedOriginal == nil)
        #expect(document.plainText?.text.contains("Tracking number: 1Z8A4F290361537848") == true)
        #expect(document.plainText?.text.contains("Has it shipped yet?") == false)
        #expect(document.plainText?.quotedText.contains("Sent: Friday") == true)
    }

    @Test func chinesePortugueseAndQQHeaderBlocksAreQuotes() throws {
        let blocks = [
            [
                "发件人: 青竹 <order@qingzhu.example>", "发送时间: 2026年11月20日 21:00", "收件人: 张三 <zhang@example.com>",
                "主题: 订单 QZ-20261120 已发货",
            ],
            [
                "De: Loja <pedidos@loja.example>", "Enviada em: sexta-feira, 20 de novembro de 2026 21:00",
                "Para: Ana <ana@example.com>", "Assunto: Pedido LJ-4471 enviado",
            ],
            [
                "------------------ 原始邮件 ------------------", "发件人: 青竹 <order@qingzhu.example>",
                "发送时间: 2026年11月20日(星期五) 晚上9:00", "收件人: 张三 <zhang@example.com>", "主题: 订单 QZ-20261120 已发货",
            ],
        ]
        for block in blocks {
            let document = try Self.document(
                Self.replyHeader + ["Content-Type: text/plain; charset=utf-8", "", "谢谢！", ""] + block + [
                    "", "订单号：QZ-20261120",
                ])
            #expect(document.forwardedOriginal == nil, "\(block[0])")
            #expect(document.plainText?.text.contains("QZ-20261120") == false, "\(block[0])")
        }
    }

    @Test func quoteFollowedByASignatureIsCutButNotByShopText() {
        let signed = "Thanks!\n\n> Order number: LS-770123\n> Total: $89.00\n\n-- \nJamie Rivera\n+1 555 0100"
        #expect(ReplyQuote.quoteStart(in: signed, isPlainText: true) == "Thanks!\n\n".utf8.count)
        let phone = "Thanks!\n\n> Order number: LS-770123\n> Total: $89.00\n\nSent from my phone"
        #expect(ReplyQuote.quoteStart(in: phone, isPlainText: true) == "Thanks!\n\n".utf8.count)
        let shop = "Shipped!\n> Order number: LS-770123\n> Carrier: UPS\nTracking number: 1ZA7X9252601815900"
        #expect(ReplyQuote.quoteStart(in: shop, isPlainText: true) == nil)
    }

    @Test func bareHeaderBlockReplyLosesItsQuote() throws {
        let html = """
            <div>Thanks!</div><div><hr><b>From: </b>Shop &lt;orders@shop.example&gt;<br>\
            <b>Date: </b>Sunday, 29 November 2026 at 10:00<br><b>To: </b>Jordan &lt;jordan.lee@example.com&gt;<br>\
            <b>Subject: </b>Your order NW-448201 is confirmed</div><p>Order number: NW-448201</p>
            """
        let document = try Self.document(
            Self.replyHeader + ["Content-Type: text/html; charset=utf-8", "", html])
        #expect(document.forwardedOriginal == nil)
        #expect(document.htmlText?.text.contains("NW-448201") == false)
    }

    @Test func markupInAQuotedHTMLMessageGoesWithIt() throws {
        let html = """
            <p>Thanks!</p><div class="gmail_quote">On Fri, Nov 20, 2026 at 9:00 PM Shop &lt;orders@shop.example&gt; wrote:\
            <blockquote><script type="application/ld+json">{"@context":"https://schema.org","@type":"Order",\
            "orderNumber":"NW-448201","merchant":{"@type":"Organization","name":"Shop"}}</script>\
            <p>Order number: NW-448201</p></blockquote></div>
            """
        let document = try Self.document(
            Self.replyHeader + ["Content-Type: text/html; charset=utf-8", "", html])
        #expect(document.htmlText?.text == "Thanks!")
        #expect(document.structuredData.isEmpty)
    }

    @Test func quotedLinesWithoutAttributionAreCut() throws {
        let document = try Self.document(
            Self.replyHeader + [
                "Content-Type: text/plain; charset=utf-8", "", "See below.", "> Order number: NW-448201",
                "> Total: $248.00",
            ])
        #expect(document.plainText?.text == "See below.")
        // In a shop's next email of the thread (no reply prefix), one line starting with ">" is
        // decoration, not a quote.
        let single = try Self.plainReply(
            subject: "Your Northwind order has shipped",
            ["Your parcel is on its way.", "> Track your parcel", "Order number: NW-448201"])
        #expect(single.plainText?.quotedText == "")
        #expect(single.plainText?.text.contains("Order number: NW-448201") == true)
    }

    /// An answer by hand ("Re:") written between the quote's lines: every quoted line goes,
    /// however short the quoted runs, so that the shop's order number and tracking number it
    /// repeats are not read as the customer's; the writer's own lines between them stay.
    @Test func anAnswerInterleavedWithTheQuoteKeepsOnlyTheWritersLines() throws {
        let body = [
            "Hi,", "", "> Your order NW-448201 has shipped with UPS, tracking 1Z999AA10123456784.", "",
            "It has not arrived yet. Can you check?", "", "> Estimated delivery: November 24", "", "Thanks,",
            "Jordan",
        ]
        let answer = try Self.plainReply(subject: "Re: Your Northwind order #NW-448201 is confirmed", body)
        let plain = try #require(answer.plainText)
        let writers = "Hi,\n\nIt has not arrived yet. Can you check?\n\nThanks,\nJordan"
        #expect(plain.text == writers)
        #expect(plain.quotedText.hasPrefix("> Your order NW-448201"))
        // Each kept line still says where it came from.
        let bytes = Array(plain.text.utf8)
        let spans = plain.spans.map { String(decoding: bytes[$0.range], as: UTF8.self) }
        #expect(spans.contains("It has not arrived yet. Can you check?"), "\(spans)")
        // The same lines with "AW:" (German clients) and "回复:" are answers too.
        for subject in ["AW: Ihre Bestellung NW-448201", "回复: 订单 NW-448201"] {
            #expect(try Self.plainReply(subject: subject, body).plainText?.text == writers, "\(subject)")
        }
        // A one-line quote at the very start is still read as the text's (as before): nothing
        // of the writer's own comes before it.
        #expect(
            ReplyQuote.quoteStart(
                in: "> Where is my order?\nIt shipped today: 1Z999AA10123456784", isPlainText: true,
                isAnswer: true)
                == nil)
        // HTML text is not read for `>` quoting.
        #expect(
            ReplyQuote.quoteStart(in: "Hi,\n> Your order NW-1\nThanks", isPlainText: false, isAnswer: true)
                == nil)
    }

    /// A shop's support answer written between the customer's quoted questions keeps the
    /// tracking number it gives, with its link; a line right below a quoted line that ends
    /// mid-sentence may be the rest of that line, wrapped by a client that lost its `>`, and
    /// goes with the quote.
    @Test func aSupportAnswerBetweenQuotedQuestionsKeepsItsAnswers() throws {
        let body = [
            "Hi Jordan,", "", "> Where is my order NW-448201?",
            "It left our warehouse yesterday with UPS: 1Z999AA10123456784.",
            "Track it at https://www.ups.com/track?tracknum=1Z999AA10123456784", "",
            "> Can I change the delivery address to my office in", "> Springfield and pick it up",
            "there instead of 42 Elm St 1Z8A4F290361537848", "", "No, sorry: it is on its way.", "",
            "-- ", "Northwind Outfitters support",
        ]
        let answer = try Self.plainReply(subject: "Re: Where is my order NW-448201?", body)
        let plain = try #require(answer.plainText)
        #expect(
            plain.text
                == "Hi Jordan,\n\nIt left our warehouse yesterday with UPS: 1Z999AA10123456784.\n"
                + "Track it at https://www.ups.com/track?tracknum=1Z999AA10123456784\n\nNo, sorry: it is on its way."
        )
        let link = try #require(answer.links.first { $0.origin == .plain })
        #expect(link.target == "https://www.ups.com/track?tracknum=1Z999AA10123456784")
        let utf8 = Array(plain.text.utf8)
        #expect(String(decoding: utf8[link.position...].prefix(8), as: UTF8.self) == "https://")
        #expect(!plain.text.contains("1Z8A4F290361537848"))
        // An attribution below ends the answer: what follows it is a deeper quote.
        let deeper = try Self.plainReply(
            subject: "Re: Where is my order NW-448201?",
            [
                "Hi,", "> Where is it?", "It ships today.", "",
                "On Mon, Nov 16, 2026 at 6:00 PM Northwind <orders@northwind.example> wrote:",
                "Order number: NW-448201",
            ])
        #expect(deeper.plainText?.text == "Hi,\n\nIt ships today.")
    }

    /// The same answer under the attribution a mail client writes above the quote: the
    /// writer's lines between the quoted questions stay; a quote with no `>` under an
    /// attribution, and a reply quoted whole below it, are still cut whole.
    @Test func anAnswerBetweenTheLinesOfAnAttributedQuoteKeepsItsAnswers() throws {
        let attribution = "On Sun, Nov 22, 2026 at 9:00 AM Jamie Rivera <jamie@mail.example> wrote:"
        let answer = try Self.plainReply(
            subject: "Re: Order AC-55120 questions",
            [
                "Hello Jamie,", "", attribution, "> Where is my parcel?", "",
                "Your parcel was shipped with UPS, tracking number 1Z999AA10123456784.", "",
                "> Can I change the address?", "", "Unfortunately it is already on its way.",
            ])
        #expect(
            answer.plainText?.text
                == "Hello Jamie,\n\nYour parcel was shipped with UPS, tracking number 1Z999AA10123456784."
                + "\n\nUnfortunately it is already on its way.")
        let unquoted = try Self.plainReply(
            subject: "Re: Your order NW-448201", ["Thanks!", "", attribution, "Order number: NW-448201"])
        #expect(unquoted.plainText?.text == "Thanks!")
        let whole = try Self.plainReply(
            subject: "Re: Your order NW-448201",
            ["Thanks!", "", attribution, "> Order number: NW-448201", "> Total: $248.00"])
        #expect(whole.plainText?.text == "Thanks!")
    }

    /// A reply that starts with the quote, with no attribution, and answers below or between
    /// its lines: the text is cut from the first quoted line, the answer with it.
    @Test func aQuoteThatStartsTheTextIsCut() {
        for text in [
            "> Order number: NW-448201\n> Total: $248.00\n\nCan I change the size?\n\nJordan\n+1 555 0100",
            "\n> Thank you for your order!\n> Order number: NW-448201\n\nThanks.\n\n> Tracking: 1Z8A4F290361537848\n\nIt has not come.",
        ] {
            #expect(
                ReplyQuote.quoteStart(in: text, isPlainText: true) == (text.hasPrefix("\n") ? 1 : 0),
                "\(text)")
            #expect(ReplyQuote.quoteStart(in: text, isPlainText: false) == nil, "\(text)")
        }
        // One quoted line is decoration; two after the writer's own words stay when the text
        // goes on after them.
        for text in [
            "> Your parcel is on its way\nOrder number: NW-448201\nTracking number: 1Z8A4F290361537848",
            "Shipped!\n> Order number: NW-448201\n> Carrier: UPS\nTracking number: 1Z8A4F290361537848",
        ] {
            #expect(ReplyQuote.quoteStart(in: text, isPlainText: true) == nil, "\(text)")
        }
    }

    @Test func gmailHTMLReplyLosesTheQuoteAndItsLinks() throws {
        let html = """
            <div dir="ltr">Hi, can I still change the size?</div><br>\
            <div class="gmail_quote"><div dir="ltr" class="gmail_attr">On Fri, Nov 20, 2026 at 9:00 PM \
            Northwind Outfitters &lt;<a href="mailto:orders@northwind-outfitters.example">orders@northwind-outfitters.example</a>&gt; wrote:<br></div>\
            <blockquote class="gmail_quote"><p>Order number: NW-448201</p>\
            <p><a href="https://www.ups.com/track?tracknum=1Z8A4F290361537848">Track</a>\
            <img src="https://northwind-outfitters.example/logo.png" alt="Northwind Outfitters"></p></blockquote></div>
            """
        let document = try Self.document(
            Self.replyHeader + ["Content-Type: text/html; charset=utf-8", "", html])
        let rendered = try #require(document.htmlText)
        #expect(rendered.text == "Hi, can I still change the size?")
        #expect(rendered.quotedText.contains("Order number: NW-448201"))
        #expect(!document.links.contains { $0.target.contains("ups.com") })
        #expect(document.images.isEmpty)
    }

    @Test func attributionsInEachLanguageAreFound() {
        let attributions = [
            "Am 20.11.2026 um 21:00 schrieb Nordlicht <bestellung@nordlicht.example>:",
            "Le ven. 20 nov. 2026 à 21:00, Maison Lumière <commande@maison.example> a écrit :",
            "Le ven. 20 nov. 2026 à 21:00, Maison Lumière <commande@maison.example> a écrit\u{202F}:",
            "El vie, 20 nov 2026 a las 21:00, Almendra <pedidos@almendra.example> escribió:",
            "Il giorno ven 20 nov 2026 alle ore 21:00 Bottega <ordini@bottega.example> ha scritto:",
            "Em sex., 20 de nov. de 2026 às 21:00, Loja <pedidos@loja.example> escreveu:",
            "Op vr 20 nov 2026 om 21:00 schreef Winkel <bestelling@winkel.example>:",
            "2026년 11월 20일 (금) 오후 9:00, 모아마켓 <order@moa.example>님이 작성:",
            "2026年11月20日(金) 21:00 さくら堂 <order@sakura.example>:",
            "青竹 <order@qingzhu.example> 于2026年11月20日周五 21:00写道：",
            "On 20/11/2026 21:00, Northwind wrote:",
            "Am 29.11.26 um 10:00 schrieb Lumen Shop:",
            "Op 29-11-2026 om 10:00 schreef Lumen Shop:",
            "2026/11/29 10:00、Lumen Shop <orders@lumen.example>のメール:",
            "Den 29 nov. 2026 kl. 10:00 skrev Lumen Shop <orders@lumen.example>:",
            // Gmail, whose forms in some languages end with the address.
            "Am Mo., 3. März 2026 um 10:12 Uhr schrieb Lumen Shop <orders@lumen.example>:",
            "Op ma 3 mrt 2026 om 10:12 schreef Lumen Shop <orders@lumen.example>:",
            "2026年3月3日(火) 10:12 Lumen Shop <orders@lumen.example>:",
            "пн, 3 мар. 2026 г. в 10:12, Lumen Shop <orders@lumen.example>:",
            "pon., 3 mar 2026 o 10:12 Lumen Shop <orders@lumen.example> napisał(a):",
            "Lumen Shop <orders@lumen.example>, 3 Mar 2026 Pzt, 10:12 tarihinde şunu yazdı:",
            "Στις Τρί 3 Μαρ 2026 στις 10:12 π.μ., ο/η Lumen Shop <orders@lumen.example> έγραψε:",
            "вт, 3 мар. 2026 г., 10:12 Lumen Shop <orders@lumen.example> написал(а):",
            // Attributions without an address, with a date.
            "On Tue, 3 Mar 2026, Lumen Shop wrote:",
            "On Tue, Mar 3, 2026 at 10:12 AM Lumen Shop wrote:",
            // Thunderbird in German, Japanese, Korean and Chinese, without an address.
            "Lumen Shop schrieb am 03.03.2026 um 10:12:",
            "2026/03/03 10:12 に Lumen Shop さんは書きました:",
            "26. 3. 3. 오전 10:12에 Lumen Shop 이(가) 쓴 글:",
            "在 2026/3/3 10:12, Lumen Shop 写道:",
            "Lumen Shop 於 2026/3/3 10:12 寫道:",
            // Apple Mail in Dutch and Polish, Yahoo in German.
            "Op 3 mrt 2026 om 10:12 heeft Lumen Shop <orders@lumen.example> het volgende geschreven:",
            "Wiadomość napisana przez Lumen Shop <orders@lumen.example> w dniu 03.03.2026, o godz. 10:12:",
            "Am Dienstag, 3. März 2026, 10:12:00 MEZ hat Lumen Shop <orders@lumen.example> Folgendes geschrieben:",
        ]
        for attribution in attributions {
            let text = "Thanks!\n\n\(attribution)\nOrder number: 12345678"
            #expect(
                ReplyQuote.quoteStart(in: text, isPlainText: false) == "Thanks!\n\n".utf8.count,
                "\(attribution)")
        }
        // Shop text that merely ends with a colon, or with "wrote:", is not an attribution.
        for line in [
            "Our founder wrote:", "Order summary:", "Here is what you ordered on 20 Nov:",
            "What our 4,812 happy customers wrote:", "Questions? Write to Lumen Shop <help@lumen.example>:",
            "On 24 November you ordered:", "2 items shipped to Kim Park <kim@mail.example>:",
            "Delivery window 10:00–12:00, then we wrote:", "Kim schrieb:", "Sam 님이 쓴 글:",
        ] {
            #expect(
                ReplyQuote.quoteStart(in: "Hello\n\(line)\nOrder number: 1", isPlainText: true) == nil,
                "\(line)")
        }
    }

    /// Many lines shaped like attributions, none of them holding (no date, nothing quoted
    /// after), or a long quoted run in the middle, are each looked at a bounded number of
    /// times: the search stays linear.
    @Test func manyLookalikeAttributionsAreReadInLinearTime() {
        let lookalikes = ["On our blog, Kim wrote:", "Nice.", "On Monday Kim <kim@mail.example>", "wrote:"]
        let text =
            "Thanks!\n"
            + Array(repeating: lookalikes.joined(separator: "\n"), count: 20_000)
            .joined(separator: "\n")
        let start = ContinuousClock.now
        #expect(ReplyQuote.quoteStart(in: text, isPlainText: true) == nil)
        // A long quoted run that does not reach the end (text with digits after it) is asked
        // about once, not once per line.
        let run =
            "Thanks!\n" + Array(repeating: "> quoted", count: 50_000).joined(separator: "\n")
            + "\nOrder 123\na\nb\nc\nd"
        #expect(ReplyQuote.quoteStart(in: run, isPlainText: true) == nil)
        #expect(ContinuousClock.now - start < .seconds(30))
    }

    /// Gmail wraps a long attribution in its text/plain: the wrapped lines are read as one,
    /// and the quoted writer's address is found in them.
    @Test func wrappedGmailAttributionsAreCutWhole() {
        for attribution in [
            "Am Di., 3. März 2026 um 10:12 Uhr schrieb Lumen Shop <\norders@lumen.example>:",
            "2026年3月3日(火) 10:12 Lumen Shop <\norders@lumen.example>:",
            "wt., 3 mar 2026 o 10:12 Lumen Shop <orders@lumen.example>\nnapisał(a):",
            "Lumen Shop <orders@lumen.example>, 3 Mar 2026 Sal, 10:12\ntarihinde şunu yazdı:",
        ] {
            for quote in ["> Order number: LS-1\n> Total: $1", "Order number: LS-1\nTotal: $1"] {
                let text = "Thanks!\n\n\(attribution)\n\n\(quote)"
                let start = ReplyQuote.quoteStart(in: text, isPlainText: true)
                #expect(start == "Thanks!\n\n".utf8.count, "\(attribution)")
                #expect(
                    ReplyQuote.writer(ofQuote: "\(attribution)\n\n\(quote)") == "orders@lumen.example",
                    "\(attribution)")
            }
        }
        // Shop text over two lines that ends with an address and a colon names no date.
        let shop =
            "Shipped!\nQuestions? Write to\nLumen Shop <help@lumen.example>:\nTracking: 1Z8A4F290361537848"
        #expect(ReplyQuote.quoteStart(in: shop, isPlainText: true) == nil)
    }

    /// An attribution without a date is evidence enough only when quoted lines follow it: a
    /// shop's email may hold a line of that shape (a review, a gift message), and the tracking
    /// number after it must stay.
    @Test func anUndatedAttributionNeedsAQuoteAfterIt() {
        for attribution in [
            "On Sunday, Lumen Shop wrote:", "On our blog, Kim wrote:", "Sam <sam@example.org> wrote:",
            "On your card, Sam <sam@example.org> wrote:", "On 3 March, Sam <sam@example.org> wrote:",
            "Am Sonntag schrieb Kim:",
        ] {
            let quoted = "Thanks!\n\n\(attribution)\n\n> Order number: 12345678\n> Total: $1"
            #expect(
                ReplyQuote.quoteStart(in: quoted, isPlainText: true) == "Thanks!\n\n".utf8.count,
                "\(attribution)")
            let shop = "Shipped!\n\(attribution)\n\"Happy birthday!\"\nTracking number: 1Z8A4F290361537848"
            #expect(ReplyQuote.quoteStart(in: shop, isPlainText: true) == nil, "\(attribution)")
            #expect(ReplyQuote.quoteStart(in: shop, isPlainText: false) == nil, "\(attribution)")
        }
    }

    /// A shop's own threaded email whose text holds a line that only looks like an
    /// attribution keeps what follows it: the tracking number is not cut away.
    @Test(arguments: [
        ["What other customers say:", "On our blog, Kim wrote:", "\"The linen is lovely.\""],
        ["Your gift message:", "Sam <sam@example.org> wrote:", "Happy birthday, Jordan!"],
        ["On your card, Sam wrote:", "Happy birthday, Jordan!"],
    ])
    func aThreadedShopEmailKeepsTheTextAfterALookalikeAttribution(_ lines: [String]) throws {
        var header = Self.replyHeader
        header[0] = "From: Northwind Outfitters <orders@northwind-outfitters.example>"
        header[1] = "To: Jordan Lee <jordan.lee@example.com>"
        let document = try Self.document(
            header + [
                "Content-Type: text/plain; charset=utf-8", "", "Hi Jordan,", "", "Your order has shipped.",
                "",
            ]
                + lines + ["", "Carrier: UPS", "Tracking number: 1Z8A4F290361537848"])
        #expect(document.plainText?.quotedText == "", "\(lines)")
        #expect(document.plainText?.text.contains("Tracking number: 1Z8A4F290361537848") == true, "\(lines)")
    }

    @Test func messagesThatAreNotRepliesKeepTheirText() throws {
        // No threading fields and no reply prefix (which alone makes a reply).
        var header = Self.replyHeader
        header.removeAll { $0.hasPrefix("In-Reply-To") || $0.hasPrefix("References") }
        header = header.map { $0.hasPrefix("Subject: Re: ") ? "Subject: Your order" : $0 }
        let document = try Self.document(
            header + [
                "Content-Type: text/plain; charset=utf-8", "", "Hello",
                "On Fri, Nov 20, 2026 at 9:00 PM Shop <orders@shop.example> wrote:",
                "> Order number: NW-448201",
                "> Total: $1",
            ])
        #expect(!document.isReply)
        #expect(document.plainText?.text.contains("> Order number: NW-448201") == true)
        #expect(document.plainText?.quotedText == "")
    }

    @Test func forwardsWithInReplyToAreStillForwards() throws {
        let document = try Self.plainReply(
            subject: "Fwd: Your Northwind order #NW-448201 is confirmed",
            [
                "FYI", "",
                "---------- Forwarded message ---------",
                "From: Northwind Outfitters <orders@northwind-outfitters.example>",
                "Date: Fri, Nov 20, 2026 at 9:00 PM", "Subject: Your Northwind order #NW-448201 is confirmed",
                "To: <jordan.lee@example.com>", "", "Order number: NW-448201",
            ])
        #expect(document.forwardedOriginal?.sender?.address == "orders@northwind-outfitters.example")
        #expect(document.plainText?.quotedText == "")
    }

    /// `Re: Fw: …` answers a forward: it is a reply, and the forward it quotes is cut with the
    /// quote, not read as the message's forwarded original.
    @Test func aReplyToAForwardIsAReply() throws {
        for subject in [
            "Re: Fw: Your Northwind order #NW-448201", "AW: WG: Ihre Bestellung NW-448201",
            "답장: 전달: 주문 NW-448201",
        ] {
            let document = try Self.plainReply(
                subject: subject,
                [
                    "Thanks, got it.", "",
                    "On Sat, Nov 21, 2026 at 9:00 AM Sam Lee <sam.lee@example.com> wrote:",
                    "> ---------- Forwarded message ---------",
                    "> From: Northwind Outfitters <orders@northwind-outfitters.example>",
                    "> Date: Fri, Nov 20, 2026 at 9:00 PM",
                    "> Subject: Your Northwind order #NW-448201 is confirmed", "> To: <sam.lee@example.com>",
                    ">",
                    "> Order number: NW-448201",
                ])
            #expect(document.forwardedOriginal == nil, "\(subject)")
            #expect(document.plainText?.text == "Thanks, got it.", "\(subject)")
            #expect(document.plainText?.quotedText.contains("Order number: NW-448201") == true, "\(subject)")
        }
    }

    /// `WG: AW: …` forwards a reply: it is a forward, and its original is read.
    @Test func aForwardOfAReplyIsAForward() throws {
        for subject in [
            "WG: AW: Ihre Bestellung NW-448201", "Fw: Re: Your Northwind order #NW-448201",
            "转发: 回复: 您的订单 NW-448201",
        ] {
            let document = try Self.plainReply(
                subject: subject,
                [
                    "FYI", "",
                    "---------- Forwarded message ---------",
                    "From: Northwind Outfitters <orders@northwind-outfitters.example>",
                    "Date: Fri, Nov 20, 2026 at 9:00 PM", "Subject: Re: Your Northwind order #NW-448201",
                    "To: <jordan.lee@example.com>", "", "Order number: NW-448201",
                ])
            #expect(
                document.forwardedOriginal?.sender?.address == "orders@northwind-outfitters.example",
                "\(subject)")
            #expect(document.plainText?.quotedText == "", "\(subject)")
        }
    }

    /// A threaded message without a subject prefix whose Outlook block turns out to forward:
    /// the block found when asking whether it forwards is the one read as its original, and
    /// the question is answered from what is handed on, not by looking again.
    @Test func aForwardWithoutPrefixIsReadFromTheBlockFoundFirst() throws {
        let block = [
            "Sam, this is the order.", "", "________________________________",
            "From: Northwind Outfitters <orders@northwind-outfitters.example>",
            "Sent: Friday, November 20, 2026 9:00 PM", "To: Jordan Lee <jordan.lee@example.com>",
            "Subject: Your Northwind order #NW-448201 is confirmed", "", "Order number: NW-448201",
        ]
        var header = Self.replyHeader
        header[1] = "To: Sam Park <sam@example.org>"
        header[2] = "Subject: Your Northwind order #NW-448201 is confirmed"
        let document = try Self.document(header + ["Content-Type: text/plain; charset=utf-8", ""] + block)
        let detected = try #require(ForwardDetector.detect(in: block.joined(separator: "\n")))
        #expect(document.forwardStyle == .outlook)
        #expect(document.forwardedOriginal?.sender?.address == "orders@northwind-outfitters.example")
        #expect(document.forwardedOriginal?.plainText?.text == detected.body)
        #expect(document.plainText?.quotedText == "")
        // The answer comes from the detection handed in: none, no forward; one from a writer
        // the message does not go back to, a forward.
        #expect(!document.forwardsWithoutPrefix(MailDocument.InlineForwards(plain: nil, html: nil)))
        #expect(document.forwardsWithoutPrefix(MailDocument.InlineForwards(plain: nil, html: detected)))
        var toTheWriter = detected
        toTheWriter.from = MailAddress(name: "Sam", address: "SAM@example.org")
        #expect(!document.forwardsWithoutPrefix(MailDocument.InlineForwards(plain: toTheWriter, html: nil)))
    }

    /// What introduces a quote whose writer has no address: its attribution, its header
    /// block's `From:` value; nothing for `>` lines or text that only looks like either.
    @Test func aQuotesIntroductionWithoutAnAddress() {
        #expect(
            ReplyQuote.introduction(ofQuote: "On Tue, 3 Mar 2026, Lumen Shop wrote:\n> Order LS-1")
                == "On Tue, 3 Mar 2026, Lumen Shop wrote:")
        #expect(
            ReplyQuote.introduction(ofQuote: "On Tue, 3 Mar 2026, Lumen\nShop wrote:\n\n> Order LS-1")
                == "On Tue, 3 Mar 2026, Lumen Shop wrote:")
        #expect(
            ReplyQuote.introduction(
                ofQuote: "Von: Lumen Shop\nGesendet: Dienstag, 3. März 2026 10:12\nAn: Jordan Lee\nBetreff: x"
            )
                == "Lumen Shop")
        #expect(
            ReplyQuote.introduction(
                ofQuote:
                    "-----Ursprüngliche Nachricht-----\nVon: Lumen Shop\nGesendet: Dienstag, 3. März 2026 10:12"
            )
                == "Lumen Shop")
        #expect(ReplyQuote.introduction(ofQuote: "> Order LS-1\n> Total: $1") == nil)
        #expect(ReplyQuote.introduction(ofQuote: "From: Lumen Shop\nOrder number: LS-1") == nil)
        #expect(ReplyQuote.introduction(ofQuote: "Order summary:\nOrder number: LS-1") == nil)
    }

    /// Outlook names a sender it knows without the address: its block counts with its
    /// `Sent:`, `To:` and `Subject:` lines, a name-only header of another shape does not.
    @Test func outlookBlockWithoutAnAddress() throws {
        let block =
            "Thanks!\n\nVon: Lumen Shop\nGesendet: Dienstag, 3. März 2026 10:12\nAn: Jordan Lee\nBetreff: Ihre Bestellung LS-1\n\nBestellnummer: LS-1"
        let found = try #require(ForwardDetector.detect(in: block))
        #expect(found.from == nil)
        #expect(found.fromName == "Lumen Shop")
        #expect(found.style == .outlook)
        #expect(found.markerOffset == "Thanks!\n\n".utf8.count)
        #expect(found.body == "Bestellnummer: LS-1")
        // A gift message's header, without "Sent:" or "To:", is the email's own text, and so
        // is a bare block without a time of day.
        for text in [
            "Shipped!\nFrom: Sam <sam@example.org>\nDate: 17 November 2026\nSubject: Happy birthday\n\nTracking: 1",
            "Shipped!\nFrom: Sam <sam@example.org>\nDate: 17 November 2026\nTo: Kim\nSubject: Happy birthday\n\nx",
            "Shipped!\nFrom: Sam <sam@example.org>\nDate: 17 November 2026 at 10:00\nSubject: Happy birthday\n\nx",
            "Shipped!\nFrom: Sam\nDate: 17 November 2026\nSubject: Happy birthday\n\nTracking: 1Z8A4F290361537848",
            "Shipped!\nFrom: Sam\nSent: Tuesday\nSubject: Happy birthday\n\nTracking: 1Z8A4F290361537848",
        ] {
            #expect(ForwardDetector.detect(in: text) == nil, "\(text)")
        }
    }

    @Test func namesAreMatchedAsWholeWords() {
        #expect(MailDocument.containsWords("on tue, 3 mar 2026, lumen shop wrote:", "lumen shop"))
        #expect(MailDocument.containsWords("lumen shop", "lumen shop"))
        #expect(!MailDocument.containsWords("on tue, 3 mar 2026, annabelle wrote:", "anna"))
        #expect(!MailDocument.containsWords("on tue, 3 mar 2026, joanna wrote:", "anna"))
        #expect(MailDocument.containsWords("joanna and anna wrote:", "anna"))
        #expect(!MailDocument.containsWords("anything", ""))
    }

    /// Outlook for Mac names a known sender without an address too, over a "Date:" line with
    /// a time of day: a reply loses the block as its quote.
    @Test func outlookForMacBlockWithoutAnAddressIsAQuote() throws {
        let document = try Self.plainReply(
            subject: "Re: Your Northwind order #NW-448201 is confirmed",
            [
                "Can I still change the size?", "", "From: Northwind Outfitters",
                "Date: Friday, 20 November 2026 at 21:00", "To: Jordan Lee",
                "Subject: Your Northwind order #NW-448201 is confirmed", "", "Order number: NW-448201",
            ])
        #expect(document.plainText?.text == "Can I still change the size?")
        #expect(document.plainText?.quotedText.hasPrefix("From: Northwind Outfitters") == true)
    }

    /// The byte path of the subject prefix test says what the character path says, or leaves
    /// it to it.
    @Test func bytesSubjectPrefixAgreesWithCharacters() {
        var decided = 0
        for subject in [
            "Re: x", "RE : x", "re:x", "Re[2]: x", "Re(3): x", "RE^2: x", "Re[a]: x", "[2]: x", "Fwd: Re: x",
            "FW:x", "  WG: x", "\tAW: x", "I: x", "Doorst: x", "Antwort: x", "Antworten: x", "Order: 1",
            "Re\u{301}: x", "Re:\u{301} x", "Order #12: x", "12345678: x", "123456789: x", "Re\r\n: x",
            "ＲＥ: x", "Re： x", "Rép.: x", "[EXT] Re: x", "*EXT* Re: x", "Re :", "Re", ":", " : x", "Res  : x",
            "RV:", "Re()", "Aw(: x", "Sv[]: x", "Vs^: x", "Ihre Bestellung: x", "Bestätigung: x",
            "ご注文の確認：x", "ご注文：x", "주문 확인: x", "Заказ: x", "Ваш заказ подтверждён: x", "Réf. : x",
            "Numéro de commande: x", "回复：您的订单", "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}: x",
        ] {
            guard let fast = ReplyQuote.bytesFirstPrefix(of: subject) else { continue }
            decided += 1
            #expect(fast == ReplyQuote.characterFirstPrefix(of: subject), "\(subject.debugDescription)")
        }
        #expect(decided >= 25)
    }

    @Test func subjectPrefixes() {
        for subject in [
            "Re: Your order", "RE: Your order", "AW: Ihre Bestellung", "Antw: x", "SV: x", "答复：您的订单",
            "Re: Re: x", "Re[2]: Your order", "[EXT] Re: Your order", "Antwort: Ihre Bestellung",
            "Réf. : Votre commande", "[Lumen] [EXT] RE: x", "회신: 주문하신 상품", "ＲＥ: x", "Resp: x", "Réponse: x",
            "Odp: x", "Re: Fwd: x", "Re: Fw: Your order", "RE: TR: Votre commande",
            "AW: WG: Ihre Bestellung 12345",
            "SV: VS: Din beställning", "R: I: Il tuo ordine", "Antw: Doorst: Uw bestelling",
            "RE: RV: Su pedido",
            "回复: 转发: 您的订单", "답장: 전달: 주문하신 상품", "회신: 전달: 주문", "返信: 転送: ご注文", "[EXT] Re: FW: x",
            "Απ: Η παραγγελία σας", "ΣΧΕΤ: x", "Ответ: Ваш заказ", "Отв: x", "*EXTERNAL* RE: Your order",
            "Rép. : Votre commande", "Rép: x", "   Re: spaces first", "\tAW: x",
        ] {
            #expect(ReplyQuote.hasReplyPrefix(subject), "\(subject)")
            #expect(!ReplyQuote.hasForwardPrefix(subject), "\(subject)")
        }
        for subject in [
            "Fwd: Your order", "FW: x", "WG: Ihre Bestellung", "TR: Votre commande",
            "WG: AW: Ihre Bestellung 12345",
            "Fw: Re: Your order", "TR: RE: Votre commande", "RV: RE: Su pedido", "I: R: Il tuo ordine",
            "Doorst: Antw: Uw bestelling", "转发: 回复: 您的订单", "전달: 답장: 주문하신 상품", "転送: Re: ご注文",
            "Fwd: Fwd: x", "[EXT] FW: RE: x", "ΠΡΘ: Η παραγγελία σας", "Пересл: Ваш заказ",
            "*EXTERNAL* FW: x",
        ] {
            #expect(ReplyQuote.hasForwardPrefix(subject), "\(subject)")
            #expect(!ReplyQuote.hasReplyPrefix(subject), "\(subject)")
        }
        for subject in [
            "Your order #1", "Order: 12345 shipped", "Regarding your order", "", "*Sale* ends: x",
            "Your Northwind order NW-48213 has shipped: track it",
        ] {
            #expect(!ReplyQuote.hasReplyPrefix(subject), "\(subject)")
            #expect(!ReplyQuote.hasForwardPrefix(subject), "\(subject)")
        }
    }

    /// The byte test before a subject's characters are read: no colon, or, when no tag comes
    /// first, none among the first 36 bytes after the spaces or among nine ASCII bytes there,
    /// and there is no prefix.
    @Test func subjectsWithoutPrefixAreToldFromTheirBytes() {
        let cases: [(String, Bool)] = [
            ("", false), ("Your order #1", false), ("Order: 12345 shipped", true), ("  Re: x", true),
            ("答复：您的订单", true), ("[EXT] Re: x", true), ("*EXTERNAL* RE: x", true),
            ("[Shop] Your order", false),
            ("Order #12345: shipped", false), ("\r\nRe: x", true), ("Réf: x", true), ("12345678:", true),
            ("123456789:", false), (" \t Re : x", true),
            (String(repeating: "x", count: 40) + ": late colon", false),
            ("\t" + String(repeating: "y", count: 35) + ":", false), ("ééééééééé: x", true),
        ]
        for (subject, expected) in cases {
            // When the bytes decide, they decide as the characters do.
            let decided = ReplyQuote.bytesFirstPrefix(of: subject)
            if let decided {
                #expect(decided == ReplyQuote.characterFirstPrefix(of: subject), "\(subject)")
            }
            if !expected {
                #expect(decided == .some(nil), "\(subject)")
                #expect(ReplyQuote.firstPrefix(of: subject) == nil, "\(subject)")
            }
        }
    }
}
