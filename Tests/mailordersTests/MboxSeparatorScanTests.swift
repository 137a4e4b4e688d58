import Foundation
import Testing

/// A separator with no message after it is listed under skipped (file, byte offset, reason),
/// and the message before it is read as it was written.
@Test func separatorsWithoutAMessageAreSkippedWithTheirOffsetAndTheMessagesAroundThemRead() throws {
    let folder = try CommandRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let mbox = folder.appendingPathComponent("in.mbox")
    let example = CommandRunner.repository.appendingPathComponent("examples/Maildir/cur")
    let confirmation = try Data(
        contentsOf: example.appendingPathComponent("1764400001.M1P4242.mailhost:2,S"))
    let shipped = try Data(contentsOf: example.appendingPathComponent("1764400002.M2P4242.mailhost:2,S"))
    let separator = Data("From orders@northwind-outfitters.example Thu Nov 19 21:05:00 2026\n".utf8)
    var bytes = separator + confirmation + Data("\n".utf8)
    let emptyAt = bytes.count + separator.count
    bytes += separator + separator + shipped + Data("\n".utf8)
    let binaryAt = bytes.count + separator.count
    var binary = [UInt8]()
    for index in 0..<512 { binary.append(UInt8((index * 31) & 0x7F)) }
    bytes += separator + Data(binary)
    bytes += Data("\n\n".utf8) + separator
    let endAt = bytes.count
    bytes += Data("\n".utf8)
    try bytes.write(to: mbox)

    let out = folder.appendingPathComponent("orders")
    let result = try CommandRunner.run(["scan", mbox.path, "--out", out.path, "--json", "--quiet"])
    #expect(result.status == 1, "\(result.standardError)")
    let summary = try #require(
        try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let skipped = try #require(summary["skipped"] as? [[String: Any]])
    #expect(skipped.map { $0["origin"] as? String } == ["#2", "#4", "#5"].map { mbox.path + $0 })
    #expect(skipped.map { $0["byteOffset"] as? Int } == [emptyAt, binaryAt, endAt])
    let reasons = skipped.compactMap { $0["reason"] as? String }
    #expect(reasons.count == 3)
    #expect(reasons.first?.contains("followed directly by another From line") == true)
    #expect(reasons.dropFirst().first?.hasPrefix("binary data after the From line") == true)
    #expect(reasons.last == "empty message after a From line")
    // The two messages are read whole: one order, shipped with its UPS parcel.
    #expect(summary["ordersCreated"] as? Int == 1)
    #expect((summary["repaired"] as? [Any])?.isEmpty == true)
}
