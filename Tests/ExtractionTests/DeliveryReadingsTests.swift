import Testing

@testable import Extraction

/// ``DeliveryReadings`` reads each distinct value once and gives a repeated value what it gave
/// the first time, a value without a window included.
@Suite struct DeliveryReadingsTests {
    @Test func aRepeatedValueIsReadOnce() {
        var readings = DeliveryReadings()
        var read: [String] = []
        func reading(_ value: String) -> DeliveryReadings.Reading? {
            readings.reading(of: value) { value in
                read.append(value)
                guard value.hasPrefix("2025") else { return nil }
                return DeliveryReadings.Reading(
                    window: DateWindow(from: value, until: value), datesEmpty: false)
            }
        }
        let first = reading("2025-03-12")
        #expect(first?.window == DateWindow(from: "2025-03-12", until: "2025-03-12"))
        #expect(first?.key == "2025-03-122025-03-12")
        #expect(reading("tomorrow") == nil)
        #expect(reading("2025-03-12")?.key == first?.key)
        #expect(reading("tomorrow") == nil)
        #expect(reading("2025-03-14")?.window.until == "2025-03-14")
        #expect(read == ["2025-03-12", "tomorrow", "2025-03-14"])
    }
}
