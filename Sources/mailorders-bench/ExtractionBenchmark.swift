// Replaced by the Extraction benchmark.
func runExtractionBenchmark(arguments: [String]) {
    print("Extraction benchmark not written yet")
}
