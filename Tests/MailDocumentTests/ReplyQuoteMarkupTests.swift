import Foundation
import MIME
import Testing

@testable import MailDocument

/// A reply's quote marked only in its HTML, by the mail client that wrote it, is cut like one
/// found by its attribution line; markup that is not a client's quote marker is left alone.
@Suite struct ReplyQuoteMarkupTests {
    static let answer = "Hi, can I still change the size of the jacket?"

    /// The quoted order confirmation, as the shop sent it: a logo, a tracking link, the
    /// order number and its schema.org Order.
    static let confirmation = """
        <table><tr><td><a href="https://northwind-outfitters.example/"><img \
        src="https://northwind-outfitters.example/logo.png" alt="Northwind Outfitters"></a></td></tr>\
        <tr><td><h2>Thank you for your order!</h2><p>Order number: NW-448201</p>\
        <p><a href="https://www.ups.com/track?tracknum=1Z8A4F290361537848">Track your parcel</a></p>\
        <script type="application/ld+json">{"@context":"https://schema.org","@type":"Order",\
        "orderNumber":"NW-448201","merchant":{"@type":"Organization","name":"Northwind Outfitters"}}</script>\
        </td></tr></table>
        """

    /// Each client's reply: the answer, then the quote as the client marks it, without an
    /// attribution line the text could be cut at.
    static let replies: [(client: String, markup: String, html: String)] = [
        (
            "Apple Mail", "blockquote type=\"cite\"",
            "<div dir=\"ltr\">\(answer)</div><div dir=\"ltr\"><br><blockquote type=\"cite\">\(confirmation)</blockquote></div>"
        ),
        (
            "Thunderbird", "blockquote type=\"cite\"",
            "<p>\(answer)</p><blockquote type=\"cite\" cite=\"mid:confirm.NW448201@northwind-outfitters.example\">\(confirmation)</blockquote>"
        ),
        (
            "Gmail", "div class=\"gmail_quote\"",
            "<div dir=\"ltr\">\(answer)</div><br><div class=\"gmail_quote gmail_quote_container\"><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">\(confirmation)</blockquote></div>"
        ),
        (
            "Gmail blockquote alone", "blockquote class=\"gmail_quote\"",
            "<div dir=\"ltr\">\(answer)</div><blockquote class=\"gmail_quote\">\(confirmation)</blockquote>"
        ),
        (
            "Outlook on the web", "div id=\"appendonsend\"",
            "<div class=\"elementToProof\">\(answer)</div><div id=\"appendonsend\"></div><hr style=\"display:inline-block;width:98%\" tabindex=\"-1\"><div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri, sans-serif\"><b>Von:</b> Northwind Outfitters</font><div>&nbsp;</div></div><div>\(confirmation)</div>"
        ),
        (
            "Outlook without appendonsend", "div id=\"divRplyFwdMsg\"",
            "<div>\(answer)</div><hr style=\"display:inline-block;width:98%\" tabindex=\"-1\"><div id=\"divRplyFwdMsg\" dir=\"ltr\"><b>Von:</b> Northwind Outfitters</div><div>\(confirmation)</div>"
        ),
        (
            "Outlook.com", "hr id=\"stopSpelling\"",
            "<div>\(answer)<div><hr id=\"stopSpelling\">\(confirmation)</div></div>"
        ),
        (
            "Outlook for Mac", "span id=\"OLK_SRC_BODY_SECTION\"",
            "<div>\(answer)</div><span id=\"OLK_SRC_BODY_SECTION\"><div>\(confirmation)</div></span>"
        ),
        (
            "Yahoo Mail", "div class=\"yahoo_quoted\"",
            "<div class=\"ydp-yahoo-style-wrap\"><div>\(answer)</div></div><div class=\"yahoo_quoted\" id=\"yahoo_quoted_0033794750\"><div>\(confirmation)</div></div>"
        ),
        (
            "Proton Mail", "div class=\"protonmail_quote\"",
            "<div>\(answer)</div><div class=\"protonmail_quote\"><blockquote class=\"protonmail_quote\" type=\"cite\">\(confirmation)</blockquote></div>"
        ),
        (
            "Tutanota", "blockquote class=\"tutanota_quote\"",
            "\(answer)<br><br><blockquote class=\"tutanota_quote\">\(confirmation)</blockquote>"
        ),
        (
            "Zimbra", "hr data-marker=\"__DIVIDER__\"",
            "<div>\(answer)</div><hr id=\"zwchr\" data-marker=\"__DIVIDER__\"><div data-marker=\"__HEADERS__\"><b>Von: </b>Northwind Outfitters</div><br><div data-marker=\"__QUOTED_TEXT__\">\(confirmation)</div>"
        ),
    ]

