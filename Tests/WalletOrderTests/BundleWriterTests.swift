import Foundation
import Synchronization
import Testing

@testable import WalletOrder

@Suite struct BundleWriterTests {
    /// Two scans writing the same output at once both create the bundle's folder; the one that
    /// loses the race finds the folder made and goes on.
    @Test func writersRacingForTheSameFolderBothSucceed() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let order = fullOrder()
        let failures = Mutex(0)
        for round in 0..<20 {
            let folder = out.appendingPathComponent("round\(round)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try BundleWriter(outputDirectory: folder, zip: false, signing: nil).write(order)
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
            let bundles = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(bundles.filter { $0 != BundleWriter.stagingFolderName }.count == 1)
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test func writesAFolderBundleThatValidates() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let url = try BundleWriter(outputDirectory: out, zip: false, signing: nil)
            .write(fullOrder(), images: fullOrderImages)
        #expect(url.deletingLastPathComponent().standardizedFileURL == out.standardizedFileURL)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        #expect(names == (["manifest.json", "order.json"] + fullOrderImages.keys).sorted())
        let manifest = try JSONDecoder().decode(
            [String: String].self, from: Data(contentsOf: url.appendingPathComponent("manifest.json")))
        #expect(
            manifest["order.json"]
                == Crypto.sha256Hex(try Data(contentsOf: url.appendingPathComponent("order.json"))))
        let report = BundleValidator().validate(at: url)
        #expect(report.passed, "\(report.issues)")
        #expect(report.has(.unsigned))
    }

    @Test func writesAZipThatPythonsZipfileAccepts() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let url = try BundleWriter(outputDirectory: out, zip: true, signing: nil)
            .write(fullOrder(), images: fullOrderImages)
        #expect(url.pathExtension == "order")
        let report = BundleValidator().validate(at: url)
        #expect(report.passed, "\(report.issues)")

        let script = """
            import sys, zipfile, json
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            print(sorted(z.namelist()))
            print(json.loads(z.read('order.json'))['orderNumber'])
            """
        let (status, output) = try run("/usr/bin/env", ["python3", "-c", script, url.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("'order.json'"))
        #expect(output.contains("A-10023"))
    }

    @Test func zipOfTheSameFilesIsByteForByteStable() throws {
        let entries = [
            Zip.Entry(name: "a.txt", data: Data(repeating: 65, count: 5000)),
            Zip.Entry(name: "b", data: Data()),
        ]
        let archive = Zip.archive(entries)
        #expect(archive == Zip.archive(entries))
        #expect(try Zip.entries(of: archive) == entries)
    }

