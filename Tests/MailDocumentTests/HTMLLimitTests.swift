import Foundation
import MIME
import Testing

@testable import MailDocument

private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

private func attributes(_ count: Int) -> String {
    (0..<count).map { "a\($0)=\"x\"" }.joined(separator: " ")
}

/// libxml2 compares each attribute of a start tag with all the earlier ones: 40,000
/// attributes took 5.5 s, 500,000 more than five minutes. The tag is cut with a warning.
@Test func aTagWithTensOfThousandsOfAttributesIsCutWithAWarning() {
    let html = "<p>before</p><div \(attributes(40_000))>inside</div><p>after</p>"
    let start = ContinuousClock.now
    let result = HTMLRenderer.render(html: html, partPath: "1")
    #expect(ContinuousClock.now - start < .seconds(2))
    let warning = result.warnings.first { $0.message.hasPrefix("text/html part cut at byte 13 of") }
    #expect(warning?.message.contains("nesting and attributes would cost the parser") == true)
    #expect(result.text.lines == ["before"])
}

@Test func attributesCostPairwiseComparisons() {
    // <p> and </p> cost a step each; 1,000 attributes 499,500 comparisons, and the tag a step.
    let tag = Array("<p>x</p><b \(attributes(1_000))>y</b>".utf8)
    #expect(HTMLCost.cut(tag, maxSteps: 499_504, maxNodes: .max) == nil)
    #expect(
        HTMLCost.cut(tag, maxSteps: 499_502, maxNodes: .max) == HTMLCost.Cut(offset: 8, reason: .parserSteps))
    // Attribute values in quotes may hold `>` and what looks like tags.
    let quoted = Array(("<b title=\"a > </b> <i>\" " + attributes(1_000) + ">y</b>").utf8)
    #expect(HTMLCost.cut(quoted, maxSteps: 400_000, maxNodes: .max)?.offset == 0)
}

/// 20 MB of `<b>x</b>` made a tree of 5 million nodes (1 GB); the HTML is cut where the
/// estimated nodes pass the budget, and the text before the cut is kept.
@Test func manySmallElementsAreCutAtTheNodeBudgetWithAWarning() {
    let html = "<p>before</p>" + String(repeating: "<b>x</b>", count: 200_000) + "<p>after</p>"
    let result = HTMLRenderer.render(html: html, partPath: "1")
    let warning = result.warnings.first {
        $0.message.contains("more than 150000 elements, attributes and comments")
    }
    #expect(warning != nil, "\(result.warnings)")
    // One node for <p>before</p>, then one per <b>x</b>: the cut is at the 150,000th.
    #expect(warning?.message.hasPrefix("text/html part cut at byte \(13 + 8 * 149_999) of") == true)
    #expect(result.text.lines.first?.hasPrefix("before") == true)
    #expect(result.text.text.utf8.count(where: { $0 == UInt8(ascii: "x") }) == 149_999)
    #expect(!result.text.text.contains("after"))
}

@Test func nodesCountTagsAttributesCommentsAndInstructions() {
    let html = Array("<p class=\"a\" id=b>x</p></i><!-- <i>not markup</i> --><?php echo ?><br/>".utf8)
    // p, class, id, the stray </i> (</p> closes p), the comment, the instruction, br: 7.
    #expect(HTMLCost.cut(html, maxSteps: .max, maxNodes: 7) == nil)
    #expect(HTMLCost.cut(html, maxSteps: .max, maxNodes: 6) == HTMLCost.Cut(offset: 66, reason: .nodes))
}

