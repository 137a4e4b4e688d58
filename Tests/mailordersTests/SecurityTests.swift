import Foundation
import Testing
import WalletOrder

/// Nothing an email says can make the real binary write outside `--out`: hostile order
/// numbers, merchant names and URLs, attachment file names, and `.order` attachments whose
/// zip entries climb out with `../`.
@Suite(.serialized) struct SecurityTests {
    static let hostileNumbers = [
        "../../../../../../tmp/mailorders-escape",
        "/etc/mailorders-escape",
        "..",
        "A1\u{0}/../../escape",
        String(repeating: "9", count: 600) + "/x",
        "C:\\Windows\\escape",
        "%2e%2e%2fescape",
        "~/escape",
    ]

    /// An HTML order email whose JSON-LD carries `orderNumber` and whose merchant is hostile too.
    static func orderEmail(number: String, index: Int) -> String {
        let json =
            (try? JSONSerialization.data(
                withJSONObject: [
                    "@context": "http://schema.org", "@type": "Order", "orderNumber": number,
                    "merchant": [
                        "@type": "Organization", "name": "../../\(number)", "url": "file:///../../etc",
                    ],
                    "orderStatus": "http://schema.org/OrderProcessing",
                ])) ?? Data()
        let jsonText = String(decoding: json, as: UTF8.self)
        return """
            From: "../../evil" <orders@shop-\(index).example>
            To: buyer@mail.example
            Subject: Your order \(number) is confirmed
            Date: Wed, 18 Nov 2026 09:42:00 -0500
            Message-ID: <hostile-\(index)@shop.example>
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="b"

            --b
            Content-Type: text/html; charset=utf-8

            <html><body><script type="application/ld+json">\(jsonText)</script>
            <p>Order number: \(number)</p></body></html>
            --b
            Content-Type: application/pdf; name="../../../escape-\(index).pdf"
            Content-Disposition: attachment; filename="../../../escape-\(index).pdf"; filename*=utf-8''%2F..%2F..%2Fescape
            Content-Transfer-Encoding: base64

            JVBERi0xLjQK
            --b--

            """
    }

    /// An email with a `.order` attachment whose entries climb out of the bundle.
    static func zipSlipEmail() -> String {
        let order = """
            {"schemaVersion":1,"orderTypeIdentifier":"order.com.example.shop","orderIdentifier":"../../zip-escape",\
            "orderNumber":"../../../zip-escape","orderType":"ecommerce","orderManagementURL":"https://shop.example/o",\
            "status":"open","createdAt":"2026-11-18T09:00:00Z","updatedAt":"2026-11-18T09:00:00Z",\
            "merchant":{"merchantIdentifier":"../m","displayName":"../../Shop","url":"https://shop.example"}}
            """
        let zip = StoredZip.archive([
            ("order.json", Array(order.utf8)),
            ("../../../zip-escape.txt", Array("escaped".utf8)),
            ("/tmp/zip-escape-absolute.txt", Array("escaped".utf8)),
            ("logo.png/../../../../zip-escape.png", [0x89, 0x50, 0x4E, 0x47]),
        ])
        return """
            From: Shop <orders@shop.example>
            To: buyer@mail.example
            Subject: Your order ../../../zip-escape
            Date: Wed, 18 Nov 2026 09:42:00 -0500
            Message-ID: <zip-slip@shop.example>
            MIME-Version: 1.0
            Content-Type: multipart/mixed; boundary="b"

            --b
            Content-Type: text/plain; charset=utf-8

            Your order is attached.
            --b
            Content-Type: application/vnd.apple.finance.order; name="../../../escape.order"
            Content-Disposition: attachment; filename="../../../escape.order"
            Content-Transfer-Encoding: base64

            \(Data(zip).base64EncodedString(options: .lineLength76Characters))
            --b--

            """
    }

    /// Every file and folder below `folder`, as paths relative to it.
    static func tree(_ folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var paths: [String] = []
        while let next = enumerator?.nextObject() as? String { paths.append(next) }
        return paths.sorted()
    }

    static func hostileMaildir(in folder: URL) throws -> URL {
        let maildir = folder.appendingPathComponent("Maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(
                at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (index, number) in hostileNumbers.enumerated() {
            try Data(orderEmail(number: number, index: index).utf8).write(
                to: maildir.appendingPathComponent("new/17644000\(index).M\(index)P1.host"))
        }
        try Data(zipSlipEmail().utf8).write(to: maildir.appendingPathComponent("new/1764409999.M99P1.host"))
        return maildir
    }

    @Test(arguments: [false, true])
    func hostileOrderNumbersFileNamesAndZipEntriesStayInsideOut(zip: Bool) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The scan runs from a work folder nested deep enough that `../` chains land in it.
        let work = folder.appendingPathComponent("a/b/c/d/e/f")
        let maildir = try Self.hostileMaildir(in: work)
        let out = work.appendingPathComponent("out")
        let before = Set(Self.tree(folder))
        let result = try CommandRunner.run(
            ["scan", maildir.path, "--out", out.path, "--quiet"] + (zip ? ["--zip"] : []))
        #expect(result.status == 0 || result.status == 1, "\(result.standardError)")
        let created = Set(Self.tree(folder)).subtracting(before)
        #expect(!created.isEmpty)
        for path in created {
            #expect(path.hasPrefix("a/b/c/d/e/f/out"), "written outside --out: \(path)")
        }
        // Every name the binary chose is plain: no separators, no NUL, no leading dot-dot, short.
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            #expect(!name.contains("/") && !name.contains("\u{0}") && !name.hasPrefix(".."), "\(name)")
            #expect(name.utf8.count <= 255, "\(name.prefix(40))…")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/mailorders-escape"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/zip-escape-absolute.txt"))
        #expect(!FileManager.default.fileExists(atPath: "/etc/mailorders-escape"))
    }

    @Test(arguments: hostileNumbers)
    func bundleNamesFromHostileOrderNumbersArePlainFileNames(_ number: String) throws {
        let order = Order(
            orderTypeIdentifier: "order.com.example", orderIdentifier: number, orderNumber: number,
            status: .open, createdAt: Date(timeIntervalSince1970: 0),
            updatedAt: Date(timeIntervalSince1970: 0),
            orderManagementURL: "https://shop.example",
            merchant: Merchant(displayName: number, merchantIdentifier: number, url: "file:///\(number)"))
        let name = BundleWriter.bundleName(for: order)
        #expect(!name.isEmpty && name.utf8.count <= 100)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
        #expect(name.utf8.allSatisfy(allowed.contains), "\(name)")
        #expect(name != "." && name != ".." && !name.hasPrefix("."))
    }
}

/// A stored (uncompressed) zip writer for hostile archives (PKWARE APPNOTE 6.3 §4.3).
enum StoredZip {
    static func archive(_ members: [(String, [UInt8])]) -> [UInt8] {
        var output: [UInt8] = []
        var directory: [UInt8] = []
        for (name, data) in members {
            let crc = crc32(data)
            let nameBytes = Array(name.utf8)
            let offset = output.count
            output += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            output += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            output += le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + data
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0)
            directory += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count))
            directory += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0)
            directory += le32(UInt32(offset)) + nameBytes
        }
        let directoryOffset = output.count
        output += directory
        output +=
            le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(members.count)) + le16(UInt16(members.count))
        output += le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return output
    }

    /// CRC-32 (ISO 3309, reflected polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
