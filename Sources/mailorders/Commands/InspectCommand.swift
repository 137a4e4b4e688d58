import Foundation
import MIME
import MailDocument
import Mailbox

/// `mailorders inspect`: the MIME tree and the rendered document, for debugging.
enum InspectCommand: Subcommand {
    static let spec = CommandSpec(
        name: "inspect",
        summary: "Show a message's MIME tree, rendered text, links or structured data.",
        usage: "PATH…|- [--json] [--text] [--links] [--structured]",
        options: [
            OptionSpec(
                name: "json", valueName: nil,
                help: "One JSON object per message instead of the tree (or of the views asked for)."),
            OptionSpec(name: "text", valueName: nil, help: "The visible text as extraction reads it."),
            OptionSpec(name: "links", valueName: nil, help: "The links with their unwrapped targets."),
            OptionSpec(
                name: "structured", valueName: nil, help: "schema.org objects and attached Wallet orders."),
        ],
        examples: [
            "mailorders inspect confirmation.eml",
            "mailorders inspect --json inbox.mbox",
            "mailorders inspect --text --links confirmation.eml",
        ],
        details: """
            Without --text, --links or --structured, prints each body part's path (1.2), content
            type, charset, transfer encoding, disposition and file name, decoded size and the decoded
            text of text parts, then the parser's warnings. With --json, standard output holds only
            JSON: one object per message, the MIME tree or the views asked for.
            Exit status 1 when a message could not be read.
            """)

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard !arguments.positionals.isEmpty else {
            return usageError(
                "give at least one PATH, or - for standard input", json: arguments.has("json"),
                showingUsage: true)
        }
        let documentViews = arguments.has("text") || arguments.has("links") || arguments.has("structured")
        let loop = MessageLoop(command: "inspect", paths: arguments.positionals)
        loop.forEachMessage { raw, message in
            guard documentViews else {
                Console.out(
                    inspectMessage(message, origin: raw.origin.description, json: arguments.has("json")),
                    json: arguments.has("json"))
                return
            }
            let document = MailDocument(message: message)
            if arguments.has("json") {
                // Standard output holds only JSON: the views as one object per message.
                Console.out(
                    inspectDocumentJSON(
                        document, origin: raw.origin.description, text: arguments.has("text"),
                        links: arguments.has("links"), structured: arguments.has("structured")),
                    json: true)
                return
            }
            Console.line("== \(TerminalText.oneLine(raw.origin.description))")
            if arguments.has("text") { Console.out(inspectDocumentText(document)) }
            if arguments.has("links") { Console.out(inspectDocumentLinks(document)) }
            if arguments.has("structured") { Console.out(inspectDocumentStructured(document)) }
        }
        return loop.skipped == 0 ? ExitCode.success : ExitCode.partial
    }
}
