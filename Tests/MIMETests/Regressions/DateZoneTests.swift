import Foundation
import Testing

@testable import MIME

/// Date fields read over bytes: the zone is kept, and numbers that do not fit are not a crash.
@Suite struct DateZoneTests {
    @Test func theZoneOfTheDateFieldIsKept() throws {
        let tokyo = try #require(DateParser.parseWithOffset("Sat, 29 Nov 2026 08:15:00 +0900 (JST)"))
        #expect(tokyo.offsetMinutes == 540)
        #expect(tokyo.date == Date(timeIntervalSince1970: 1_795_907_700))
        #expect(DateParser.parseWithOffset("1 Jul 03 10:52 EST")?.offsetMinutes == -300)
        #expect(DateParser.parseWithOffset("Thu, 13 Feb 1969 23:32:54 -0330")?.offsetMinutes == -210)
        #expect(DateParser.parseWithOffset("2006-01-02T15:04:05+01:00")?.offsetMinutes == 60)
        #expect(DateParser.parseWithOffset("Mon Jan  2 15:04:05 2006")?.offsetMinutes == 0)
    }

    @Test func aMessageGivesItsDateTimeZone() throws {
        let message = try Message(
            bytes: Array("Date: Sun, 29 Nov 2026 23:30:00 -0800\r\nSubject: x\r\n\r\nbody".utf8))
        #expect(message.dateTimeZone?.secondsFromGMT() == -8 * 3600)
        #expect(try Message(bytes: Array("Subject: x\r\n\r\nbody".utf8)).dateTimeZone == nil)
    }

    /// An ISO 8601 zone of 18 digits overflowed `number * 60` and trapped.
    @Test func anOverlongISOZoneIsNotAZone() {
        let date = DateParser.parseWithOffset("2006-01-02T15:04+999999999999999999")
        #expect(date?.offsetMinutes == 0)
        #expect(date?.date == DateParser.parse("2006-01-02T15:04Z"))
        #expect(DateParser.parse("2006-01-02T15:04:05+01:080") == DateParser.parse("2006-01-02T15:04:05Z"))
    }

    @Test func numbersTooLargeForIntAreNotDates() {
        #expect(DateParser.parse("99999999999999999999 Jul 2003 10:52:37") == nil)
        #expect(DateParser.parse("1 Jul 99999999999999999999999 10:52:37") == nil)
        // A time that does not fit is dropped; the day stays.
        #expect(DateParser.parse("1 Jul 2003 99999999999999999999:52:37") == DateParser.parse("1 Jul 2003"))
    }

    @Test func monthNamesMayBeLongOrEndInADot() {
        #expect(
            DateParser.parse("Wed, 5 Sept. 2001 01:02:03 +0000")
                == DateParser.parse("5 Sep 2001 01:02:03 GMT"))
        #expect(
            DateParser.parse("5 SEPTEMBER 2001 01:02:03 gmt") == DateParser.parse("5 Sep 2001 01:02:03 GMT"))
    }
}
