import Testing

@testable import MailDocument

/// Escape sequences, control sequences and control strings (ECMA-48, ECMA-35) in text/plain
/// bodies, subjects, display names and JSON-LD values: read as a terminal reads them, never
/// leaving a control byte, never losing the text after them, never gluing two words.
@Suite struct ControlFunctionTests {
    func plain(_ text: String) -> String { PlainTextRenderer.render(text: text, partPath: "1").text.text }

    /// Every control byte of the rendition: none may be left.
    func controlBytes(_ text: String) -> [UInt32] {
        text.unicodeScalars.filter {
            $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value)
        }
        .map(\.value)
    }

    /// The 8-bit introducers read in a body as in a subject: C1 CSI with its final byte, C1
    /// OSC, DCS, SOS, PM and APC up to ST or BEL.
    @Test(arguments: [
        ("Order \u{9B}1;31m12345\u{9B}0m shipped", "Order 12345 shipped"),
        ("Order \u{9B}?25l12345", "Order 12345"),
        ("Order 12345\u{9D}0;title\u{9C} shipped", "Order 12345 shipped"),
        ("Order 12345\u{9D}0;title\u{7} shipped", "Order 12345 shipped"),
        ("\u{90}q#0;2;0;0;0\u{9C}Order 12345", "Order 12345"),
        ("\u{98}anything\u{9C}\u{9E}x\u{9C}\u{9F}y\u{1B}\\Order 12345", "Order 12345"),
    ])
    func eightBitIntroducersInABodyGoWhole(_ text: String, _ expected: String) {
        #expect(plain(text) == expected)
        #expect(TextSink.visibleLine(text) == expected)
    }

    /// In HTML too a control function goes whole, written as bytes or as character references:
    /// nothing of it is left glued to the order number after it.
    @Test(arguments: [
        ("<p>A\u{9B}2JB</p>", "AB"),
        ("<p>Order number: &#27;[1mA-10023&#x1b;[0m</p>", "Order number: A-10023"),
        ("<p>Order number: \u{1B}[1mA-10023\u{1B}[0m</p>", "Order number: A-10023"),
        ("<p>Order number: &#155;1mA-10023&#x9B;0m</p>", "Order number: A-10023"),
        ("<p>Total &#0027;[31m$12.00&#x9b;0m</p>", "Total $12.00"),
        // An OSC ended by BEL written as a reference: the title goes, the words stay apart.
        ("<p>Order number: &#x1b;]0;T&#7;A-10023</p>", "Order number: A-10023"),
        // Other references and a reference without its ";" stay.
        ("<p>It&#8217;s &#27 [1m here &amp; &#38;#27;</p>", "It’s [1m here & &#27;"),
    ])
    func controlFunctionsInHTMLGoWhole(_ html: String, _ expected: String) {
        #expect(HTMLRenderer.render(html: html, partPath: "1").text.text == expected)
    }

    /// The quick look for control functions finds one at any position, read eight bytes at a
    /// time or one by one, and passes over markup without one.
    @Test func theLookForControlFunctionsMissesNone() {
        for marker in ["\u{1B}[1m", "\u{9B}1m", "&#27;", "&#x9b;", "&#X1B;"] {
            for position in 0..<20 {
                let html =
                    String(repeating: "a", count: position) + marker + String(repeating: "b", count: 11)
                let found = Array(html.utf8).withUnsafeBufferPointer(HTMLRenderer.mayHoldControlFunctions)
                #expect(found, "\(marker) at \(position)")
            }
        }
        for html in ["<p>Caf\u{E9} &amp; &#8217; &nbsp; \u{A0}\u{A9}</p>", "", "&#", "&#27", "\u{C2}"] {
            #expect(
                !Array(html.utf8).withUnsafeBufferPointer(HTMLRenderer.mayHoldControlFunctions), "\(html)")
        }
    }

    /// A control sequence with any number of parameter bytes goes whole up to its final byte,
    /// as a terminal reads it: nothing is left glued to the word after it.
    @Test(arguments: [64, 65, 200, 10_000])
    func aControlSequenceWithManyParametersGoesWhole(_ count: Int) {
        let parameters = String(repeating: "1;", count: count / 2) + String(repeating: "1", count: count % 2)
        #expect(plain("Order \u{1B}[\(parameters)m12345 shipped") == "Order 12345 shipped")
        #expect(plain("Order \u{9B}\(parameters)m12345 shipped") == "Order 12345 shipped")
        #expect(TextSink.visibleLine("Order \u{1B}[\(parameters)m12345") == "Order 12345")
    }

    /// A control string of any length goes whole up to its terminator: an OSC 8 hyperlink to
    /// a long tracking address.
    @Test(arguments: [100, 510, 511, 5_000])
    func aControlStringOfAnyLengthGoesWhole(_ length: Int) {
        let url = "https://track.example/" + String(repeating: "x", count: length)
        let text = "Order 12345\u{1B}]8;;\(url)\u{1B}\\Track\u{1B}]8;;\u{1B}\\ your parcel"
        #expect(plain(text) == "Order 12345 Track your parcel")
        #expect(TextSink.visibleLine(text) == "Order 12345 Track your parcel")
    }

    /// A sequence that does not end on its line (or in the text) is no control function: its
    /// introducer goes, as a word boundary, and the text after it stays whole.
    @Test(arguments: [
        ("Order 12345\u{1B}]0;title and no end", "Order 12345 0;title and no end"),
        ("Order 12345\u{9D}8;;https://track.example/1", "Order 12345 8;;https://track.example/1"),
        ("Order\u{1B}[12345", "Order 12345"),
        ("Order\u{9B}12345\u{80}", "Order 12345"),
        ("Order \u{1B}[1 ! \" # $ % & ' ( Track", "Order 1 ! \" # $ % & ' ( Track"),
        // Another ESC or C1 control inside a control string cuts it: the next one is read.
        ("A\u{1B}]0;x\u{1B}[1mB", "A 0;xB"),
        ("A\u{9D}0;x\u{9B}1mB", "A 0;xB"),
    ])
    func aSequenceThatDoesNotEndLosesItsIntroducerOnly(_ text: String, _ expected: String) {
        #expect(plain(text) == expected)
        #expect(TextSink.visibleLine(text) == expected)
        #expect(controlBytes(plain(text)).isEmpty)
    }

    /// A control string does not reach over a line break: the next line is text.
    @Test func aControlStringEndsWithItsLine() {
        #expect(
            plain("Order 12345\u{1B}]0;title\nTracking: 1Z999AA10123456784\u{7}")
                == "Order 12345 0;title\nTracking: 1Z999AA10123456784")
        #expect(TextSink.withoutEscapeSequences("a\u{1B}]0;t\nb\u{7}c") == "a 0;t\nb\u{7}c")
    }

    /// `ESC SP F` is an announcer (ECMA-35 §15.2) only for the finals ECMA-35 and ECMA-43 give
    /// it, and not right before a letter or digit: a stray `ESC SP` before an order number
    /// leaves the number whole.
    @Test(arguments: [
        ("Order: \u{1B} 12345", "Order: 12345"),
        ("Order: \u{1B} A12345", "Order: A12345"),
        ("Order: \u{1B} F12345", "Order: F12345"),
        ("Order: \u{1B} W-10023", "Order: W-10023"),
        ("Order: \u{1B} Z", "Order: Z"),
        ("Order: \u{1B} F 12345", "Order: 12345"),
        ("Order: \u{1B} G\u{1B} L12345", "Order: L12345"),
        ("\u{1B} NOrder: 12345", "NOrder: 12345"),
        ("\u{1B} N Order: 12345", "Order: 12345"),
        ("Order:\u{1B} F", "Order:"),
    ])
    func announcerSequences(_ text: String, _ expected: String) {
        #expect(plain(text) == expected)
        // A subject keeps its spaces as they are; the words are the same.
        #expect(TextSink.visibleLine(text).split(separator: " ") == expected.split(separator: " "))
    }

    /// Other nF sequences go whole: a designation before text (`ESC ( B`) keeps the text.
    @Test func nFSequencesGoWhole() {
        #expect(plain("\u{1B}$BOrder\u{1B}(B 12345") == "Order 12345")
        #expect(plain("Order\u{1B}#8 12345") == "Order 12345")
    }

    /// A control string between two words keeps them apart; a control sequence inside a word
    /// keeps it whole (bold digits of an order number).
    @Test func controlStringsSeparateWordsAndControlSequencesDoNot() {
        #expect(plain("Order #\u{1B}[1mAW-\u{1B}[0m10023") == "Order #AW-10023")
        #expect(
            plain("Order 12345\u{1B}]8;;https://shop.example/o\u{7}Track\u{1B}]8;;\u{7}")
                == "Order 12345 Track")
        #expect(plain("Order 12345 \u{1B}]8;;https://shop.example/o\u{7} Track") == "Order 12345 Track")
        #expect(plain("\u{1B}]0;title\u{7}Order 12345\u{1B}]0;x\u{7}") == "Order 12345")
        #expect(TextSink.withoutEscapeSequences("12345\u{1B}]8;;u\u{7}Track") == "12345 Track")
        #expect(TextSink.withoutEscapeSequences("12345 \u{1B}]8;;u\u{7} Track") == "12345  Track")
        #expect(TextSink.withoutEscapeSequences("\u{1B}]8;;u\u{7}Track") == "Track")
    }

    /// Hostile input stays linear: many introducers that never end, each cut by the next.
    @Test func manyIntroducersThatNeverEndAreReadInOnePass() {
        for introducer in ["\u{1B}]", "\u{9D}", "\u{1B}[", "\u{9B}", "\u{1B}P"] {
            // (A line break after the last one: `ESC[O`, or `ESC[ O`, is a whole control
            // sequence.)
            let text = String(repeating: introducer, count: 200_000) + "\nOrder 12345"
            #expect(plain(text) == "Order 12345")
            #expect(TextSink.visibleLine(text).split(separator: " ") == ["Order", "12345"])
        }
        let unterminated = "\u{1B}]" + String(repeating: "\u{1B}]x", count: 100_000)
        #expect(controlBytes(plain(unterminated)).isEmpty)
    }
}

