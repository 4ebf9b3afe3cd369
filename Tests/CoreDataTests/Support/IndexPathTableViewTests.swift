import Testing
@testable import CoreData

@Suite struct IndexPathTableViewTests {
    @Test func rowAndSectionAreTheSecondAndFirstIndexes() {
        let path = IndexPath(row: 4, section: 2)
        #expect(Array(path) == [2, 4])
        #expect(path.section == 2)
        #expect(path.row == 4)
        #expect(path.item == 4)
    }

    @Test func itemIsTheSecondIndex() {
        let path = IndexPath(item: 7, section: 1)
        #expect(path == IndexPath(indexes: [1, 7]))
        #expect(path.item == 7)
        #expect(path.row == 7)
    }

    @Test func settersReplaceTheirIndex() {
        var path = IndexPath(row: 0, section: 0)
        path.row = 3
        #expect(Array(path) == [0, 3])
        path.section = 5
        #expect(Array(path) == [5, 3])
        path.item = 9
        #expect(Array(path) == [5, 9])
    }
}
