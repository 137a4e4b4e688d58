import Foundation

/// A subcommand: its spec (options, help) and what it does.
protocol Subcommand: SendableMetatype {
    static var spec: CommandSpec { get }
    /// Runs the subcommand and returns the process exit code.
    static func run(_ arguments: ParsedArguments) -> Int32
    /// Whether a command line (everything after the subcommand's name, parsed or not) asks for
    /// JSON output: `--json` (or `--json=…`) before any `--`, for the commands that have it.
    static func asksForJSON(_ arguments: [String]) -> Bool
    /// What the subcommand prints on standard output, when JSON was asked for, after an error
    /// that stops it before it does anything: its usual JSON document with `error` set to
    /// `message` and `exitCode` to `exitCode`; `nil` for a subcommand without JSON output.
    static func errorJSON(_ message: String, exitCode: Int32) -> String?
}

extension Subcommand {
    static func asksForJSON(_ arguments: [String]) -> Bool {
        guard spec.option(named: "json") != nil else { return false }
        return arguments.prefix { $0 != "--" }.contains { $0 == "--json" || $0.hasPrefix("--json=") }
    }

    /// `{"error": "…", "exitCode": N}` for a subcommand with a `--json` flag.
    static func errorJSON(_ message: String, exitCode: Int32) -> String? {
        guard spec.option(named: "json") != nil else { return nil }
        return fatalErrorJSON(message, exitCode: exitCode)
    }

    /// Says a usage error and returns its exit status, 64 (EX_USAGE): `message` on standard
    /// error after `mailorders NAME: `, and, when the command line asked for JSON, the
    /// subcommand's ``errorJSON(_:exitCode:)`` on standard output.
    /// - Parameters:
    ///   - message: what does not fit, on one line (JSON's `error`).
    ///   - json: whether JSON output was asked for.
    ///   - showingUsage: add the usage line on standard error.
    static func usageError(_ message: String, json: Bool, showingUsage: Bool = false) -> Int32 {
        CommandEntry(Self.self).usageError(message, json: json, showingUsage: showingUsage)
    }
}

/// A registered subcommand.
struct CommandEntry: Sendable {
    var spec: CommandSpec
    var run: @Sendable (ParsedArguments) -> Int32
    var asksForJSON: @Sendable ([String]) -> Bool
    var errorJSON: @Sendable (String, Int32) -> String?

    init<Command: Subcommand>(_ command: Command.Type) {
        spec = command.spec
        run = { command.run($0) }
        asksForJSON = { command.asksForJSON($0) }
        errorJSON = { command.errorJSON($0, exitCode: $1) }
    }

    /// See ``Subcommand/usageError(_:json:showingUsage:)``.
    func usageError(_ message: String, json: Bool, showingUsage: Bool = false) -> Int32 {
        let usage = showingUsage ? "\nUsage: mailorders \(spec.name) \(spec.usage)" : ""
        Console.error("mailorders \(spec.name): \(message)\(usage)")
        if json, let document = errorJSON(ScanSummary.oneLine(message), ExitCode.usage) {
            Console.out(document, json: true)
        }
        return ExitCode.usage
    }
}

/// Dispatches `mailorders SUBCOMMAND …`.
enum CommandLineInterface {
    static let version = "0.1.0"

    static let subcommands: [CommandEntry] = [
        CommandEntry(ScanCommand.self), CommandEntry(ExtractCommand.self), CommandEntry(InspectCommand.self),
        CommandEntry(OrdersCommand.self), CommandEntry(CheckCommand.self), CommandEntry(CorpusCommand.self),
        CommandEntry(ValidateCommand.self),
        CommandEntry(VersionCommand.self),
    ]

    static var overview: String {
        var lines = [
            "mailorders \(version) — turns email into tracked orders",
            "",
            "Usage: mailorders SUBCOMMAND [options]",
            "",
            "Subcommands:",
        ]
        for command in subcommands {
            lines.append(
                "  " + command.spec.name.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + command.spec.summary)
        }
        lines.append("  help      Show help for a subcommand: mailorders help scan")
        lines += [
            "",
            "Examples:",
            "  mailorders scan ~/Maildir --out orders/",
            "  mailorders extract confirmation.eml",
            "  mailorders check confirmation.eml --format html --out report.html",
            "",
            "Exit codes: 0 success, 1 something skipped or wrong (see the subcommand), 2 fatal error, 64 usage error.",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first else {
            Console.out(overview)
            return ExitCode.usage
        }
        if name == "help" || name == "--help" || name == "-h" {
            if arguments.count > 1, let command = find(arguments[1]) {
                Console.out(command.spec.helpText)
            } else {
                Console.out(overview)
            }
            return ExitCode.success
        }
        if name == "--version" {
            return VersionCommand.run(ParsedArguments())
        }
        guard let command = find(name) else {
            let names = subcommands.map(\.spec.name) + ["help"]
            let nearest = names.min { editDistance(name, $0) < editDistance(name, $1) }
            var message = "mailorders: unknown subcommand '\(name)'"
            if let nearest, editDistance(name, nearest) <= 3 { message += "; did you mean '\(nearest)'?" }
            Console.error(message + "\nRun 'mailorders help' for the list.")
            return ExitCode.usage
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), for: command.spec)
        } catch {
            let rest = Array(arguments.dropFirst())
            return command.usageError("\(error)", json: command.asksForJSON(rest), showingUsage: true)
        }
        if parsed.wantsHelp {
            Console.out(command.spec.helpText)
            return ExitCode.success
        }
        return command.run(parsed)
    }

    static func find(_ name: String) -> CommandEntry? {
        subcommands.first { $0.spec.name == name }
    }
}

/// `mailorders version`.
enum VersionCommand: Subcommand {
    static let spec = CommandSpec(
        name: "version", summary: "Print the version.", usage: "", options: [],
        examples: ["mailorders version"])

    static func run(_ arguments: ParsedArguments) -> Int32 {
        Console.line("mailorders \(CommandLineInterface.version)")
        return ExitCode.success
    }
}