@Suite struct PlainTextCellTests {
    func rendered(_ text: String) -> RenderedText { PlainTextRenderer.render(text: text, partPath: "1").text }

    @Test func wideGapsAndTabsAreNotedWhereTheirSpaceIsWritten() {
        let row = rendered("Mug      1   $12.00")
        #expect(row.text == "Mug 1 $12.00")
        #expect(row.wideGaps == [3, 5])
        #expect(rendered("Mug\t$12.00").wideGaps == [3])
        #expect(rendered("Order number:  \t 48213").text == "Order number: 48213")
        #expect(rendered("Order number:  \t 48213").wideGaps == [13])
        #expect(rendered("A single space stays").wideGaps.isEmpty)
    }

    @Test func aReplysTextBeforeItsQuoteKeepsTheGapsBeforeIt() {
        let text = rendered("Mug    $12.00\nOn Mon, Kim wrote:\n> Tea   $3.00")
        #expect(text.wideGaps == [3, 35])
        #expect(text.prefix(upTo: 14).wideGaps == [3])
    }

    @Test func gapsAtTheEdgesOfALineAreNotNoted() {
        let text = rendered("    indented   text   \nnext  line")
        #expect(text.text == "indented text\nnext line")
        #expect(text.wideGaps == [8, 18])
        #expect(rendered("\t\t").wideGaps.isEmpty)
    }
}
