import Foundation
import OrderStore

/// `mailorders orders`: the orders in a store.
enum OrdersCommand: Subcommand {
    static let spec = CommandSpec(
        name: "orders",
        summary: "List the orders found so far, with their shipments.",
        usage: "[--out DIR | --db PATH] [--json] [--unlinked]",
        options: [
            OptionSpec(name: "out", valueName: "DIR", help: "The scan's output folder (default ./orders)."),
            OptionSpec(
                name: "db", valueName: "PATH", help: "The order database (default DIR/mailorders.sqlite)."),
            OptionSpec(name: "json", valueName: nil, help: "JSON instead of a table."),
            OptionSpec(
                name: "unlinked", valueName: nil, help: "Only carrier shipments not linked to any order."),
        ],
        examples: [
            "mailorders orders", "mailorders orders --out ~/orders --json", "mailorders orders --unlinked",
        ])

    static func run(_ arguments: ParsedArguments) -> Int32 {
        let json = arguments.has("json")
        // A fatal error: its line on standard error and, with --json, an object that says it
        // on standard output instead of the list.
        func stop(_ message: String) -> Int32 {
            Console.error("mailorders orders: \(message)")
            if json { Console.out(fatalErrorJSON(ScanSummary.oneLine(message)), json: true) }
            return ExitCode.fatal
        }
        let out = URL(fileURLWithPath: arguments.value("out") ?? "orders")
        let path = arguments.value("db") ?? out.appendingPathComponent("mailorders.sqlite").path
        // A path that is there but cannot be a database (a folder, a link to nothing, a loop
        // of links) is said as such; only a path with nothing at it asks for a scan.
        if let problem = SQLiteOrderStore.pathProblem(path), !problem.hasPrefix("its folder ") {
            return stop("cannot read the order store \(path): \(problem)")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            let given = arguments.value("db") != nil
            return stop(
                "no order database at \(path); "
                    + (given
                        ? "run 'mailorders scan --db \(path)' first"
                        : "run 'mailorders scan' first or pass --db"))
        }
        do throws(StoreError) {
            let store = try SQLiteOrderStore(readingOnly: path)
            let unlinked = arguments.has("unlinked")
            let orders = unlinked ? try store.unlinkedShipments() : try store.orders()
            Console.out(renderOrders(orders, json: json, unlinked: unlinked), json: json)
            return ExitCode.success
        } catch {
            // As scan says it: the database, and why.
            return stop("cannot read the order store \(path): \(error.reason)")
        }
    }
}
