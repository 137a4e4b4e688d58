import Foundation
import Testing

@testable import WalletOrder

/// Builds bundle fixtures in a temporary folder: a valid order, changed by each test.
private struct Fixture {
    var files: [String: Data]

    init(files: [String: Data]) { self.files = files }

    /// A valid bundle of `fullOrder()` with its images, its `order.json` edited by `edit`.
    init(edit: (inout [String: Any]) -> Void = { _ in }) throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: fullOrder().jsonData()) as? [String: Any])
        edit(&object)
        files = fullOrderImages
        files["order.json"] = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// Replaces `manifest.json` with the hashes of the current files.
    mutating func seal() {
        var manifest: [String: String] = [:]
        for (name, data) in files where name != "manifest.json" && name != "signature" {
            manifest[name] = Crypto.sha256Hex(data)
        }
        files["manifest.json"] = try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
    }

    func writeFolder(in parent: URL) throws -> URL {
        let folder = parent.appendingPathComponent("bundle-\(UUID().uuidString)", isDirectory: true)
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        return folder
    }

    func writeZip(in parent: URL) throws -> URL {
        let url = parent.appendingPathComponent("bundle-\(UUID().uuidString).order")
        try Zip.archive(files.sorted { $0.key < $1.key }.map { Zip.Entry(name: $0.key, data: $0.value) })
            .write(to: url)
        return url
    }
}

/// Validates a sealed fixture (as a folder and as a zip) after `edit`, expecting `code`.
private func expectIssue(
    _ code: ValidationIssue.Code, at location: String? = nil, fails: Bool = true,
    edit: (inout [String: Any]) -> Void
) throws {
    let parent = try temporaryFolder("validator")
    defer { try? FileManager.default.removeItem(at: parent) }
    var fixture = try Fixture(edit: edit)
    fixture.seal()
    for url in [try fixture.writeFolder(in: parent), try fixture.writeZip(in: parent)] {
        let report = BundleValidator().validate(at: url)
        #expect(report.has(code), "\(code) not in \(report.issues)")
        #expect(report.passed == !fails)
        if let location {
            #expect(report.issues.contains { $0.code == code && $0.location == location }, "\(report.issues)")
        }
    }
}

@Suite struct BundleValidatorTests {
    @Test func validBundlePassesWithOnlyTheUnsignedWarning() throws {
        try expectIssue(.unsigned, fails: false) { _ in }
    }

    @Test func catchesMissingRequiredKey() throws {
        try expectIssue(.missingKey, at: "merchant.displayName") { order in
            var merchant = order["merchant"] as? [String: Any] ?? [:]
            merchant["displayName"] = nil
            order["merchant"] = merchant
        }
    }

    @Test func catchesWrongType() throws {
        try expectIssue(.wrongType, at: "schemaVersion") { $0["schemaVersion"] = "1" }
    }

    @Test func catchesValueOutsideItsEnumeration() throws {
        try expectIssue(.invalidEnum, at: "fulfillments[0].status") { order in
            var fulfillments = order["fulfillments"] as? [[String: Any]] ?? []
            fulfillments[0]["status"] = "orderPlaced"
            order["fulfillments"] = fulfillments
        }
    }

    @Test func catchesDateThatIsNotRFC3339() throws {
        try expectIssue(.invalidDate, at: "createdAt") { $0["createdAt"] = "2026-11-20" }
    }

    @Test func catchesDurationThatIsNotISO8601() throws {
        try expectIssue(.invalidDuration, at: "fulfillments[0].estimatedDeliveryWindowDuration") { order in
            var fulfillments = order["fulfillments"] as? [[String: Any]] ?? []
            fulfillments[0]["estimatedDeliveryWindowDuration"] = "3 days"
            order["fulfillments"] = fulfillments
        }
    }

    @Test func catchesURLThatIsNotAbsolute() throws {
        try expectIssue(.invalidURL, at: "orderManagementURL") { $0["orderManagementURL"] = "orders/A-1" }
    }

