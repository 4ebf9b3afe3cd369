// Attributes: types, default values, validation, derived and composite attributes.
extension ModelFileReader {
    /// The `attributeType` names of model files and the types they stand for.
    static let attributeTypesByName: [String: NSAttributeType] = [
        "Undefined": .undefinedAttributeType, "Integer 16": .integer16AttributeType, "Integer 32": .integer32AttributeType,
        "Integer 64": .integer64AttributeType, "Decimal": .decimalAttributeType, "Double": .doubleAttributeType,
        "Float": .floatAttributeType, "String": .stringAttributeType, "Boolean": .booleanAttributeType,
        "Date": .dateAttributeType, "Binary": .binaryDataAttributeType, "UUID": .UUIDAttributeType, "URI": .URIAttributeType,
        "Transformable": .transformableAttributeType, "ObjectID": .objectIDAttributeType, "Composite": .compositeAttributeType,
    ]

    static func attributeType(named name: String, at element: XMLDocumentElement) throws -> NSAttributeType {
        guard let type = attributeTypesByName[name] else { throw ModelFileError("'attributeType' is \"\(name)\", which is not an attribute type", at: element) }
        return type
    }

    /// An `<attribute>`: a plain, derived or composite attribute description.
    func attribute(from element: XMLDocumentElement, visitingComposites: [String] = []) throws -> NSAttributeDescription {
        try Self.checkChildren(of: element, among: ["userInfo"])
        let type = try Self.attributeType(named: element["attributeType"] ?? "Undefined", at: element)
        let attribute: NSAttributeDescription
        if type == .compositeAttributeType {
            attribute = try compositeAttribute(from: element, visiting: visitingComposites)
        } else if try Self.flag("derived", of: element) == true {
            let derived = NSDerivedAttributeDescription()
            derived.derivationExpression = try Self.expression("derivationExpression", of: element)
            attribute = derived
        } else {
            attribute = NSAttributeDescription()
        }
        try Self.readPropertyBasics(of: attribute, from: element)
        attribute.attributeType = type
        if let className = element["customClassName"] { attribute.attributeValueClassName = className }
        attribute.valueTransformerName = element["valueTransformerName"]
        attribute.allowsExternalBinaryDataStorage = try Self.flag("allowsExternalBinaryDataStorage", of: element) ?? false
        attribute.preservesValueInHistoryOnDeletion = try Self.flag("preserveAfterDeletion", of: element) ?? false
        attribute.allowsCloudEncryption = try Self.flag("allowsCloudEncryption", of: element) ?? false
        attribute.usesScalarValueType = try Self.flag("usesScalarValueType", of: element)
        attribute.defaultValue = try Self.defaultValue(of: type, from: element)
        let validation = try Self.validation(of: type, from: element)
        attribute.setValidationPredicates(validation.map(\.predicate), withValidationWarnings: validation.map { String($0.code) })
        return attribute
    }

    /// How deep composites may nest, and how many element attributes one may expand to: each
    /// use of a composite copies its elements, so a few lines of nested composites could
    /// otherwise describe more attributes than memory holds.
    static let maximumCompositeDepth = 16
    static let maximumCompositeSize = 10_000

    /// Checks that every composite nests and expands within the limits, before any is built.
    func checkCompositeSizes() throws {
        var sizes: [String: Int] = [:]
        for (name, declaration) in compositesByName {
            _ = try expandedSize(of: name, declaration: declaration, visiting: [], sizes: &sizes)
        }
    }

    /// The number of attributes a composite expands to, its nested composites' included.
    private func expandedSize(of name: String, declaration: XMLDocumentElement, visiting: [String], sizes: inout [String: Int]) throws -> Int {
        if let size = sizes[name] { return size }
        guard visiting.count < Self.maximumCompositeDepth else { throw ModelFileError("composites nest more than \(Self.maximumCompositeDepth) levels deep", at: declaration) }
        var size = 0
        for element in declaration.children(named: "attribute") {
            size += 1
            if element["attributeType"] == "Composite", let nested = element["composite"], let nestedDeclaration = compositesByName[nested], !visiting.contains(nested), nested != name {
                size += try expandedSize(of: nested, declaration: nestedDeclaration, visiting: visiting + [name], sizes: &sizes)
            }
            guard size <= Self.maximumCompositeSize else { throw ModelFileError("the composite expands to more than \(Self.maximumCompositeSize) attributes", at: declaration) }
        }
        sizes[name] = size
        return size
    }

    /// A composite attribute, its elements read from the `<composite>` it names.
    private func compositeAttribute(from element: XMLDocumentElement, visiting: [String]) throws -> NSCompositeAttributeDescription {
        let name = try Self.required("composite", of: element)
        guard let declaration = compositesByName[name] else { throw ModelFileError("no composite is named \"\(name)\"", at: element) }
        guard !visiting.contains(name) else { throw ModelFileError("the composite \"\(name)\" contains itself", at: element) }
        try Self.checkChildren(of: declaration, among: ["attribute"])
        let composite = NSCompositeAttributeDescription()
        composite.compositeName = name
        composite.elements = try declaration.children.map { try attribute(from: $0, visitingComposites: visiting + [name]) }
        return composite
    }

