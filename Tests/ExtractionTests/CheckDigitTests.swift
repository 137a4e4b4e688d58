import Testing

@testable import Extraction

/// Each algorithm against published valid numbers (tracking_number_data test numbers, UPU
/// S10 and GS1 examples) and near-miss invalid ones.
@Suite struct CheckDigitTests {
    /// Splits a number into payload and check character at fixed offsets.
    private func valid(
        _ number: String, payload range: Range<Int>, check index: Int, _ algorithm: CheckDigitAlgorithm
    ) -> Bool {
        let characters = Array(number.filter { $0 != " " })
        return CheckDigit.isValid(
            String(characters[range]), check: String(characters[index]), algorithm: algorithm)
    }

    @Test func weightedMod10WithLetterMappingAcceptsUPSNumbers() {
        let ups = CheckDigitAlgorithm(name: .mod10, weights: [1, 2])
        for number in [
            "1Z5R89390357567127", "1Z879E930346834440", "1Z410E7W0392751591", "1Z8V92A70367203024",
        ] {
            #expect(valid(number, payload: 2..<17, check: 17, ups), "\(number)")
        }
        #expect(!valid("1Z5R89390357567128", payload: 2..<17, check: 17, ups))
        #expect(CheckDigit.mod10Value(UInt8(ascii: "A")) == 2)
        #expect(CheckDigit.mod10Value(UInt8(ascii: "R")) == 9)
        #expect(CheckDigit.mod10Value(UInt8(ascii: "Z")) == 7)
    }

    @Test func weightedMod10MapsOnTracPrefixLetters() {
        let ontrac = CheckDigitAlgorithm(name: .mod10, weights: [1, 2])
        #expect(valid("C11031500001879", payload: 0..<14, check: 14, ontrac))
        #expect(valid("D10011354453707", payload: 0..<14, check: 14, ontrac))
        #expect(!valid("C11031500001889", payload: 0..<14, check: 14, ontrac))
    }

    @Test func weightedMod10FromTheLeftMatchesUSPSAndCanadaPost() {
        let usps = CheckDigitAlgorithm(name: .mod10, weights: [3, 1])
        #expect(valid("9400111201080805483016", payload: 0..<21, check: 21, usps))
        #expect(valid("0307 1790 0005 2348 3741", payload: 0..<19, check: 19, usps))
        #expect(!valid("0307 1790 0005 2348 3742", payload: 0..<19, check: 19, usps))
        #expect(valid("0073938000549297", payload: 0..<15, check: 15, usps))
        let without91 = CheckDigitAlgorithm(name: .mod10, weights: [3, 1], prepend: "91")
        #expect(valid("7196 9010 7560 0307 7385", payload: 0..<19, check: 19, without91))
    }

    @Test func weightedMod10ReversedEqualsGS1() {
        // Reversal: weights from the right; GS1 is [3, 1] from the right.
        #expect(CheckDigit.weightedMod10("629104150021", weights: [3, 1], fromRight: true) == 3)
        #expect(CheckDigit.gs1("629104150021") == 3)  // GTIN-13 6291041500213
        #expect(CheckDigit.gs1("03600029145") == 2)  // UPC-A 036000291452
        #expect(CheckDigit.gs1("12A") == nil)
    }

    @Test func fedExGroundUsesWeightsOneThree() {
        let ground = CheckDigitAlgorithm(name: .mod10, weights: [1, 3])
        #expect(valid("0414 4176 0228 964", payload: 0..<14, check: 14, ground))
        #expect(valid("5682 8361 0012 734", payload: 0..<14, check: 14, ground))
        #expect(!valid("5682 8361 0012 732", payload: 0..<14, check: 14, ground))
    }

