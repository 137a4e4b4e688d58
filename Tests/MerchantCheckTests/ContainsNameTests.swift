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
    ]

    @Test(arguments: cases) func containsName(_ example: Case) {
        #expect(EmailText.containsName(example.name, in: example.text) == example.found)
    }
}
