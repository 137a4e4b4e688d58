// The `.order` zip reader used on email attachments (entries, inflate, limits).
import MailDocument

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    withInput(data, size) { bytes in
        if let entries = try? OrderBundleReader.listEntries(bytes) {
            for entry in entries.prefix(20) {
                consume(try? OrderBundleReader.extract(entry, from: bytes))
            }
        }
        consume(try? OrderBundleReader.readOrder(bytes))
    }
}
