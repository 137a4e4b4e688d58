import Testing

@testable import Extraction

/// The order-number reading shared by the order number and the order date.
@Suite struct OrderNumberLabelsTests {
    /// A value's number read through ``OrderNumberLabels`` (its token read once, tested for
    /// each minimum length) is what ``OrderNumberToken/extract(from:fillers:minimumLength:)``
    /// reads, values read again included.
    @Test func numberAgreesWithExtract() {
        var fillers = Set<String>()
        for set in Fixture.extractor.languageSets.values { fillers.formUnion(set.fillers) }
        let words = FillerWords(fillers)
        var generator = FastPathTests.Generator(state: 31)
        let labels = OrderNumberLabels()
        var values: [String] = []
        for round in 0..<6_000 {
            // Every third value is one read before.
            let value =
                round % 3 == 2 && !values.isEmpty
                ? values[Int(generator.next() % UInt64(values.count))]
                : generator.text(FieldFastPathTests.orderValuePieces, count: round % 2 == 0 ? 6 : 20)
            values.append(value)
            for minimumLength in [5, 4] {
                #expect(
                    labels.number(in: value, fillers: words, minimumLength: minimumLength)
                        == OrderNumberToken.extract(
                            from: value, fillers: fillers, minimumLength: minimumLength),
                    "\(value.debugDescription)")
            }
        }
    }

    /// Past the values searched in order, values are still told apart by their bytes:
    /// canonically equivalent values are read each on its own.
    @Test func manyValuesAreToldApartByTheirBytes() {
        let words = FillerWords([])
        let labels = OrderNumberLabels()
        for index in 0..<(OrderNumberLabels.searchedInOrder + 4) {
            #expect(
                labels.number(in: "NW-\(10_000 + index)", fillers: words, minimumLength: 5)
                    == "NW-\(10_000 + index)")
        }
        for value in ["Bestellung n\u{E9} A-55555", "Bestellung ne\u{301} A-55555", "NW-10003", "NW-10019"] {
            #expect(
                labels.number(in: value, fillers: words, minimumLength: 5)
                    == OrderNumberToken.extract(from: value, fillers: [], minimumLength: 5),
                "\(value.debugDescription)")
        }
    }

    /// A token's plausible length answers ``OrderNumberToken/isPlausible(_:minimumLength:)``
    /// for every minimum length, for ASCII tokens and others.
    @Test func plausibleLengthAgreesWithIsPlausible() {
        var generator = FastPathTests.Generator(state: 47)
        let pieces = [
            "1", "12", "2026", "0", "-", ".", "/", "_", "A", "555", "1999", "2100", "x", "١٢", "Ａ",
            "e\u{301}", "\r",
        ]
        for round in 0..<10_000 {
            let token = generator.text(pieces, count: round % 2 == 0 ? 4 : 9)
            let length = OrderNumberToken.plausibleLength(token)
            for minimumLength in 0...8 {
                #expect(
                    (length.map { $0 >= minimumLength } ?? false)
                        == OrderNumberToken.isPlausible(token, minimumLength: minimumLength),
                    "\(token.debugDescription)")
            }
        }
    }

    /// Values are told apart by their bytes: canonically equivalent texts are not the same.
    @Test func sameBytesComparesBytes() {
        #expect(OrderNumberLabels.sameBytes("A-12345", "A-12345"))
        #expect(!OrderNumberLabels.sameBytes("A-12345", "A-12346"))
        #expect(!OrderNumberLabels.sameBytes("n\u{E9}", "ne\u{301}"))
        #expect(!OrderNumberLabels.sameBytes("\u{E9}", "e\u{301}"))
        #expect(OrderNumberLabels.sameBytes("", ""))
        let long = String(repeating: "Bestellnummer 2026-", count: 8)
        #expect(OrderNumberLabels.sameBytes(long, String(long)))
    }

    /// The longest filler is measured in UTF-8 bytes.
    @Test func longestFillerInBytes() {
        #expect(FillerWords(["is", "lautet", "n°"]).longest == 6)
        #expect(FillerWords(["n.º"]).longest == 4)
        #expect(FillerWords([]).longest == 0)
    }
}
