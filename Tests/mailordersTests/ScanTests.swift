import Foundation
import OrderStore
import Testing

/// The main job, end to end, through the built binary.
@Suite(.serialized) struct ScanTests {
    static let example = CommandRunner.repository.appendingPathComponent("examples/Maildir").path

    /// The summary object `scan … --json` printed.
    func scanSummary(of result: CommandRunner.Output) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    }

    func orders(in out: URL) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["orders", "--out", out.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
        if let list = object as? [[String: Any]] { return list }
        return (object as? [String: Any])?["orders"] as? [[String: Any]] ?? []
    }

    @Test func scansTheExampleMaildirIntoThreeLinkedOrders() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json", "--quiet"])
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try scanSummary(of: result)
        #expect(summary["messagesRead"] as? Int == 13)
        #expect(summary["ordersCreated"] as? Int == 3)
        #expect(summary["notOrders"] as? Int == 4)
        #expect(summary["unlinkedShipments"] as? Int == 0)
        #expect((summary["skipped"] as? [Any])?.isEmpty == true)

        let bundles = try FileManager.default.contentsOfDirectory(atPath: out.path).filter {
            !$0.contains(".sqlite") && !$0.hasPrefix(".")
        }
        #expect(bundles.count == 3)
        let byNumber = Dictionary(
            try bundles.map { name -> (String, [String: Any]) in
                let data = try Data(
                    contentsOf: out.appendingPathComponent(name).appendingPathComponent("order.json"))
                let order = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                return (order["orderNumber"] as? String ?? "", order)
            }, uniquingKeysWith: { first, _ in first })
        // Northwind: confirmation, shipping email and two UPS emails make one delivered order.
        let northwind = try #require(byNumber["NW-48213"])
        #expect(northwind["status"] as? String == "completed")
        #expect(
            (northwind["merchant"] as? [String: Any])?["displayName"] as? String == "Northwind Outfitters")
        let ups = try #require((northwind["fulfillments"] as? [[String: Any]])?.first)
        #expect(ups["carrier"] as? String == "UPS")
        #expect(ups["trackingNumber"] as? String == "1ZA7X9252601815900")
        #expect(ups["status"] as? String == "delivered")
        // Kaffeerösterei Bergmann: DHL Paket, the DHL email joins through the tracking number.
        let bergmann = try #require(byNumber["2026-11-30417"])
        #expect(
            (bergmann["merchant"] as? [String: Any])?["displayName"] as? String == "Kaffeerösterei Bergmann")
        let dhl = try #require((bergmann["fulfillments"] as? [[String: Any]])?.first)
        #expect(dhl["trackingNumber"] as? String == "00340434909378657970")
        #expect(dhl["carrier"] as? String == "DHL Paket")
        #expect(dhl["status"] as? String == "outForDelivery")
        #expect(bergmann["status"] as? String == "open")
        // 한빛문구: EUC-KR mail, CJ대한통운.
        let hanbit = try #require(byNumber["20261122-0001583"])
        #expect((hanbit["merchant"] as? [String: Any])?["displayName"] as? String == "한빛문구")
        let cj = try #require((hanbit["fulfillments"] as? [[String: Any]])?.first)
        #expect(cj["carrier"] as? String == "CJ대한통운")
        #expect(cj["trackingNumber"] as? String == "630824628195")
        #expect(cj["status"] as? String == "shipped")
        #expect(
            (hanbit["payment"] as? [String: Any]).flatMap { $0["total"] as? [String: Any] }?["currency"]
                as? String == "KRW")

        let validation = try CommandRunner.run(
            ["validate"] + bundles.map { out.appendingPathComponent($0).path })
        #expect(validation.status == 0, "\(validation.standardOutput)")
    }

    /// A carrier email that arrives before its order's confirmation is a shipment-only record,
    /// counted apart from orders; once the confirmation comes, it joins the order.
    @Test func aCarrierEmailBeforeItsOrderIsAShipmentRecordNotAnOrder() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let thread = CommandRunner.repository.appendingPathComponent(
            "Corpus/thread-de-carrier-before-merchant-dpd")
        let out = folder.appendingPathComponent("orders")
        let first = try CommandRunner.run([
            "scan", thread.appendingPathComponent("1-dpd-paket-unterwegs.eml").path, "--out", out.path,
            "--json",
            "--quiet",
        ])
        #expect(first.status == 0, "\(first.standardError)")
        let before = try scanSummary(of: first)
        #expect(before["ordersCreated"] as? Int == 0)
        #expect(before["shipmentRecordsCreated"] as? Int == 1)
        #expect(before["unlinkedShipments"] as? Int == 1)
        let second = try CommandRunner.run([
            "scan", thread.appendingPathComponent("2-waldkauz-versandbestaetigung.eml").path, "--out",
            out.path,
            "--json", "--quiet",
        ])
        let after = try scanSummary(of: second)
        #expect(after["ordersCreated"] as? Int == 1)
        #expect(after["shipmentRecordsCreated"] as? Int == 0)
        #expect(after["unlinkedShipments"] as? Int == 0)
        #expect(after["bundlesRemoved"] as? Int == 1)
    }

    /// A bundle that cannot be written is listed apart from skipped messages (its messages are
    /// stored), the exit status says so, and the next run writes it.
    @Test func bundlesNotWrittenAreListedApartAndWrittenByTheNextRun() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // A file where the staging folder for bundle files goes: no bundle can be written.
        let blocker = out.appendingPathComponent(".mailorders-staging")
        try Data("not a folder".utf8).write(to: blocker)
        let first = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json"])
        #expect(first.status == 1)
        let summary = try scanSummary(of: first)
        #expect((summary["skipped"] as? [Any])?.isEmpty == true)
        let notWritten = try #require(summary["notWritten"] as? [[String: Any]])
        #expect(notWritten.count == 3)
        #expect(notWritten.allSatisfy { ($0["subject"] as? String)?.hasPrefix("order ") == true })
        #expect(first.standardError.contains("Not written (3)"))
        #expect(!first.standardError.contains("Skipped"))

        try FileManager.default.removeItem(at: blocker)
        let second = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json", "--quiet"])
        #expect(second.status == 0)
        let again = try scanSummary(of: second)
        #expect(again["alreadyApplied"] as? Int == 13)
        #expect(again["bundlesWritten"] as? Int == 3)
        #expect(try orders(in: out).count == 3)
    }

    /// A quiet run (from cron) still leaves its summary, skipped messages included, in the
    /// output folder.
    @Test func aQuietRunLeavesItsSummaryInTheOutputFolder() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junk = folder.appendingPathComponent("junk.eml")
        try Data([0, 1, 2, 3, 0xFF, 0xFE]).write(to: junk)
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(["scan", Self.example, junk.path, "--out", out.path, "--quiet"])
        #expect(result.status == 1)
        // Nothing printed (a sanitizer's own report at exit aside).
        #expect(result.standardOutput.isEmpty)
        #expect(!result.standardError.contains("Read ") && !result.standardError.contains("Skipped"))
        let record = try Data(contentsOf: out.appendingPathComponent(".mailorders-last-scan.json"))
        let summary = try #require(try JSONSerialization.jsonObject(with: record) as? [String: Any])
        #expect(summary["messagesRead"] as? Int == 14)
        let skipped = try #require(summary["skipped"] as? [[String: Any]])
        #expect(skipped.count == 1 && (skipped.first?["origin"] as? String)?.hasSuffix("junk.eml") == true)
    }

    /// Text files beside the mail (a README, expected JSON) have no header field: they are
    /// reported and skipped, not read as bodies of messages.
    @Test func filesWithoutAnyHeaderFieldAreSkippedNotRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mail = folder.appendingPathComponent("mail")
        try FileManager.default.createDirectory(at: mail, withIntermediateDirectories: true)
        try Data("# Notes\n\nOrder number: NW-448201\nTracking number: 1Z8A4F290361537848\n".utf8).write(
            to: mail.appendingPathComponent("README.md"))
        try Data(#"{"orderNumber": "NW-448201", "kind": "shippingConfirmation"}"#.utf8).write(
            to: mail.appendingPathComponent("case.expected.json"))
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(["scan", mail.path, "--out", out.path, "--json", "--quiet"])
        #expect(result.status == 1)
        let summary = try scanSummary(of: result)
        let skipped = try #require(summary["skipped"] as? [[String: Any]])
        #expect(skipped.count == 2)
        #expect(skipped.allSatisfy { ($0["reason"] as? String)?.contains("no header field") == true })
        #expect(try orders(in: out).isEmpty)
    }

    @Test func aSecondRunAppliesNothingAndKeepsBundlesAsTheyWere() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        _ = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--quiet"])
        let before = try orders(in: out)
        let second = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json", "--quiet"])
        #expect(second.status == 0)
        let summary = try scanSummary(of: second)
        #expect(summary["alreadyApplied"] as? Int == 13)
        #expect(summary["ordersCreated"] as? Int == 0)
        #expect(summary["bundlesWritten"] as? Int == 0)
        let after = try orders(in: out)
        #expect(after.count == before.count)

        // Re-delivered copies (same Message-ID, one more Received field): already applied,
        // and not counted again as "not about orders".
        let copies = folder.appendingPathComponent("copies/cur")
        try FileManager.default.createDirectory(at: copies, withIntermediateDirectories: true)
        let originals = URL(fileURLWithPath: Self.example).appendingPathComponent("cur")
        for name in try FileManager.default.contentsOfDirectory(atPath: originals.path) {
            let bytes = try Data(contentsOf: originals.appendingPathComponent(name))
            try
                (Data("Received: from relay.example by mx.example; Mon, 30 Nov 2026 09:00:00 +0000\r\n".utf8)
                + bytes)
                .write(to: copies.appendingPathComponent(name))
        }
        let third = try CommandRunner.run(
            ["scan", copies.deletingLastPathComponent().path, "--out", out.path, "--json", "--quiet"])
        let thirdSummary = try scanSummary(of: third)
        #expect((thirdSummary["alreadyApplied"] as? Int ?? 0) > 0)
        #expect(thirdSummary["notOrders"] as? Int == 0)
    }

    @Test func copiesInEveryBatchCountAsAlreadyAppliedWithAnyNumberOfJobs() throws {
        // 13 messages 20 times over (260 files): copies fall in the same batch, in the batches
        // still being hashed or processed while an earlier one is applied (batches of 32, 64
        // and 96 messages with 1, 2 and 3 jobs), and in later batches.
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = folder.appendingPathComponent("Maildir/cur")
        try FileManager.default.createDirectory(at: maildir, withIntermediateDirectories: true)
        let files = try ["cur", "new"].flatMap { sub in
            try FileManager.default.contentsOfDirectory(atPath: Self.example + "/" + sub).sorted().map {
                sub + "/" + $0
            }
        }
        #expect(files.count == 13)
        for copy in 0..<20 {
            for file in files {
                try FileManager.default.copyItem(
                    atPath: Self.example + "/" + file,
                    toPath: maildir.appendingPathComponent("\(copy)-\(file.dropFirst(4))").path)
            }
        }
        var listings: [[String]] = []
        for jobs in ["1", "2", "3"] {
            let out = folder.appendingPathComponent("orders-\(jobs)")
            let result = try CommandRunner.run(
                [
                    "scan", maildir.deletingLastPathComponent().path, "--out", out.path, "--json", "--quiet",
                    "--jobs", jobs,
                ])
            #expect(result.status == 0, "\(result.standardError)")
            let summary = try scanSummary(of: result)
            #expect(summary["messagesRead"] as? Int == 260)
            #expect(summary["alreadyApplied"] as? Int == 247, "jobs \(jobs)")
            #expect(summary["ordersCreated"] as? Int == 3)
            #expect(summary["notOrders"] as? Int == 4, "jobs \(jobs)")
            listings.append(
                try orders(in: out).map { "\($0["orderNumber"] ?? "") \($0["status"] ?? "")" }.sorted())
        }
        #expect(listings[0].count == 3)
        #expect(listings[1] == listings[0])
        #expect(listings[2] == listings[0])
    }

    /// A byte-for-byte copy and a re-delivery (same Message-ID, another header) of a message,
    /// in the same batch as the message itself (15 messages, one batch of 16 with `--jobs 1`):
    /// already applied, listed with the order, and the orders are those of the mailbox without them.
    @Test func duplicatesInTheSameBatchAsTheirOriginalAreAlreadyApplied() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("orders-plain")
        let reference = try CommandRunner.run(["scan", Self.example, "--out", plain.path, "--quiet"])
        #expect(reference.status == 0, "\(reference.standardError)")
        let expected = try orders(in: plain).map { "\($0["orderNumber"] ?? "") \($0["status"] ?? "")" }
            .sorted()
        #expect(expected.count == 3)

        let maildir = folder.appendingPathComponent("Maildir/cur")
        try FileManager.default.createDirectory(at: maildir, withIntermediateDirectories: true)
        for sub in ["cur", "new"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: Self.example + "/" + sub) {
                try FileManager.default.copyItem(
                    atPath: Self.example + "/" + sub + "/" + name,
                    toPath: maildir.appendingPathComponent(name).path)
            }
        }
        // Northwind's confirmation (NW-48213) and its two duplicates are the first three messages
        // read (the duplicates' names sort first).
        let original = maildir.appendingPathComponent("1764400001.M1P4242.mailhost:2,S")
        let bytes = try Data(contentsOf: original)
        #expect(String(decoding: bytes, as: UTF8.self).contains("NW-48213"))
        let copy = maildir.appendingPathComponent("1764400001.M1P4242.mailhost2:2,S")
        try bytes.write(to: copy)
        let redelivered = maildir.appendingPathComponent("1764400001.M1P4242.mailhost3:2,S")
        try (Data("X-Redelivered: yes\r\n".utf8) + bytes).write(to: redelivered)

        for jobs in ["1", "2"] {
            let out = folder.appendingPathComponent("orders-\(jobs)")
            let result = try CommandRunner.run(
                [
                    "scan", maildir.deletingLastPathComponent().path, "--out", out.path, "--json", "--quiet",
                    "--jobs", jobs,
                ])
            #expect(result.status == 0, "\(result.standardError)")
            let summary = try scanSummary(of: result)
            #expect(summary["messagesRead"] as? Int == 15, "jobs \(jobs)")
            #expect(summary["alreadyApplied"] as? Int == 2, "jobs \(jobs)")
            #expect(summary["ordersCreated"] as? Int == 3, "jobs \(jobs)")
            #expect(summary["notOrders"] as? Int == 4, "jobs \(jobs)")
            #expect((summary["skipped"] as? [Any])?.isEmpty == true, "jobs \(jobs)")
            #expect(
                try orders(in: out).map { "\($0["orderNumber"] ?? "") \($0["status"] ?? "")" }.sorted()
                    == expected, "jobs \(jobs)")

            let store = try SQLiteOrderStore(path: out.appendingPathComponent("mailorders.sqlite").path)
            let northwind = try #require(try store.orders().first { $0.orderNumber == "NW-48213" })
            let origins = try store.origins(orderID: northwind.id)
            #expect(origins.contains(original.path) && origins.contains(copy.path))
            #expect(origins.contains(redelivered.path))
            #expect(try store.messageCount() == 13)
            store.close()

            let again = try CommandRunner.run(
                [
                    "scan", maildir.deletingLastPathComponent().path, "--out", out.path, "--json", "--quiet",
                    "--jobs", jobs,
                ])
            let second = try scanSummary(of: again)
            #expect(second["alreadyApplied"] as? Int == 15, "jobs \(jobs)")
            #expect(second["bundlesWritten"] as? Int == 0, "jobs \(jobs)")
        }
    }

    @Test func skipsJunkAndEmptyFilesReportsThemAndExitsOne() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = folder.appendingPathComponent("Maildir")
        try FileManager.default.copyItem(atPath: Self.example, toPath: maildir.path)
        var junk = [UInt8](repeating: 0, count: 4096)
        for index in junk.indices { junk[index] = UInt8((index * 7919) & 0xFF) }
        try Data(junk).write(to: maildir.appendingPathComponent("cur/1764499998.junk:2,S"))
        try Data().write(to: maildir.appendingPathComponent("new/1764499999.empty"))
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(["scan", maildir.path, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("1764499999.empty"))
        #expect(result.standardError.contains("1764499998.junk"))
        #expect(result.standardError.contains("orders: 3 new"))
    }

    /// `--json` gives a skipped message's origin and byte offset as two fields, and counts
    /// the messages read with repairs.
    @Test func skippedMessagesCarryTheirByteOffsetInJSON() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mbox = folder.appendingPathComponent("in.mbox")
        let text =
            "stray bytes\nFrom a\nSubject: one\n\nhello\n\nFrom b\nSubject: two\n"
            + "Content-Type: text/plain; charset=x-klingon-9\n\nhi\n\nFrom c\nSubject: cut\n\nhal"
        try Data(text.utf8).write(to: mbox)
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(["scan", mbox.path, "--out", out.path, "--json", "--quiet"])
        #expect(result.status == 1, "\(result.standardError)")
        let summary = try scanSummary(of: result)
        let skipped = try #require(summary["skipped"] as? [[String: Any]])
        #expect(skipped.count == 2, "\(skipped)")
        #expect(skipped.first?["origin"] as? String == mbox.path)
        #expect(skipped.first?["byteOffset"] as? Int == 0)
        #expect((skipped.first?["reason"] as? String)?.contains("before the mbox's first From line") == true)
        #expect(skipped.last?["origin"] as? String == mbox.path + "#3")
        let cutOffset = text.utf8.count - "Subject: cut\n\nhal".utf8.count
        #expect(skipped.last?["byteOffset"] as? Int == cutOffset)
        #expect(summary["repairedCount"] as? Int == 1)
        let repaired = try #require(summary["repaired"] as? [[String: Any]])
        #expect(repaired.first?["origin"] as? String == mbox.path + "#2")
    }

    /// The mailbox itself, or a folder that holds it, cannot be the output folder: everything
    /// would be left out of the reading.
    @Test func theMailboxCannotBeTheOutputFolder() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = folder.appendingPathComponent("Maildir")
        try FileManager.default.copyItem(atPath: Self.example, toPath: maildir.path)
        for out in [maildir.path, maildir.path + "/", folder.path, maildir.path + "/cur/.."] {
            let result = try CommandRunner.run(["scan", maildir.path, "--out", out, "--quiet"])
            #expect(result.status == 2, "\(out)")
            #expect(result.standardError.contains("is the mailbox"), "\(result.standardError)")
        }
        let inside = try CommandRunner.run([
            "scan", maildir.path, "--out", maildir.path + "/orders", "--quiet",
        ])
        #expect(inside.status == 0, "\(inside.standardError)")
    }

    /// An output folder inside the mailbox (bundles, database, its -wal and -shm) is not read
    /// back as mail on the next run.
    @Test func anOutputFolderInsideTheMailboxIsNotReadAsMail() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let maildir = folder.appendingPathComponent("Maildir")
        try FileManager.default.copyItem(atPath: Self.example, toPath: maildir.path)
        let out = maildir.appendingPathComponent("orders")
        for _ in 0..<2 {
            let result = try CommandRunner.run(["scan", maildir.path, "--out", out.path, "--json", "--quiet"])
            #expect(result.status == 0, "\(result.standardError)")
            let summary = try scanSummary(of: result)
            #expect(summary["messagesRead"] as? Int == 13)
            #expect((summary["skipped"] as? [Any])?.isEmpty == true)
        }
        // Spelled another way (with `..`), it is still the same folder.
        let other = maildir.appendingPathComponent("cur/../orders")
        let again = try CommandRunner.run(["scan", maildir.path, "--out", other.path, "--quiet"])
        #expect(again.status == 0, "\(again.standardError)")
    }

    /// Mail kept in the folder chosen as the output folder is read, on the first run and on
    /// every later one, with this output folder or another (the watermark left there does not
    /// hide it); only what the scan wrote there is passed over. The same with a Maildir's
    /// `cur/` as the output folder.
    @Test func mailInsideTheOutputFolderIsRead() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mail = folder.appendingPathComponent("mail")
        let archive = mail.appendingPathComponent("archive")
        let box = archive.appendingPathComponent("box")
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.example, toPath: box.path)
        let elsewhere = folder.appendingPathComponent("elsewhere").path
        // The second run reads the first one's bundles beside the mail, the third its zipped
        // bundles (`.order` files) too.
        let runs: [(out: String, options: [String], created: Int)] = [
            (archive.path, [], 3), (archive.path, [], 0), (archive.path, ["--zip"], 0), (archive.path, [], 0),
            (elsewhere, [], 3), (box.path + "/cur", [], 3),
        ]
        for (out, options, created) in runs {
            let result = try CommandRunner.run(
                ["scan", mail.path, "--out", out, "--json", "--quiet"] + options)
            #expect(result.status == 0, "\(out): \(result.standardError)")
            let summary = try scanSummary(of: result)
            #expect(summary["messagesRead"] as? Int == 13, "\(out)")
            #expect(summary["ordersCreated"] as? Int == created, "\(out)")
            #expect((summary["skipped"] as? [Any])?.isEmpty == true, "\(out): \(summary["skipped"] ?? "")")
        }
    }

    /// Switching between folder and zip bundles removes the old form, and only what the tool
    /// wrote: a folder of the user's that merely looks like a bundle stays.
    @Test func switchingToZipRemovesOldBundlesButNotTheUsersFolders() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        let first = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--quiet"])
        #expect(first.status == 0, "\(first.standardError)")
        let manager = FileManager.default
        let empty = out.appendingPathComponent("acme-shop.example-ZZ-999999-0123456789")
        try manager.createDirectory(at: empty, withIntermediateDirectories: true)
        let notes = out.appendingPathComponent("my-notes-0123456789")
        try manager.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: notes.appendingPathComponent("order.json"))
        try Data("mine".utf8).write(to: notes.appendingPathComponent("notes.txt"))
        let second = try CommandRunner.run([
            "scan", Self.example, "--out", out.path, "--zip", "--json", "--quiet",
        ])
        #expect(second.status == 0, "\(second.standardError)")
        let summary = try scanSummary(of: second)
        #expect(summary["bundlesRemoved"] as? Int == 3)
        // Rewritten in the new form, but no message changed them.
        #expect(summary["bundlesWritten"] as? Int == 3)
        #expect(summary["bundlesRewrittenUnchanged"] as? Int == 3)
        #expect(summary["ordersUpdated"] as? Int == 0)
        #expect(summary["ordersCreated"] as? Int == 0)
        #expect(summary["shipmentsLinked"] as? Int == 0)
        let names = try manager.contentsOfDirectory(atPath: out.path)
        #expect(names.filter { $0.hasSuffix(".order") }.count == 3)
        #expect(manager.fileExists(atPath: empty.path))
        #expect(manager.fileExists(atPath: notes.appendingPathComponent("notes.txt").path))
    }

    @Test func readsOneMessageFromStandardInput() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: Self.example + "/cur").sorted().first)
        let message = try Data(contentsOf: URL(fileURLWithPath: Self.example + "/cur/" + file))
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(
            ["scan", "-", "--out", out.path, "--json", "--quiet"], standardInput: message)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"ordersCreated\":1"))
    }

    /// A confirmation in which no order number (nor a tracking number) is found is counted, so
    /// that every message read shows up somewhere in the summary.
    @Test func aConfirmationWithoutAnOrderNumberIsCounted() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let message = """
            From: Elm Store <orders@elmstore.example>
            To: jordan@mail.example
            Subject: Thank you for your order
            Date: Thu, 19 Nov 2026 10:00:00 +0000
            Message-ID: <no-number@elmstore.example>
            Content-Type: text/plain; charset=utf-8

            Thank you for your order! We have received it and will let you know when it ships.

            """
        let out = folder.appendingPathComponent("orders")
        let result = try CommandRunner.run(
            ["scan", "-", "--out", out.path, "--json", "--quiet"], standardInput: Data(message.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let summary = try scanSummary(of: result)
        #expect(summary["withoutOrderNumber"] as? Int == 1)
        #expect(summary["notOrders"] as? Int == 0)
        let text = try CommandRunner.run(
            ["scan", "-", "--out", folder.appendingPathComponent("again").path],
            standardInput: Data(message.utf8))
        #expect(
            text.standardError.contains("about an order, but no order number or tracking number found: 1"))
    }

    @Test func usageErrorsExitSixtyFourWithASuggestion() throws {
        let typo = try CommandRunner.run(["scan", Self.example, "--ouput", "x"])
        #expect(typo.status == 64)
        #expect(
            typo.standardError.contains("did you mean '--output'")
                || typo.standardError.contains("did you mean '--out'"))
        let unknown = try CommandRunner.run(["scna"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.contains("did you mean 'scan'"))
        let none = try CommandRunner.run(["scan"])
        #expect(none.status == 64)
        let help = try CommandRunner.run(["scan", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("Examples:"))
    }

    @Test func anUnwritableOutputIsFatal() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let result = try CommandRunner.run([
            "scan", Self.example, "--out", file.appendingPathComponent("orders").path,
        ])
        #expect(result.status == 2)
        #expect(!result.standardError.isEmpty)
    }

    /// A run stopped by a fatal error replaces the record of the run before it, saying why it
    /// stopped, and leaves one in a fresh output folder too.
    @Test func aFatalRunLeavesARecordSayingItFailed() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("orders")
        let record = out.appendingPathComponent(".mailorders-last-scan.json")
        func recorded() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])
        }
        let first = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--quiet"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(try recorded()["exitCode"] as? Int == 0)
        #expect(try recorded()["error"] is NSNull)

        // The database's first page overwritten: not a database any more.
        let database = out.appendingPathComponent("mailorders.sqlite")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        let handle = try FileHandle(forWritingTo: database)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let second = try CommandRunner.run(["scan", Self.example, "--out", out.path, "--json"])
        #expect(second.status == 2)
        #expect(second.standardError.contains("not a database"), "\(second.standardError)")
        let failed = try recorded()
        #expect(failed["exitCode"] as? Int == 2)
        #expect((failed["error"] as? String)?.contains("not a database") == true)
        #expect(failed["messagesRead"] as? Int == 0)
        #expect(failed["bundlesWritten"] as? Int == 0)
        #expect((failed["skipped"] as? [Any])?.isEmpty == true)
        // --json prints the same object.
        let printed = try scanSummary(of: second)
        #expect(printed["error"] as? String == failed["error"] as? String)

        // Rules that cannot be read, on a fresh output folder.
        let fresh = folder.appendingPathComponent("fresh")
        let rules = folder.appendingPathComponent("no-such-rules").path
        let third = try CommandRunner.run([
            "scan", Self.example, "--out", fresh.path, "--rules", rules, "--quiet",
        ])
        #expect(third.status == 2)
        let data = try Data(contentsOf: fresh.appendingPathComponent(".mailorders-last-scan.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["exitCode"] as? Int == 2)
        #expect((object["error"] as? String)?.contains("no-such-rules") == true, "\(object)")
    }
}
