import Foundation
import Testing

@testable import Extraction

/// Inputs the `rules` fuzz target found, minimised.
@Suite struct RulesFileFuzzRegressionTests {
    static func write(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rules-\(UUID().uuidString).json5")
        try Data(bytes).write(to: url)
        return url
    }

    /// `{` then an unquoted key of bytes that are not UTF-8: Foundation's JSON5 scanner
    /// trapped (CodableUtilities.swift:685) instead of throwing.
    static let malformedUnquotedKey: [UInt8] = [0x7B, 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    @Test func anUnquotedKeyThatIsNotUTF8IsARulesErrorNotACrash() throws {
        let url = try Self.write(Self.malformedUnquotedKey)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: RulesError.self) { try RulesFile.decode(CarrierRule.self, from: url) }
        #expect(throws: RulesError.self) { try RulesFile.decode(MerchantRules.self, from: url) }
        #expect(throws: RulesError.self) { try LanguageRules.load(from: url) }
        do {
            _ = try RulesFile.decode(CarrierRule.self, from: url)
        } catch {
            #expect(error.reason == "not UTF-8 text")
            #expect(error.path == url.path)
        }
    }

    @Test func aStringValueThatIsNotUTF8IsRefusedToo() throws {
        let url = try Self.write(Array("{ id: \"".utf8) + [0xC3, 0x28] + Array("\" }".utf8))
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: RulesError.self) { try RulesFile.decode(CarrierRule.self, from: url) }
    }

    /// An empty merchants file (fuzz input `.`): a clear error. Foundation keeps a 4 KiB read
    /// buffer for an empty file (suppressed in `fuzz/lsan.supp`); the file is read once per run.
    @Test func anEmptyRulesFileIsARulesError() throws {
        let url = try Self.write([])
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: RulesError.self) { try RulesFile.decode(MerchantRules.self, from: url) }
    }
}
