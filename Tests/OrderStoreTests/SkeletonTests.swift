import Testing

@testable import OrderStore

@Test func moduleLoads() { #expect(Bool(true)) }
