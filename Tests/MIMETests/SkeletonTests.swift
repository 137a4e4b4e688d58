import Testing

@testable import MIME

@Test func moduleLoads() { #expect(Bool(true)) }
