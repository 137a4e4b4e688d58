import Extraction
import MailDocument
import Testing

@testable import MerchantCheck

/// One fixture per finding code: the code fires on the broken email and not on the fixed one.
@Suite struct FindingCodeTests {
    let checker = Fixtures.checker

    @Test func goodConfirmationHasNoFindings() {
        let report = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(),
            expect: .confirmation)
        #expect(report.findings.isEmpty)
        #expect(!report.hasErrors)
    }

    @Test func goodShippingEmailHasNoFindings() {
        let report = checker.check(
            document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction(), expect: .shipping)
        #expect(report.findings.isEmpty)
        #expect(!report.hasErrors)
    }

    @Test func merchantNotIdentifiedIsMO100() {
        let broken = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(merchant: nil))
        #expect(Fixtures.codes(broken).contains("MO100"))
        #expect(broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO100"))
    }

    @Test func merchantOnlyInLogoIsMO101() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for your order!\nOrder number: A-10023",
                images: [ImageReference(source: "cid:logo", alt: "Example Outfitters", position: 0)]),
            extraction: Fixtures.confirmationExtraction())
        let finding = broken.findings.first { $0.code == "MO101" }
        #expect(finding?.message.contains("alt text") == true)
        #expect(finding?.severity == .warning)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO101"))
    }

    @Test func merchantOnlyInSenderIsMO101() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for your order!\nOrder number: A-10023", subject: "Order"),
            extraction: Fixtures.confirmationExtraction())
        #expect(broken.findings.first { $0.code == "MO101" }?.message.contains("sender name") == true)
    }

    @Test func orderNumberOnlyInSubjectIsMO102() {
        let broken = checker.check(
            document: Fixtures.confirmation(body: "Thank you for shopping at Example Outfitters!"),
            extraction: Fixtures.confirmationExtraction())
        #expect(Fixtures.codes(broken).contains("MO102"))
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO102"))
    }

    @Test func orderNumberMissingIsMO103() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for shopping at Example Outfitters!", subject: "Thanks"),
            extraction: Fixtures.confirmationExtraction(orderNumber: nil))
        #expect(Fixtures.codes(broken).contains("MO103"))
        #expect(broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO103"))
    }

    @Test func orderNumberOnlyInMarkupIsMO104() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for shopping at Example Outfitters!", subject: "Thanks for your order"),
            extraction: Fixtures.confirmationExtraction())
        #expect(Fixtures.codes(broken).contains("MO104"))
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO104"))
    }

    /// Numbers written in full-width forms ("Ａ－１００２３") are in the body text: the
    /// extractor reads them as ASCII, and the check compares them the same way.
    @Test func fullWidthNumbersInTheBodyAreText() {
        func fullWidth(_ text: String) -> String {
            String(
                String.UnicodeScalarView(
                    text.unicodeScalars.map { scalar in
                        (0x21...0x7E).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0xFEE0)! : scalar
                    }))
        }
        let confirmation = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for shopping at Example Outfitters!\nOrder number: " + fullWidth("A-10023"),
                subject: "Thanks for your order"),
            extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(confirmation).contains("MO104"))
        let shipping = checker.check(
            document: Fixtures.shipping(
                body: "Example Outfitters\nYour order A-10023 has shipped.\nCarrier: UPS\nTracking number: "
                    + fullWidth(Fixtures.validTracking.lowercased()), links: []),
            extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(shipping).contains("MO202"))
        #expect(EmailText.compact(fullWidth("nw-48213 ") + "\u{FF5E}\u{FF5F}") == "NW48213~\u{FF5F}")
    }

    @Test func shippingEmailWithoutTrackingNumberIsMO201() {
        let broken = checker.check(
            document: Fixtures.shipping(
                body: "Example Outfitters\nYour order A-10023 has shipped.", links: []),
            extraction: Fixtures.shippingExtraction(trackingNumber: nil))
        #expect(Fixtures.codes(broken).contains("MO201"))
        #expect(broken.hasErrors)
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO201"))
    }

    @Test func trackingNumberOnlyInsideLinkIsMO202() {
        let broken = checker.check(
            document: Fixtures.shipping(body: "Example Outfitters\nYour order A-10023 has shipped with UPS."),
            extraction: Fixtures.shippingExtraction())
        let finding = broken.findings.first { $0.code == "MO202" }
        #expect(finding?.message.contains("inside a link") == true)
        #expect(finding?.severity == .error)
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO202"))
    }

    @Test func trackingNumberOnlyInImageIsMO202() {
        let broken = checker.check(
            document: Fixtures.shipping(
                body: "Example Outfitters\nYour order A-10023 has shipped with UPS.", links: [],
                images: [
                    ImageReference(
                        source: "cid:barcode", alt: "Tracking \(Fixtures.validTracking)", position: 0)
                ]
            ),
            extraction: Fixtures.shippingExtraction())
        #expect(broken.findings.first { $0.code == "MO202" }?.message.contains("image") == true)
    }

    @Test func carrierNotNamedIsMO203() {
        let broken = checker.check(
            document: Fixtures.shipping(
                body:
                    "Example Outfitters\nYour order A-10023 has shipped.\nTracking number: \(Fixtures.validTracking)"
            ),
            extraction: Fixtures.shippingExtraction())
        #expect(Fixtures.codes(broken).contains("MO203"))
        let unnamed = checker.check(
            document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction(carrier: nil))
        #expect(Fixtures.codes(unnamed).contains("MO203"))
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO203"))
    }

    @Test func noTrackingLinkIsMO204() {
        let broken = checker.check(
            document: Fixtures.shipping(links: []), extraction: Fixtures.shippingExtraction())
        #expect(Fixtures.codes(broken).contains("MO204"))
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO204"))
    }

    @Test func upsCheckDigitOfTheFixtureIsRight() {
        #expect(Fixtures.upsCheckDigit("999AA1012345678") == 4)
    }

    @Test func trackingNumberFailingCheckDigitIsMO205() {
        // The extractor drops the number (its check digit fails), so only the text shows it.
        let body =
            "Example Outfitters\nYour order A-10023 has shipped.\nCarrier: UPS\n"
            + "Tracking number: 1Z 999 AA1 01 2345 6785"
        let broken = checker.check(
            document: Fixtures.shipping(body: body, links: [], markup: []),
            extraction: Fixtures.shippingExtraction(trackingNumber: nil))
        let finding = broken.findings.first { $0.code == "MO205" }
        #expect(finding?.message.contains(Fixtures.invalidTracking) == true)
        #expect(finding?.severity == .error)
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO205"))
    }

    @Test func unlabelledNumberWithoutDistinctiveFormatIsNotMO205() {
        let plain = TrackingNumberFormat(
            id: "twelve", name: "Twelve digits", pattern: "(?<payload>[0-9]{11})(?<check>[0-9])",
            isDistinctive: false, validate: { _, _ in false })
        let checker = MerchantEmailChecker(carriers: [CarrierProfile(id: "x", name: "X", formats: [plain])])
        let quiet = checker.check(
            document: Fixtures.confirmation(
                body: "Example Outfitters\nOrder number: A-10023\nCall 123456789012"),
            extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(quiet).contains("MO205"))
        let labelled = checker.check(
            document: Fixtures.confirmation(
                body: "Example Outfitters\nOrder number: A-10023\nTracking: 493027581926"),
            extraction: Fixtures.confirmationExtraction())
        #expect(Fixtures.codes(labelled).contains("MO205"))
        // The format is named once, with its carrier's name first when it lacks it.
        let named = labelled.findings.first { $0.code == "MO205" }?.message ?? ""
        #expect(named.contains("has the format of X Twelve digits but"), "\(named)")
        let fedEx = TrackingNumberFormat(
            id: "fedex12", name: "FedEx Express (12)", pattern: "(?<payload>[0-9]{11})(?<check>[0-9])",
            isDistinctive: false, validate: { _, _ in false })
        let fedExChecker = MerchantEmailChecker(carriers: [
            CarrierProfile(id: "fedex", name: "FedEx", formats: [fedEx])
        ])
        let fedExReport = fedExChecker.check(
            document: Fixtures.confirmation(
                body: "Example Outfitters\nOrder number: A-10023\nTracking: 493027581926"),
            extraction: Fixtures.confirmationExtraction())
        let fedExMessage = fedExReport.findings.first { $0.code == "MO205" }?.message ?? ""
        #expect(fedExMessage.contains("has the format of FedEx Express (12) but"), "\(fedExMessage)")
        // Digits that count up are a placeholder, not a number with a wrong check digit.
        let placeholder = checker.check(
            document: Fixtures.confirmation(
                body: "Example Outfitters\nOrder number: A-10023\nTracking: 123456789012"),
            extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(placeholder).contains("MO205"))
    }

    @Test func orderNumberOnlyInHiddenTextIsMO301() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for shopping at Example Outfitters!", subject: "Thanks",
                preheader: "Order A-10023 confirmed"),
            extraction: Fixtures.confirmationExtraction())
        #expect(Fixtures.codes(broken).contains("MO301"))
        #expect(broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO301"))
    }

    @Test func trackingNumberOnlyInHiddenTextIsMO302() {
        let broken = checker.check(
            document: Fixtures.shipping(
                body: "Example Outfitters\nYour order A-10023 has shipped with UPS.",
                preheader: "Tracking \(Fixtures.validTracking)"),
            extraction: Fixtures.shippingExtraction())
        #expect(Fixtures.codes(broken).contains("MO302"))
        #expect(!Fixtures.codes(broken).contains("MO202"))
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO302"))
    }

    @Test func orderNumberTheReaderMissedInHiddenTextIsMO301() {
        let broken = checker.check(
            document: Fixtures.confirmation(
                body: "Thank you for shopping at Example Outfitters!", subject: "Thanks",
                preheader: "Order #A-10023 is confirmed"),
            extraction: Fixtures.confirmationExtraction(orderNumber: nil))
        #expect(broken.findings.contains { $0.code == "MO301" && $0.message.contains("A-10023") })
        #expect(!Fixtures.codes(broken).contains("MO103"))
    }

    @Test func trackingNumberTheReaderMissedInHiddenTextIsMO302() {
        let broken = checker.check(
            document: Fixtures.shipping(
                body: "Example Outfitters\nYour order A-10023 has shipped with UPS.", links: [],
                preheader: "Tracking number: 1Z 999 AA1 01 2345 6784"),
            extraction: Fixtures.shippingExtraction(trackingNumber: nil))
        #expect(
            broken.findings.contains { $0.code == "MO302" && $0.message.contains(Fixtures.validTracking) })
        #expect(!Fixtures.codes(broken).contains("MO201"))
    }

    @Test func senderDomainInconsistentAcrossEmailsIsMO401() {
        let other = Sender(
            name: "Example Outfitters", address: "ship@example-mail.net", domain: "example-mail.net",
            registrableDomain: "example-mail.net")
        let confirmation = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(), origin: "a.eml")
        let shipping = checker.check(
            document: Fixtures.shipping(sender: other), extraction: Fixtures.shippingExtraction(),
            origin: "b.eml")
        let findings = checker.crossCheck([confirmation, shipping])
        #expect(findings.map(\.code) == ["MO401"])
        #expect(findings.first?.message.contains("example-mail.net (b.eml)") == true)
        let consistent = checker.check(
            document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction(), origin: "b.eml")
        #expect(checker.crossCheck([confirmation, consistent]).isEmpty)
        #expect(checker.crossCheck([confirmation]).isEmpty)
        var carrierExtraction = Fixtures.shippingExtraction()
        carrierExtraction.kind = .carrierUpdate
        let ups = Sender(
            name: "UPS", address: "mcinfo@ups.com", domain: "ups.com", registrableDomain: "ups.com")
        let carrierEmail = checker.check(
            document: Fixtures.shipping(sender: ups), extraction: carrierExtraction, origin: "ups.eml")
        #expect(checker.crossCheck([confirmation, carrierEmail]).isEmpty)
    }

    @Test func markupAbsentIsMO501Info() {
        let broken = checker.check(
            document: Fixtures.confirmation(markup: []), extraction: Fixtures.confirmationExtraction())
        let finding = broken.findings.first { $0.code == "MO501" }
        #expect(finding?.severity == .info)
        #expect(!broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO501"))
    }

    @Test func markupMissingRequiredPropertyIsMO502() {
        var order = Fixtures.orderMarkup
        order.properties["orderNumber"] = nil
        order.properties["merchant"] = .object(["@type": .string("Organization")])
        let broken = checker.check(
            document: Fixtures.confirmation(markup: [order]), extraction: Fixtures.confirmationExtraction())
        let messages = broken.findings.filter { $0.code == "MO502" }.map(\.message)
        #expect(messages.contains { $0.contains("no orderNumber") })
        #expect(messages.contains { $0.contains("merchant") && $0.contains("no name") })
        var delivery = Fixtures.deliveryMarkup()
        delivery.properties["carrier"] = nil
        let brokenDelivery = checker.check(
            document: Fixtures.shipping(markup: [delivery]), extraction: Fixtures.shippingExtraction())
        #expect(brokenDelivery.findings.contains { $0.code == "MO502" && $0.message.contains("no carrier") })
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO502"))
    }

    @Test func unknownOrderStatusIsMO503() {
        var order = Fixtures.orderMarkup
        order.properties["orderStatus"] = .string("https://schema.org/OrderShipped")
        let broken = checker.check(
            document: Fixtures.confirmation(markup: [order]), extraction: Fixtures.confirmationExtraction())
        #expect(broken.findings.contains { $0.code == "MO503" && $0.message.contains("OrderShipped") })
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO503"))
    }

    @Test func markupTrackingNumberDifferentFromTextIsMO504() {
        let other = "1Z999AA10123456793"
        #expect(Fixtures.upsCheckDigit("999AA1012345679") == 3)
        let broken = checker.check(
            document: Fixtures.shipping(markup: [Fixtures.deliveryMarkup(trackingNumber: other)]),
            extraction: Fixtures.shippingExtraction())
        let finding = broken.findings.first { $0.code == "MO504" }
        #expect(finding?.message.contains(other) == true)
        #expect(finding?.message.contains(Fixtures.validTracking) == true)
        let fixed = checker.check(document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO504"))
    }

    @Test func markupOrderNumberDifferentFromTextIsMO505() {
        var order = Fixtures.orderMarkup
        order.properties["orderNumber"] = .string("A-99999")
        let broken = checker.check(
            document: Fixtures.confirmation(markup: [order]), extraction: Fixtures.confirmationExtraction())
        #expect(broken.findings.contains { $0.code == "MO505" && $0.message.contains("A-99999") })
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO505"))
    }

    @Test func unexpectedKindIsMO601() {
        let broken = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(),
            expect: .shipping)
        let finding = broken.findings.first { $0.code == "MO601" }
        #expect(
            finding?.message
                == "Expected a shipping confirmation, but the email reads as an order confirmation.")
        #expect(broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(),
            expect: .confirmation)
        #expect(!Fixtures.codes(fixed).contains("MO601"))
    }

    /// The fix names the words of the kind given with `--expect`, not always those of a
    /// shipping confirmation.
    @Test func unexpectedKindFixNamesTheExpectedKindsWords() throws {
        func fix(expect: ExpectedKind, shipping: Bool) throws -> String {
            let report =
                shipping
                ? checker.check(
                    document: Fixtures.shipping(), extraction: Fixtures.shippingExtraction(), expect: expect)
                : checker.check(
                    document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(),
                    expect: expect)
            return try #require(report.findings.first { $0.code == "MO601" }?.fix)
        }
        let delivery = try fix(expect: .delivery, shipping: true)
        #expect(delivery.contains("a delivery update"))
        #expect(delivery.contains("\"Your package was delivered\""))
        #expect(delivery.contains("`deliveryUpdate`"))
        #expect(!delivery.contains("shipped"))
        let confirmation = try fix(expect: .confirmation, shipping: true)
        #expect(confirmation.contains("an order confirmation"))
        #expect(confirmation.contains("\"Thank you for your order\""))
        #expect(!confirmation.contains("shipped"))
        let shipping = try fix(expect: .shipping, shipping: false)
        #expect(shipping.contains("a shipping confirmation"))
        #expect(shipping.contains("\"Your order has shipped\""))
        #expect(shipping == FindingCode.kindUnexpectedFix(expected: .shipping))
    }

    /// Every example in a fix is a phrase the English rules read as that kind.
    @Test func unexpectedKindFixExamplesAreKindPhrasesOfTheRules() throws {
        let rules = try Rules.load(from: EndToEndTests.repository.appendingPathComponent("rules"))
        let english = try #require(rules.languages.first { $0.code == "en" })
        for expected in ExpectedKind.allCases {
            let fix = FindingCode.kindUnexpectedFix(expected: expected)
            let examples = fix.split(separator: "\"").enumerated().filter { $0.offset % 2 == 1 }.map {
                $0.element.lowercased()
            }
            #expect(examples.count == 2, "\(fix)")
            let phrases = english.kinds[expected.emailKind.rawValue] ?? []
            for example in examples {
                #expect(phrases.contains { example.contains($0) }, "\(expected): \(example)")
            }
        }
    }

    @Test func notAnOrderWithoutExpectationIsMO602() {
        let broken = checker.check(
            document: MailDocument(
                subject: "Our autumn sale", htmlText: RenderedText(text: "50% off everything")),
            extraction: ExtractionResult(kind: .notAnOrder))
        #expect(Fixtures.codes(broken) == ["MO602"])
        #expect(broken.walletOrderJSON == nil)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO602"))
    }

    @Test func aLimitTheReaderReachedIsMO701() {
        let limit = DocumentWarning(
            partPath: "1", message: "more than 50 line items: the first 50 kept, the rest left out")
        let broken = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction(),
            limitsReached: [limit])
        let finding = broken.findings.first { $0.code == "MO701" }
        #expect(finding?.severity == .warning)
        #expect(
            finding?.message
                == "Part of the email is not read: part 1: more than 50 line items: the first 50 kept, the rest left out."
        )
        #expect(!broken.hasErrors)
        let fixed = checker.check(
            document: Fixtures.confirmation(), extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO701"))
    }

    @Test func everyCodeIsUniqueAndHasAFix() {
        let codes = FindingCode.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        #expect(
            FindingCode.all.allSatisfy { !$0.fix.isEmpty && !$0.title.isEmpty && $0.code.hasPrefix("MO") })
    }

    @Test func findingsAreSortedErrorsFirst() {
        let report = checker.check(
            document: Fixtures.confirmation(body: "Thanks!", subject: "Thanks", markup: []),
            extraction: Fixtures.confirmationExtraction(orderNumber: nil))
        let severities = report.findings.map(\.severity)
        #expect(severities == severities.sorted())
        #expect(severities.first == .error)
    }
}

