import Foundation
import WalletOrder

/// `mailorders validate`: checks Wallet order bundles, ours or not.
enum ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Check Wallet order bundles (folders or .order files).",
        usage: "BUNDLE… [--json]",
        options: [OptionSpec(name: "json", valueName: nil, help: "One JSON report instead of text.")],
        examples: ["mailorders validate orders/*/", "mailorders validate order.order --json"],
        details: """
            Checks required keys, types, enums, RFC 3339 dates, ISO 8601 durations, https URLs, manifest
            hashes, unlisted files, total size and the signature when present.
            Exit status: 0 when every bundle passes, 1 otherwise.
            """)

    /// `{"passed": false, "bundles": [], "error": "…", "exitCode": N}`: no bundle checked.
    static func errorJSON(_ message: String, exitCode: Int32) -> String? {
        canonicalJSON(["passed": false, "bundles": [Any](), "error": message, "exitCode": Int(exitCode)])
            + "\n"
    }

    static func run(_ arguments: ParsedArguments) -> Int32 {
        guard !arguments.positionals.isEmpty else {
            return usageError("give at least one BUNDLE", json: arguments.has("json"), showingUsage: true)
        }
        let validator = BundleValidator()
        let reports = arguments.positionals.map { validator.validate(at: URL(fileURLWithPath: $0)) }
        Console.out(renderValidation(reports, json: arguments.has("json")), json: arguments.has("json"))
        return validationExitStatus(reports)
    }
}
