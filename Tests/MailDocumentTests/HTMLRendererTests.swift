import MIME
import Testing

@testable import MailDocument

private func render(_ html: String) -> RenderedHTML {
    HTMLRenderer.render(html: html, partPath: "1.2")
}

@Test func tableCellsBecomeTabsAndRowsBecomeLines() {
    let result = render(
        """
        <table><tr><td>Order number</td><td>#1047</td></tr>
        <tr><td>Total</td><td>$24.00</td></tr></table>
        """)
    #expect(result.text.text == "Order number\t#1047\nTotal\t$24.00")
}

@Test func nestedTablesKeepInnerRowsOnTheirOwnLines() {
    let result = render(
        """
        <table><tr><td><table><tr><td>Item</td><td>Qty</td></tr><tr><td>Socks</td><td>2</td></tr></table>
        </td></tr><tr><td>Shipped with</td><td>UPS</td></tr></table>
        """)
    #expect(result.text.lines == ["Item\tQty", "Socks\t2", "Shipped with\tUPS"])
}

@Test func lineBreaksSplitLinesAndDoubleBreaksLeaveOneBlankLine() {
    let result = render("<p>Order #123<br>Tracking 1Z999<br><br>Thanks</p>")
    #expect(result.text.lines == ["Order #123", "Tracking 1Z999", "", "Thanks"])
}

@Test func blockElementsEndLinesButInlineElementsDoNot() {
    let result = render(
        "<div>Hello <b>there</b>,</div><div><span>Order</span> <span>#9</span></div><h2>Items</h2>")
    #expect(result.text.lines == ["Hello there,", "Order #9", "Items"])
}

@Test func whitespaceIsCollapsedWithoutGluingWords() {
    let result = render("<p>  Your\n\n   order\t<i>has</i>\n<b>shipped</b>  </p>")
    #expect(result.text.text == "Your order has shipped")
}

@Test func entitiesAreDecodedAndInvisibleFillerRemoved() {
    let result = render(
        "<p>Fish&nbsp;&amp;&nbsp;Chips &#8211; caf&eacute; &lt;b&gt; &#x20AC;5 &#8203;in&shy;visible&zwnj; &nbsp; end</p>"
    )
    #expect(result.text.text == "Fish & Chips – café <b> €5 invisible end")
}

@Test func scriptsStylesHeadTemplatesAndCommentsAreSkipped() {
    let result = render(
        """
        <html><head><title>Receipt</title><style>p{color:red}</style></head>
        <body><script>var a = "no";</script><!-- comment --><template><p>tpl</p></template><p>Shown</p></body></html>
        """)
    #expect(result.text.text == "Shown")
    #expect(result.title == "Receipt")
}

@Test func outlookConditionalBlocksShowTheNonOutlookVersion() {
    let result = render(
        """
        <body><!--[if mso]><table><tr><td>Outlook only</td></tr></table><![endif]-->
        <![if !mso]><div>Everyone else</div><![endif]>
        <!--[if !mso]><!-- --><p>Modern</p><!--<![endif]--></body>
        """)
    #expect(result.text.lines == ["Everyone else", "Modern"])
}

@Test func hiddenContentIsKeptApartFromVisibleText() {
    let result = render(
        """
        <div style="display:none">A</div><span style="visibility: hidden">B</span>
        <div style="max-height:0;overflow:hidden">C</div><div style="font-size:0px">D</div>
        <div style="mso-hide:all">E</div><div hidden>F</div><p>Visible</p>
        <div style="font-size:0"><span style="font-size:14px">Shown again</span></div>
        """)
    #expect(result.text.lines == ["Visible", "Shown again"])
    #expect(result.text.hiddenText.split(separator: "\n") == ["A", "B", "C", "D", "E", "F"])
}

@Test func hiddenPreheaderIsAvailableSeparately() {
    let result = render(
        """
        <body><div style="display:none;max-height:0;overflow:hidden;">Your order #A-1 is on its way&zwnj;&nbsp;&zwnj;&nbsp;</div>
        <img src="logo.png" alt="Example Outfitters"><p>Hi Sam</p></body>
        """)
    #expect(result.preheader == "Your order #A-1 is on its way")
    #expect(result.text.text == "Hi Sam")
    #expect(result.images.first?.alt == "Example Outfitters")
}

