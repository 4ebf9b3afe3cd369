import CoreData
import Testing

/// Runs the Core Data tutorials' programs (`Examples/`), which the build puts beside the tests,
/// each with a scratch directory for its store, and checks all they print.
@Suite struct CoreDataExamplesTests {
    /// What a program printed on its standard output, after checking that it exited with 0
    /// and wrote nothing on its standard error.
    private func run(_ program: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let scratch = try CtxTemporaryDirectory()
        let run = try ProgramRun.run(program, [scratch.url.path])
        #expect(run.status == 0, "\(program) failed: \(run.errors)", sourceLocation: sourceLocation)
        #expect(run.errors.isEmpty, sourceLocation: sourceLocation)
        return run.output
    }

    @Test func theMovieCatalogShowsItsSectionsByGenreAndASearch() throws {
        #expect(try run("MovieCatalog") == """
            Movies by genre
              Animation (3)
                1988  My Neighbor Totoro
                2001  Spirited Away
                1995  Toy Story
              Comedy (2)
                1993  Groundhog Day
                1959  Some Like It Hot
              Drama (3)
                1942  Casablanca
                2016  Moonlight
                1972  The Godfather
              Science fiction (3)
                1979  Alien
                2016  Arrival
                1982  Blade Runner
              Thriller (1)
                1958  Vertigo
            Index: A C D S T
            Search: "the", or since 2010
              Drama (2)
                2016  Moonlight
                1972  The Godfather
              Science fiction (1)
                2016  Arrival

            """)
    }

    @Test func theStudentListShowsTheModelsValidationErrorsAsAFormWould() throws {
        #expect(try run("StudentList") == """
            Form: name "Ada Lovelace", age 17, email "ada@example.org"
            Form: name "Alan Turing", age 19, email ""
            Form: name "Katherine Johnson", age 18, email "kj@example.org"
              ✓ saved
            Students
              Ada Lovelace, 17, ada@example.org
              Alan Turing, 19, no email
              Katherine Johnson, 18, kj@example.org
            Form: name "", age 12, email "grace-at-navy"
              not saved (NSCocoaErrorDomain 1560):
              ✗ Name is required.
              ✗ Age 12 is below the minimum: SELF >= 16.
              ✗ Email "grace-at-navy" is not an email address.
            Form: name "Grace Hopper", age 16, email "grace@navy.mil"
              ✓ saved
            Form: name "Alan Turing", age 130, email "alan@example.org"
              not saved (NSCocoaErrorDomain 1610):
              ✗ Age 130 is above the maximum: SELF <= 99.
            Cancel
            Delete Ada Lovelace
              ✓ saved
            Students
              Alan Turing, 19, no email
              Grace Hopper, 16, grace@navy.mil
              Katherine Johnson, 18, kj@example.org

            """)
    }

    @Test func theWorkshopStackSavesThroughItsParentDiscardsAnEditAndMigrates() throws {
        #expect(try run("WorkshopStack") == """
            Saved three sessions
              view:  Contexts and queues (Ben); Core Data basics (Ana); Faults (Chloé)
              store: Contexts and queues (Ben); Core Data basics (Ana); Faults (Chloé)
            The editor saved: the view context has the new title, the store not yet
              view:  Contexts, queues and threads (Ben); Core Data basics (Ana); Faults (Chloé)
              store: Contexts and queues (Ben); Core Data basics (Ana); Faults (Chloé)
            The view context saved
              view:  Contexts, queues and threads (Ben); Core Data basics (Ana); Faults (Chloé)
              store: Contexts, queues and threads (Ben); Core Data basics (Ana); Faults (Chloé)
            The cancelled editor had changes: true; the view context has changes: false
            After the cancelled edit
              view:  Contexts, queues and threads (Ben); Core Data basics (Ana); Faults (Chloé)
              store: Contexts, queues and threads (Ben); Core Data basics (Ana); Faults (Chloé)
            Before: the store fits version 1: true, version 2: false
            After: the store fits version 1: false, version 2: true
            Migrated: every session has the new attribute's default room
              view:  Contexts, queues and threads (Ben, Main hall); Core Data basics (Ana, Main hall); Faults (Chloé, Main hall)
              store: Contexts, queues and threads (Ben, Main hall); Core Data basics (Ana, Main hall); Faults (Chloé, Main hall)
            The second release moved a session
              view:  Contexts, queues and threads (Ben, Main hall); Core Data basics (Ana, Main hall); Faults (Chloé, Room 2)
              store: Contexts, queues and threads (Ben, Main hall); Core Data basics (Ana, Main hall); Faults (Chloé, Room 2)

            """)
    }

    @Test func theNewsImporterUpdatesRepeatedArticlesInsteadOfDuplicatingThem() throws {
        #expect(try run("NewsImporter") == """
            Morning feed
              Science
                #101 Rover finds ice on Mars
              Sport
                #103 Local team wins the cup
              World
                #102 Summit opens in Geneva
            Later feed with the error merge policy: not saved (NSCocoaErrorDomain 133021, 2 constraint conflicts)
            Later feed with the object-trump merge policy
              Science
                #101 Rover finds water ice near the south pole
              Sport
                #103 Local team wins the cup
                #104 Marathon record falls
              World
                #102 Summit opens in Geneva
            Articles in the store: 4

            """)
    }

    @Test func theWalkthroughPrintsTheTableViewCallsOfEachChange() throws {
        #expect(try run("FetchedResultsWalkthrough") == """
            The table
              Family: Cleo
              Friends: Ben
              Work: Ada, Dan
            Insert Eve in a new group, and Al in Work
              tableView.beginUpdates()
                insertSections([2])  // Neighbours
                insertRows(at: [[2, 0]])  // Eve
                insertRows(at: [[3, 1]])  // Al
              tableView.endUpdates()
              Family: Cleo
              Friends: Ben
              Neighbours: Eve
              Work: Ada, Al, Dan
            Rename Ada to Zoe (her row moves), and give Dan a phone number (his row is reloaded)
              tableView.beginUpdates()
                moveRow(at: [3, 0], to: [3, 2])  // Zoe
                reloadRows(at: [[3, 2]])  // Dan
              tableView.endUpdates()
              Family: Cleo
              Friends: Ben
              Neighbours: Eve
              Work: Al, Dan, Zoe
            Move Ben to Work, and delete Cleo, the last of Family
              tableView.beginUpdates()
                deleteSections([0])  // Family
                deleteSections([1])  // Friends
                deleteRows(at: [[0, 0]])  // Cleo
                moveRow(at: [1, 0], to: [1, 1])  // Ben
              tableView.endUpdates()
              Neighbours: Eve
              Work: Al, Ben, Dan, Zoe

            """)
    }
}