@Suite struct NameAndNumberMatchingTests {
    @Test func placeholderNumbersAreNotCheckDigitFailures() {
        #expect(MerchantEmailChecker.isPlaceholder("9400100000000000000000"))
        #expect(!MerchantEmailChecker.isPlaceholder(Fixtures.invalidTracking))
    }
}

@Suite struct MarkupSyntaxTests {
    @Test func jsonLDThatIsNotStrictJSONIsMO506() {
        var document = Fixtures.confirmation(markup: [])
        document.jsonLDBlocks = [
            JSONLDBlock(
                text: "{\"@type\": \"Order\", \"orderNumber\": \"A-10023\",}", partPath: "1",
                location: "html/head/script[1]")
        ]
        let broken = Fixtures.checker.check(document: document, extraction: Fixtures.confirmationExtraction())
        let finding = broken.findings.first { $0.code == "MO506" }
        #expect(finding?.message == "The JSON-LD block at html/head/script[1] (part 1) is not valid JSON.")
        #expect(!Fixtures.codes(broken).contains("MO501"))
        document.jsonLDBlocks[0].text = "{\"@type\": \"Order\", \"orderNumber\": \"A-10023\"}"
        let fixed = Fixtures.checker.check(document: document, extraction: Fixtures.confirmationExtraction())
        #expect(!Fixtures.codes(fixed).contains("MO506"))
    }
}
