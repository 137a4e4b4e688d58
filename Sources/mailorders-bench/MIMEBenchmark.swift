// Replaced by the MIME benchmark.
func runMIMEBenchmark(arguments: [String]) {
    print("MIME benchmark not written yet")
}