@Test func preheaderNamedByClassWinsOverOtherHiddenText() {
    let result = render(
        """
        <div style="display:none">tracking pixel text</div>
        <span class="preheader" style="display:none!important">Shipped today</span><p>Body</p>
        """)
    #expect(result.preheader == "Shipped today")
}

@Test func brokenMarkupIsRecovered() {
    let result = render("<table><tr><td>Order<td>#55<tr><td>Carrier<td>DHL</table><p>Unclosed <b>bold<p>Next")
    #expect(result.text.lines == ["Order\t#55", "Carrier\tDHL", "Unclosed bold", "Next"])
}

@Test func nulBytesAndMetaCharsetDoNotStopOrRedecodeTheText() {
    let result = render("<meta charset=\"iso-8859-1\"><p>Bestellung f\u{FC}r J\u{FC}rgen\u{0}: Nr. 77</p>")
    #expect(result.text.text == "Bestellung für Jürgen: Nr. 77")
}

@Test func oneHundredThousandNestedElementsDoNotOverflowTheStack() {
    let depth = 100_000
    let html =
        "<p>before</p>" + String(repeating: "<div>", count: depth) + "deep"
        + String(repeating: "</div>", count: depth)
        + "<p>after</p>"
    let result = render(html)
    #expect(result.text.lines == ["before", "deep", "after"])
    #expect(result.text.spans.count == 3)
    #expect(result.text.spans[1].location.hasPrefix("…/div/div"))
}

@Test func spansPointBackToTheirDOMPath() {
    let result = render(
        "<html><body><table><tr><td>a</td></tr><tr><td>x</td><td>Order</td></tr></table></body></html>")
    let span = result.text.spans.last
    #expect(span?.location == "html/body/table/tr[2]/td[2]")
    #expect(span?.partPath == "1.2")
    if let span {
        let bytes = Array(result.text.text.utf8)[span.range]
        #expect(String(decoding: bytes, as: UTF8.self) == "Order")
    }
}

@Test func linksKeepHrefAnchorTextPositionAndUnwrappedTarget() {
    let result = render(
        """
        <p>Track: <a href="https://click.example.net/?u=https%3A%2F%2Fwww.ups.com%2Ftrack%3Ftracknum%3D1Z999">Track
        your   package</a></p><a href="https://shop.example/"><img src="logo.png" alt="Shop Logo"></a>
        <div style="display:none"><a href="https://hidden.example/">secret</a></div>
        """)
    #expect(result.links.count == 3)
    let first = result.links[0]
    #expect(first.text == "Track your package")
    #expect(first.target == "https://www.ups.com/track?tracknum=1Z999")
    let text = Array(result.text.text.utf8)
    #expect(String(decoding: text[first.position...].prefix(5), as: UTF8.self) == "Track")
    #expect(first.position == 7)
    #expect(result.links[1].text == "Shop Logo")
    #expect(result.links[2].isHidden)
    #expect(result.links[2].text == "secret")
}

@Test func preformattedTextKeepsItsLineBreaks() {
    let result = render("<pre>Line one\nLine  two\n\nLine four</pre>")
    #expect(result.text.lines == ["Line one", "Line two", "", "Line four"])
}

/// A million nested elements followed by stray end tags made libxml2 search its whole element
/// stack for each one (minutes for one part); such HTML is cut where the cost passes the budget.
@Test func strayEndTagsUnderDeepNestingAreCutWithAWarning() {
    let depth = 200_000
    let html =
        "<p>before</p>" + String(repeating: "<div>", count: depth) + "deep"
        + String(repeating: "<b>x</a>", count: 2_000) + "<p>after</p>"
    var options = HTMLRenderer.Options()
    options.maxParserSteps = 50_000_000
    options.maxNodes = 1_000_000
    let result = HTMLRenderer.render(html: html, partPath: "1", options: options)
    #expect(result.warnings.contains { $0.message.contains("nesting and attributes would cost the parser") })
    #expect(result.text.lines.first == "before")
    #expect(result.text.text.contains("deep"))
}

@Test func ordinaryHTMLCostsAFewStepsPerTag() {
    let html =
        "<html><body><table><tr><td>a<td>b</table><p>x<br>y</p><script>if (a</b) {}</script></body></html>"
    #expect(HTMLCost.cutOffset(Array(html.utf8), budget: 40) == nil)
    let deep = Array((String(repeating: "<div>", count: 1_000) + String(repeating: "</a>", count: 100)).utf8)
    let cut = HTMLCost.cutOffset(deep, budget: 50_000)
    #expect(cut.map { deep[$0...].starts(with: Array("</a>".utf8)) } == true)
}

