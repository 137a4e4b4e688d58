import Testing

@testable import MailDocument

@Test func moduleLoads() { #expect(Bool(true)) }