    @Test func hostileOrderNumbersStayInsideTheOutputFolder() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let hostile = [
            "../../etc/passwd", "/etc/passwd", "..", ".", "a/../../b", "A\u{0}B",
            String(repeating: "9", count: 500),
            "~root", "C:\\Windows\\system32", "   ", "-rf", "订单-123",
        ]
        for (index, number) in hostile.enumerated() {
            var order = fullOrder()
            order.orderNumber = number
            order.orderIdentifier = "id-\(index)"
            order.merchant.displayName = "../\(number)"
            order.merchant.url = "https://merchant.invalid/"
            for zip in [false, true] {
                let url = try BundleWriter(outputDirectory: out, zip: zip, signing: nil).write(order)
                #expect(
                    url.deletingLastPathComponent().standardizedFileURL == out.standardizedFileURL,
                    "\(number)")
                #expect(url.lastPathComponent.utf8.count <= 110)
                #expect(!url.lastPathComponent.hasPrefix("."))
            }
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(entries.filter { $0 != BundleWriter.stagingFolderName }.count == hostile.count * 2)
        #expect(
            !FileManager.default.fileExists(
                atPath: out.deletingLastPathComponent().appendingPathComponent("etc").path))
    }

    @Test func unsafeImageNamesAreRefused() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        for name in [
            "../x.png", "/tmp/x.png", "a/b.png", ".hidden", "order.json", "signature", "x\u{0}.png", "",
        ] {
            #expect(throws: BundleError.unsafeFileName(name)) {
                try BundleWriter(outputDirectory: out, zip: false, signing: nil).write(
                    fullOrder(), images: [name: Data()])
            }
        }
    }

    @Test func rerunUpdatesInPlaceAndUpdatedAtNeverDecreases() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        for zip in [false, true] {
            let writer = BundleWriter(outputDirectory: out, zip: zip, signing: nil)
            var order = fullOrder()
            order.updatedAt = day("2026-11-25T00:00:00Z")
            let first = try writer.write(order, images: fullOrderImages)

            // The same order again, built from older data: the later updatedAt is kept.
            order.updatedAt = day("2026-11-21T00:00:00Z")
            let second = try writer.write(order, images: fullOrderImages)
            #expect(second == first)
            #expect(try readOrder(second, zip: zip).updatedAt == day("2026-11-25T00:00:00Z"))

            // Changed content with an older updatedAt: moves one second past the old one.
            order.status = .completed
            _ = try writer.write(order, images: fullOrderImages)
            #expect(try readOrder(first, zip: zip).updatedAt == day("2026-11-25T00:00:01Z"))

            // Unchanged again: stays put.
            _ = try writer.write(order, images: fullOrderImages)
            #expect(try readOrder(first, zip: zip).updatedAt == day("2026-11-25T00:00:01Z"))
            #expect(BundleValidator().validate(at: first).passed)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            $0.hasPrefix(".") && $0 != BundleWriter.stagingFolderName
        }
        #expect(leftovers.isEmpty)
        let staged = out.appendingPathComponent(BundleWriter.stagingFolderName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staged.path).isEmpty)
    }

    @Test func unchangedRerunLeavesTheBundleUntouchedEvenWithSubMillisecondDates() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        var order = fullOrder()
        order.createdAt = Date(timeIntervalSince1970: 1_795_512_600.123_456_7)
        order.updatedAt = Date(timeIntervalSince1970: 1_795_512_700.987_654_3)
        for zip in [false, true] {
            let writer = BundleWriter(outputDirectory: out, zip: zip, signing: nil)
            let url = try writer.write(order, images: fullOrderImages)
            let file = zip ? url : url.appendingPathComponent("order.json")
            let before = try Data(contentsOf: file)
            let inode =
                try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? NSNumber
            _ = try writer.write(order, images: fullOrderImages)
            let after =
                try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? NSNumber
            #expect(inode == after)
            #expect(try Data(contentsOf: file) == before)
        }
    }

    @Test func rerunRemovesFilesTheNewVersionNoLongerHas() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: false, signing: nil)
        let url = try writer.write(
            fullOrder(), images: fullOrderImages.merging(["old.png": Data("x".utf8)]) { a, _ in a })
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("old.png").path))
        _ = try writer.write(fullOrder(), images: fullOrderImages)
        #expect(!FileManager.default.fileExists(atPath: url.appendingPathComponent("old.png").path))
        #expect(BundleValidator().validate(at: url).passed)
    }

    /// A changed bundle replaces the old folder in one step: the folder at the bundle's path is
    /// a new one holding exactly the new files, and the old one does not linger in the staging
    /// folder. An abandoned staged folder (a writer killed mid-bundle) is removed once old.
    @Test func aChangedFolderBundleIsReplacedWhole() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: false, signing: nil)
        let url = try writer.write(
            fullOrder(), images: fullOrderImages.merging(["old.png": Data("x".utf8)]) { a, _ in a })
        var before = stat()
        #expect(stat(url.path, &before) == 0)
        var changed = fullOrder()
        changed.updatedAt = Date(timeIntervalSince1970: 2_000_000_000)
        let second = try writer.write(changed, images: fullOrderImages)
        #expect(second == url)
        var after = stat()
        #expect(stat(second.path, &after) == 0)
        #expect(before.st_ino != after.st_ino)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: second.path).sorted()
                == (["manifest.json", "order.json"] + fullOrderImages.keys).sorted())
        #expect(BundleValidator().validate(at: second).passed)
        let staging = out.appendingPathComponent(BundleWriter.stagingFolderName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)

        let abandoned = staging.appendingPathComponent("Shop-1-abc.0F2E5C1A-0000-4000-8000-000000000000.tmp")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: false)
        try Data("{}".utf8).write(to: abandoned.appendingPathComponent("order.json"))
        let fresh = staging.appendingPathComponent("Shop-1-abc.1A2B3C4D-0000-4000-8000-000000000000.tmp")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: false)
        let longAgo = Date().addingTimeInterval(-2 * BundleWriter.abandonedTemporaryAge)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: abandoned.path)
        #expect(writer.removeAbandonedTemporaryFiles() == 1)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: staging.path) == [fresh.lastPathComponent])
    }

    /// Files are written whole, without temporary files left beside them, and flushed by one
    /// `synchronize()` for the whole output folder.
    @Test func writesWholeFilesAndSynchronizesOnce() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: false, signing: nil)
        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let url = try writer.write(fullOrder(), images: ["logo.png": big])
        try writer.synchronize()
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        #expect(try Data(contentsOf: url.appendingPathComponent("logo.png")) == big)
        let order = try Order.decode(Data(contentsOf: url.appendingPathComponent("order.json")))
        #expect(order.orderNumber == fullOrder().orderNumber)
        let zipped = BundleWriter(outputDirectory: out, zip: true, signing: nil)
        let archive = try zipped.write(fullOrder())
        try zipped.synchronize()
        #expect(try Zip.entries(of: Data(contentsOf: archive)).map(\.name).contains("order.json"))
    }

    @Test func synchronizeReportsAFolderThatIsGone() throws {
        let out = try temporaryFolder()
        try FileManager.default.removeItem(at: out)
        #expect(throws: BundleError.self) {
            try BundleWriter(outputDirectory: out, zip: false, signing: nil).synchronize()
        }
    }

    /// A rename the file system refuses (a folder holds the zip's name): the write fails with
    /// the system's reason and leaves no temporary file behind.
    @Test func aRefusedWriteLeavesNoTemporaryFile() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: true, signing: nil)
        let blocker = out.appendingPathComponent(BundleWriter.bundleName(for: fullOrder()) + ".order")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("kept"))
        #expect {
            try writer.write(fullOrder())
        } throws: { error in
            guard case .io(_, let reason) = error as? BundleError else { return false }
            return reason.hasPrefix("cannot replace: ")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == [BundleWriter.stagingFolderName, blocker.lastPathComponent].sorted())
        let staging = out.appendingPathComponent(BundleWriter.stagingFolderName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)
    }

    /// Two temporary files a killed writer could have left in `folder`: one older than
    /// ``BundleWriter/abandonedTemporaryAge``, one just written.
    func plantTemporaryFiles(in folder: URL, prefix: String) throws -> (old: URL, fresh: URL) {
        let old = folder.appendingPathComponent(
            prefix + "order.json.0F2E5C1A-0000-4000-8000-000000000000.tmp")
        let fresh = folder.appendingPathComponent(
            prefix + "manifest.json.1A2B3C4D-0000-4000-8000-000000000000.tmp")
        try Data("{".utf8).write(to: old)
        try Data("{".utf8).write(to: fresh)
        let longAgo = Date().addingTimeInterval(-2 * BundleWriter.abandonedTemporaryAge)
        try FileManager.default.setAttributes([.modificationDate: longAgo], ofItemAtPath: old.path)
        return (old, fresh)
    }

    /// A writer killed between writing and renaming leaves its temporary file in the staging
    /// folder, outside every bundle; it is removed once it is an hour old, and a younger one
    /// (perhaps a concurrent writer's) is left alone.
    @Test func temporaryFilesStayOutOfBundlesAndAbandonedOnesAreRemoved() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: false, signing: nil)
        let url = try writer.write(fullOrder())
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: url.path).sorted() == [
                "manifest.json", "order.json",
            ])
        let staging = out.appendingPathComponent(BundleWriter.stagingFolderName)
        #expect(try FileManager.default.contentsOfDirectory(atPath: staging.path).isEmpty)
        let (old, fresh) = try plantTemporaryFiles(in: staging, prefix: "")
        #expect(writer.removeAbandonedTemporaryFiles() == 1)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: staging.path) == [fresh.lastPathComponent])
    }

    /// A symbolic link where the staging folder should be is not followed.
    @Test func aLinkedStagingFolderIsRefused() throws {
        let out = try temporaryFolder()
        let elsewhere = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: elsewhere)
        }
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent(BundleWriter.stagingFolderName), withDestinationURL: elsewhere)
        #expect(throws: BundleError.self) {
            try BundleWriter(outputDirectory: out, zip: true, signing: nil).write(fullOrder())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    /// A writer killed between writing a temporary file and renaming it leaves `.NAME.UUID.tmp`:
    /// the next write removes it once it is old, never a fresh one a concurrent writer may own.
    @Test func abandonedTemporaryFilesAreRemovedOnTheNextWrite() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let writer = BundleWriter(outputDirectory: out, zip: false, signing: nil)
        let url = try writer.write(fullOrder(), images: fullOrderImages)
        let (old, fresh) = try plantTemporaryFiles(in: url, prefix: ".")
        _ = try writer.write(fullOrder(), images: fullOrderImages)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        try FileManager.default.removeItem(at: fresh)
        #expect(BundleValidator().validate(at: url).passed)
    }

    @Test func refusesToWriteThroughASymbolicLinkedBundleFolder() throws {
        let out = try temporaryFolder()
        let elsewhere = try temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: elsewhere)
        }
        let name = BundleWriter.bundleName(for: fullOrder())
        try FileManager.default.createSymbolicLink(
            at: out.appendingPathComponent(name), withDestinationURL: elsewhere)
        #expect(throws: BundleError.self) {
            try BundleWriter(outputDirectory: out, zip: false, signing: nil).write(
                fullOrder(), images: fullOrderImages)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    private func readOrder(_ url: URL, zip: Bool) throws -> Order {
        if zip {
            let entries = try Zip.entries(of: Data(contentsOf: url))
            return try Order.decode(try #require(entries.first { $0.name == "order.json" }).data)
        }
        return try Order.decode(Data(contentsOf: url.appendingPathComponent("order.json")))
    }
}