    @Test func mod11ThenMod10AcceptsFedExExpress() {
        for number in ["986578788855", "477179081230", "799531274483", "790535312317", "974367662710"] {
            #expect(
                CheckDigit.mod11Mod10(String(number.prefix(11))) == Int(String(number.last!)), "\(number)")
        }
        #expect(CheckDigit.mod11Mod10("99657878885") != 5)
        let serial = "1001901781990001000300617767839437"
        let characters = Array(serial)
        #expect(CheckDigit.mod11Mod10(String(characters[20..<33])) == 7)
    }

    @Test func mod7AcceptsDHLExpressAndYamato() {
        for number in ["3318810025", "73891051146", "8487135506", "1099255990", "3821724944", "3318810036"] {
            #expect(CheckDigit.mod7(String(number.dropLast())) == Int(String(number.last!)), "\(number)")
        }
        for number in ["3318810010", "3318810034", "3318810011"] {
            #expect(CheckDigit.mod7(String(number.dropLast())) != Int(String(number.last!)), "\(number)")
        }
        #expect(CheckDigit.mod7("12345678901") == 3)  // Yamato: 1234-5678-9013
        #expect(CheckDigit.mod7("") == nil)
        #expect(CheckDigit.mod7("12a") == nil)
    }

    @Test func luhnAcceptsPurolatorAndOldDominion() {
        for number in [
            "320595463938", "320606146993", "287809468872", "331434972567", "07209562763", "80003280379",
        ] {
            #expect(CheckDigit.luhn(String(number.dropLast())) == Int(String(number.last!)), "\(number)")
        }
        #expect(CheckDigit.luhn("7992739871") == 3)  // the classic 79927398713
        for number in ["320595463939", "287809468875", "07209562773"] {
            #expect(CheckDigit.luhn(String(number.dropLast())) != Int(String(number.last!)), "\(number)")
        }
    }

    @Test func iso7064Mod3736AcceptsDPDParcelNumbers() {
        #expect(CheckDigit.iso7064Mod3736("008182709980000020033350276") == "C")
        #expect(CheckDigit.iso7064Mod3736("008182709980000020045327276") == "N")
        #expect(CheckDigit.iso7064Mod3736("008182709980000020045000000") != "N")
        #expect(CheckDigit.iso7064Mod3736("00-1") == nil)
    }

    @Test func s10AcceptsUPUExamplesIncludingSpecialRemainders() {
        #expect(CheckDigit.s10("12345678") == 5)  // RB123456785GB
        #expect(CheckDigit.s10("47312482") == 9)  // EE473124829GB
        #expect(CheckDigit.s10("1234567") == nil)
        #expect(CheckDigit.s10("1234567X") == nil)
        // Remainders mapping to 0 and 5 exist among 8-digit serials.
        var sawZero = false
        var sawFive = false
        for serial in stride(from: 10_000_000, to: 10_000_200, by: 1) {
            guard let digit = CheckDigit.s10(String(serial)) else { continue }
            #expect((0...9).contains(digit))
            if digit == 0 { sawZero = true }
            if digit == 5 { sawFive = true }
        }
        #expect(sawZero && sawFive)
    }

    @Test func unreadablePayloadsGiveNoCheckDigit() {
        #expect(CheckDigit.weightedMod10("", weights: [3, 1]) == nil)
        #expect(CheckDigit.weightedMod10("12-3", weights: [3, 1]) == nil)
        #expect(CheckDigit.luhn("") == nil)
        #expect(CheckDigit.mod11Mod10("１２３") == nil)
        #expect(!CheckDigit.isValid("", check: "0", algorithm: CheckDigitAlgorithm(name: .gs1)))
    }
    @Test func byteCheckAgreesWithTheStringCheck() {
        let algorithms = [
            CheckDigitAlgorithm(name: .mod10, weights: [1, 2]),
            CheckDigitAlgorithm(name: .mod10, weights: [3, 1], prepend: "91"),
            CheckDigitAlgorithm(name: .mod10, weights: [1, 3], fromRight: true),
            CheckDigitAlgorithm(name: .mod10),
            CheckDigitAlgorithm(name: .gs1),
            CheckDigitAlgorithm(name: .luhn),
            CheckDigitAlgorithm(name: .mod7),
            CheckDigitAlgorithm(name: .mod11Mod10),
            CheckDigitAlgorithm(name: .mod11Mod10, weights: [3, 1]),
            CheckDigitAlgorithm(name: .s10),
            CheckDigitAlgorithm(name: .mod3736),
        ]
        let alphabet = Array("0123456789ABCZaz-".utf8)
        var state: UInt64 = 0x1234_5678
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<4_000 {
            let algorithm = algorithms[round % algorithms.count]
            let payload = (0..<next(14)).map { _ in alphabet[next(next(2) == 0 ? 10 : alphabet.count)] }
            let check = (0..<(next(8) == 0 ? 2 : 1)).map { _ in alphabet[next(alphabet.count)] }
            let expected = CheckDigit.isValid(
                String(decoding: payload, as: UTF8.self), check: String(decoding: check, as: UTF8.self),
                algorithm: algorithm)
            let actual = payload.withUnsafeBufferPointer { payload in
                check.withUnsafeBufferPointer {
                    CheckDigit.isValid(payload: payload, check: $0, algorithm: algorithm)
                }
            }
            #expect(actual == expected, "\(payload) \(check) \(algorithm)")
        }
    }
}
