/// Apple's version-hash algorithm for properties, entities and models.
///
/// Byte layouts follow `spec/store-format.md` §3, verified there against stores written by Apple's
/// Core Data. All hashes are SHA-256; integers are little-endian.
enum VersionHash {
    /// The hash of any attribute or relationship.
    static func property(_ property: NSPropertyDescription) -> [UInt8] {
        switch property {
        case let derived as NSDerivedAttributeDescription: return self.derived(derived)
        case let composite as NSCompositeAttributeDescription: return self.composite(composite)
        case let attribute as NSAttributeDescription: return self.attribute(attribute)
        case let relationship as NSRelationshipDescription: return self.relationship(relationship)
        default: return base(property)
        }
    }

    /// `SHA256(name || u16(flags) || modifier?)`, the part every property hash starts from.
    static func base(_ property: NSPropertyDescription) -> [UInt8] {
        var bytes = Array(property.name.utf8)
        let flags = UInt16(property.isOptional ? 1 : 0) | UInt16(property.isTransient ? 2 : 0)
        bytes.appendLittleEndian(flags)
        if let modifier = property.versionHashModifier {
            bytes += modifier.utf8
        }
        return sha256(bytes)
    }

    /// `SHA256(base || u32(attributeType) || [01 if external storage allowed] || [01 if preserved in history])`.
    ///
    /// The external-storage byte is verified against stores Apple wrote (store-format.md §3.1.2);
    /// as both flags add the same byte, their order cannot matter.
    static func attribute(_ attribute: NSAttributeDescription) -> [UInt8] {
        var bytes = base(attribute)
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: attribute.attributeType.rawValue))
        if attribute.allowsExternalBinaryDataStorage {
            bytes.append(1)
        }
        if attribute.preservesValueInHistoryOnDeletion {
            bytes.append(1)
        }
        return sha256(bytes)
    }

    /// `SHA256(hash of each leaf element)`, over the composite's non-transient leaf attributes
    /// (nested composites flattened) in code-point order of their names: the composite's own
    /// name and flags are not included (Core Data's `_versionHash:inStyle:`, store-format §3.1.5).
    static func composite(_ composite: NSCompositeAttributeDescription) -> [UInt8] {
        let leaves = composite.leaves.map(\.attribute).filter { !$0.isTransient }
        let sorted = leaves.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
        return sha256(sorted.flatMap(attribute))
    }

    /// `SHA256(base || destination || inverse? || u32(maxCount) || u32(minCount) || [01 00 if ordered])`.
    static func relationship(_ relationship: NSRelationshipDescription) -> [UInt8] {
        var bytes = base(relationship)
        bytes += (relationship.destinationEntity?.entityName ?? "").utf8
        if let inverse = relationship.inverseRelationship {
            bytes += inverse.name.utf8
        }
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered {
            bytes.appendLittleEndian(UInt16(1))
        }
        return sha256(bytes)
    }

    /// `SHA256(predicateFormat(derivationExpression))`: name, type and optionality are not included.
    static func derived(_ attribute: NSDerivedAttributeDescription) -> [UInt8] {
        sha256(Array(derivationText(attribute.derivationExpression).utf8))
    }

    /// The text Apple hashes for a derivation: a key path ending in `@count` is hashed in its
    /// function form, `count:(pages)` for `pages.@count` (verified, store-format.md §3.1.4).
    static func derivationText(_ expression: NSExpression?) -> String {
        guard let expression else { return "" }
        if case .keyPath(base: nil, let components) = expression.node, components.count > 1, components.last == "@count" {
            return "count:(\(components.dropLast().joined(separator: ".")))"
        }
        return expression.description
    }

    /// The entity hash: name, abstractness, the parent's hash, every persistent property's hash in
    /// code-point order of their names, the modifier, and the entity's own uniqueness constraints.
    static func entity(_ entity: NSEntityDescription) -> [UInt8] {
        var bytes = Array(entity.entityName.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parent = entity.superentity {
            bytes += self.entity(parent)
        }
        let hashed = entity.properties
            .filter { !$0.isTransient && !($0 is NSFetchedPropertyDescription) }
            .filter { $0 is NSAttributeDescription || $0 is NSRelationshipDescription }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        for property in hashed {
            bytes += self.property(property)
        }
        if let modifier = entity.versionHashModifier {
            bytes += modifier.utf8
        }
        for constraint in constraintStrings(entity) {
            bytes += constraint.utf8
        }
        return sha256(bytes)
    }

    /// `NSStoreModelVersionHashesDigest`: base64 of SHA-512 over `name || hash` in code-point order of names.
    static func modelDigest(_ hashes: [String: Data]) -> String {
        var hasher = SHA512()
        for name in sortedNames(hashes) {
            hasher.update(name.utf8)
            hasher.update(hashes[name] ?? Data())
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey`: base64 of SHA-256 over the hashes in code-point order of names.
    static func modelChecksum(_ hashes: [String: Data]) -> String {
        var hasher = SHA256()
        for name in sortedNames(hashes) {
            hasher.update(hashes[name] ?? Data())
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    // MARK: Helpers

    private static func constraintStrings(_ entity: NSEntityDescription) -> [String] {
        entity.uniquenessConstraints
            .map { constraint in constraint.map(constraintElementName).joined(separator: ".") }
            .filter { !$0.isEmpty }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func constraintElementName(_ element: Any) -> String {
        if let property = element as? NSPropertyDescription { return property.name }
        return "\(element)"
    }

    private static func sortedNames(_ hashes: [String: Data]) -> [String] {
        hashes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        SHA256.hash(bytes)
    }
}

extension Array where Element == UInt8 {
    /// Appends the little-endian bytes of an integer.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
