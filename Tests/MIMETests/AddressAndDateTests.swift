import Foundation
import Testing

@testable import MIME

@Test func readsDisplayNamesAngleAddressesAndComments() throws {
    let message = try parse(
        "From: \"Doe, Jane\" <jane@example.com>, bob@example.com (Bob Smith), <x@y.org>\n\nb")
    #expect(
        message.from == [
            MailAddress(name: "Doe, Jane", address: "jane@example.com"),
            MailAddress(name: "Bob Smith", address: "bob@example.com"),
            MailAddress(address: "x@y.org"),
        ])
}

@Test func encodedCommaInDisplayNameIsNotASeparator() throws {
    let message = try parse("To: =?utf-8?Q?M=C3=BCller=2C_Hans?= <hans@example.de>, b@example.de\n\nb")
    #expect(message.to.map(\.address) == ["hans@example.de", "b@example.de"])
    #expect(message.to.first?.name == "Müller, Hans")
}

@Test func readsGroupsAndEmptyGroups() throws {
    let message = try parse("To: Team: a@example.com, B <b@example.com>;, undisclosed-recipients:;\n\nb")
    #expect(message.to.map(\.address) == ["a@example.com", "b@example.com"])
    #expect(message.to.allSatisfy { $0.group == "Team" })
}

@Test func readsObsoleteRoutesAndSpacedDomains() throws {
    let message = try parse("To: Mary <@relay.tld:mary@example.net>, jdoe@test   . example\n\nb")
    #expect(message.to.map(\.address) == ["mary@example.net", "jdoe@test.example"])
}

@Test func decodesEncodedDisplayNamesInSeveralCharsets() throws {
    let message = try parse(
        "From: =?EUC-KR?B?wda5riDIrsDO?= <ko@example.kr>, =?gb2312?B?xPq1xLaptaU=?= <zh@example.cn>\n\nb")
    #expect(message.from.map(\.name) == ["주문 확인", "您的订单"])
    #expect(message.from.first?.domain == "example.kr")
}

private func utc(_ text: String) -> String? {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return DateParser.parse(text).map { formatter.string(from: $0) }
}

@Test func parsesRFC5322AndObsoleteDates() {
    #expect(utc("Tue, 1 Jul 2003 10:52:37 +0200") == "2003-07-01T08:52:37Z")
    #expect(utc("1 Jul 03 10:52 EST") == "2003-07-01T15:52:00Z")
    #expect(utc("Fri, 21 Nov 97 09:55:06 GMT") == "1997-11-21T09:55:06Z")
    #expect(utc("Thu, 13 Feb 1969 23:32:54 -0330 (Newfoundland Time)") == "1969-02-14T03:02:54Z")
    #expect(utc("Mon, 4 Jan 2021 12:00:00 Z") == "2021-01-04T12:00:00Z")
}

@Test func parsesCommonBrokenDates() {
    #expect(utc("Mon Jan  2 15:04:05 2006") == "2006-01-02T15:04:05Z")
    #expect(utc("2006-01-02T15:04:05+01:00") == "2006-01-02T14:04:05Z")
    #expect(utc("21-Jul-1996 17:02:55 -0800") == "1996-07-22T01:02:55Z")
    #expect(utc("Sun, 21 Jul 1996 17.02.55 PDT") == "1996-07-22T00:02:55Z")
    #expect(utc("Malformed Date.") == nil)
}

@Test func missingDateIsNotAnError() throws {
    let message = try parse("Subject: no date\n\nb")
    #expect(message.date == nil)
    #expect(message.warnings.isEmpty)
}

/// Display names are trimmed as `CharacterSet.whitespaces` trims them, fast path or not.
@Test func displayNameTrimmingAgreesWithFoundation() {
    let samples = [
        "", " ", "Shop", " Shop", "Shop\t", "\u{A0}Shop", "Shop\u{3000}", "\u{2003}\u{2003}", "Café",
        "é", "Shop\u{200B}", "\u{85}Shop", "Shop\r\n", "~", "!Shop!",
    ]
    for sample in samples {
        #expect(ASCII.trimmingWhitespace(sample) == sample.trimmingCharacters(in: .whitespaces), "\(sample)")
    }
}
