import Foundation
import Testing

/// A usage error (exit status 64) says itself in JSON on standard output when the command
/// line asks for JSON, before or after the bad argument, as a fatal error does: the
/// command's usual document with `error` and `exitCode`. The human message stays on
/// standard error.
@Suite struct UsageErrorJSONTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        /// What `error` starts with.
        var error: String
        /// A key of the command's usual document besides `error` and `exitCode`.
        var key: String?
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        // scan: its summary, nothing read.
        Case(
            arguments: ["scan", "inbox", "--json", "--jbos", "2"], error: "unknown option '--jbos'",
            key: "messagesRead"),
        Case(
            arguments: ["scan", "--jbos", "2", "inbox", "--json"], error: "unknown option '--jbos'",
            key: "messagesRead"),
        Case(
            arguments: ["scan", "--json", "inbox", "--out"], error: "--out needs a value", key: "messagesRead"
        ),
        Case(
            arguments: ["scan", "inbox", "--jobs", "0", "--json"], error: "--jobs takes a whole number",
            key: "skipped"),
        Case(
            arguments: ["scan", "--json", "--jobs", "many", "inbox"], error: "--jobs takes a whole number",
            key: "skipped"),
        Case(arguments: ["scan", "--json"], error: "give at least one PATH", key: "skipped"),
        // orders: {"error", "exitCode"}.
        Case(arguments: ["orders", "--json", "--unlink"], error: "unknown option '--unlink'", key: nil),
        Case(arguments: ["orders", "--db", "--json"], error: "--db needs a value", key: nil),
        // check --format json: its report, nothing checked.
        Case(
            arguments: ["check", "a.eml", "--format", "json", "--expect", "nope"],
            error: "--expect is one of", key: "reports"),
        Case(
            arguments: ["check", "--expct", "shipping", "a.eml", "--format=json"],
            error: "unknown option '--expct'", key: "reports"),
        Case(arguments: ["check", "--format", "json"], error: "give at least one FILE", key: "reports"),
        // corpus: its report, no case run.
        Case(arguments: ["corpus", "--json"], error: "give one corpus folder", key: "cases"),
        Case(
            arguments: ["corpus", "Corpus", "--junit", "--json"], error: "--junit needs a value", key: "cases"
        ),
        // validate: no bundle checked.
        Case(
            arguments: ["validate", "--json", "--strict", "b"], error: "unknown option '--strict'",
            key: "bundles"),
        Case(arguments: ["validate", "--json"], error: "give at least one BUNDLE", key: "bundles"),
        // inspect --json: {"error", "exitCode"}.
        Case(arguments: ["inspect", "--txt", "a.eml", "--json"], error: "unknown option '--txt'", key: nil),
        Case(arguments: ["inspect", "--json"], error: "give at least one PATH", key: nil),
    ]

    @Test(arguments: cases) func usageErrorIsJSONOnStandardOutput(_ example: Case) throws {
        let result = try CommandRunner.run(example.arguments)
        #expect(result.status == 64)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            "\(result.standardOutput)")
        #expect(object["exitCode"] as? Int == 64)
        let error = try #require(object["error"] as? String)
        #expect(error.hasPrefix(example.error), "\(error)")
        #expect(!error.contains("\n"))
        if let key = example.key { #expect(object[key] != nil, "\(object.keys)") }
        if let passed = object["passed"] { #expect(passed as? Bool == false) }
        // The person reading standard error still gets the message.
        let command = example.arguments[0]
        #expect(
            result.standardError.hasPrefix("mailorders \(command): \(example.error)"),
            "\(result.standardError)")
    }

    /// Without JSON asked for, or with `--json` only after `--` (a file name there), standard
    /// output stays empty.
    @Test(arguments: [
        ["scan", "inbox", "--jbos", "2"], ["scan", "--jbos", "--", "--json"], ["check", "--bogus", "a.eml"],
        ["check", "--format", "text", "--bogus"], ["check", "--format", "yaml", "a.eml"],
        ["orders", "--bogus"], ["corpus"], ["validate"], ["inspect", "--bogus", "a.eml"],
        ["extract", "--bogus", "a.eml"],
    ])
    func noJSONWithoutAskingForIt(_ arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.status == 64)
        #expect(result.standardOutput.isEmpty, "\(result.standardOutput)")
        #expect(result.standardError.hasPrefix("mailorders \(arguments[0]): "))
    }
}
