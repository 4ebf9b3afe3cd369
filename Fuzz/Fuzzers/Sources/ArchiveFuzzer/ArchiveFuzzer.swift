import CoreData
import FuzzSupport

/// The keyed-archive decoder behind transformable attributes, on hostile archives.
///
/// The input is decoded as Core Data decodes a transformable attribute's stored bytes: by the
/// `NSKeyedUnarchiveFromData` transformer (any `NSCoding` class) and by a subclass of
/// `NSSecureUnarchiveFromDataTransformer` that admits the program's own class `FuzzedPoint`
/// beside Foundation's. Both must return a value or nil, never trap.
enum ArchiveFuzzer: FuzzTarget {
    /// The transformer Core Data uses for transformable attributes that name none, by the name
    /// Core Data uses (Apple deprecated the constant, not the transformer).
    private static var keyed: ValueTransformer? {
        ValueTransformer(forName: NSValueTransformerName("NSKeyedUnarchiveFromData"))
    }

    static func run(_ input: Data) {
        _ = PointTransformer().transformedValue(input)
        _ = keyed?.transformedValue(input)
    }

    /// Archives of the values transformable attributes commonly hold, written by the project's
    /// own archiver through the transformers, and one written by Linux Foundation's archiver.
    static func makeSeeds(in directory: URL) throws {
        let values: [Any] = [
            "text", NSNumber(value: 42), 2.5, true, Date(timeIntervalSinceReferenceDate: 5), Data([1, 2, 3]),
            UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, URL(string: "https://example.com/a?b=c")!,
            NSNull(), ["x", 1, 2.5] as NSArray, ["name": "Ada", "tags": ["a", "b"]] as NSDictionary,
            NSSet(array: ["a", "b"]), NSMutableString(string: "mutable"),
            FuzzedPoint(x: 1.5, label: "a", neighbours: [FuzzedPoint(x: -2, label: nil, neighbours: [])]),
        ]
        for (index, value) in values.enumerated() {
            guard let data = keyed?.reverseTransformedValue(value) as? Data else {
                throw CocoaError(.coderInvalidValue, userInfo: [NSDebugDescriptionErrorKey: "cannot archive \(value)"])
            }
            try data.write(to: directory.appendingPathComponent(String(format: "core-data-%02d.archive", index)))
        }
        let foundation = try NSKeyedArchiver.archivedData(withRootObject: ["k": [1, "v"]] as NSDictionary, requiringSecureCoding: true)
        try foundation.write(to: directory.appendingPathComponent("foundation-00.archive"))
    }
}

/// A class of the program's own, so that archives can reach the decoding of app classes through
/// `init?(coder:)`: scalars, an optional string and an array of its own class.
final class FuzzedPoint: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }

    let x: Double
    let label: String?
    let neighbours: [FuzzedPoint]

    init(x: Double, label: String?, neighbours: [FuzzedPoint]) {
        self.x = x
        self.label = label
        self.neighbours = neighbours
    }

    func encode(with coder: NSCoder) {
        coder.encode(x, forKey: "x")
        coder.encode(label, forKey: "label")
        coder.encode(neighbours, forKey: "neighbours")
    }

    init?(coder: NSCoder) {
        x = coder.decodeDouble(forKey: "x")
        label = coder.decodeObject(of: NSString.self, forKey: "label") as String?
        neighbours = coder.decodeObject(of: [NSArray.self, FuzzedPoint.self], forKey: "neighbours") as? [FuzzedPoint] ?? []
    }
}

/// The secure transformer a model would name for an attribute holding `FuzzedPoint`s.
final class PointTransformer: NSSecureUnarchiveFromDataTransformer {
    override class var allowedTopLevelClasses: [AnyClass] {
        super.allowedTopLevelClasses + [FuzzedPoint.self]
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    ArchiveFuzzer.run(bytes, count)
}

#if !FUZZING
@main
enum Replay {
    static func main() throws {
        try ArchiveFuzzer.replay()
    }
}
#endif
