import Foundation
import Testing

/// The repository's corpus is the regression gate: every case and every thread must match
/// its expected file exactly, and the runner prints the per-field table and diffs otherwise.
@Test func everyCorpusCaseAndThreadMatchesItsExpectedFile() throws {
    let result = try CommandRunner.run(["corpus", "Corpus"])
    #expect(
        result.status == 0,
        """
        mailorders corpus Corpus exited with \(result.status)
        \(result.standardOutput)
        \(result.standardError)
        """)
}

/// The machine-readable run says the same: `passed` is true and no case or thread failed.
@Test func corpusJSONRunNamesNoFailingCase() throws {
    let result = try CommandRunner.run(["corpus", "Corpus", "--json"])
    let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8))
    let run = try #require(object as? [String: Any], "not a JSON object:\n\(result.standardOutput)")
    let cases = run["cases"] as? [[String: Any]] ?? []
    #expect(cases.count >= 80)
    let failing = cases.filter { ($0["passed"] as? Bool) != true }.compactMap { $0["name"] as? String }
    #expect(failing.isEmpty, "failing: \(failing.joined(separator: ", "))")
    #expect(run["passed"] as? Bool == true)
}

/// A folder with no case (a wrong path in a CI job) fails instead of passing as an empty
/// corpus; an expected file whose email is gone is a failing case.
@Test func anEmptyCorpusFailsAndAnOrphanedExpectationIsReported() throws {
    let folder = try CommandRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let empty = try CommandRunner.run(["corpus", folder.path])
    #expect(empty.status == 2)
    #expect(empty.standardError.contains("no cases"))
    let missing = try CommandRunner.run(["corpus", folder.appendingPathComponent("nope").path])
    #expect(missing.status == 2)
    #expect(!missing.standardError.contains("Error Domain"))

    let source = CommandRunner.repository.appendingPathComponent("Corpus/de-waldkauz-stornierung")
    try FileManager.default.copyItem(
        at: source.appendingPathExtension("eml"), to: folder.appendingPathComponent("storno.eml"))
    try FileManager.default.copyItem(
        at: source.appendingPathExtension("expected.json"),
        to: folder.appendingPathComponent("storno.expected.json"))
    try FileManager.default.copyItem(
        at: source.appendingPathExtension("expected.json"),
        to: folder.appendingPathComponent("renamed.expected.json"))
    let orphan = try CommandRunner.run(["corpus", folder.path])
    #expect(orphan.status == 1)
    #expect(orphan.standardOutput.contains("FAIL renamed"))
    #expect(orphan.standardOutput.contains("renamed.expected.json has no .eml beside it"))
    #expect(!orphan.standardOutput.contains("FAIL storno"))
}

/// A case whose file name is not UTF-8 cannot be opened by its name as text: it is a failing
/// case, named, not passed over in silence.
@Test func aCaseNamedInBytesThatAreNotUTF8IsAFailingCase() throws {
    let folder = try CommandRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let name = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".eml".utf8) + [0]
    let descriptor = name.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
    }
    #expect(descriptor >= 0)
    close(descriptor)
    let only = try CommandRunner.run(["corpus", folder.path])
    #expect(only.status == 2)
    #expect(only.standardError.contains("not valid UTF-8"))
    try Data("From: a@b.example\nSubject: hi\n\nHello.\n".utf8).write(
        to: folder.appendingPathComponent("hello.eml"))
    try Data(#"{"kind": "notAnOrder"}"#.utf8).write(to: folder.appendingPathComponent("hello.expected.json"))
    let mixed = try CommandRunner.run(["corpus", folder.path, "--json"])
    #expect(mixed.status == 1)
    let run = try #require(
        try JSONSerialization.jsonObject(with: Data(mixed.standardOutput.utf8)) as? [String: Any])
    let cases = run["cases"] as? [[String: Any]] ?? []
    #expect(cases.count == 2)
    #expect(
        cases.contains {
            ($0["passed"] as? Bool) == false && ($0["name"] as? String)?.hasPrefix("caf") == true
        })
    #expect(cases.contains { ($0["passed"] as? Bool) == true && ($0["name"] as? String) == "hello" })
    // Its expectation beside it is the same case: one failure, not two.
    let expectation =
        Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".expected.json".utf8) + [0]
    let second = expectation.withUnsafeBufferPointer { buffer in
        buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
    }
    #expect(second >= 0)
    close(second)
    let paired = try CommandRunner.run(["corpus", folder.path, "--json"])
    let pairedRun = try #require(
        try JSONSerialization.jsonObject(with: Data(paired.standardOutput.utf8)) as? [String: Any])
    let pairedCases = pairedRun["cases"] as? [[String: Any]] ?? []
    #expect(pairedCases.count == 2)
    #expect(pairedCases.filter { ($0["passed"] as? Bool) == false }.count == 1)
}

/// A parcel read with a wrong tracking number counts against the number only: its carrier,
/// status and delivery window are compared with that parcel's expected ones.
@Test func aWrongTrackingNumberDoesNotCountAgainstItsCarrierAndStatus() throws {
    let folder = try CommandRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let shipped = CommandRunner.repository.appendingPathComponent(
        "examples/Maildir/cur/1764400002.M2P4242.mailhost:2,S")
    try Data(contentsOf: shipped).write(to: folder.appendingPathComponent("ship.eml"))
    let extracted = try CommandRunner.run(["extract", folder.appendingPathComponent("ship.eml").path])
    var expected = try #require(
        try JSONSerialization.jsonObject(with: Data(extracted.standardOutput.utf8)) as? [String: Any])
    expected["source"] = nil
    expected["evidence"] = nil
    var shipments = try #require(expected["shipments"] as? [[String: Any]])
    shipments[0]["trackingNumber"] = "1Z999AA10123456793"
    expected["shipments"] = shipments
    try JSONSerialization.data(withJSONObject: expected).write(
        to: folder.appendingPathComponent("ship.expected.json"))
    let run = try CommandRunner.run(["corpus", folder.path, "--json"])
    #expect(run.status == 1)
    let report = try #require(
        try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
    let fields = try #require(report["fields"] as? [String: [String: Any]])
    #expect(fields["trackingNumber"]?["falsePositives"] as? Int == 1)
    #expect(fields["trackingNumber"]?["falseNegatives"] as? Int == 1)
    for field in ["carrier", "status", "estimatedDelivery"] {
        #expect(fields[field]?["truePositives"] as? Int == 1, "\(field)")
        #expect(fields[field]?["falsePositives"] as? Int == 0, "\(field)")
    }
}

/// A case name with a line break or a tab stays that name in the JUnit report: as character
/// references, which an XML parser keeps in an attribute (a raw one would read as a space).
@Test func junitKeepsALineBreakInACaseName() throws {
    let folder = try CommandRunner.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("From: a@b.example\nSubject: hi\n\nHello.\n".utf8).write(
        to: folder.appendingPathComponent("nl\nx\tz.eml"))
    try Data(#"{"kind": "orderConfirmation"}"#.utf8).write(
        to: folder.appendingPathComponent("nl\nx\tz.expected.json"))
    let report = folder.appendingPathComponent("report.xml").path
    let run = try CommandRunner.run(["corpus", folder.path, "--junit", report])
    #expect(run.status == 1)
    let xml = try String(contentsOfFile: report, encoding: .utf8)
    #expect(xml.contains("<testcase classname=\"corpus\" name=\"nl&#10;x&#9;z\">"), "\(xml)")
    #expect(!xml.contains("nl\nx"))
}
