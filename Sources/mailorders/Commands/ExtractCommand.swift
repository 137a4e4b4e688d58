import Extraction
import Foundation
import Mailbox

/// `mailorders extract`: the extraction JSON, one line per message.
enum ExtractCommand: Subcommand {
    static let spec = CommandSpec(
        name: "extract",
        summary: "Print what each email says about orders, as JSON Lines.",
        usage: "PATH…|- [--rules DIR] [--no-evidence]",
        options: [
            OptionSpec(
                name: "rules", valueName: "DIR", help: "Use this rules folder instead of the bundled one."),
            OptionSpec(name: "no-evidence", valueName: nil, help: "Leave out the evidence array."),
        ],
        examples: [
            "mailorders extract confirmation.eml",
            "mailorders extract inbox.mbox | jq 'select(.kind != \"notAnOrder\")'",
            "cat message.eml | mailorders extract -",
        ],
        details: """
            PATH may be an .eml file, an mbox, a Maildir or a folder; - reads standard input.
            Each line is one JSON object (see README, "Extraction JSON"). Messages that cannot be read
            are reported on standard error and skipped; the exit status is then 1.
            """)

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard !arguments.positionals.isEmpty else {
            return usageError(
                "give at least one PATH, or - for standard input", json: false, showingUsage: true)
        }
        let pipeline: MessagePipeline
        do {
            pipeline = MessagePipeline(rules: try MessagePipeline.loadRules(from: arguments.value("rules")))
        } catch {
            Console.error("mailorders extract: \(TerminalText.oneLine("\(error)"))")
            return ExitCode.fatal
        }
        let loop = MessageLoop(command: "extract", paths: arguments.positionals)
        loop.forEachRawMessage { raw in
            let processed = pipeline.process(raw)
            guard var extraction = processed.extraction else {
                loop.skip(
                    processed.origin.description, byteOffset: processed.origin.byteOffset,
                    processed.failure ?? "not read")
                return
            }
            for warning in processed.warningDescriptions {
                Console.error(
                    "mailorders extract: warning: \(TerminalText.oneLine("\(processed.origin): \(warning)"))")
            }
            if arguments.has("no-evidence") { extraction.evidence = nil }
            Console.line(extractionJSONLine(extraction), json: true)
        }
        return loop.skipped == 0 ? ExitCode.success : ExitCode.partial
    }
}
