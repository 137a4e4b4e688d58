import Foundation
import Testing

@testable import mailorders

private let spec = CommandSpec(
    name: "demo", summary: "A demo.", usage: "PATH…",
    options: [
        OptionSpec(name: "out", valueName: "DIR", help: "Output."),
        OptionSpec(name: "jobs", valueName: "N", help: "Threads."),
        OptionSpec(name: "quiet", valueName: nil, help: "Quiet."),
        OptionSpec(name: "tag", valueName: "T", help: "Tags.", repeatable: true),
    ], examples: ["mailorders demo x"])

@Test func parsesValuesInBothSpellings() throws {
    let parsed = try ParsedArguments.parse(["--out", "a", "--jobs=3", "mail.eml"], for: spec)
    #expect(parsed.value("out") == "a")
    #expect(try parsed.positiveInteger("jobs") == 3)
    #expect(parsed.positionals == ["mail.eml"])
}

@Test func treatsDashAsStandardInputAndDoubleDashAsEndOfOptions() throws {
    let parsed = try ParsedArguments.parse(["-", "--", "--quiet", "-x"], for: spec)
    #expect(parsed.positionals == ["-", "--quiet", "-x"])
    #expect(!parsed.has("quiet"))
}

@Test func collectsRepeatableOptionsAndFlags() throws {
    let parsed = try ParsedArguments.parse(["--tag", "a", "--quiet", "--tag=b"], for: spec)
    #expect(parsed.allValues("tag") == ["a", "b"])
    #expect(parsed.has("quiet"))
}

@Test func suggestsTheNearestOptionForATypo() {
    #expect(throws: UsageError(message: "unknown option '--ouf'; did you mean '--out'?")) {
        try ParsedArguments.parse(["--ouf", "x"], for: spec)
    }
}

@Test func rejectsMissingValuesValuesOnFlagsAndBadNumbers() throws {
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["--out"], for: spec) }
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["--quiet=yes"], for: spec) }
    #expect(throws: UsageError.self) {
        try ParsedArguments.parse(["--jobs", "0"], for: spec).positiveInteger("jobs")
    }
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["-q"], for: spec) }
    // `--out ''` would write into the current folder.
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["--out", ""], for: spec) }
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["--out="], for: spec) }
    // A forgotten value does not take the next option as the value.
    #expect(throws: UsageError.self) { try ParsedArguments.parse(["--out", "--quiet"], for: spec) }
    #expect(try ParsedArguments.parse(["--out=--quiet"], for: spec).value("out") == "--quiet")
    #expect(try ParsedArguments.parse(["--out", "-"], for: spec).value("out") == "-")
}

@Test func recognisesHelpAnywhere() throws {
    #expect(try ParsedArguments.parse(["x", "--help"], for: spec).wantsHelp)
    #expect(try ParsedArguments.parse(["-h"], for: spec).wantsHelp)
    #expect(spec.helpText.contains("--out DIR"))
    #expect(spec.helpText.contains("Examples:"))
}

@Test func everySubcommandHasHelpWithExamples() {
    for command in CommandLineInterface.subcommands {
        #expect(!command.spec.examples.isEmpty, "\(command.spec.name) has no examples")
        #expect(command.spec.helpText.contains("Usage: mailorders \(command.spec.name)"))
    }
}

@Test func measuresEditDistance() {
    #expect(editDistance("scan", "scna") == 2)
    #expect(editDistance("", "abc") == 3)
    #expect(editDistance("corpus", "corpus") == 0)
}

@Test func parsesDaysForSince() {
    #expect(parseDay("2026-11-20") != nil)
    #expect(parseDay("2026-13-01") == nil)
    #expect(parseDay("yesterday") == nil)
}

@Test func diffsShowRemovedAndAddedLines() {
    let diff = unifiedDiff(
        expected: "a\nb\nc\nd", actual: "a\nB\nc\nd\ne", expectedLabel: "expected", actualLabel: "actual")
    #expect(diff.contains("-b"))
    #expect(diff.contains("+B"))
    #expect(diff.contains("+e"))
    #expect(diff.hasPrefix("--- expected\n+++ actual\n@@ -1,"))
    // A changed line: the expected line first, then the actual one.
    #expect(diff.contains("-b\n+B\n"))
}

/// `--jobs` beyond four threads per core (and 16) is lowered: more threads only hold more
/// batches in memory.
@Test func scanJobsAreCappedAtFourPerCore() throws {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let huge = try ScanOptions(ParsedArguments.parse(["x", "--jobs", "100000"], for: ScanCommand.spec))
    #expect(huge.jobs == ScanOptions.maximumJobs(cores: cores))
    #expect(ScanOptions.maximumJobs(cores: 2) == 16)
    #expect(ScanOptions.maximumJobs(cores: 64) == 256)
    let two = try ScanOptions(ParsedArguments.parse(["x", "--jobs", "2"], for: ScanCommand.spec))
    #expect(two.jobs == 2)
}
