import Testing

@Suite struct SwiftTokenizerTests {
    private func names(_ source: String) -> [String] {
        SwiftTokenizer.tokens(of: source).filter { $0.kind == .name }.map(\.text)
    }

    @Test func commentsNameNothing() {
        let source = """
            // Hidden
            /* Hidden /* Nested */ still Hidden */ Shown
            /// Hidden
            """
        #expect(names(source) == ["Shown"])
    }

    @Test func stringLiteralsNameNothing() {
        let source = ##"""
            a = "Hidden \" Hidden"
            b = """
                Hidden " Hidden ""
                """
            c = #"Hidden " Hidden \(Hidden)"#
            d = ##"Hidden "# Hidden"##
            e = #"""
                Hidden """ Hidden
                """#
            Shown
            """##
        #expect(names(source) == ["a", "b", "c", "d", "e", "Shown"])
    }

    @Test func interpolationsAreCode() {
        let source = ##"""
            "x \(Alpha(")", Beta)) y" Gamma
            #"x \#(Delta) \(Hidden)"#
            """##
        #expect(names(source) == ["Alpha", "Beta", "Gamma", "Delta"])
    }

    @Test func linesCountInsideCommentsAndStrings() {
        let source = #"""
            /*
            */ "one"
            """
            two \
            three
            """
            Seventh
            """#
        let lines = SwiftTokenizer.tokens(of: source).map { "\($0.text):\($0.line)" }
        #expect(lines == ["Seventh:7"])
    }

    @Test func aNameAfterOneDotIsAMember() {
        let tokens = SwiftTokenizer.tokens(of: "Outer.Inner; 0...Upper; t.0.Field; `Type`; 1.5e3")
        #expect(tokens.map(\.text) == ["Outer", "Inner", "Upper", "t", "Field", "Type"])
        #expect(tokens.map(\.kind) == [.name, .memberName, .name, .name, .memberName, .name])
    }

    @Test func bracesAreTokens() {
        let kinds = SwiftTokenizer.tokens(of: "struct A { }").map(\.kind)
        #expect(kinds == [.name, .name, .openBrace, .closeBrace])
    }
}
