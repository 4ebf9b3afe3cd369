import Testing

@Suite struct TypeReferenceGraphTests {
    @Test func anEdgeNamesEachTypeWithItsFirstUse() {
        let graph = TypeReferenceGraph(files: [
            ("A/Declarations.swift", "struct Alpha {}\nprotocol Beta {}\ntypealias Gamma = Int\n"),
            ("B/Uses.swift", "// Alpha\nlet x: Alpha\nlet y: Alpha & Beta\nlet z = [Gamma]()\n"),
        ])
        let uses = graph.edges[FolderEdge(from: "B", to: "A")]
        #expect(uses?.mapValues(\.description) == [
            "Alpha": "B/Uses.swift:2", "Beta": "B/Uses.swift:3", "Gamma": "B/Uses.swift:4",
        ])
        #expect(graph.edges.count == 1)
    }

    @Test func typesOfAllKindsAndExtensionsCount() {
        let graph = TypeReferenceGraph(files: [
            ("A/A.swift", "final class Alpha {}\nactor Beta {}\nindirect enum Gamma {}\n"),
            ("B/B.swift", "extension Alpha { func f(_ b: Beta) -> Gamma }\n"),
        ])
        #expect(graph.edges[FolderEdge(from: "B", to: "A")]?.keys.sorted() == ["Alpha", "Beta", "Gamma"])
    }

    @Test func aNestedTypeIsReachedThroughItsOuterType() {
        let graph = TypeReferenceGraph(files: [
            ("A/A.swift", "struct Alpha { enum Kind {} }\nextension Alpha { struct Part {} }\n"),
            ("B/B.swift", "let k: Kind\nlet p: Part\n"),
            ("C/C.swift", "let k: Alpha.Kind\n"),
        ])
        #expect(graph.edges[FolderEdge(from: "B", to: "A")] == nil)
        #expect(graph.edges[FolderEdge(from: "C", to: "A")]?.keys.sorted() == ["Alpha"])
    }

    @Test func aNameDeclaredInTwoFoldersIsAmbiguous() {
        let graph = TypeReferenceGraph(files: [
            ("A/A.swift", "struct Entry {}\n"),
            ("B/B.swift", "enum Outer { struct Entry {} }\n"),
            ("C/C.swift", "let e: Entry\n"),
        ])
        #expect(graph.edges.isEmpty)
        #expect(graph.ambiguousNames == ["Entry": ["A", "B"]])
    }

    @Test func classMembersDeclareNoType() {
        let graph = TypeReferenceGraph(files: [
            ("A/A.swift", "class Alpha { class func make() {}\nclass var shared: Alpha }\n"),
            ("B/B.swift", "func g() { var x = make() }\n"),
        ])
        #expect(graph.edges.isEmpty)
        #expect(graph.ambiguousNames.isEmpty)
    }

    @Test func foldersAreTopFoldersAndEachStore() {
        #expect(TypeReferenceGraph.folder(ofPath: "CoreData.swift") == ".")
        #expect(TypeReferenceGraph.folder(ofPath: "Predicate/Parsing/PredicateParser.swift") == "Predicate")
        #expect(TypeReferenceGraph.folder(ofPath: "Stores/SQLite/SQLiteStore.swift") == "Stores/SQLite")
    }

    @Test func cyclesAreFoldersThatReachEachOther() {
        let graph = TypeReferenceGraph(files: [
            ("A/A.swift", "struct Alpha { let b: Beta }\n"),
            ("B/B.swift", "struct Beta { let a: Alpha }\n"),
            ("C/C.swift", "struct Gamma { let a: Alpha }\n"),
        ])
        #expect(graph.cycles == [["A", "B"]])
    }
}
