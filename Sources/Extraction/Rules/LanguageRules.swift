import Foundation

/// The words of one language that extraction looks for: labels, kind and status words,
/// month and weekday names, date formats (`rules/languages/<code>.json5`).
public struct LanguageRules: Sendable, Decodable {
    /// The language code, e.g. `en`, `ko`.
    public var code: String
    /// Common words that tell this language apart, for language detection.
    public var detectionWords: [String]
    /// Labels that stand before a value.
    public var labels: Labels
    /// Labels of a tracking number (read by the carrier search as well).
    public var trackingNumberLabels: [String]
    /// Phrases that mark each kind, keyed by ``EmailKind`` raw value.
    public var kinds: [String: [String]]
    /// Phrases that mark each shipment status, keyed by ``ShipmentStatus`` raw value.
    public var statuses: [String: [String]]
    /// Twelve lists of month names and abbreviations, January first.
    public var months: [[String]]
    /// Seven lists of weekday names and abbreviations, Sunday first.
    public var weekdays: [[String]]
    /// Relative day words and their offset from the Date header, e.g. `tomorrow: 1`.
    public var relativeDays: [String: Int]
    /// Date formats with `{year}`, `{month}`, `{monthName}`, `{day}`, `{weekday}` slots.
    public var dateFormats: [String]
    /// Phrases followed by the merchant's name, e.g. `thank you for shopping at`.
    public var brandPhrases: [String]
    /// Words dropped from a sender's display name, e.g. `no-reply`, `team`.
    public var senderNoise: [String]
    /// Words skipped between a label and its value, e.g. `is`, `no.`.
    public var valueFillers: [String]
    /// Words between an order number and its date ("order #123 placed on …", "vom").
    public var orderDateConnectors: [String]?
    /// Anchor texts of the link to the order's page ("view your order", "Bestellung ansehen"),
    /// lower-case; optional.
    public var orderLinkPhrases: [String]?
    /// The currency a bare `$` or `¥` means in this language, when it has one.
    public var defaultCurrency: String?
    /// Phrases that make a cancellation email cancel only part of the order ("one item of your
    /// order", "Teilstornierung", "一部キャンセル"); optional.
    public var partialCancellation: [String]?
    /// Phrases that say a cancellation takes the whole order ("your entire order", "in full",
    /// "vollständig storniert"): with one of them a cancellation is whole whatever partial
    /// phrase it also holds ("part of your order was delayed, so we cancelled the whole
    /// order"); optional.
    public var wholeCancellation: [String]?

    /// Label lists by field.
    public struct Labels: Sendable, Decodable {
        /// Specific order-number labels ("order number", "주문번호").
        public var orderNumber: [String]
        /// Bare words that label an order number only when a value follows at once ("order").
        public var orderNumberWeak: [String]
        public var carrier: [String]
        public var total: [String]
        public var orderDate: [String]
        public var estimatedDelivery: [String]
        /// The shipper in a carrier's email ("Shipped from", "보내는분").
        public var shipper: [String]
        public var quantity: [String]
        /// Labels of numbers that are not order numbers (invoice, customer, coupon, SKU).
        public var notOrderNumber: [String]
        /// Rows of a price table that are not line items (subtotal, shipping, tax).
        public var summaryRows: [String]
    }
}

extension LanguageRules {
    /// Reads and checks `rules/languages/<code>.json5`; every label list gets the joined forms
    /// of its labels (``joiningLabelWords()``), and every list of labels and phrases the forms
    /// with a typographic apostrophe (``addingTypographicApostrophes()``).
    static func load(from url: URL) throws(RulesError) -> LanguageRules {
        let rules = try RulesFile.decode(LanguageRules.self, from: url)
        try rules.validate(path: url.path)
        return rules.joiningLabelWords()
    }

    /// The rules with each label of several words also written without its spaces, right after
    /// it (`order number`, then `ordernumber`; `주문 번호`, then `주문번호`), in every label
    /// list and ``trackingNumberLabels``.
    ///
    /// A label whose words run together is the same label: writers do it (`Ordernumber:`,
    /// `Trackingnumber:`), and so does a control character standing for a space
    /// (`Order\u{0}number`), which rendering reads as nothing. Kind and status phrases are left
    /// as they are.
    func joiningLabelWords() -> LanguageRules {
        var rules = self
        rules.labels.orderNumber = Self.withJoinedForms(labels.orderNumber)
        rules.labels.carrier = Self.withJoinedForms(labels.carrier)
        rules.labels.total = Self.withJoinedForms(labels.total)
        rules.labels.orderDate = Self.withJoinedForms(labels.orderDate)
        rules.labels.estimatedDelivery = Self.withJoinedForms(labels.estimatedDelivery)
        rules.labels.shipper = Self.withJoinedForms(labels.shipper)
        rules.labels.quantity = Self.withJoinedForms(labels.quantity)
        rules.labels.notOrderNumber = Self.withJoinedForms(labels.notOrderNumber)
        rules.labels.summaryRows = Self.withJoinedForms(labels.summaryRows)
        rules.trackingNumberLabels = Self.withJoinedForms(trackingNumberLabels)
        return rules.addingTypographicApostrophes()
    }

