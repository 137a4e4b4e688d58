// JSON5 rules files as people share them: the first byte picks a language file, the
// merchants file or a carrier file; a carrier is also compiled into a catalog (patterns,
// examples) since that is what loading does.
import Foundation

@testable import Extraction

let rulesPath = scratchDirectory.appendingPathComponent("fuzz.json5")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        guard let selector = bytes.first else { return }
        guard FileManager.default.createFile(atPath: rulesPath.path, contents: Data(bytes.dropFirst()))
        else { return }
        switch selector % 3 {
        case 0:
            consume(try? LanguageRules.load(from: rulesPath))
        case 1:
            consume(try? RulesFile.decode(MerchantRules.self, from: rulesPath))
        default:
            if let rule = try? RulesFile.decode(CarrierRule.self, from: rulesPath) {
                consume(try? CarrierCatalog(carriers: [rule]))
            }
        }
    }
}
