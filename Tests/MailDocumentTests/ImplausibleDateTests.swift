import Foundation
import Testing

@testable import MailDocument

/// A Date field after the time of reading is read as no date, in the email and in the
/// originals it forwards (RFC 5322 §3.6.1 gives the date of writing, which cannot be later).
@Suite struct ImplausibleDateTests {
    static let now = Date(timeIntervalSince1970: 1_796_000_000)  // 2026-11-30
    static let latest = MailDocument.latestPlausibleDate(readingAt: now)

    @Test func theAllowanceIsOneDay() {
        #expect(Self.latest.timeIntervalSince(Self.now) == 86_400)
    }

    @Test func aDateWithinTheAllowanceIsKept() {
        var document = MailDocument(subject: "Order", date: Self.now.addingTimeInterval(3_600))
        document.dateTimeZone = TimeZone(secondsFromGMT: 9 * 3_600)
        #expect(document.discardDates(after: Self.latest) == nil)
        #expect(document.date == Self.now.addingTimeInterval(3_600))
        #expect(document.dateTimeZone?.secondsFromGMT() == 9 * 3_600)
    }

    @Test func aLaterDateGoesWithItsZone() {
        let future = Self.now.addingTimeInterval(86_400 * 365 * 70)
        var document = MailDocument(subject: "Order", date: future)
        document.dateTimeZone = TimeZone(secondsFromGMT: -5 * 3_600)
        #expect(document.discardDates(after: Self.latest) == future)
        #expect(document.date == nil)
        #expect(document.dateTimeZone == nil)
    }

    @Test func forwardedOriginalsAtAnyDepthLoseTheirLaterDates() {
        let future = Self.now.addingTimeInterval(86_400 * 30)
        let innermost = MailDocument(subject: "Order A-1", date: future)
        let middle = MailDocument(subject: "Fwd: Order A-1", date: Self.now, forwardedOriginal: innermost)
        var outer = MailDocument(subject: "Fwd: Fwd: Order A-1", date: Self.now, forwardedOriginal: middle)
        // The outer date is plausible, so nothing is returned; the innermost date still goes.
        #expect(outer.discardDates(after: Self.latest) == nil)
        #expect(outer.date == Self.now)
        #expect(outer.forwardedOriginal?.date == Self.now)
        #expect(outer.forwardedOriginal?.forwardedOriginal?.date == nil)
        #expect(outer.forwardedOriginal?.forwardedOriginal?.subject == "Order A-1")
    }
}
