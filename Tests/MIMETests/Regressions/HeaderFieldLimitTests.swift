import Testing

@testable import MIME

/// A header field cut at ``MIMELimits/maxLineLength`` is reported, like every other limit.
@Test(arguments: [false, true])
func aHeaderFieldOverTheLineLimitIsCutWithAWarning(folded: Bool) throws {
    var limits = MIMELimits()
    limits.maxLineLength = 64
    let long = String(repeating: "s", count: 100)
    let subject = folded ? "Subject: start\r\n " + long : "Subject: " + long
    let message = try Message(
        bytes: Array("From: a@b.example\r\n\(subject)\r\nTo: c@d.example\r\n\r\nbody\r\n".utf8),
        limits: limits)
    #expect((message.header.rawValue("Subject")?.count ?? 0) <= 64)
    #expect(
        message.warnings.contains { $0.message == "header Subject longer than 64 bytes: the rest dropped" })
    #expect(message.to.first?.address == "c@d.example")
}

@Test func aHeaderFieldWithinTheLineLimitHasNoWarning() throws {
    var limits = MIMELimits()
    limits.maxLineLength = 64
    let message = try Message(
        bytes: Array("From: a@b.example\r\nSubject: short\r\n continued\r\n\r\nbody\r\n".utf8), limits: limits
    )
    #expect(!message.warnings.contains { $0.message.contains("longer than") })
}
