import Testing

@testable import Mailbox

@Test func moduleLoads() { #expect(Bool(true)) }
