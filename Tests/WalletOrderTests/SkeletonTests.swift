import Testing

@testable import WalletOrder

@Test func moduleLoads() { #expect(Bool(true)) }