    @Test func catchesWebServiceURLWithoutHTTPS() throws {
        try expectIssue(.httpsRequired, at: "webServiceURL") {
            $0["webServiceURL"] = "http://example.com/wallet"
        }
    }

    @Test func catchesOutOfRangeValues() throws {
        try expectIssue(.invalidValue, at: "payment.total.currency") { order in
            order["payment"] = ["status": "paid", "total": ["amount": 1, "currency": "dollars"]]
        }
        try expectIssue(.invalidValue, at: "schemaVersion") { $0["schemaVersion"] = 2 }
        try expectIssue(.invalidValue, at: "authenticationToken") { $0["authenticationToken"] = "short" }
    }

    @Test func catchesUpdatedAtBeforeCreatedAt() throws {
        try expectIssue(.dateOrder, at: "updatedAt") { $0["updatedAt"] = "2020-01-01T00:00:00Z" }
    }

    @Test func catchesReferenceToAFileNotInTheBundle() throws {
        try expectIssue(.missingReference, at: "merchant.logo") { order in
            var merchant = order["merchant"] as? [String: Any] ?? [:]
            merchant["logo"] = "missing.png"
            order["merchant"] = merchant
        }
    }

    @Test func warnsAboutImagesThatAreNeitherPNGNorJPEG() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.files["logo.png"] = Data("GIF89a".utf8)
        fixture.seal()
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.issues.contains { $0.code == .imageFormat && $0.location == "logo.png" })
        #expect(report.issues.filter { $0.code == .imageFormat }.count == 1)
        #expect(report.passed)
    }

    @Test func warnsAboutUnknownKeysWithoutFailing() throws {
        try expectIssue(.unknownKey, at: "trackingUrl", fails: false) {
            $0["trackingUrl"] = "https://x.example/"
        }
    }

    @Test func catchesFileChangedAfterTheManifest() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.seal()
        fixture.files["logo.png"] = Data("changed".utf8)
        for url in [try fixture.writeFolder(in: parent), try fixture.writeZip(in: parent)] {
            let report = BundleValidator().validate(at: url)
            #expect(report.issues.contains { $0.code == .hashMismatch && $0.location == "logo.png" })
            #expect(!report.passed)
        }
    }

    @Test func catchesManifestEntryWithoutAFile() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.seal()
        fixture.files["dark.png"] = nil
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.issues.contains { $0.code == .manifestMissingFile && $0.location == "dark.png" })
        #expect(report.has(.missingReference))
    }

    @Test func catchesFileNotListedInTheManifest() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.seal()
        fixture.files[".DS_Store"] = Data("junk".utf8)
        fixture.files["en.lproj/order.strings"] = Data("\"a\" = \"b\";".utf8)
        for url in [try fixture.writeFolder(in: parent), try fixture.writeZip(in: parent)] {
            let report = BundleValidator().validate(at: url)
            #expect(report.issues.contains { $0.code == .unlistedFile && $0.location == ".DS_Store" })
            #expect(
                report.issues.contains { $0.code == .unlistedFile && $0.location == "en.lproj/order.strings" }
            )
        }
    }

    @Test func catchesMissingOrderAndManifestFiles() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.files["order.json"] = nil
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.issues.contains { $0.code == .missingFile && $0.location == "order.json" })
        #expect(report.issues.contains { $0.code == .missingFile && $0.location == "manifest.json" })
    }

    @Test func catchesOrderJSONThatDoesNotParse() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.files["order.json"] = Data("{\"schemaVersion\": 1,".utf8)
        fixture.seal()
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.issues.contains { $0.code == .invalidJSON && $0.location == "order.json" })
        #expect(!report.passed)
    }

    @Test func catchesBundleOfFiveMegabytesOrMore() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.files["big.bin"] = Data(count: 5_000_000)
        fixture.seal()
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.has(.tooLarge))
        #expect(!report.passed)
    }

    @Test func catchesSignatureThatIsNotPKCS7() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.seal()
        fixture.files["signature"] = Data("not a signature".utf8)
        let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
        #expect(report.issues.contains { $0.code == .badSignature && $0.location == "signature" })
    }

    @Test func catchesSymbolicLinkInAFolderBundle() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var fixture = try Fixture()
        fixture.seal()
        let folder = try fixture.writeFolder(in: parent)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("passwd"),
            withDestinationURL: URL(fileURLWithPath: "/etc/passwd"))
        let report = BundleValidator().validate(at: folder)
        #expect(report.issues.contains { $0.code == .unsafePath && $0.location == "passwd" })
        #expect(!report.passed)
    }

    @Test func catchesMissingBundle() {
        let report = BundleValidator().validate(at: URL(fileURLWithPath: "/nonexistent/x.order"))
        #expect(report.has(.unreadable))
        #expect(![report].allPassed)
    }

    @Test func rejectsZipEntryNamesThatClimbOutOfTheBundle() throws {
        for name in ["../evil.png", "/etc/passwd", "a/../../b", "a\\..\\b"] {
            let archive = Zip.archive([Zip.Entry(name: name, data: Data("x".utf8))])
            #expect(throws: Zip.ReadError.unsafeName(name)) { try Zip.entries(of: archive) }
        }
        // A control character in a name: refused, and said for what it is.
        let escape = "order\u{1B}[31m.json"
        let archive = Zip.archive([Zip.Entry(name: escape, data: Data("x".utf8))])
        #expect(throws: Zip.ReadError.unsafeName(escape)) { try Zip.entries(of: archive) }
        #expect(
            Zip.ReadError.unsafeName(escape).description
                == "unsafe entry name \"order\\u{1B}[31m.json\": an absolute path, \"..\", a control character, "
                + "a backslash or more than 4 levels")
    }

    @Test func rejectsZipBombsAndTooManyEntries() throws {
        let bomb = Zip.archive([Zip.Entry(name: "zeros", data: Data(count: 4 << 20))])
        #expect(bomb.count < 20_000)
        #expect(throws: Zip.ReadError.self) { try Zip.entries(of: bomb) }

        let many = Zip.archive((0..<1001).map { Zip.Entry(name: "f\($0)", data: Data()) })
        #expect(throws: Zip.ReadError.self) { try Zip.entries(of: many) }

        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let url = parent.appendingPathComponent("bomb.order")
        try bomb.write(to: url)
        let report = BundleValidator().validate(at: url)
        #expect(report.has(.badArchive))
    }

    @Test func rejectsTruncatedAndCorruptedZips() throws {
        var fixture = try Fixture()
        fixture.seal()
        let archive = Zip.archive(
            fixture.files.sorted { $0.key < $1.key }.map { Zip.Entry(name: $0.key, data: $0.value) })
        #expect(throws: Zip.ReadError.self) { try Zip.entries(of: archive.prefix(archive.count - 5)) }
        #expect(throws: Zip.ReadError.self) { try Zip.entries(of: Data("PK\u{5}\u{6}".utf8)) }
        for position in [8, 14, 20, 31, 40, 45] {
            var corrupted = archive
            corrupted[position] ^= 0xFF
            #expect(throws: Zip.ReadError.self, "byte \(position)") { try Zip.entries(of: corrupted) }
        }
        // Every truncation point fails cleanly rather than crashing.
        for length in stride(from: 0, to: archive.count, by: 37) {
            _ = try? Zip.entries(of: archive.prefix(length))
        }
    }

    @Test func acceptsABundleInTheShapeOtherToolsWrite() throws {
        let json = """
            {
              "schemaVersion": 1, "orderTypeIdentifier": "order.com.example.shop", "orderIdentifier": "b9d1",
              "orderType": "ecommerce", "orderNumber": "A-1001", "status": "open",
              "createdAt": "2025-06-02T12:30:00Z", "updatedAt": "2025-06-02T14:30:00.000+02:00",
              "orderManagementURL": "https://shop.example/orders/A-1001",
              "merchant": {"displayName": "ORDER_MERCHANT", "merchantIdentifier": "merchant.com.example.shop",
                           "url": "https://shop.example/", "logo": "logo.png"},
              "payment": {"status": "paid", "total": {"amount": 28.8, "currency": "USD"},
                          "summaryItems": [{"label": "Tax", "value": {"amount": "2.40", "currency": "USD"}}]},
              "fulfillments": [{"fulfillmentType": "pickup", "fulfillmentIdentifier": "p1",
                                "displayName": "Bakery", "status": "readyForPickup",
                                "pickupWindowDuration": "P0Y0M0DT0H30M0S",
                                "location": {"latitude": 37.3, "longitude": -122.0}}]
            }
            """
        var files: [String: Data] = [
            "order.json": Data(json.utf8), "logo@2x.png": png("logo"),
            "en.lproj/order.strings": Data(#""ORDER_MERCHANT" = "Bakery";"#.utf8),
        ]
        var manifest: [String: String] = [:]
        for (name, data) in files { manifest[name] = Crypto.sha256Hex(data).uppercased() }
        files["manifest.json"] = try JSONSerialization.data(withJSONObject: manifest)
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let fixture = Fixture(files: files)
        for url in [try fixture.writeFolder(in: parent), try fixture.writeZip(in: parent)] {
            let report = BundleValidator().validate(at: url)
            #expect(report.passed, "\(report.issues)")
            #expect(report.issues.map(\.code) == [.unsigned])
        }
        // And the model reads it and writes it back with nothing lost.
        let order = try Order.decode(Data(json.utf8))
        #expect(try Order.decode(order.jsonData()) == order)
    }

    @Test func hostileOrderJSONIsReportedNotCrashedOn() throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var generator = SystemRandomNumberGenerator()
        let hostile: [Data] = [
            Data(String(repeating: "[", count: 10_000).utf8),
            Data(
                (String(repeating: "{\"a\":", count: 1000) + "1" + String(repeating: "}", count: 1000)).utf8),
            Data(#"{"schemaVersion": 1e400, "createdAt": 12, "merchant": [], "fulfillments": {}}"#.utf8),
            Data(#"{"fulfillments": [1, null, {"fulfillmentType": 3}, {"fulfillmentType": "pickup"}]}"#.utf8),
            Data(#"{"payment": {"total": {"amount": "1e5", "currency": 5}}, "lineItems": "x"}"#.utf8),
            Data([0xFF, 0xFE, 0x00, 0x7B]),
            Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }),
            Data("[]".utf8),
        ]
        for json in hostile {
            var fixture = try Fixture()
            fixture.files["order.json"] = json
            fixture.files["signature"] = Data(
                (0..<300).map { _ in UInt8.random(in: 0...255, using: &generator) })
            fixture.seal()
            let report = BundleValidator().validate(at: try fixture.writeFolder(in: parent))
            #expect(!report.passed)
        }
    }

    @Test func validatesAnArchiveHeldInMemory() throws {
        var fixture = try Fixture()
        fixture.seal()
        let archive = Zip.archive(fixture.files.map { Zip.Entry(name: $0.key, data: $0.value) })
        #expect(BundleValidator().validate(archive: archive, name: "attachment.order").passed)
        let report = BundleValidator().validate(archive: Data("not a zip".utf8), name: "x")
        #expect(report.has(.badArchive))
        #expect(report.bundle == "x")
    }

    @Test func reportsEncodeAsJSONWithPassedFlag() throws {
        let report = BundleValidationReport(
            bundle: "x.order", issues: [.init(.error, .missingKey, at: "merchant", "required key is missing")]
        )
        let text = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(text.contains("\"passed\":false"))
        #expect(try JSONDecoder().decode(BundleValidationReport.self, from: Data(text.utf8)) == report)
        #expect([BundleValidationReport(bundle: "a")].allPassed)
    }
}
