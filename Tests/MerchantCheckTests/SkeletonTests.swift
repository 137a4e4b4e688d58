import Testing
@testable import MerchantCheck

@Test func moduleLoads() { #expect(Bool(true)) }
