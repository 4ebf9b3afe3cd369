@testable import CoreData
import Testing

/// The XML reader keeps each element's text, which the XML store's values are, and the writer
/// writes it back.
@Suite struct XMLDocumentParserTests {
    @Test func textWithReferencesAndCharacterDataIsKeptAndWrittenBack() throws {
        let document = "<a><b kind=\"x\">Fish &amp; &lt;Chips&gt; &#233;<![CDATA[ <raw> & ]]></b><c></c><d/></a>"
        let root = try XMLDocumentParser.parse(Array(document.utf8))
        #expect(root.child(named: "b")?.text == "Fish & <Chips> é <raw> & ")
        #expect(root.child(named: "c")?.text == "")
        let written = root.document(.init(prologue: "", closesEmptyElementsInTheTag: false))
        #expect(written == "<a>\n    <b kind=\"x\">Fish &amp; &lt;Chips&gt; é &lt;raw&gt; &amp; </b>\n    <c></c>\n    <d></d>\n</a>\n")
        #expect(try XMLDocumentParser.parse(Array(written.utf8)).child(named: "b")?.text == root.child(named: "b")?.text)
    }

    @Test func anUnknownReferenceInTextIsRefusedWithItsLine() {
        #expect { try XMLDocumentParser.parse(Array("<a>\n<b>&nope;</b></a>".utf8)) } throws: { error in
            (error as? XMLDocumentParser.Failure)?.line == 2
        }
    }
}
