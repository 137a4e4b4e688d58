// Replaced by the HTML benchmark.
func runHTMLBenchmark(arguments: [String]) {
    print("HTML benchmark not written yet")
}
