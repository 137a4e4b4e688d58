import Extraction

/// One message's extraction as one compact JSON line (JSON Lines), keys in the contract's
/// order and absent when unknown (DESIGN.md "Extraction JSON").
/// - Parameter result: the extraction of one message.
/// - Returns: the JSON object, without a trailing newline.
func extractionJSONLine(_ result: ExtractionResult) -> String {
    ExtractionJSON.line(result)
}
