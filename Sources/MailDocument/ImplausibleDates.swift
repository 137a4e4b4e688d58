import Foundation

extension MailDocument {
    /// How far after the time of reading a Date header field may lie and still be read: one
    /// day, for time zones written wrongly and clocks a little fast. In seconds.
    public static let dateAllowance: TimeInterval = 86_400

    /// The latest Date header field read as the sender's when reading at `now`: `now` plus
    /// ``dateAllowance``.
    public static func latestPlausibleDate(readingAt now: Date = Date()) -> Date {
        now.addingTimeInterval(dateAllowance)
    }

    /// Reads every Date header field later than `latest` as no date: this document's, and
    /// those of the originals it forwards, at any depth.
    ///
    /// A date after the time of reading is a sender's wrong clock or a forged field (a
    /// message dated 2099). Kept, it would date an order years ahead, and Wallet's
    /// `updatedAt` never goes back; "tomorrow", "Monday" and dates without a year in the
    /// body would be read against it. The zone it was written in (``dateTimeZone``) goes
    /// with it.
    /// - Parameter latest: the latest date read, usually ``latestPlausibleDate(readingAt:)``.
    /// - Returns: this document's own Date field when it was later than `latest` and is now
    ///   `nil`; `nil` when it was kept or absent. Forwarded originals' dates are dropped
    ///   alike but not returned.
    @discardableResult
    public mutating func discardDates(after latest: Date) -> Date? {
        var dropped: Date?
        if let date, date > latest {
            dropped = date
            self.date = nil
            dateTimeZone = nil
        }
        if var original = forwardedOriginal, original.holdsDate(after: latest) {
            original.discardDates(after: latest)
            forwardedOriginal = original
        }
        return dropped
    }

    /// Whether this document or an original it forwards has a Date field later than `latest`.
    private func holdsDate(after latest: Date) -> Bool {
        if let date, date > latest { return true }
        return forwardedOriginal?.holdsDate(after: latest) ?? false
    }
}
