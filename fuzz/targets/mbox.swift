// mbox framing (From_ lines, >From quoting, Content-Length) through MessageSource.
import Foundation
import Mailbox

let mboxPath = scratchDirectory.appendingPathComponent("fuzz.mbox")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        guard FileManager.default.createFile(atPath: mboxPath.path, contents: Data(bytes)) else { return }
        let source = MessageSource(paths: [mboxPath.path], maxMessageBytes: 1 << 20)
        var count = 0
        while let next = source.next(), count < 10_000 {
            count += 1
            if case .success(let raw) = next {
                consume(raw.origin.description)
                consume(raw.warnings)
            }
        }
    }
}
