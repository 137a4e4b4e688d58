// Benchmarks: `swift run -c release mailorders-bench <stage> [options]`.
// Each stage's benchmark lives in its own file; see bench/README.md.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let stage = arguments.first ?? "help"
let rest = Array(arguments.dropFirst())
switch stage {
case "mime": runMIMEBenchmark(arguments: rest)
case "html": runHTMLBenchmark(arguments: rest)
case "extract": runExtractionBenchmark(arguments: rest)
case "baseline": runBaselineBenchmark(arguments: rest)
default:
    print("usage: mailorders-bench mime|html|extract|baseline [options]")
}
