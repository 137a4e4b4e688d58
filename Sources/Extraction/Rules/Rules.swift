import Foundation

/// All extraction rules: languages, merchants and the carrier catalog.
public struct Rules: Sendable {
    /// Languages by code, sorted by code.
    public var languages: [LanguageRules]
    public var merchants: MerchantRules
    public var carriers: CarrierCatalog

    public init(languages: [LanguageRules], merchants: MerchantRules, carriers: CarrierCatalog) {
        self.languages = languages
        self.merchants = merchants
        self.carriers = carriers
    }

    /// Loads `languages/*.json5`, `merchants.json5` and the carriers from a rules folder.
    /// - Parameter directory: the `rules/` folder (see ``RulesFile/defaultDirectory(executablePath:)``).
    /// - Returns: the rules.
    /// - Throws: ``RulesError`` naming the first file that cannot be read, its line and the reason.
    public static func load(from directory: URL) throws(RulesError) -> Rules {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) else {
            throw RulesError(path: directory.path, reason: "no such folder")
        }
        guard isFolder.boolValue else {
            throw RulesError(
                path: directory.path, reason: "not a folder (a rules folder holds languages/ and carriers/)")
        }
        let languageFiles = RulesFile.files(in: directory.appendingPathComponent("languages"))
        if languageFiles.isEmpty {
            throw RulesError(
                path: directory.appendingPathComponent("languages").path, reason: "no language files")
        }
        var languages: [LanguageRules] = []
        for file in languageFiles {
            languages.append(try LanguageRules.load(from: file))
        }
        let merchantsFile = directory.appendingPathComponent("merchants.json5")
        var merchants = MerchantRules()
        if FileManager.default.fileExists(atPath: merchantsFile.path) {
            merchants = try RulesFile.decode(MerchantRules.self, from: merchantsFile)
        }
        let carriers = try CarrierCatalog.load(
            from: directory, trackingLabels: languages.flatMap(\.trackingNumberLabels))
        return Rules(languages: languages, merchants: merchants, carriers: carriers)
    }

    /// The rules of one language by code.
    public func language(_ code: String) -> LanguageRules? {
        languages.first { $0.code == code }
    }
}