/// Places where the old estimate read markup differently from libxml2, so that hostile HTML
/// cost libxml2 quadratic time the estimate did not see.
@Test func theEstimateFollowsLibxml2WhereItDecidesWhatIsMarkup() {
    func cut(_ html: String) -> Int? { HTMLCost.cutOffset(Array(html.utf8), budget: 100_000) }
    let stray = String(repeating: "</a>", count: 200)
    // wbr, source and embed are not empty elements in libxml2: they nest.
    #expect(cut(String(repeating: "<wbr>", count: 1_000) + stray) != nil)
    #expect(cut(String(repeating: "<br>", count: 1_000) + stray) == nil)
    // An end tag under an element of higher end priority closes nothing and searches the stack.
    #expect(
        cut("<b>" + String(repeating: "<div>", count: 1_000) + String(repeating: "</b>", count: 200)) != nil)
    #expect(
        cut("<b>" + String(repeating: "<span>", count: 1_000) + String(repeating: "</b>", count: 200)) == nil)
    // Title contents are markup; comments are not; neither are quoted attribute values.
    #expect(cut("<title>" + String(repeating: "<div>", count: 1_000) + stray) != nil)
    let deep = String(repeating: "<div>", count: 1_000)
    let closeAll = String(repeating: "</div>", count: 1_000)
    #expect(cut(deep + "<!--" + closeAll + "-->" + stray) != nil)
    #expect(cut(deep + "<i title=\"" + closeAll + "\">" + stray) != nil)
    #expect(cut(deep + closeAll + stray) == nil)
    // Script text ends only at </script: tags inside are text.
    #expect(cut(deep + "<script>" + closeAll + "</script>" + stray) != nil)
    // End tags whose names start with _ or : are searched for too; each <body> searches the stack.
    #expect(cut(deep + String(repeating: "</_x>", count: 200)) != nil)
    #expect(cut(deep + String(repeating: "<body>", count: 200)) != nil)
}

private func emlFiles(under folder: URL) -> [URL] {
    guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
        return []
    }
    return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "eml" }
        .sorted { $0.path < $1.path }
}

/// Real email stays far inside both budgets: every HTML part of `Corpus/` and of the public
/// MIME corpora fits 1/5,000 of the step budget and 1/30 of the node budget, and builds
/// without a warning about its HTML.
@Test func ordinaryEmailIsFarInsideTheHTMLBudgets() throws {
    let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/mime")
    let files =
        emlFiles(under: repositoryRoot.appendingPathComponent("Corpus")) + emlFiles(under: shared)
    #expect(files.count > 100)
    var htmlParts = 0
    for file in files {
        guard let data = try? Data(contentsOf: file), let message = try? Message(bytes: Array(data)) else {
            continue
        }
        guard let html = message.htmlBody?.text else { continue }
        htmlParts += 1
        let bytes = HTMLRenderer.preparedBytes(html: html)
        #expect(HTMLCost.cut(bytes, maxSteps: 10_000, maxNodes: 5_000) == nil, "\(file.lastPathComponent)")
        let document = MailDocument(message: message)
        #expect(!document.warnings.contains { $0.message.hasPrefix("HTML") }, "\(file.lastPathComponent)")
        if file.path.contains("/Corpus/") {
            #expect(document.warnings.isEmpty, "\(file.lastPathComponent): \(document.warnings)")
        }
    }
    #expect(htmlParts > 100)
}

@Test func shortPartsAreNotScanned() {
    // 14,000 bytes hold at most 4,666 tags and 7,000 attributes: under 50 million steps.
    #expect(!HTMLCost.mayPass(byteCount: 14_000, maxSteps: 50_000_000, maxNodes: 200_000))
    #expect(HTMLCost.mayPass(byteCount: 15_000, maxSteps: 50_000_000, maxNodes: 200_000))
    #expect(HTMLCost.mayPass(byteCount: 500_000, maxSteps: .max, maxNodes: 200_000))
}

@Test func linkAndImageLimitsWarnOnce() {
    var options = HTMLRenderer.Options()
    options.maxLinks = 3
    options.maxImages = 2
    let html = String(repeating: "<a href=\"https://x.example/\">x</a><img src=\"i.png\">", count: 10)
    let result = HTMLRenderer.render(html: html, partPath: "1", options: options)
    #expect(result.links.count == 3)
    #expect(result.images.count == 2)
    #expect(
        result.warnings.map(\.message) == [
            "more than 2 images; rest ignored", "more than 3 links; rest ignored",
        ])
}
