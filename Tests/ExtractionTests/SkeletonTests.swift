import Testing

@testable import Extraction

@Test func moduleLoads() { #expect(Bool(true)) }
