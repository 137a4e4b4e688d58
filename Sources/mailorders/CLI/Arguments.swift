import Foundation

/// One option a subcommand accepts.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. `out`.
    var name: String
    /// The value's placeholder in help (`DIR`), or `nil` for a flag that takes no value.
    var valueName: String?
    var help: String
    /// Whether the option may be given several times (values are collected).
    var repeatable = false
}

/// What a subcommand accepts and how it is explained.
struct CommandSpec: Sendable {
    var name: String
    var summary: String
    /// The usage line after `mailorders NAME`, e.g. `PATH…|- [--out DIR]`.
    var usage: String
    var options: [OptionSpec]
    var examples: [String]
    /// Extra paragraphs for `--help`.
    var details: String = ""

    func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The `--help` text.
    var helpText: String {
        var lines = ["mailorders \(name) — \(summary)", "", "Usage: mailorders \(name) \(usage)", ""]
        if !details.isEmpty { lines += [details, ""] }
        if !options.isEmpty {
            lines.append("Options:")
            let all = options + [OptionSpec(name: "help", valueName: nil, help: "Show this help.")]
            let labels = all.map { "--\($0.name)" + ($0.valueName.map { " \($0)" } ?? "") }
            let width = (labels.map(\.count).max() ?? 0) + 2
            for (label, option) in zip(labels, all) {
                lines.append("  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help)
            }
            lines.append("")
        }
        if !examples.isEmpty {
            lines.append("Examples:")
            lines += examples.map { "  \($0)" }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

/// A command line that does not fit the subcommand: exit 64 (EX_USAGE).
struct UsageError: Error, CustomStringConvertible, Equatable {
    var message: String
    var description: String { message }
}

/// Parsed options and positional arguments of one subcommand.
///
/// Accepts `--name value`, `--name=value`, flags without values, `--` to end options,
/// and `-` as a positional (standard input).
struct ParsedArguments: Sendable, Equatable {
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// The last value given for an option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// All values given for a repeatable option.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// An option's value as a positive integer.
    /// - Throws: ``UsageError`` when it is not one.
    func positiveInteger(_ name: String) throws -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number > 0 else {
            throw UsageError(message: "--\(name) takes a whole number above 0, not '\(text)'")
        }
        return number
    }

    /// Parses `arguments` (everything after the subcommand's name) against `spec`.
    /// - Throws: ``UsageError`` for an unknown option (with the nearest known one as a
    ///   suggestion), a missing value, or a value given to a flag.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError(
                    message: "unknown option '\(argument)'\(suggestion(for: argument, in: spec))")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.option(named: name) else {
                throw UsageError(message: "unknown option '--\(name)'\(suggestion(for: name, in: spec))")
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError(message: "--\(name) takes no value") }
                parsed.flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                // `--out --quiet`: the value was forgotten, and the next option is not one
                // (a value that really starts with `--` is given as `--out=--name`).
                if value.hasPrefix("--") && value.count > 2 {
                    throw UsageError(
                        message:
                            "--\(name) needs a value (\(option.valueName ?? "VALUE")), not the option \(value);"
                            + " write --\(name)=\(value) if that is the value")
                }
                index += 1
            } else {
                throw UsageError(message: "--\(name) needs a value (\(option.valueName ?? "VALUE"))")
            }
            // An empty value (`--out ''`) is a mistake, never a meaningful path or setting.
            guard !value.isEmpty else {
                throw UsageError(
                    message: "--\(name) needs a non-empty value (\(option.valueName ?? "VALUE"))")
            }
            if option.repeatable {
                parsed.values[name, default: []].append(value)
            } else {
                parsed.values[name] = [value]
            }
        }
        return parsed
    }

    private static func suggestion(for typed: String, in spec: CommandSpec) -> String {
        let bare = typed.drop { $0 == "-" }.split(separator: "=").first.map(String.init) ?? ""
        let names = spec.options.map(\.name) + ["help"]
        let scored = names.map { ($0, editDistance(bare, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, best.count / 3) else {
            return "; see 'mailorders \(spec.name) --help'"
        }
        return "; did you mean '--\(best)'?"
    }
}

/// Levenshtein distance between two short strings.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}
