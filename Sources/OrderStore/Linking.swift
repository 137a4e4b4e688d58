import Extraction
import Foundation

/// The normalizations that linking compares: merchant keys, order numbers, tracking numbers.
public enum OrderKeys {
    /// The key that identifies a merchant: its registrable domain (lower-cased, no trailing dot,
    /// no leading `www.`), else its name folded (case, diacritics, width) with every run of
    /// non-alphanumerics turned into one space.
    ///
    /// - Parameters:
    ///   - name: the merchant's display name.
    ///   - domain: the merchant's registrable domain, as the extraction gives it.
    /// - Returns: the key, or `nil` when neither gives anything.
    public static func merchantKey(name: String?, domain: String?) -> String? {
        if let domain {
            var folded = domain.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            while folded.hasSuffix(".") { folded.removeLast() }
            if folded.hasPrefix("www.") { folded.removeFirst(4) }
            if !folded.isEmpty { return folded }
        }
        if let name {
            let folded = fold(name)
            if !folded.isEmpty { return folded }
        }
        return nil
    }

    /// The key of an order number within one merchant: surrounding spaces and a leading `#`
    /// dropped, inner spaces removed, case folded.
    /// - Parameter orderNumber: the order number as printed.
    /// - Returns: the key, or `nil` when nothing is left.
    public static func orderKey(_ orderNumber: String?) -> String? {
        guard let orderNumber else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in orderNumber.unicodeScalars
        where !CharacterSet.whitespacesAndNewlines.contains(scalar) && scalar != "\0" {
            scalars.append(scalar)
        }
        var key = String(scalars)
        while key.hasPrefix("#") { key.removeFirst() }
        key = key.uppercased()
        return key.isEmpty ? nil : key
    }

    /// A tracking number as a linking key: spaces, hyphens and other separators removed,
    /// upper-cased.
    /// - Parameter trackingNumber: the tracking number as printed.
    /// - Returns: the key, or `nil` when nothing is left.
    public static func normalizedTrackingNumber(_ trackingNumber: String?) -> String? {
        guard let trackingNumber else { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in trackingNumber.unicodeScalars {
            if CharacterSet.whitespacesAndNewlines.contains(scalar) { continue }
            if scalar.properties.generalCategory == .dashPunctuation || scalar == "\0" { continue }
            scalars.append(scalar)
        }
        let key = String(scalars).uppercased()
        return key.isEmpty ? nil : key
    }

    private static func fold(_ name: String) -> String {
        let folded = name.folding(
            options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace && !result.isEmpty { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return String(result)
    }
}

/// One status event of a fulfillment: what a message said, and when (its Date header).
struct StatusEvent: Sendable, Hashable {
    var status: ShipmentStatus
    var at: Date?
    /// The message's sequence, only to make the order of simultaneous events deterministic.
    var sequence: Int64
}

/// The result of folding a fulfillment's status events.
struct FoldedStatus: Sendable, Hashable {
    var status: ShipmentStatus
    /// The Date of the event that set the status.
    var statusAt: Date?
    /// The earliest Date of an event at `shipped` or beyond (for `shippedAt` when no date was given).
    var firstShippedAt: Date?
    /// The earliest Date of a `delivered` event.
    var firstDeliveredAt: Date?
}

enum StatusFold {
    /// How far along the normal progress a status is; `nil` for `issue` and `cancelled`.
    static func progress(_ status: ShipmentStatus) -> Int? {
        switch status {
        case .processing: return 0
        case .shipped: return 1
        case .onTheWay: return 2
        case .outForDelivery: return 3
        case .delivered: return 4
        case .issue, .cancelled: return nil
        }
    }

    /// Folds status events in event-time order (Wallet Orders `ShippingFulfillment.status`).
    ///
    /// Events without a Date count as the oldest. Progress only moves forward; `issue` and
    /// `cancelled` hold while they are the newest event; progress after them resumes from the
    /// furthest progress seen. The result is the same whatever order the events were recorded in.
    static func fold(_ events: [StatusEvent]) -> FoldedStatus? {
        let sorted = events.sorted { left, right in
            let leftTime = left.at?.timeIntervalSince1970 ?? -Double.infinity
            let rightTime = right.at?.timeIntervalSince1970 ?? -Double.infinity
            if leftTime != rightTime { return leftTime < rightTime }
            let leftRank = progress(left.status) ?? 5
            let rightRank = progress(right.status) ?? 5
            if leftRank != rightRank { return leftRank < rightRank }
            return left.sequence < right.sequence
        }
        var status: ShipmentStatus?
        var statusAt: Date?
        var furthest: ShipmentStatus?
        var firstShippedAt: Date?
        var firstDeliveredAt: Date?
        for event in sorted {
            let next: ShipmentStatus
            if let rank = progress(event.status) {
                if furthest.flatMap(progress).map({ rank > $0 }) ?? true { furthest = event.status }
                next = furthest ?? event.status
                if rank >= 1, firstShippedAt == nil { firstShippedAt = event.at }
                if event.status == .delivered, firstDeliveredAt == nil { firstDeliveredAt = event.at }
            } else {
                next = event.status
            }
            if status != next {
                status = next
                statusAt = event.at
            }
        }
        guard let status else { return nil }
        return FoldedStatus(
            status: status, statusAt: statusAt, firstShippedAt: firstShippedAt,
            firstDeliveredAt: firstDeliveredAt)
    }

    /// The status a shipment is in when its email does not say, from the email's kind.
    static func impliedStatus(for kind: EmailKind) -> ShipmentStatus? {
        switch kind {
        case .orderConfirmation: return .processing
        case .shippingConfirmation, .carrierUpdate: return .shipped
        case .deliveryUpdate: return .delivered
        case .cancellation, .refund, .notAnOrder: return nil
        }
    }
}

/// `YYYY-MM-DD` as midnight UTC.
enum DayDate {
    static func parse(_ text: String?) -> Date? {
        guard let text else { return nil }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }
}
