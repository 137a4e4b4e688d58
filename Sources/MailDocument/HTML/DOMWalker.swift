import CLibXML2
import Foundation

// Walks a libxml2 HTML tree without recursion, writing visible and hidden text, links,
// images, JSON-LD blocks and microdata items in one pass.

private typealias NodePointer = UnsafeMutablePointer<xmlNode>

/// Attributes the renderer reads, pointing into the libxml2 tree (valid while it lives).
private struct Attributes {
    var style: UnsafePointer<UInt8>?
    var hidden = false
    var href: UnsafePointer<UInt8>?
    var src: UnsafePointer<UInt8>?
    var alt: UnsafePointer<UInt8>?
    var type: UnsafePointer<UInt8>?
    var itemscope = false
    var itemprop: UnsafePointer<UInt8>?
    var itemtype: UnsafePointer<UInt8>?
    var content: UnsafePointer<UInt8>?
    var datetime: UnsafePointer<UInt8>?
    var value: UnsafePointer<UInt8>?
    var classAttribute: UnsafePointer<UInt8>?
    var idAttribute: UnsafePointer<UInt8>?
    var dataMarker: UnsafePointer<UInt8>?
}

private struct LinkBuilder {
    var href: String
    var inHidden: Bool
    var start: Int
    var imageAlt: String?
}

private struct ItemBuilder {
    var types: [String]
    var properties: [(String, JSONValue)] = []
    /// The `itemprop` names this item is the value of in its parent item.
    var propertyNames: [String]
}

private struct Frame {
    var node: NodePointer
    var kind: ElementKind
    var location: String?
    /// Length of the path bytes through this element, once computed.
    var pathEnd = 0
    var startedHidden = false
    var hiddenStart = 0
    var isPreheaderCandidate = false
    var previousFontZero = false
    var changedFontZero = false
    var hardHidden = false
    var pushedLink = false
    var pushedItem = false
    var textProperty: [String] = []
    var suppresses = false
}

struct DOMWalker {
    private let partPath: String
    private let options: HTMLRenderer.Options
    private var visible: TextSink
    private var hidden: TextSink
    private var stack: [Frame] = []
    /// The DOM path of the first `pathDepth` open elements, as bytes.
    private var pathBytes: [UInt8] = []
    private var pathDepth = 0
    /// Per parent and element name: the last element whose sibling index was computed.
    private var siblingIndex: [SiblingKey: (node: NodePointer, index: Int)] = [:]
    private var hardHiddenDepth = 0
    private var fontZero = false
    private var suppressDepth = 0
    private var preformattedDepth = 0
    private var links: [Link] = []
    private var linkStack: [LinkBuilder] = []
    private var images: [ImageReference] = []
    private var preheader: String?
    private var preheaderFromClass = false
    private var title: String?
    private var jsonLD: [JSONLDBlock] = []
    private var items: [ItemBuilder] = []
    private var topLevelItems: [JSONValue] = []
    private var itemCount = 0
    private var warnings: [DocumentWarning] = []
    /// The kinds of content (links, images, …) whose limit was hit, each warned about once.
    private var limitsHit: Set<String> = []
    /// The first quote container or quote marker of a mail client, once met.
    private var quoteStart: HTMLQuoteStart?
    /// Where in the hidden text the hidden block that gave ``preheader`` started.
    private var preheaderHiddenStart = 0

    init(partPath: String, options: HTMLRenderer.Options, capacity: Int) {
        self.partPath = partPath
        self.options = options
        visible = TextSink(capacity: capacity)
        hidden = TextSink(capacity: 256)
    }

    private var inHidden: Bool { hardHiddenDepth > 0 || fontZero }