    static func htmlDocument(_ html: String, header: [String] = ReplyQuoteTests.replyHeader) throws
        -> MailDocument
    {
        try ReplyQuoteTests.document(header + ["Content-Type: text/html; charset=utf-8", "", html])
    }

    /// The reply's header without the threading fields and without the reply prefix: a
    /// message that is no reply (a "Re:" subject alone makes one).
    static var notReplyHeader: [String] {
        ReplyQuoteTests.replyHeader.filter { !$0.hasPrefix("In-Reply-To") && !$0.hasPrefix("References") }
            .map { $0.hasPrefix("Subject: Re: ") ? "Subject: " + $0.dropFirst("Subject: Re: ".count) : $0 }
    }

    @Test func eachClientsMarkupIsFoundWhereTheQuoteStarts() {
        for reply in Self.replies {
            let rendered = HTMLRenderer.render(html: reply.html, partPath: "1")
            let quote = rendered.quoteStart
            #expect(quote?.markup == reply.markup, "\(reply.client)")
            #expect(quote?.offset == Self.answer.utf8.count, "\(reply.client)")
            // Recording the quote changes nothing in the rendering.
            #expect(rendered.text.text.hasPrefix(Self.answer + "\n"), "\(reply.client)")
            #expect(rendered.text.text.contains("Order number: NW-448201"), "\(reply.client)")
        }
    }

    @Test func eachClientsReplyLosesItsQuoteWithItsLinksImagesAndMarkup() throws {
        for reply in Self.replies {
            let document = try Self.htmlDocument(reply.html)
            let rendered = try #require(document.htmlText, "\(reply.client)")
            #expect(rendered.text == Self.answer, "\(reply.client)")
            #expect(rendered.quotedText.contains("Order number: NW-448201"), "\(reply.client)")
            #expect(!rendered.quotedText.hasPrefix("\n"), "\(reply.client)")
            #expect(rendered.spans.allSatisfy { $0.range.upperBound <= rendered.text.utf8.count })
            #expect(document.links.isEmpty, "\(reply.client)")
            #expect(document.images.isEmpty, "\(reply.client)")
            #expect(document.structuredData.isEmpty, "\(reply.client)")
        }
    }

    @Test func aMessageThatIsNotAReplyKeepsEverything() throws {
        for reply in Self.replies {
            let document = try Self.htmlDocument(reply.html, header: Self.notReplyHeader)
            #expect(!document.isReply)
            let rendered = try #require(document.htmlText)
            #expect(rendered.text.contains("Order number: NW-448201"), "\(reply.client)")
            #expect(rendered.quotedText == "", "\(reply.client)")
            #expect(document.links.contains { $0.target.contains("ups.com") }, "\(reply.client)")
            #expect(!document.structuredData.isEmpty, "\(reply.client)")
        }
    }

    @Test func aForwardIsReadForItsOriginal() throws {
        var header = ReplyQuoteTests.replyHeader
        header[2] = "Subject: Fwd: Your Northwind order #NW-448201 is confirmed"
        let html = """
            <div>FYI</div><div><br><blockquote type="cite"><div><b>From: </b>Northwind Outfitters \
            &lt;orders@northwind-outfitters.example&gt;<br><b>Subject: </b>Your Northwind order #NW-448201 \
            is confirmed<br><b>Date: </b>20 November 2026 at 21:00:00 GMT<br><b>To: </b>Jordan Lee \
            &lt;jordan.lee@example.com&gt;<br></div><br>\(Self.confirmation)</blockquote></div>
            """
        let document = try Self.htmlDocument(html, header: header)
        #expect(document.htmlText?.quotedText == "")
        #expect(document.htmlText?.text.contains("Order number: NW-448201") == true)
        #expect(document.links.contains { $0.target.contains("ups.com") })
    }

