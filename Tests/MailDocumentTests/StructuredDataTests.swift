import Testing

@testable import MailDocument

@Test func strictJSONLDNeedsNoRepair() {
    let result = JSONLDRepair.parse(#"{"@context":"https://schema.org","@type":"Order","orderNumber":"A-1"}"#)
    #expect(result.repairs.isEmpty)
    #expect(result.values.count == 1)
}

@Test func trailingCommasAreRepaired() {
    let result = JSONLDRepair.parse(
        #"{"@type":"Order","orderNumber":"A-1","acceptedOffer":[{"price":"12.00"},],}"#)
    #expect(result.repairs == [.trailingComma])
    #expect(result.error == nil)
    let objects = StructuredDataNormalizer.normalize(result.values, origin: "jsonld")
    #expect(objects.first?.string("orderNumber") == "A-1")
}

@Test func objectsWrittenBackToBackAreRead() {
    let result = JSONLDRepair.parse(
        #"{"@type":"Order","orderNumber":"1"}{"@type":"ParcelDelivery","trackingNumber":"Z"}"#)
    #expect(result.repairs == [.missingComma])
    #expect(
        StructuredDataNormalizer.normalize(result.values, origin: "jsonld").map(\.type) == [
            "Order", "ParcelDelivery",
        ])
}

@Test func aListWithoutBracketsIsRead() {
    let result = JSONLDRepair.parse(
        #"{"@type":"Order","orderNumber":"1"},{"@type":"Organization","name":"Shop"}"#)
    #expect(result.repairs == [.bareList])
    #expect(result.values.count == 2)
}

@Test func htmlEscapedBlocksAreDecoded() {
    let result = JSONLDRepair.parse(
        "{&quot;@type&quot;:&quot;Order&quot;,&quot;merchant&quot;:{&quot;name&quot;:&quot;Fish &amp;amp; Co&quot;}}"
    )
    #expect(result.repairs == [.htmlEntities])
    let objects = StructuredDataNormalizer.normalize(result.values, origin: "jsonld")
    #expect(objects.first?.object("merchant")?["name"] == .string("Fish & Co"))
}

@Test func cdataAndCommentWrappersAreRemoved() {
    let result = JSONLDRepair.parse("\n//<![CDATA[\n{\"@type\":\"Order\",\"orderNumber\":\"9\"}\n//]]>\n")
    #expect(result.repairs == [.wrapper])
    #expect(result.values.count == 1)
    let commented = JSONLDRepair.parse("<!-- {\"@type\":\"Order\"} -->")
    #expect(commented.repairs == [.wrapper])
}

@Test func rawNewlinesInsideStringsAreRepaired() {
    let result = JSONLDRepair.parse("{\"@type\":\"Product\",\"name\":\"Blue\nSocks\"}")
    #expect(result.repairs == [.controlCharacter])
    #expect(
        StructuredDataNormalizer.normalize(result.values, origin: "jsonld").first?.string("name")
            == "Blue Socks")
}

@Test func hopelessJSONGivesAnErrorNotACrash() {
    let result = JSONLDRepair.parse("{\"@type\": \"Order\", \"orderNumber\": ")
    #expect(result.values.isEmpty)
    #expect(result.error != nil)
    let deep = JSONLDRepair.parse(String(repeating: "[", count: 100_000))
    #expect(deep.values.isEmpty)
}

@Test func graphIsExpandedAndSynonymsFolded() {
    let json = """
        {"@context":"http://schema.org","@graph":[
          {"@type":"http://schema.org/Order","orderNumber":"A-9","seller":{"@type":"Organization","name":"Shop"},
           "orderStatus":"http://schema.org/OrderInTransit"},
          {"@type":["Thing","ParcelDelivery"],"provider":{"@type":"Organization","name":"UPS"},"trackingNumber":"1Z"}]}
        """
    let objects = StructuredDataNormalizer.normalize(JSONLDRepair.parse(json).values, origin: "jsonld")
    #expect(objects.map(\.type) == ["Order", "ParcelDelivery"])
    #expect(objects[0].string("merchant") == "Shop")
    #expect(objects[0].orderStatus == .orderInTransit)
    #expect(objects[1].string("carrier") == "UPS")
    #expect(objects[1].origin == "jsonld")
}

@Test func orderStatusValuesAreReadBareOrAsURLs() {
    #expect(SchemaOrderStatus(schemaValue: "OrderDelivered") == .orderDelivered)
    #expect(SchemaOrderStatus(schemaValue: "https://schema.org/OrderPaymentDue") == .orderPaymentDue)
    #expect(SchemaOrderStatus(schemaValue: "schema:OrderReturned") == .orderReturned)
    #expect(SchemaOrderStatus(schemaValue: "Processing") == .orderProcessing)
    #expect(SchemaOrderStatus(schemaValue: "Shipped") == nil)
    #expect(SchemaOrderStatus.allCases.count == 8)
}

@Test func jsonLDScriptsAreFoundInHeadAndBody() {
    let html = """
        <html><head><script type="application/ld+json">{"@type":"Order","orderNumber":"H1"}</script></head>
        <body><p>Hi</p><script type="application/ld+json">
        {"@type":"ParcelDelivery","trackingNumber":"T1",}</script></body></html>
        """
    let rendered = HTMLRenderer.render(html: html, partPath: "1")
    #expect(rendered.jsonLD.count == 2)
    #expect(rendered.text.text == "Hi")
    #expect(rendered.jsonLD[1].location == "html/body/script")
}

@Test func microdataNestedItemsAndAttributeValuesAreRead() {
    let html = """
        <div itemscope itemtype="http://schema.org/Order">
          <meta itemprop="orderNumber" content="M-77">
          <link itemprop="orderStatus" href="http://schema.org/OrderProcessing">
          <time itemprop="orderDate" datetime="2026-11-20T10:00:00Z">Nov 20</time>
          <div itemprop="seller" itemscope itemtype="http://schema.org/Organization">
            <span itemprop="name">Example  Outfitters</span>
            <a itemprop="url" href="https://shop.example/">shop</a>
          </div>
          <div itemprop="acceptedOffer" itemscope itemtype="http://schema.org/Offer">
            <div itemprop="itemOffered" itemscope itemtype="http://schema.org/Product">
              <span itemprop="name">Socks</span><img itemprop="image" src="https://shop.example/s.png">
            </div>
            <span itemprop="price">12.00</span>
          </div>
          <div itemprop="acceptedOffer" itemscope itemtype="http://schema.org/Offer"><span itemprop="price">3.50</span></div>
        </div>
        """
    let rendered = HTMLRenderer.render(html: html, partPath: "1")
    #expect(rendered.microdata.count == 1)
    let objects = StructuredDataNormalizer.normalize(rendered.microdata, origin: "microdata")
    #expect(objects.count == 1)
    let order = objects[0]
    #expect(order.type == "Order")
    #expect(order.string("orderNumber") == "M-77")
    #expect(order.orderStatus == .orderProcessing)
    #expect(order.string("orderDate") == "2026-11-20T10:00:00Z")
    #expect(order.string("merchant") == "Example Outfitters")
    #expect(order.object("merchant")?["url"] == .string("https://shop.example/"))
    guard case .array(let offers) = order.properties["acceptedOffer"] else {
        Issue.record("two offers expected")
        return
    }
    #expect(offers.count == 2)
    guard case .object(let first) = offers[0], case .object(let product) = first["itemOffered"] else {
        Issue.record("nested product expected")
        return
    }
    #expect(product["@type"] == .string("Product"))
    #expect(product["image"] == .string("https://shop.example/s.png"))
    #expect(first["price"] == .string("12.00"))
}

/// Control characters a JSON string carries escaped (`\u001b`, `\u0007`, `\u007f`, `\u0085`)
/// are read as nothing, as the rendered text reads them, and an escape sequence goes whole
/// (`\u001b[31m`, its 8-bit form `\u009b31m`); tab and line ends stay.
@Test func controlCharactersInValuesAreReadAsNothing() {
    let result = JSONLDRepair.parse(
        #"{"@type":"ParcelDelivery","trackingNumber":"1Z999AA10123456784\u0007","orderNumber":"LH-\u001b[31m20458813\u007f\u0085","name":"a\tb"}"#
    )
    let objects = StructuredDataNormalizer.normalize(result.values, origin: "jsonld")
    #expect(objects.first?.string("trackingNumber") == "1Z999AA10123456784")
    #expect(objects.first?.string("orderNumber") == "LH-20458813")
    #expect(objects.first?.string("name") == "a\tb")
    let eightBit = JSONLDRepair.parse(
        #"{"@type":"Order","orderNumber":"NW-48\u009b0m213","seller":{"@type":"Organization","name":"\u009d0;pwned\u009cNorthwind"}}"#
    )
    let order = StructuredDataNormalizer.normalize(eightBit.values, origin: "jsonld").first
    #expect(order?.string("orderNumber") == "NW-48213")
    #expect(TextSink.visibleLine("\u{9B}31mNorthwind Outfitters\u{9B}0m") == "Northwind Outfitters")
    #expect(TextSink.withoutEscapeSequences("a\u{9D}0;title\u{7}b\u{85}c") == "a b\u{85}c")
}