    mutating func walk(_ document: htmlDocPtr) {
        guard var node = document.pointee.children else { return }
        while true {
            var descended = false
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                if enter(node) {
                    if let child = node.pointee.children {
                        node = child
                        continue
                    }
                    descended = true
                }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                text(node)
            default:
                break
            }
            if descended { leave() }
            // Next sibling, or climb until an ancestor has one.
            while true {
                if let next = node.pointee.next {
                    node = next
                    break
                }
                guard !stack.isEmpty, let parent = node.pointee.parent, parent == stack[stack.count - 1].node
                else { return }
                leave()
                node = parent
            }
        }
    }

    /// Warns, once per kind, that more than `limit` of `kind` were found and the rest dropped.
    private mutating func limitHit(_ kind: String, _ limit: Int) {
        guard limitsHit.insert(kind).inserted else { return }
        warnings.append(
            DocumentWarning(
                partPath: partPath, message: "more than \(limit) \(kind); rest ignored", isLimit: true))
    }

    func finish() -> RenderedHTML {
        var copy = self
        var topLevel = copy.topLevelItems
        // Items left open (cannot happen with a well-formed walk) are closed here.
        while let item = copy.items.popLast() {
            if copy.items.isEmpty { topLevel.append(DOMWalker.json(item)) }
        }
        let hiddenSpans = copy.hidden.spans
        let hiddenText = copy.hidden.finish()
        let visibleSpans = copy.visible.spans
        let text = copy.visible.finish()
        var quoteStart = copy.quoteStart
        if let quote = quoteStart, copy.preheader != nil {
            quoteStart?.holdsPreheader = copy.preheaderHiddenStart >= quote.hiddenOffset
        }
        return RenderedHTML(
            text: RenderedText(
                text: text, spans: visibleSpans, hiddenText: hiddenText, hiddenSpans: hiddenSpans),
            links: copy.links, images: copy.images, preheader: copy.preheader, title: copy.title,
            jsonLD: copy.jsonLD, microdata: topLevel, warnings: copy.warnings, quoteStart: quoteStart)
    }

    // MARK: - Elements

    private func kind(of node: NodePointer) -> ElementKind {
        guard let name = node.pointee.name else { return [] }
        return ElementKind.kind(name)
    }

    /// Handles an element's start; returns whether its children are to be walked (a frame
    /// was pushed and ``leave()`` will be called).
    private mutating func enter(_ node: NodePointer) -> Bool {
        let kind = kind(of: node)
        if kind.contains(.skip) && !kind.contains(.head) {
            if kind.contains(.script) {
                script(node)
            } else if kind.contains(.title), title == nil {
                let value = DOMWalker.subtreeText(node, limit: 1_000)
                if !value.isEmpty { title = value }
            }
            return false
        }
        let attributes = DOMWalker.attributes(of: node)
        var frame = Frame(node: node, kind: kind)

        if kind.contains(.head) {
            frame.suppresses = true
            suppressDepth += 1
        }

        // Visibility.
        let wasHidden = inHidden
        var hardHide = attributes.hidden
        if let style = attributes.style {
            let inline = InlineStyle(style)
            if inline.hidesContent { hardHide = true }
            if let zero = inline.fontSizeIsZero {
                frame.previousFontZero = fontZero
                frame.changedFontZero = true
                fontZero = zero
            }
        }
        if hardHide {
            frame.hardHidden = true
            hardHiddenDepth += 1
        }
        if !wasHidden && inHidden && suppressDepth == 0 {
            frame.startedHidden = true
            hidden.request(.newline)
            frame.hiddenStart = hidden.bytes.count
            frame.isPreheaderCandidate =
                [attributes.classAttribute, attributes.idAttribute].contains {
                    $0.map(DOMWalker.mentionsPreheader) ?? false
                }
        }

        if quoteStart == nil, suppressDepth == 0, !inHidden,
            let markup = DOMWalker.quoteMarkup(node, attributes: attributes)
        {
            quoteStart = HTMLQuoteStart(
                offset: visible.bytes.count, hiddenOffset: hidden.bytes.count, markup: markup)
        }

        if suppressDepth == 0 {
            layoutStart(kind)
            if kind.contains(.lineBreak) {
                var sink = currentSink()
                sink.request(sink.pending >= .newline ? .blankLine : .newline)
                setCurrentSink(sink)
            }
            if kind.contains(.image) { image(attributes) }
            if kind.contains(.anchor), let href = attributes.href {
                let hrefString = DOMWalker.trimmedString(href)
                if !hrefString.isEmpty, links.count + linkStack.count >= options.maxLinks {
                    limitHit("links", options.maxLinks)
                } else if !hrefString.isEmpty {
                    let sink = currentSink()
                    linkStack.append(
                        LinkBuilder(href: hrefString, inHidden: inHidden, start: sink.bytes.count))
                    frame.pushedLink = true
                }
            }
        }
        if kind.contains(.preformatted) { preformattedDepth += 1 }

        microdataStart(node, kind: kind, attributes: attributes, frame: &frame)

        stack.append(frame)
        return true
    }

    private mutating func leave() {
        guard let frame = stack.popLast() else { return }
        if pathDepth > stack.count { pathDepth = stack.count }
        let kind = frame.kind
        if suppressDepth == 0 { layoutEnd(kind) }
        if frame.pushedLink, let builder = linkStack.popLast() { finishLink(builder) }
        if kind.contains(.preformatted) { preformattedDepth -= 1 }
        microdataEnd(frame)
        if frame.hardHidden { hardHiddenDepth -= 1 }
        if frame.changedFontZero { fontZero = frame.previousFontZero }
        if frame.startedHidden { hiddenRegionEnded(frame) }
        if frame.suppresses { suppressDepth -= 1 }
    }

    private mutating func layoutStart(_ kind: ElementKind) {
        if kind.contains(.cell) {
            modifyCurrentSink { $0.request(.tab) }
        } else if kind.contains(.block) {
            modifyCurrentSink { $0.request(.newline) }
        }
    }

    private mutating func layoutEnd(_ kind: ElementKind) {
        if kind.contains(.block) {
            modifyCurrentSink { $0.request(.newline) }
        }
    }

    private mutating func hiddenRegionEnded(_ frame: Frame) {
        hidden.request(.newline)
        guard frame.hiddenStart < hidden.bytes.count else { return }
        // A hidden block near the top (before much visible text), or one named "preheader",
        // is the preview text mail clients show.
        let eligible =
            frame.isPreheaderCandidate
            ? !preheaderFromClass : (preheader == nil && visible.bytes.count < 1_000)
        guard eligible else { return }
        let text = String(decoding: hidden.bytes[frame.hiddenStart...], as: UTF8.self).collapsingWhitespace()
        if !text.isEmpty {
            preheader = text
            preheaderFromClass = frame.isPreheaderCandidate
            preheaderHiddenStart = frame.hiddenStart
        }
    }

    private func currentSink() -> TextSink { inHidden ? hidden : visible }

    private mutating func setCurrentSink(_ sink: TextSink) {
        if inHidden { hidden = sink } else { visible = sink }
    }

    private mutating func modifyCurrentSink(_ body: (inout TextSink) -> Void) {
        if inHidden { body(&hidden) } else { body(&visible) }
    }

    // MARK: - Text

    private mutating func text(_ node: NodePointer) {
        guard suppressDepth == 0, let content = node.pointee.content else { return }
        let preformatted = preformattedDepth > 0
        let range: Range<Int>?
        if inHidden {
            range = hidden.appendText(content, preformatted: preformatted)
        } else {
            range = visible.appendText(content, preformatted: preformatted)
        }
        guard let range else { return }
        let span = TextSpan(range: range, partPath: partPath, location: locationOfTop())
        if inHidden { hidden.spans.append(span) } else { visible.spans.append(span) }
    }

    /// The DOM path of the innermost open element, e.g. `html/body/table[1]/tr[3]/td[2]`.
    /// Paths deeper than 64 elements keep their last 32 steps after `…/`.
    ///
    /// The path of the open elements is kept as bytes, extended only for elements not yet
    /// in it, so each element's step is computed once and each location costs one string.
    private mutating func locationOfTop() -> String {
        let count = stack.count
        guard count > 0 else { return "" }
        if let cached = stack[count - 1].location { return cached }
        if count > 64 {
            var bytes = Array("…".utf8)
            for index in (count - 32)..<count {
                bytes.append(UInt8(ascii: "/"))
                DOMWalker.appendStep(stack[index].node, to: &bytes, cache: &siblingIndex)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let validEnd = pathDepth > 0 ? stack[pathDepth - 1].pathEnd : 0
        if pathBytes.count > validEnd { pathBytes.removeLast(pathBytes.count - validEnd) }
        for index in pathDepth..<count {
            if !pathBytes.isEmpty { pathBytes.append(UInt8(ascii: "/")) }
            DOMWalker.appendStep(stack[index].node, to: &pathBytes, cache: &siblingIndex)
            stack[index].pathEnd = pathBytes.count
        }
        pathDepth = count
        let location = String(decoding: pathBytes, as: UTF8.self)
        stack[count - 1].location = location
        return location
    }

    private struct SiblingKey: Hashable {
        var parent: UnsafeRawPointer?
        var name: ElementKind.NameKey
    }

    /// Appends `name`, or `name[n]` when the element has siblings of the same name.
    ///
    /// The index of the last element counted under each parent and name is remembered, so
    /// rows of a long table are counted from the previous row, not from the first.
    private static func appendStep(
        _ node: NodePointer, to bytes: inout [UInt8],
        cache siblingIndex: inout [SiblingKey: (node: NodePointer, index: Int)]
    ) {
        guard let name = node.pointee.name else {
            bytes.append(UInt8(ascii: "?"))
            return
        }
        let key = ElementKind.NameKey(name).map {
            SiblingKey(parent: node.pointee.parent.map(UnsafeRawPointer.init), name: $0)
        }
        var same = 0
        var sibling = node.pointee.prev
        var looked = 0
        let remembered = key.flatMap { siblingIndex[$0] }
        while let current = sibling, looked < 100_000 {
            if let remembered, current == remembered.node {
                same += remembered.index + 1
                break
            }
            if current.pointee.type == XML_ELEMENT_NODE, DOMWalker.sameName(current.pointee.name, name) {
                same += 1
            }
            sibling = current.pointee.prev
            looked += 1
        }
        if let key { siblingIndex[key] = (node, same) }
        var length = 0
        while name[length] != 0, length < 256 { length += 1 }
        bytes.append(contentsOf: UnsafeBufferPointer(start: name, count: length))
        if same == 0 {
            var following = node.pointee.next
            looked = 0
            while let current = following, looked < 64 {
                if current.pointee.type == XML_ELEMENT_NODE, DOMWalker.sameName(current.pointee.name, name) {
                    bytes.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "1"), UInt8(ascii: "]")])
                    return
                }
                following = current.pointee.next
                looked += 1
            }
            return
        }
        bytes.append(UInt8(ascii: "["))
        var digits: [UInt8] = []
        var value = same + 1
        while value > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        }
        bytes.append(contentsOf: digits.reversed())
        bytes.append(UInt8(ascii: "]"))
    }

    // MARK: - Links and images

    private mutating func finishLink(_ builder: LinkBuilder) {
        let sink = builder.inHidden ? hidden : visible
        var start = builder.start
        let end = sink.bytes.count
        while start < end, sink.bytes[start] == 0x20 || sink.bytes[start] == 0x09 || sink.bytes[start] == 0x0A
        {
            start += 1
        }
        var text = ""
        if start < end {
            text = String(decoding: sink.bytes[start..<end], as: UTF8.self)
            if text.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A }) { text = text.collapsingWhitespace() }
        }
        if text.isEmpty, let alt = builder.imageAlt { text = alt }
        let target = RedirectUnwrapper.unwrap(builder.href)
        links.append(
            Link(
                href: builder.href, target: target, text: text, position: start, isHidden: builder.inHidden,
                origin: .html))
    }

    private mutating func image(_ attributes: Attributes) {
        let alt = attributes.alt.map { String(cString: $0).collapsingWhitespace() }
        let source = attributes.src.map { DOMWalker.trimmedString($0) } ?? ""
        if let alt, !alt.isEmpty, !linkStack.isEmpty, linkStack[linkStack.count - 1].imageAlt == nil {
            linkStack[linkStack.count - 1].imageAlt = alt
        }
        guard !source.isEmpty || alt?.isEmpty == false else { return }
        guard images.count < options.maxImages else { return limitHit("images", options.maxImages) }
        let sink = currentSink()
        images.append(
            ImageReference(
                source: source, alt: alt?.isEmpty == true ? nil : alt, position: sink.bytes.count,
                isHidden: inHidden))
    }

    // MARK: - Scripts

    private mutating func script(_ node: NodePointer) {
        let attributes = DOMWalker.attributes(of: node)
        guard let type = attributes.type else { return }
        let typeString = String(cString: type).lowercased()
        guard typeString.contains("ld+json") else { return }
        guard jsonLD.count < options.maxJSONLDBlocks else {
            limitHit("JSON-LD blocks", options.maxJSONLDBlocks)
            return
        }
        var bytes: [UInt8] = []
        var child = node.pointee.children
        while let current = child {
            if let content = current.pointee.content {
                bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: strlen(content)))
            }
            child = current.pointee.next
        }
        stack.append(Frame(node: node, kind: []))
        let location = locationOfTop()
        stack.removeLast()
        if pathDepth > stack.count { pathDepth = stack.count }
        jsonLD.append(
            JSONLDBlock(text: String(decoding: bytes, as: UTF8.self), partPath: partPath, location: location))
    }

    // MARK: - Microdata (HTML Living Standard §5.2)

    private mutating func microdataStart(
        _ node: NodePointer, kind: ElementKind, attributes: Attributes, frame: inout Frame
    ) {
        let names = attributes.itemprop.map { DOMWalker.tokens(String(cString: $0)) } ?? []
        if attributes.itemscope {
            guard itemCount < options.maxMicrodataItems else {
                return limitHit("microdata items", options.maxMicrodataItems)
            }
            itemCount += 1
            let types = attributes.itemtype.map { DOMWalker.tokens(String(cString: $0)) } ?? []
            items.append(ItemBuilder(types: types, propertyNames: items.isEmpty ? [] : names))
            frame.pushedItem = true
            return
        }
        guard !names.isEmpty, !items.isEmpty else { return }
        if let value = DOMWalker.attributeValue(kind: kind, node: node, attributes: attributes) {
            for name in names { items[items.count - 1].properties.append((name, .string(value))) }
        } else {
            frame.textProperty = names
        }
    }

    private mutating func microdataEnd(_ frame: Frame) {
        if !frame.textProperty.isEmpty, !items.isEmpty {
            let value = DOMWalker.subtreeText(frame.node, limit: 4_000)
            for name in frame.textProperty {
                items[items.count - 1].properties.append((name, .string(value)))
            }
        }
        guard frame.pushedItem, let item = items.popLast() else { return }
        let json = DOMWalker.json(item)
        if items.isEmpty || item.propertyNames.isEmpty {
            // Not the value of a property: a top-level item.
            topLevelItems.append(json)
        } else {
            for name in item.propertyNames { items[items.count - 1].properties.append((name, json)) }
        }
    }

    private static func json(_ item: ItemBuilder) -> JSONValue {
        var object: [String: JSONValue] = [:]
        if !item.types.isEmpty {
            object["@type"] =
                item.types.count == 1 ? .string(item.types[0]) : .array(item.types.map { .string($0) })
        }
        for (name, value) in item.properties {
            if case .array(var values) = object[name] {
                values.append(value)
                object[name] = .array(values)
            } else if let existing = object[name] {
                object[name] = .array([existing, value])
            } else {
                object[name] = value
            }
        }
        return .object(object)
    }

    /// The value of an `itemprop` element that takes it from an attribute, or `nil` when its
    /// value is its text.
    private static func attributeValue(kind: ElementKind, node: NodePointer, attributes: Attributes)
        -> String?
    {
        guard let name = node.pointee.name else { return nil }
        let tag = String(cString: name)
        let pointer: UnsafePointer<UInt8>?
        switch tag {
        case "meta": pointer = attributes.content
        case "a", "area", "link": pointer = attributes.href
        case "img", "audio", "video", "source", "track", "embed", "iframe": pointer = attributes.src
        case "time": pointer = attributes.datetime
        case "data", "meter": pointer = attributes.value
        default: pointer = attributes.content  // `content` on any element is common in email markup
        }
        guard let pointer else { return tag == "meta" ? "" : nil }
        return trimmedString(pointer)
    }

    // MARK: - Quote markup

    /// Class names that mail clients give the element holding a quoted message: Gmail,
    /// Yahoo Mail, Proton Mail, Tutanota.
    private static let quoteClasses: [StaticString] = [
        "gmail_quote", "yahoo_quoted", "protonmail_quote", "tutanota_quote",
    ]

    /// Element identifiers after which Outlook's quoted message follows to the end: Outlook on
    /// the web and the mobile apps (`appendonsend`, `divRplyFwdMsg`), Outlook.com
    /// (`stopSpelling`), Outlook for Mac (`OLK_SRC_BODY_SECTION`).
    private static let quoteIdentifiers: [StaticString] = [
        "appendonsend", "divRplyFwdMsg", "stopSpelling", "OLK_SRC_BODY_SECTION",
    ]

    /// The quote markup of a mail client that an element carries (see ``HTMLQuoteStart``),
    /// written out for inspection (`blockquote type="cite"`), or `nil`.
    private static func quoteMarkup(_ node: NodePointer, attributes: Attributes) -> String? {
        guard
            attributes.type != nil || attributes.classAttribute != nil || attributes.idAttribute != nil
                || attributes.dataMarker != nil, let name = node.pointee.name
        else { return nil }
        let isBlockquote = equals(name, "blockquote")
        func tag() -> String { String(cString: name) }
        if isBlockquote, let type = attributes.type, valueEquals(type, "cite") {
            return "blockquote type=\"cite\""
        }
        if isBlockquote || equals(name, "div"), let classes = attributes.classAttribute,
            let token = quoteClass(classes)
        {
            return "\(tag()) class=\"\(token)\""
        }
        if let identifier = attributes.idAttribute {
            for marker in quoteIdentifiers where valueEquals(identifier, marker) {
                return "\(tag()) id=\"\(marker)\""
            }
        }
        if let marker = attributes.dataMarker, valueEquals(marker, "__DIVIDER__") {
            return "\(tag()) data-marker=\"__DIVIDER__\""
        }
        return nil
    }

    /// Whether an attribute value, without ASCII white space around it, equals `literal`
    /// with ASCII letters compared without case.
    private static func valueEquals(_ value: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        var start = 0
        while value[start] != 0, value[start] <= 0x20 { start += 1 }
        let bytes = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        // A NUL in the value differs from every byte of the literal, so the loop never reads
        // past the value's end.
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        for index in 0..<count where lowered(value[start + index]) != lowered(bytes[index]) {
            return false
        }
        var end = start + count
        while value[end] != 0 {
            guard value[end] <= 0x20 else { return false }
            end += 1
        }
        return true
    }

    /// The first white-space-separated token of a `class` attribute that is one of
    /// ``quoteClasses`` (compared with case), reading the value once.
    private static func quoteClass(_ value: UnsafePointer<UInt8>) -> StaticString? {
        var index = 0
        while value[index] != 0 {
            while value[index] != 0, value[index] <= 0x20 { index += 1 }
            let start = index
            while value[index] > 0x20 { index += 1 }
            let length = index - start
            for token in quoteClasses where token.utf8CodeUnitCount == length {
                let bytes = token.utf8Start
                if (0..<length).allSatisfy({ value[start + $0] == bytes[$0] }) { return token }
            }
        }
        return nil
    }

    // MARK: - Helpers

    private static func attributes(of node: NodePointer) -> Attributes {
        var result = Attributes()
        var attribute = node.pointee.properties
        while let current = attribute {
            defer { attribute = current.pointee.next }
            guard let name = current.pointee.name else { continue }
            let value: UnsafePointer<UInt8>? = current.pointee.children.flatMap {
                $0.pointee.content.map { UnsafePointer($0) }
            }
            switch name[0] {
            case UInt8(ascii: "s"):
                if equals(name, "style") {
                    result.style = value
                } else if equals(name, "src") {
                    result.src = value
                }
            case UInt8(ascii: "h"):
                if equals(name, "href") {
                    result.href = value
                } else if equals(name, "hidden") {
                    result.hidden = true
                }
            case UInt8(ascii: "a"):
                if equals(name, "alt") { result.alt = value }
            case UInt8(ascii: "t"):
                if equals(name, "type") { result.type = value }
            case UInt8(ascii: "i"):
                if equals(name, "itemscope") {
                    result.itemscope = true
                } else if equals(name, "itemprop") {
                    result.itemprop = value
                } else if equals(name, "itemtype") {
                    result.itemtype = value
                } else if equals(name, "id") {
                    result.idAttribute = value
                }
            case UInt8(ascii: "c"):
                if equals(name, "content") {
                    result.content = value
                } else if equals(name, "class") {
                    result.classAttribute = value
                }
            case UInt8(ascii: "d"):
                if equals(name, "datetime") {
                    result.datetime = value
                } else if equals(name, "data-marker") {
                    result.dataMarker = value
                }
            case UInt8(ascii: "v"):
                if equals(name, "value") { result.value = value }
            default:
                break
            }
        }
        return result
    }

    private static func sameName(_ lhs: UnsafePointer<UInt8>?, _ rhs: UnsafePointer<UInt8>) -> Bool {
        guard let lhs else { return false }
        if lhs == rhs { return true }
        return strcmp(
            UnsafeRawPointer(lhs).assumingMemoryBound(to: CChar.self),
            UnsafeRawPointer(rhs).assumingMemoryBound(to: CChar.self)) == 0
    }

    private static func equals(_ pointer: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let bytes = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        for index in 0..<count where pointer[index] != bytes[index] { return false }
        return pointer[count] == 0
    }

    private static func mentionsPreheader(_ value: UnsafePointer<UInt8>) -> Bool {
        let lower = String(cString: value).lowercased()
        return lower.contains("preheader") || lower.contains("preview")
    }

    /// The text content of an element's subtree, whitespace collapsed, up to about `limit`
    /// bytes; walked without recursion.
    private static func subtreeText(_ root: NodePointer, limit: Int) -> String {
        var sink = TextSink(capacity: 64)
        guard var node = root.pointee.children else { return "" }
        walk: while true {
            if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
                let content = node.pointee.content
            {
                _ = sink.appendText(content, preformatted: false)
                if sink.bytes.count >= limit { break walk }
            }
            if node.pointee.type == XML_ELEMENT_NODE, let child = node.pointee.children {
                node = child
                continue walk
            }
            var current = node
            while true {
                if let next = current.pointee.next {
                    node = next
                    continue walk
                }
                guard let parent = current.pointee.parent, parent != root else { break walk }
                current = parent
            }
        }
        return sink.finish()
    }

    private static func tokens(_ value: String) -> [String] {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }

    /// An attribute value as a string without leading and trailing ASCII whitespace.
    static func trimmedString(_ pointer: UnsafePointer<UInt8>) -> String {
        var start = 0
        while pointer[start] != 0, pointer[start] <= 0x20 { start += 1 }
        var end = start
        while pointer[end] != 0 { end += 1 }
        while end > start, pointer[end - 1] <= 0x20 { end -= 1 }
        return String(
            decoding: UnsafeBufferPointer(start: pointer + start, count: end - start), as: UTF8.self)
    }

    static func trimmed(_ value: String) -> String {
        var scalars = Substring(value)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