    @Test func blockquotesWithoutAQuoteMarkerStay() throws {
        // Shops use blockquotes for layout, testimonials and highlighted notes.
        for (open, close) in [
            ("<blockquote>", "</blockquote>"), ("<blockquote class=\"testimonial\">", "</blockquote>"),
            ("<blockquote type=\"quote\">", "</blockquote>"),
            ("<blockquote cite=\"https://northwind-outfitters.example/reviews\">", "</blockquote>"),
            ("<blockquote class=\"x_gmail_quote\">", "</blockquote>"), ("<div class=\"quote\">", "</div>"),
            ("<div class=\"gmail_quote_container\">", "</div>"), ("<span class=\"gmail_quote\">", "</span>"),
            ("<div id=\"mail-editor-reference-message-container\">", "</div>"),
            ("<div class=\"moz-cite-prefix\">", "</div>"),
            ("<div data-marker=\"__QUOTED_TEXT__\">", "</div>"),
        ] {
            let html = """
                <p>Hi Jordan, your order has shipped with UPS.</p>\(open)<p>“Best jacket I ever had.” \
                – Sam</p>\(close)<p>Order number: NW-448201</p><p>Tracking number: 1Z8A4F290361537848</p>
                """
            #expect(HTMLRenderer.render(html: html, partPath: "1").quoteStart == nil, "\(open)")
            let document = try Self.htmlDocument(html)
            #expect(document.htmlText?.quotedText == "", "\(open)")
            #expect(document.htmlText?.text.contains("Tracking number: 1Z8A4F290361537848") == true)
        }
    }

