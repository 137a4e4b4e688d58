import Foundation
import MIME
import Testing

@testable import MailDocument

/// A reply's quote marked only in its HTML, by the mail client that wrote it, is found where
/// it starts; markup that is not a client's quote marker is not taken for a quote.
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

    @Test func blockquotesWithoutAQuoteMarkerAreNotQuotes() {
        for (open, close) in [
            ("<blockquote>", "</blockquote>"), ("<blockquote class=\"testimonial\">", "</blockquote>"),
            ("<blockquote type=\"quote\">", "</blockquote>"),
            ("<blockquote class=\"x_gmail_quote\">", "</blockquote>"),
            ("<div class=\"gmail_quote_container\">", "</div>"), ("<span class=\"gmail_quote\">", "</span>"),
            ("<div id=\"mail-editor-reference-message-container\">", "</div>"),
            ("<div class=\"moz-cite-prefix\">", "</div>"),
            ("<div data-marker=\"__QUOTED_TEXT__\">", "</div>"),
        ] {
            let html =
                "<p>Shipped!</p>\(open)<p>Best jacket I ever had.</p>\(close)<p>Order number: NW-448201</p>"
            #expect(HTMLRenderer.render(html: html, partPath: "1").quoteStart == nil, "\(open)")
        }
    }

    @Test func aPreheaderInTheQuoteIsTheQuotedMessages() {
        let quoted = """
            <div>\(Self.answer)</div><blockquote type="cite"><div style="display:none">Your order \
            NW-448201 is confirmed</div>\(Self.confirmation)</blockquote>
            """
        #expect(HTMLRenderer.render(html: quoted, partPath: "1").quoteStart?.holdsPreheader == true)
        let own = """
            <div style="display:none">Question about my jacket</div><div>\(Self.answer)</div>\
            <blockquote type="cite">\(Self.confirmation)</blockquote>
            """
        #expect(HTMLRenderer.render(html: own, partPath: "1").quoteStart?.holdsPreheader == false)
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
}
