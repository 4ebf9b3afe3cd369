@testable import CoreData
import Testing

/// The concurrency debug switch (`-com.apple.CoreData.ConcurrencyDebug 1`,
/// `COREDATA_CONCURRENCY_DEBUG=1`): uses of a context or its objects outside the context's queue
/// are reported with the context and the thread. The tests turn the checks on for one context and
/// record the reports instead of stopping.
@Suite struct ConcurrencyDebugTests {
    private static func checkedStack(name: String) throws -> (CtxStack, CtxLog<String>) {
        let stack = try CtxStack(model: MovieModel.make())
        try stack.context.performAndWait {
            ctxInsert("Movie", into: stack.context, ["title": "Alien"])
            try stack.context.save()
        }
        let reports = CtxLog<String>()
        stack.context.name = name
        stack.context.checksConcurrency = true
        stack.context.concurrencyViolationHandler = { reports.append($0) }
        return (stack, reports)
    }

    @Test func usesInsideTheQueueAreQuiet() throws {
        let (stack, reports) = try Self.checkedStack(name: "quiet")
        try stack.context.performAndWait {
            let movies = try ctxFetch("Movie", in: stack.context)
            movies.first?.setValue("Aliens", forKey: "title")
            _ = movies.first?.value(forKey: "title")
            try stack.context.save()
        }
        #expect(reports.elements.isEmpty)
    }

    @Test func contextCallsFromAnotherThreadAreReportedWithContextAndThread() throws {
        let (stack, reports) = try Self.checkedStack(name: "background")
        _ = try? stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie"))
        _ = try? stack.context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Movie"))
        let report = try #require(reports.elements.first)
        #expect(report.contains("fetch(_:)"))
        #expect(report.contains("\"background\""))
        #expect(report.contains("private queue"))
        #expect(report.contains("thread"))
        #expect(reports.elements.count == 2)
    }

    @Test func objectAccessFromAnotherThreadIsReported() throws {
        let (stack, reports) = try Self.checkedStack(name: "objects")
        let movie = try stack.context.performAndWait { try #require(try ctxFetch("Movie", in: stack.context).first) }
        _ = movie.value(forKey: "title")
        movie.setValue("Aliens", forKey: "title")
        #expect(reports.elements.count == 2)
        #expect(reports.elements.first?.contains("value(forKey: \"title\") of Movie") == true)
        #expect(reports.elements.last?.contains("setValue(_:forKey: \"title\") of Movie") == true)
    }

    @Test func accessByPropertyIndexFromAnotherThreadIsReported() throws {
        let (stack, reports) = try Self.checkedStack(name: "generated")
        let movie = try stack.context.performAndWait { try #require(try ctxFetch("Movie", in: stack.context).first) }
        let title = try #require(movie.entity.layout.slotIndex(forKey: "title"))
        _ = movie.value(atPropertyIndex: title, named: "title")
        movie.setValue("Aliens", atPropertyIndex: title, named: "title")
        #expect(reports.elements.count == 2)
        #expect(reports.elements.first?.contains("value(forKey: \"title\") of Movie") == true)
        #expect(reports.elements.last?.contains("setValue(_:forKey: \"title\") of Movie") == true)
    }

    @Test func aMainQueueContextUsedOffTheMainThreadIsReported() throws {
        let stack = try CtxStack(model: MovieModel.make())
        let view = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        view.persistentStoreCoordinator = stack.coordinator
        let reports = CtxLog<String>()
        view.checksConcurrency = true
        view.concurrencyViolationHandler = { reports.append($0) }
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            Thread.current.name = "worker"
            _ = try? view.fetch(NSFetchRequest<NSManagedObject>(entityName: "Movie"))
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(reports.elements.first?.contains("main queue") == true)
        #expect(reports.elements.first?.contains("thread worker") == true, "\(reports.elements)")
    }

    @Test func theSwitchIsOffUnlessTurnedOn() throws {
        let stack = try CtxStack(model: MovieModel.make())
        #expect(stack.context.checksConcurrency == ConcurrencyDebug.isEnabled)
        #expect(DebugSwitch.level(launchArgument: "-com.apple.CoreData.ConcurrencyDebug", environment: "COREDATA_CONCURRENCY_DEBUG",
                                  arguments: ["app", "-com.apple.CoreData.ConcurrencyDebug", "1"], environment: [:]) == 1)
    }
}