    // MARK: Default values

    /// `defaultValueString` (or `defaultDateTimeInterval`) as a value of the attribute's type.
    /// Numbers accept `YES` and `NO`, which Xcode has written on number attributes.
    static func defaultValue(of type: NSAttributeType, from element: XMLDocumentElement) throws -> Any? {
        if type == .dateAttributeType, let interval = try double("defaultDateTimeInterval", of: element) {
            return Date(timeIntervalSinceReferenceDate: interval)
        }
        guard let string = element["defaultValueString"] else { return nil }
        let value: Any?
        switch type {
        case .integer16AttributeType: value = integer(string, in: Int16.self).map { NSNumber(value: $0) }
        case .integer32AttributeType: value = integer(string, in: Int32.self).map { NSNumber(value: $0) }
        case .integer64AttributeType: value = integer(string, in: Int64.self).map { NSNumber(value: $0) }
        case .doubleAttributeType: value = number(string).map { NSNumber(value: $0) }
        case .floatAttributeType: value = number(string).map { NSNumber(value: Float($0)) }
        case .decimalAttributeType: value = decimal(string)
        case .booleanAttributeType: value = boolean(string).map { NSNumber(value: $0) }
        case .stringAttributeType: value = string
        case .dateAttributeType: value = ModelFileDate.date(from: string)
        case .UUIDAttributeType: value = UUID(uuidString: string)
        case .URIAttributeType: value = URL(string: string)
        default: throw ModelFileError("a \(typeName(type)) attribute cannot have a default value", at: element)
        }
        guard let value else { throw ModelFileError("the default value \"\(string)\" is not a valid \(typeName(type))", at: element) }
        return value
    }

    static func typeName(_ type: NSAttributeType) -> String {
        attributeTypesByName.first { $0.value == type }?.key ?? "\(type.rawValue)"
    }

    private static func integer<Integer: FixedWidthInteger>(_ string: String, in _: Integer.Type) -> Integer? {
        if let integer = Integer(string) { return integer }
        if let flag = boolean(string) { return flag ? 1 : 0 }
        guard let double = Double(string), double.rounded() == double else { return nil }
        return Integer(exactly: double)
    }

    private static func number(_ string: String) -> Double? {
        if let double = Double(string) { return double.isFinite ? double : nil }
        return boolean(string).map { $0 ? 1 : 0 }
    }

    /// A decimal number written in decimal notation, or a YES/NO.
    private static func decimal(_ string: String) -> NSDecimalNumber? {
        if let decimal = Decimal(string: string, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN,
           string.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) {
            return NSDecimalNumber(decimal: decimal)
        }
        return boolean(string).map { NSDecimalNumber(value: $0 ? 1 : 0) }
    }

    /// A Boolean default value: `YES`/`NO` as flags are written, or `1`/`0`.
    private static func boolean(_ string: String) -> Bool? {
        yesOrNo(string) ?? (string == "1" ? true : string == "0" ? false : nil)
    }

    // MARK: Validation

    /// The validation predicates of `minValueString`, `maxValueString` (lengths for strings),
    /// their date forms and `regularExpressionString`, each with the error code it reports.
    static func validation(of type: NSAttributeType, from element: XMLDocumentElement) throws -> [ValidationRule] {
        var rules: [ValidationRule] = []
        for bound in ValidationRule.Bound.allCases {
            guard let limit = try validationLimit(bound, of: type, from: element) else { continue }
            rules.append(ValidationRule(bound: bound, limit: limit, type: type))
        }
        if let pattern = element["regularExpressionString"] {
            guard type == .stringAttributeType else { throw ModelFileError("a \(typeName(type)) attribute cannot have a regular expression", at: element) }
            guard (try? NSRegularExpression(pattern: pattern)) != nil else { throw ModelFileError("\"\(pattern)\" is not a regular expression", at: element) }
            rules.append(ValidationRule(pattern: pattern))
        }
        return rules
    }

    /// The limit of a bound as the type's value: a number, a string length or a date.
    private static func validationLimit(_ bound: ValidationRule.Bound, of type: NSAttributeType, from element: XMLDocumentElement) throws -> Any? {
        if type == .dateAttributeType, let interval = try double(bound.dateAttribute, of: element) {
            return Date(timeIntervalSinceReferenceDate: interval)
        }
        guard let string = element[bound.attribute] else { return nil }
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            if let number = number(string) { return NSNumber(value: number) }
        case .stringAttributeType:
            if let length = Int(string), length >= 0 { return NSNumber(value: length) }
        case .dateAttributeType:
            if let date = ModelFileDate.date(from: string) { return date }
        default:
            throw ModelFileError("a \(typeName(type)) attribute cannot have a \(bound.attribute)", at: element)
        }
        throw ModelFileError("'\(bound.attribute)' is \"\(string)\", not a valid limit for a \(typeName(type))", at: element)
    }
}
