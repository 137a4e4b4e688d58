// `mailorders validate` on a bundle: zip framing, order.json schema, images, signature.
import Foundation
import WalletOrder

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        let report = BundleValidator().validate(archive: Data(bytes), name: "fuzz.order")
        consume(report)
    }
}
