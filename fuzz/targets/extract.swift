// Extraction on a rendered document: the whole message → document → extractor path.
import Extraction
import MIME
import MailDocument

let extractor: Extractor? = {
    do {
        return Extractor(rules: try Rules.load(from: rulesDirectory))
    } catch {
        print("fuzz extract: cannot load rules from \(rulesDirectory.path): \(error)")
        return nil
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        guard let extractor else { fatalError("no rules") }
        guard let message = try? Message(bytes: bytes) else { return }
        let document = MailDocument(message: message)
        let result = extractor.extract(document)
        consume(result)
    }
}
