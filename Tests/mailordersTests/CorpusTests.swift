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
