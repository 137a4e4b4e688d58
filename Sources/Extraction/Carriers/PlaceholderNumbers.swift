extension CarrierCatalog {
    /// Whether `number` looks like a template's placeholder rather than a parcel's tracking
    /// number: its digits (at least six) are nearly all one digit (`000000000000`,
    /// `1Z0000000000000000`) or count up or down (`SF1234567890123`, `987654321`). The search
    /// never takes such a number, whatever its format and context.
    /// - Parameter number: a token as printed, separators and letters included.
    public static func looksLikePlaceholder(_ number: String) -> Bool {
        TrackingSearch.isPlaceholder(Array(number.utf8))
    }
}