@Test func inputTooShortToPassTheBudgetIsNotScanned() {
    // 30 bytes hold at most 10 tags: 10 × 11 steps at the very most.
    let stray = Array(String(repeating: "</a>", count: 7).utf8) + [0x20, 0x20]
    #expect(HTMLCost.cutOffset(stray, budget: 110) == nil)
    #expect(
        HTMLCost.cutOffset(Array((String(repeating: "<b>", count: 10) + "</a></a>").utf8), budget: 30) != nil)
}

/// Control characters but white space are read as nothing in both renditions: NUL no longer
/// ends a text/plain line, VT and NEXT LINE are spaces.
@Test func controlCharactersAreReadAsNothing() {
    let plain = PlainTextRenderer.render(
        text: "Order\u{0}number: 1\nBestell\u{1}nummer: 2\nA\u{7F}B\u{85}C\u{B}D\u{80}E", partPath: "1")
    #expect(plain.text.text == "Ordernumber: 1\nBestellnummer: 2\nAB C DE")
    #expect(plain.text.spans.map(\.location) == ["line 1", "line 2", "line 3"])
    let html = HTMLRenderer.render(
        html: "<p>Order\u{0}number: 1</p><p>Order&#0;number: 2</p><p>Order\u{1}num&#7;ber: 3</p>",
        partPath: "1")
    #expect(html.text.text == "Ordernumber: 1\nOrdernumber: 2\nOrdernumber: 3")
}

/// A terminal's control sequence goes whole, in plain text and in HTML: dropping ESC alone
/// (as libxml2 and a browser do) would leave `[2J` glued to the text after it.
@Test func terminalControlSequencesAreReadAsNothing() {
    let plain = PlainTextRenderer.render(
        text:
            "\u{1B}[2J\u{1B}[1;31mOrder number:\u{1B}[0m 12345\n\u{1B}[?25lA\u{1B}[ qB\n\u{1B}x\u{1B}[\u{1B}[1;2",
        partPath: "1")
    // A stray ESC goes alone; a control sequence that never ends loses its introducer only.
    #expect(plain.text.text == "Order number: 12345\nAB\nx 1;2")
    let html = HTMLRenderer.render(html: "<p>\u{1B}[31mTrack\u{1B}[0ming</p>", partPath: "1")
    #expect(html.text.text == "Tracking")
}

/// Every kind of escape sequence goes whole: control strings (OSC, DCS) up to their
/// terminator, `ESC c`, charset designations, control sequences with many parameters.
@Test(arguments: [
    "\u{1B}]0;window title\u{7}", "\u{1B}]8;;https://example.com\u{1B}\\", "\u{1B}Pq#0;2;0;0;0\u{1B}\\",
    "\u{1B}c",
    "\u{1B}(B", "\u{1B}7", "\u{1B}[38;2;255;0;0;48;2;0;0;255;1;4;5;7m",
])
func escapeSequencesOfEveryKindAreReadAsNothing(_ sequence: String) {
    let plain = PlainTextRenderer.render(text: "Order number: \(sequence)AW-000061\n", partPath: "1")
    #expect(plain.text.text == "Order number: AW-000061", "\(sequence.debugDescription)")
}

/// A subject and a display name are read as a reader sees them too.
@Test func escapeSequencesInTheSubjectAndDisplayNameAreReadAsNothing() throws {
    let message = try Message(
        bytes: Array(
            ("From: \u{1B}[2J\u{1B}[31mAcme Widgets\u{1B}[0m <orders@acme.example>\r\n"
                + "Subject: Order\u{1B}]0;x\u{7} AW-000066\u{7}\tshipped\r\n\r\nHello\r\n").utf8))
    let document = MailDocument(message: message)
    #expect(document.subject == "Order AW-000066 shipped")
    #expect(document.sender?.name == "Acme Widgets")
    #expect(TextSink.visibleLine("plain text") == "plain text")
    #expect(TextSink.visibleLine("a\u{85}b\u{9C}c\u{0}d") == "abcd")
    // U+009B is the 8-bit CSI: with its final byte, a control sequence.
    #expect(TextSink.visibleLine("a\u{9B}2Jb") == "ab")
}
