import Foundation
import Testing

@testable import Extraction

@Suite struct CarrierRulesTests {
    @Test func rulesLoadWithEveryExampleFittingItsFormat() throws {
        let catalog = try CarrierCatalog.load(from: CarrierTestSupport.rulesDirectory)
        let formats = catalog.carriers.flatMap(\.formats)
        #expect(formats.count >= 60)
        for format in formats {
            #expect(!format.examples.isEmpty, "format \(format.id) has no example")
        }
    }
}

@Suite struct CarrierRulesErrorTests {
    private func load(_ files: [String: String]) throws(RulesError) -> CarrierCatalog {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("carrier-rules-\(UUID().uuidString)")
        let carriers = folder.appendingPathComponent("carriers")
        try? FileManager.default.createDirectory(at: carriers, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files {
            try? text.write(to: carriers.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try CarrierCatalog.load(from: folder)
    }

    private func error(_ files: [String: String]) -> RulesError? {
        do {
            _ = try load(files)
            return nil
        } catch {
            return error
        }
    }

    /// The rules hand the carriers the tracking labels of the languages they read, which are
    /// the labels the carriers read from the language files on their own.
    @Test func theLanguagesTrackingLabelsAreTheOnesTheCarriersReadThemselves() throws {
        let rules = try Rules.load(from: CarrierTestSupport.rulesDirectory)
        let fromLanguages = rules.languages.flatMap(\.trackingNumberLabels)
        #expect(!fromLanguages.isEmpty)
        #expect(fromLanguages == TrackingLabels.fromLanguageRules(in: CarrierTestSupport.rulesDirectory))
    }

    @Test func aMinimalCarrierFileLoads() throws {
        let catalog = try load([
            "acme.json5": """
            // comments and trailing commas are fine
            { id: "acme", name: "Acme Parcel", formats: [
              { id: "acme-ap", pattern: "AP[0-9]{10}", length: 12, examples: ["AP4820193746"], },
            ], }
            """
        ])
        #expect(catalog.carriers.map(\.id) == ["acme"])
        #expect(catalog.carriers[0].formats[0].context == .carrier)
    }

    @Test func syntaxErrorNamesFileAndLine() throws {
        let failure = try #require(
            error(["bad.json5": "{\n  id: \"bad\",\n  name: \"Bad\"\n  formats: []\n}"]))
        #expect(failure.path.hasSuffix("carriers/bad.json5"))
        #expect(!failure.reason.isEmpty)
    }

    @Test func badPatternIsReported() throws {
        let failure = try #require(
            error([
                "x.json5":
                    "{ id: \"x\", name: \"X\", formats: [{ id: \"x1\", pattern: \"[0-9\", length: 8 }] }"
            ]))
        #expect(failure.reason.contains("x1"))
    }

    @Test func exampleThatFailsItsOwnCheckDigitIsReported() throws {
        let failure = try #require(
            error([
                "x.json5": """
                { id: "x", name: "X", formats: [{ id: "x1", pattern: "(?<payload>[0-9]{9})(?<check>[0-9])",
                  length: 10, checkDigit: { algorithm: "mod7" }, examples: ["3318810024"] }] }
                """
            ]))
        #expect(failure.reason.contains("3318810024"))
    }

    @Test func checkDigitWithoutGroupsAndDuplicateIDsAreReported() throws {
        let noGroups = try #require(
            error([
                "x.json5": """
                { id: "x", name: "X", formats: [{ id: "x1", pattern: "[0-9]{10}", length: 10,
                  checkDigit: { algorithm: "mod7" } }] }
                """
            ]))
        #expect(noGroups.reason.contains("payload"))
        let duplicate = try #require(
            error(["a.json5": "{ id: \"same\", name: \"A\" }", "b.json5": "{ id: \"same\", name: \"B\" }"]))
        #expect(duplicate.reason.contains("duplicate"))
        let unknownAlgorithm = try #require(
            error([
                "x.json5": """
                { id: "x", name: "X", formats: [{ id: "x1", pattern: "(?<payload>[0-9]{9})(?<check>[0-9])",
                  length: 10, checkDigit: { algorithm: "mod97" } }] }
                """
            ]))
        #expect(unknownAlgorithm.path.hasSuffix("x.json5"))
    }

    @Test func counterexamplesInTheRulesAreRejected() {
        let catalog = CarrierTestSupport.catalog
        for carrier in catalog.carriers {
            for format in carrier.formats {
                for counterexample in format.counterexamples {
                    #expect(
                        !catalog.recognize(counterexample).contains {
                            $0.formatID == format.id && $0.checkDigitValid != false
                        }, "\(format.id) \(counterexample)")
                }
            }
        }
    }
}
