#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BenchMallocCounter
import Foundation

/// What one measured run cost.
struct Sample: Sendable {
    /// Elapsed wall-clock time, in seconds (`CLOCK_MONOTONIC`).
    var wallSeconds: Double
    /// User plus system CPU time of the whole process (all threads), in seconds (`getrusage`).
    var cpuSeconds: Double
    /// How far the resident set grew above its level at the start of the run, in bytes, or `nil`
    /// where `/proc/self/clear_refs` and `VmHWM` are not available.
    var peakRSSDeltaBytes: Int?
    /// Heap allocations the process made during the run, on every thread (malloc, calloc, realloc
    /// and the aligned variants), or `nil` where the counting allocator is not in place.
    var allocations: UInt64?
    /// The latencies of the events the run waited for, for workloads that measure them (W11).
    var eventLatencies: EventLatencies? = nil
}

/// Measures a closure: wall time, CPU time, peak resident memory and heap allocations.
enum Meter {
    /// Runs `body` once and returns its result with what it cost.
    ///
    /// Before the clock starts, freed heap memory is returned to the system and the kernel's peak-RSS
    /// mark is reset to the current RSS (writing `5` to `/proc/self/clear_refs`), so the reported
    /// peak is the run's own high-water mark.
    static func measure<T>(_ body: () throws -> T) rethrows -> (result: T, sample: Sample) {
        ProcessProbe.releaseFreeHeapMemory()
        let baseline = ProcessProbe.resetPeakResidentSet() ? ProcessProbe.memoryStatus("VmRSS") : nil
        let allocationsStart = ProcessProbe.heapAllocations()
        let cpuStart = ProcessProbe.cpuSeconds()
        let wallStart = ProcessProbe.monotonicSeconds()
        let result = try body()
        let wallEnd = ProcessProbe.monotonicSeconds()
        let cpuEnd = ProcessProbe.cpuSeconds()
        let allocationsEnd = ProcessProbe.heapAllocations()
        let peak = baseline == nil ? nil : ProcessProbe.memoryStatus("VmHWM")
        var delta: Int?
        if let baseline, let peak {
            delta = max(0, peak - baseline)
        }
        var allocations: UInt64?
        if let allocationsStart, let allocationsEnd {
            allocations = allocationsEnd - allocationsStart
        }
        return (result, Sample(
            wallSeconds: wallEnd - wallStart, cpuSeconds: cpuEnd - cpuStart, peakRSSDeltaBytes: delta,
            allocations: allocations))
    }
}

/// Thin wrappers over the process clocks, Linux's `/proc/self` memory accounting and the
/// allocation counter.
enum ProcessProbe {
    /// How many heap allocations the process has made so far, all threads, or `nil` when the
    /// counting `malloc` of `BenchMallocCounter` does not see the shared libraries' allocations
    /// (not glibc, or the executable does not export it).
    static func heapAllocations() -> UInt64? {
        mallocCounterIsInterposed ? UInt64(bench_malloc_count()) : nil
    }

    /// Whether allocations made inside shared libraries reach the counter, checked once.
    private static let mallocCounterIsInterposed = bench_malloc_counter_is_interposed() == 1

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// User plus system CPU seconds consumed so far by every thread of the process.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }

    /// Resets the kernel's peak-RSS mark (`VmHWM`) to the current RSS. Returns `false` when the
    /// kernel does not allow it (not Linux, or `/proc` not writable).
    static func resetPeakResidentSet() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// A `kB` line of `/proc/self/status` (`"VmRSS"`, `"VmHWM"`), in bytes.
    static func memoryStatus(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let digits = line.dropFirst(field.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Hands memory that earlier runs freed back to the system (glibc's `malloc_trim(0)`), so each
    /// run's peak starts from a comparable baseline.
    static func releaseFreeHeapMemory() {
        _ = mallocTrim?(0)
    }

    /// glibc's `int malloc_trim(size_t pad)`, looked up at run time: the Glibc module does not
    /// import `<malloc.h>`.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let program = dlopen(nil, RTLD_NOW), let symbol = dlsym(program, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
