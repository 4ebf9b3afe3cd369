/// The process-wide table of named value transformers behind
/// `ValueTransformer.setValueTransformer(_:forName:)` and `ValueTransformer(forName:)`.
///
/// It is `@unchecked Sendable` because every access to `transformers` holds `lock`; the
/// transformers themselves are shared across threads as on Apple platforms.
final class ValueTransformerRegistry: @unchecked Sendable {
    /// The registry every `ValueTransformer` class method uses, with Foundation's built-in
    /// transformers already registered.
    static let shared = ValueTransformerRegistry(transformers: builtInTransformers())

    private let lock = NSLock()
    private var transformers: [NSValueTransformerName: ValueTransformer]

    private init(transformers: [NSValueTransformerName: ValueTransformer]) {
        self.transformers = transformers
    }

    /// The transformer registered under `name`. As on Apple platforms, a name that is not
    /// registered but names the class `NSSecureUnarchiveFromDataTransformer` (as Xcode writes it
    /// into models) gets a new instance of the class, registered under that name. (Apple does so
    /// for any `ValueTransformer` subclass; Swift can instantiate only this one by its name.)
    func transformer(named name: NSValueTransformerName) -> ValueTransformer? {
        lock.withLock {
            if let registered = transformers[name] { return registered }
            guard name.rawValue == String(describing: NSSecureUnarchiveFromDataTransformer.self) else { return nil }
            let transformer = NSSecureUnarchiveFromDataTransformer()
            transformers[name] = transformer
            return transformer
        }
    }

    /// Registers `transformer` under `name`, or removes the registration when it is `nil`.
    func setTransformer(_ transformer: ValueTransformer?, named name: NSValueTransformerName) {
        lock.withLock { transformers[name] = transformer }
    }

    /// The registered names, sorted so that the answer does not depend on hashing.
    func names() -> [NSValueTransformerName] {
        lock.withLock { transformers.keys.sorted { $0.rawValue < $1.rawValue } }
    }

    /// The transformers Foundation registers on Apple platforms, except the one for the
    /// non-keyed `NSArchiver` format, which Linux cannot read.
    private static func builtInTransformers() -> [NSValueTransformerName: ValueTransformer] {
        [
            .negateBooleanTransformerName: NegateBooleanTransformer(),
            .isNilTransformerName: NilTestTransformer(matchesNil: true),
            .isNotNilTransformerName: NilTestTransformer(matchesNil: false),
            .keyedUnarchiveFromData: KeyedUnarchiveFromDataTransformer(),
            .secureUnarchiveFromDataTransformerName: NSSecureUnarchiveFromDataTransformer(),
        ]
    }
}
