import Testing

@testable import Mailbox

/// File names on one terminal line: the line breaks and every control function of ECMA-48
/// (C0, DEL, C1) escaped, the rest kept.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("inbox.mbox#3", "inbox.mbox#3"),
        ("a\nb", #"a\nb"#),
        ("a\r\nb", #"a\r\nb"#),
        ("a\tb", #"a\tb"#),
        ("\u{1B}[31mred\u{1B}[0m", #"\u{1B}[31mred\u{1B}[0m"#),
        ("bell\u{07}\u{00}", #"bell\u{7}\u{0}"#),
        ("del\u{7F}", #"del\u{7F}"#),
        ("csi\u{9B}31m nel\u{85}", #"csi\u{9B}31m nel\u{85}"#),
        ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
        ("\u{202E}fdp.exe", #"\u{202E}fdp.exe"#),
        ("Café ヤマト 😀 \\n", "Café ヤマト 😀 \\n"),
        ("\u{A0}\u{200D}", "\u{A0}\u{200D}"),
    ])
    func oneLine(_ text: String, _ shown: String) {
        #expect(TerminalText.oneLine(text) == shown)
    }

    /// Whatever the bytes, the result holds no scalar a terminal acts on.
    @Test func noControlSurvives() {
        let all = String(String.UnicodeScalarView((0...0x2070).compactMap(Unicode.Scalar.init)))
        let shown = TerminalText.oneLine(all)
        #expect(!shown.unicodeScalars.contains(where: TerminalText.needsEscape))
    }
}