    /// The rules with each label and phrase that holds an apostrophe (U+0027) also written with
    /// the typographic one (U+2019), right after it: "we've received your order", then
    /// "we’ve received your order"; "frais d'expédition", then "frais d’expédition". Mail
    /// writes either (an HTML body's `&rsquo;` is the second), and the phrase is the same.
    func addingTypographicApostrophes() -> LanguageRules {
        var rules = self
        let lists: [WritableKeyPath<Labels, [String]>] = [
            \.orderNumber, \.orderNumberWeak, \.carrier, \.total, \.orderDate, \.estimatedDelivery,
            \.shipper, \.quantity, \.notOrderNumber, \.summaryRows,
        ]
        for list in lists {
            rules.labels[keyPath: list] = Self.withTypographicApostrophes(labels[keyPath: list])
        }
        rules.trackingNumberLabels = Self.withTypographicApostrophes(trackingNumberLabels)
        rules.kinds = kinds.mapValues(Self.withTypographicApostrophes)
        rules.statuses = statuses.mapValues(Self.withTypographicApostrophes)
        rules.brandPhrases = Self.withTypographicApostrophes(brandPhrases)
        rules.orderLinkPhrases = orderLinkPhrases.map(Self.withTypographicApostrophes)
        rules.partialCancellation = partialCancellation.map(Self.withTypographicApostrophes)
        rules.wholeCancellation = wholeCancellation.map(Self.withTypographicApostrophes)
        for (word, offset) in relativeDays where word.utf8.contains(0x27) {
            let typographic = word.replacingOccurrences(of: "'", with: "\u{2019}")
            if rules.relativeDays[typographic] == nil { rules.relativeDays[typographic] = offset }
        }
        return rules
    }

    /// `phrases` with, after each phrase that holds `'`, the phrase with `’` in its place,
    /// unless the list has that form already; the order is kept.
    static func withTypographicApostrophes(_ phrases: [String]) -> [String] {
        guard phrases.contains(where: { $0.utf8.contains(0x27) }) else { return phrases }
        var listed = Set(phrases)
        var result: [String] = []
        result.reserveCapacity(phrases.count + 4)
        for phrase in phrases {
            result.append(phrase)
            guard phrase.utf8.contains(0x27) else { continue }
            let typographic = phrase.replacingOccurrences(of: "'", with: "\u{2019}")
            if listed.insert(typographic).inserted { result.append(typographic) }
        }
        return result
    }

    /// `labels` with, after each label that holds a space, the label without its spaces, unless
    /// the list has that form already. The order is kept: a list whose first labels are the most
    /// specific (``Labels/total``) stays so.
    /// - Parameter labels: labels as the rules list them.
    /// - Returns: the labels and their joined forms.
    static func withJoinedForms(_ labels: [String]) -> [String] {
        var listed = Set(labels)
        var result: [String] = []
        result.reserveCapacity(labels.count * 2)
        for label in labels {
            result.append(label)
            guard label.utf8.contains(0x20) else { continue }
            let joined = String(label.unicodeScalars.filter { $0 != " " }.map(Character.init))
            if joined.unicodeScalars.count >= 2, listed.insert(joined).inserted { result.append(joined) }
        }
        return result
    }

    func validate(path: String) throws(RulesError) {
        for key in kinds.keys where EmailKind(rawValue: key) == nil {
            throw RulesError(path: path, reason: "unknown kind '\(key)' in kinds")
        }
        for key in statuses.keys where ShipmentStatus(rawValue: key) == nil {
            throw RulesError(path: path, reason: "unknown status '\(key)' in statuses")
        }
        if months.count != 12 {
            throw RulesError(path: path, reason: "months must list 12 months, found \(months.count)")
        }
        if weekdays.count != 7 {
            throw RulesError(path: path, reason: "weekdays must list 7 days, found \(weekdays.count)")
        }
        for format in dateFormats {
            if let problem = DateFormatPattern.problem(in: format) {
                throw RulesError(path: path, reason: "date format '\(format)': \(problem)")
            }
        }
    }
}