    @Test func attributeValuesAreReadLikeBrowsersDo() {
        for (html, markup) in [
            ("<p>Yes</p><BLOCKQUOTE TYPE=\"CITE\"><p>Order</p></BLOCKQUOTE>", "blockquote type=\"cite\""),
            ("<p>Yes</p><blockquote type=' cite '><p>Order</p></blockquote>", "blockquote type=\"cite\""),
            ("<p>Yes</p><div id=\"DIVRPLYFWDMSG\"><p>Order</p></div>", "div id=\"divRplyFwdMsg\""),
            (
                "<p>Yes</p><div class=\"  extra\tgmail_quote \"><p>Order</p></div>",
                "div class=\"gmail_quote\""
            ),
        ] {
            #expect(HTMLRenderer.render(html: html, partPath: "1").quoteStart?.markup == markup, "\(html)")
        }
        #expect(
            HTMLRenderer.render(html: "<p>Yes</p><div class=\"GMAIL_QUOTE\">x</div>", partPath: "1")
                .quoteStart == nil)
        #expect(
            HTMLRenderer.render(html: "<p>Yes</p><blockquote type=\"cited\">x</blockquote>", partPath: "1")
                .quoteStart == nil)
    }

    @Test func onlyTheFirstVisibleQuoteCounts() {
        let html = """
            <p>Thanks!</p><div style="display:none"><blockquote type="cite">hidden</blockquote></div>\
            <p>More of my answer.</p><div class="gmail_quote">first</div><blockquote type="cite">second</blockquote>
            """
        let quote = HTMLRenderer.render(html: html, partPath: "1").quoteStart
        #expect(quote?.markup == "div class=\"gmail_quote\"")
        #expect(quote?.offset == "Thanks!\nMore of my answer.".utf8.count)
    }

    @Test func aShopsAnswerAboveTheQuoteIsKept() throws {
        var header = ReplyQuoteTests.replyHeader
        header[0] = "From: Northwind Outfitters <orders@northwind-outfitters.example>"
        header[1] = "To: Jordan Lee <jordan.lee@example.com>"
        header[2] = "Subject: Re: Can I change the size?"
        let html = """
            <div>Hi Jordan, we changed the jacket to size M.</div><div>Order number: NW-448201</div>\
            <div><a href="https://www.ups.com/track?tracknum=1Z8A4F290361537848">Track your parcel</a></div>\
            <div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> Jordan Lee</div>\
            <div>Can I still change the size of the jacket? My order is NW-448199.</div>
            """
        let document = try Self.htmlDocument(html, header: header)
        let rendered = try #require(document.htmlText)
        #expect(
            rendered.text
                == "Hi Jordan, we changed the jacket to size M.\nOrder number: NW-448201\nTrack your parcel")
        #expect(rendered.quotedText.contains("NW-448199"))
        #expect(document.links.map(\.text) == ["Track your parcel"])
    }

    @Test func aQuoteWithNothingBeforeItIsNotCutFromTheMarkup() throws {
        // An answer interleaved with the quote (Apple Mail, Outlook) starts inside it.
        let html = """
            <div id="mail-editor-reference-message-container"><div class="gmail_quote">\
            <p>&gt; Which size do you need?</p><p>Size M, please. Order NW-448201.</p></div></div>
            """
        #expect(HTMLRenderer.render(html: html, partPath: "1").quoteStart?.offset == 0)
        let document = try Self.htmlDocument(html)
        #expect(document.htmlText?.quotedText == "")
        #expect(document.htmlText?.text.contains("Size M, please.") == true)
    }

    @Test func thunderbirdsAttributionAboveTheBlockquoteGoesWithIt() throws {
        for attribution in [
            "Northwind Outfitters wrote:", "Northwind Outfitters schrieb:",
            "20/11/2026 21:00 by orders@northwind-outfitters.example:",
        ] {
            let html = """
                <p>\(Self.answer)</p><div class="moz-cite-prefix">\(attribution)<br></div>\
                <blockquote type="cite">\(Self.confirmation)</blockquote>
                """
            let rendered = try #require(try Self.htmlDocument(html).htmlText)
            #expect(rendered.text == Self.answer, "\(attribution)")
            #expect(rendered.quotedText.hasPrefix(attribution), "\(attribution)")
        }
        // A line of the answer that merely ends with a colon stays.
        let html =
            "<p>\(Self.answer)</p><p>My sizes:</p><blockquote type=\"cite\">\(Self.confirmation)</blockquote>"
        #expect(try Self.htmlDocument(html).htmlText?.text == Self.answer + "\nMy sizes:")
    }

    @Test func attributionLinesRightAboveAQuote() {
        let text = "Thanks!\nNorthwind Outfitters wrote:\nOrder number: NW-448201"
        let end = "Thanks!\nNorthwind Outfitters wrote:".utf8.count
        #expect(ReplyQuote.attributionLineStart(endingAt: end, in: text) == "Thanks!\n".utf8.count)
        #expect(ReplyQuote.attributionLineStart(endingAt: end, in: "Northwind Outfitters wrote:") == 0)
        for line in ["My sizes:", "Thanks!", "Write to help@northwind-outfitters.example", "a:"] {
            #expect(ReplyQuote.attributionLineStart(endingAt: line.utf8.count, in: line) == nil, "\(line)")
        }
        // Not a line's end of more than 400 bytes.
        let long = String(repeating: "word ", count: 100) + "orders@northwind-outfitters.example:"
        #expect(ReplyQuote.attributionLineStart(endingAt: long.utf8.count, in: long) == nil)
    }

    @Test func theQuotedMessagesHiddenContentGoesWithIt() throws {
        let html = """
            <div>\(Self.answer)</div><blockquote type="cite"><div style="display:none">Your order \
            NW-448201 is confirmed</div><div style="display:none"><a \
            href="https://www.ups.com/track?tracknum=1Z8A4F290361537848">track</a></div>\(Self.confirmation)</blockquote>
            """
        let rendered = HTMLRenderer.render(html: html, partPath: "1")
        #expect(rendered.preheader == "Your order NW-448201 is confirmed")
        #expect(rendered.quoteStart?.holdsPreheader == true)
        let document = try Self.htmlDocument(html)
        #expect(document.preheader == nil)
        #expect(document.links.isEmpty)
        // The reply's own preview text stays.
        let own = """
            <div style="display:none">Question about my jacket</div><div>\(Self.answer)</div>\
            <blockquote type="cite">\(Self.confirmation)</blockquote>
            """
        #expect(HTMLRenderer.render(html: own, partPath: "1").quoteStart?.holdsPreheader == false)
        #expect(try Self.htmlDocument(own).preheader == "Question about my jacket")
    }

    @Test func anAttributionFoundInTheTextStillCutsFirst() throws {
        // Gmail's attribution is in the quote container; Apple Mail's may stand above it.
        let html = """
            <div>\(Self.answer)</div><div>On 20 Nov 2026, at 21:00, Northwind Outfitters \
            &lt;orders@northwind-outfitters.example&gt; wrote:</div><div>See our sale!</div>\
            <blockquote type="cite">\(Self.confirmation)</blockquote>
            """
        let rendered = try #require(try Self.htmlDocument(html).htmlText)
        #expect(rendered.text == Self.answer)
        #expect(rendered.quotedText.hasPrefix("On 20 Nov 2026"))
    }
}
