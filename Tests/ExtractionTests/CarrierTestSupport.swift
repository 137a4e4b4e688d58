import Foundation
import MailDocument

@testable import Extraction

/// The repository's `rules/` folder and its carrier catalog, loaded once.
enum CarrierTestSupport {
    static let rulesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("rules")

    static let catalog: CarrierCatalog = {
        do {
            return try CarrierCatalog.load(from: rulesDirectory)
        } catch {
            preconditionFailure("carrier rules do not load: \(error)")
        }
    }()

    /// Tracking numbers found in `text`, as `carrierID:number` pairs.
    static func found(
        _ text: String, links: [Link] = [], sender: String? = nil, subject: String? = nil
    ) -> [String] {
        catalog.findTrackingNumbers(
            in: TrackingSearchInput(text: text, links: links, senderDomain: sender, subject: subject)
        ).map { "\($0.carrierID):\($0.trackingNumber)" }
    }
}
