import Extraction
import Foundation
import MIME
import MailDocument
import Testing

@testable import MerchantCheck

/// What counts as a name appearing in an email's text (``EmailText/containsName(_:in:)``):
/// a whole word, ignoring case and diacritics, except that an all-capital ASCII name must
/// match its case; the word boundary only counts in scripts written with spaces.
@Suite struct ContainsNameTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var found: Bool
        var testDescription: String {
            "\(found ? "" : "no ")\(name.debugDescription) in \(text.debugDescription)"
        }
    }

    static let cases: [Case] = [
        // Case: ignored, but an all-capital ASCII name (letters, digits, punctuation) keeps it.
        Case(name: "Example Outfitters", text: "EXAMPLE OUTFITTERS ltd", found: true),
        Case(name: "example outfitters", text: "Thanks from Example Outfitters!", found: true),
        Case(name: "UPS", text: "Shipped with UPS.", found: true),
        Case(name: "UPS", text: "shipped with ups", found: false),
        Case(name: "ups", text: "Shipped with UPS.", found: true),
        Case(name: "J&T", text: "sent with j&t", found: false),
        Case(name: "J&T", text: "sent with J&T Express", found: true),
        // Whole words only, in scripts written with spaces: a letter or digit of the Latin,
        // Greek, Cyrillic or Armenian scripts next to the name joins it into a longer word.
        Case(name: "UPS", text: "Check out our GROUPS", found: false),
        Case(name: "UPS", text: "GROUPS ship with UPS", found: true),
        Case(name: "Poste", text: "Posted today", found: false),
        Case(name: "Poste", text: "Envoyé par la Poste.", found: true),
        Case(name: "Sagawa", text: "Sagawa2 tracking", found: false),
        Case(name: "Yodel", text: "via yodel_parcel", found: true),
        Case(name: "Boxberry", text: "Boxberryд", found: false),
        Case(name: "Yamato", text: "Yamatoの宅急便", found: true),
        Case(name: "U.S.", text: "Made in the U.S.A", found: true),
        Case(name: "CJ대한통운", text: "xCJ대한통운", found: false),
        // Diacritics: ignored, written precomposed or as a letter and a combining mark.
        Case(name: "Cafe Nero", text: "Welcome to Café Nero", found: true),
        Case(name: "Café", text: "CAFE", found: true),
        Case(name: "Café", text: "Cafe\u{301} au lait", found: true),
        Case(name: "Lettre recommandée", text: "LETTRE RECOMMANDEE n° 1A", found: true),
        Case(name: "Straße", text: "STRASSE 5", found: true),
        // A letter and its combining marks are one character, whatever comes before them.
        Case(name: "Poste", text: "ド\nPoste\u{301}a", found: false),
        Case(name: "Poste", text: "Poste\u{301}a", found: false),
        Case(name: "Poste", text: "ド\nPoste\u{301} a", found: true),
        Case(name: "fi", text: "運輸fi\u{301}S", found: false),
        Case(name: "fi", text: "\n運輸fi\u{301}S", found: false),
        // Chinese, Japanese and Korean attach particles and neighbours to a name.
        Case(name: "ヤマト運輸", text: "ヤマト運輸の宅急便でお届けします", found: true),
        Case(name: "CJ대한통운", text: "CJ대한통운으로 발송되었습니다", found: true),
        Case(name: "顺丰速运", text: "您的包裹已由顺丰速运发出", found: true),
        Case(name: "ヤマト運輸", text: "ヤマド運輸", found: false),
        // A name is found as written: not split across lines, nor with other white space.
        Case(name: "Northwind Outfitters", text: "Northwind\nOutfitters", found: false),
        Case(name: "Northwind Outfitters", text: "Northwind\r\nOutfitters", found: false),
        Case(name: "Northwind Outfitters", text: "Northwind  Outfitters", found: false),
        Case(name: "Northwind Outfitters", text: "Northwind\u{A0}Outfitters", found: false),
        Case(name: "Northwind Outfitters", text: "Hi!\r\nNorthwind Outfitters\r\nShipped", found: true),
        Case(name: "Northwind Outfitters", text: "Northwind\nNorthwind Outfitters", found: true),
        // The name's own white space is trimmed; nothing is found in or for an empty string.
        Case(name: "  UPS\n", text: "via UPS", found: true),
        Case(name: " ", text: "via UPS", found: false),
        Case(name: "UPS", text: "", found: false),
        // A name of combining marks alone names nothing, whatever they sit on in the text.
        Case(name: "\u{301}", text: "Cafe\u{301}", found: false),
        Case(name: "\u{301}", text: "\u{301}", found: false),
        Case(name: " \u{301}\u{20DD} ", text: "e\u{301}\u{20DD}", found: false),
        Case(name: "\u{93E}", text: "\u{915}\u{93E}", found: false),
        // A match that starts inside a character: after U+0600, which joins the next letter.
        Case(name: "Poste", text: "\u{600}Poste", found: true),
        Case(name: "Poste", text: "x\u{600}Poste", found: true),
        // Diacritics either way round, in other scripts too.
        Case(name: "Café Nero", text: "Welcome to Cafe Nero", found: true),
        Case(name: "Αθήνα", text: "ΑΘΗΝΑ", found: true),
        Case(name: "Αθηνα", text: "Παράδοση στην Αθήνα", found: true),
        Case(name: "Ёлка", text: "Магазин Елка", found: true),
        Case(name: "Elka", text: "Магазин Елка", found: false),
        Case(name: "Tiki Đà Nẵng", text: "TIKI ĐA NANG", found: true),
        Case(name: "Zolo", text: "Żołądź", found: false),
    ]

    @Test(arguments: cases) func containsName(_ example: Case) {
        #expect(EmailText.containsName(example.name, in: example.text) == example.found)
    }

    /// The lookup prepared for many names gives the same answers.
    @Test(arguments: cases) func preparedTextGivesTheSameAnswer(_ example: Case) {
        #expect(NameSearchText(example.text).containsName(example.name) == example.found)
    }

    /// A deterministic generator (SplitMix64), so a failure reproduces.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
        mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
    }

    /// Random texts made of pieces that fold alike (case, diacritics, ligatures, the Kelvin
    /// sign, decomposed Hangul), word neighbours and line breaks: the prepared lookup answers
    /// as ``EmailText/containsName(_:in:)`` does, for every name (`ß` too, which Foundation
    /// finds in `S` and the Kelvin sign or `Sİ`).
    @Test func preparedTextAgreesOnRandomTexts() {
        let pieces = [
            "a", "A", "e", "é", "E\u{301}", "\u{301}", "ß", "ss", "S", "ﬁ", "fi", "İ", "i", "\u{212A}", "k",
            "U", "P", "ups", "UPS", "Poste", "POSTE", "Café", "cafe", "ヤマト", "運輸", "ド", "ト", "대한통운", "CJ",
            "한진", "\u{1112}\u{1161}\u{11AB}진", " ", " ", "\n", "\r\n", "\r", "\t", ".", "-", "_", "1", "д",
            "の", "😀", "\u{A0}", "J&T", "&", "U.S.",
        ]
        let names = [
            "UPS", "ups", "Poste", "Café", "cafe", "ヤマト運輸", "CJ대한통운", "한진", "ss", "fi", "K", "J&T",
            "é", "U.S.", "UPS ups", "a e", "ß", "Straße", "STRAẞE",
        ]
        var random = Generator(state: 2026)
        for _ in 0..<1500 {
            let text = (0...(random.next() % 40)).map { _ in random.pick(pieces) }.joined()
            let prepared = NameSearchText(text)
            for name in names {
                #expect(
                    prepared.containsName(name) == EmailText.containsName(name, in: text),
                    "\(name.debugDescription) in \(text.debugDescription)")
            }
        }
    }

    /// No name crashes the lookup or makes it loop: names and texts generated from marks
    /// alone, white space alone, characters that join their neighbours (U+0600, U+200D,
    /// Hangul jamo, regional indicators), surrogate pairs and very long strings; a name with
    /// no scalar but white space and combining marks is never found, and the prepared lookup
    /// gives the same answers.
    @Test func anyNameIsSafe() {
        let pieces = [
            "\u{301}", "\u{308}", "\u{20DD}", "\u{93E}", "\u{600}", "\u{200D}", "\u{200B}", "\u{FEFF}",
            "\u{1100}",
            "\u{1161}", "\u{11AB}", "한", "🇫", "🇷", "👍🏽", "😀", " ", "\u{A0}", "\u{3000}", "\n", "\r\n", "\t",
            "e",
            "E", "é", "ß", "ﬁ", "İ", "\u{212A}", "a", "UPS", "Poste", "ヤ", "д", "Ω", "0", ".", "&", "\u{7F}",
            "\u{85}", "\u{1B}",
        ]
        var random = Generator(state: 64)
        var names = [
            "", " ", "\n\t ", "\u{301}", "\u{301}\u{301}", String(repeating: "\u{301}", count: 5_000),
        ]
        names.append(String(repeating: "Poste ", count: 2_000))
        names.append(String(repeating: "a", count: 100_000))
        for _ in 0..<400 {
            names.append((0...(random.next() % 6)).map { _ in random.pick(pieces) }.joined())
        }
        let texts =
            (0..<60).map { _ in (0...(random.next() % 30)).map { _ in random.pick(pieces) }.joined() } + [
                "", String(repeating: "e\u{301}", count: 10_000),
                String(repeating: "Poste ", count: 3_000) + "a",
            ]
        for text in texts {
            let prepared = NameSearchText(text)
            for name in names {
                let found = EmailText.containsName(name, in: text)
                if !EmailText.namesSomething(name.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    #expect(!found, "\(name.debugDescription) in \(text.debugDescription)")
                }
                #expect(
                    prepared.containsName(name) == found,
                    "\(name.debugDescription) in \(text.debugDescription)")
            }
        }
    }

    /// An email's visible text: a name written without its diacritics is found where the
    /// body writes them, and the reverse (no ASCII byte search rules it out first).
    @Test func visibleTextFindsANameWithOrWithoutDiacritics() {
        func text(_ body: String) -> EmailText {
            EmailText(MailDocument(subject: "Your order", htmlText: RenderedText(text: body)))
        }
        #expect(text("Thanks for your order at Café Nero!").visibleContains(name: "Cafe Nero"))
        #expect(text("Thanks for your order at Cafe Nero!").visibleContains(name: "Café Nero"))
        #expect(text("CAFE\u{301} NERO").visibleContains(name: "cafe nero"))
        #expect(text("Straße 5, Oﬃce supplies").visibleContains(name: "Office supplies"))
        #expect(text("Vielen Dank, STRASSE Moden").visibleContains(name: "Straße Moden"))
        #expect(text("Ευχαριστούμε, Αθήνα Shop").visibleContains(name: "Athina Shop") == false)
        #expect(text("Ευχαριστούμε, ΑΘΗΝΑ Shop").visibleContains(name: "Αθήνα Shop"))
        #expect(!text("Thanks for your order at Cafe Neroli").visibleContains(name: "Café Nero"))
        #expect(!text("Order at Café Nero").visibleContains(name: "\u{301}"))
    }

    /// Every email of `Corpus/`: the prepared lookup of its visible text answers as
    /// ``EmailText/containsName(_:in:)`` does for every carrier name of the rules and every
    /// sender name of the corpus.
    @Test func preparedTextAgreesOnTheCorpus() throws {
        let repository = EndToEndTests.repository
        let rules = try Rules.load(from: repository.appendingPathComponent("rules"))
        let files = try #require(
            FileManager.default.enumerator(atPath: repository.appendingPathComponent("Corpus").path)
        )
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".eml") }.sorted()
        #expect(files.count > 100)
        let documents = try files.map { file in
            let bytes = try Data(contentsOf: repository.appendingPathComponent("Corpus/" + file))
            return MailDocument(message: try Message(bytes: [UInt8](bytes)))
        }
        let names = rules.carriers.carriers.flatMap(\.allNames) + documents.compactMap(\.sender?.name)
        for (file, document) in zip(files, documents) {
            let text = EmailText(document)
            for name in names {
                #expect(
                    text.visibleNames.containsName(name) == EmailText.containsName(name, in: text.visible),
                    "\(name) in \(file)")
            }
        }
    }

    /// In a long text, a name written only inside other words on every line is not found,
    /// and its one whole-word occurrence on the last of 20,000 lines is.
    @Test func aNameOnOneLineOfALongTextIsFound() {
        let line = "Our groups’ setups — café crème, ヤマド運輸 and pop-ups, posted to Posten.\n"
        let filler = NameSearchText(String(repeating: line, count: 20_000))
        let text = NameSearchText(
            String(repeating: line, count: 20_000)
                + "Shipped with UPS by la Poste, ヤマト運輸 and Lettre recommandée.")
        for name in ["UPS", "Poste", "ヤマト運輸", "Lettre recommandée"] {
            #expect(!filler.containsName(name), "\(name)")
            #expect(text.containsName(name), "\(name)")
        }
        #expect(filler.containsName("Cafe Creme"))
    }
}

/// MO101 (the shop's name is not in the body) is not raised when the body writes the name
/// with diacritics the extracted name leaves out, or the reverse.
@Test(arguments: [("Cafe Nero", "Café Nero"), ("Café Nero", "Cafe Nero")])
func merchantNameWithOtherDiacriticsIsNoMO101(merchant: String, body: String) {
    let document = Fixtures.confirmation(
        body: "Thank you for shopping at \(body)!\nOrder number: A-10023\nWool socks\t24.00")
    let report = Fixtures.checker.check(
        document: document, extraction: Fixtures.confirmationExtraction(merchant: merchant))
    #expect(!report.findings.contains { $0.code == "MO101" }, "\(report.findings)")
}
