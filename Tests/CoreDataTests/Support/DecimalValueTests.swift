@testable import CoreData
import Testing

/// Decimal attributes keep their digits, as on Apple platforms: a store keeps them as doubles, and
/// Linux Foundation's conversions between `Decimal` and `Double` add binary noise
/// (`NSDecimalNumber(string: "12345.6789").doubleValue` is 12345.678900000003 there).
@Suite struct DecimalValueTests {
    @Test(arguments: [NSSQLiteStoreType, NSInMemoryStoreType])
    func aDecimalReadsBackEqualAndMatchesItsLiteral(storeType: String) throws {
        let stack = try CtxStack(model: SQLiteAllTypesModel.make(), storeType: storeType)
        try stack.context.performAndWait {
            let sample = ctxInsert("Sample", into: stack.context, ["key": "price", "decimalValue": NSDecimalNumber(string: "12345.6789")])
            ctxInsert("Sample", into: stack.context, ["key": "double", "decimalValue": 12345.6789])
            try stack.context.save()
            stack.context.refresh(sample, mergeChanges: false)
            for key in ["price", "double"] {
                let object = try #require(try ctxFetch("Sample", in: stack.context, "key == %@", [key]).first)
                let decimal = try #require(object.value(forKey: "decimalValue") as? NSDecimalNumber)
                #expect(decimal == NSDecimalNumber(string: "12345.6789"), "\(key): \(decimal)")
                #expect(decimal.stringValue == "12345.6789")
            }
            #expect(try ctxFetch("Sample", in: stack.context, "decimalValue == 12345.6789").count == 2)
            #expect(try ctxFetch("Sample", in: stack.context, "decimalValue == %@", [NSDecimalNumber(string: "12345.6789")]).count == 2)
        }
        if storeType == NSSQLiteStoreType {
            let reopened = try stack.reopened()
            try reopened.context.performAndWait {
                let decimals = try ctxFetch("Sample", in: reopened.context).compactMap { $0.value(forKey: "decimalValue") as? NSDecimalNumber }
                #expect(decimals.map(\.stringValue) == ["12345.6789", "12345.6789"])
            }
        }
    }

    @Test func aDecimalInMemoryMatchesTheSameLiteralAsInTheStore() {
        let price = ["price": NSDecimalNumber(string: "12345.6789")]
        #expect(NSPredicate(format: "price == 12345.6789").evaluate(with: price))
        #expect(NSPredicate(format: "price < 12345.679").evaluate(with: price))
    }

    @Test func doublesConvertToTheirShortestDigits() {
        #expect(NSDecimalNumber(converting: NSNumber(value: 12345.6789)).stringValue == "12345.6789")
        #expect(NSDecimalNumber(converting: NSNumber(value: 0.1)).stringValue == "0.1")
        #expect(NSDecimalNumber(converting: NSNumber(value: 42)).stringValue == "42")
        #expect(NSDecimalNumber(shortestDigitsOf: .nan).decimalValue.isNaN)
        #expect(NSDecimalNumber(string: "12345.6789").nearestDoubleValue == 12345.6789)
    }
}
