// mailorders: turns email into tracked orders. The command-line interface only: argument
// parsing, progress, output formats and exit codes; every stage lives in its own module.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let status = CommandLineInterface.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
