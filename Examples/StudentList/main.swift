// The student list of the Core Data tutorials, as a program on Linux: a form that adds, edits
// and deletes students, and shows the model's validation errors next to its fields. The rules
// live in the model (Students.xcdatamodeld), as Xcode's model editor writes them: a name is
// required, an age is between 16 and 99, and an email address must match a pattern.
//
//     swift run StudentList [STORE-DIRECTORY]

import CoreData

let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? NSTemporaryDirectory() + "StudentList", isDirectory: true)
let storeURL = directory.appendingPathComponent("Students.sqlite")
// The container finds Students.xcdatamodeld among the program's resources, as an app finds
// its compiled model in its bundle.
let container = NSPersistentContainer(name: "Students")
// Each run starts with an empty class list.
try container.persistentStoreCoordinator.destroyPersistentStore(at: storeURL, type: .sqlite)
container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
var loadError: Error?
container.loadPersistentStores { _, error in loadError = error }
if let loadError { throw loadError }
let context = container.viewContext

/// The form's fields, in the order it shows them; an error message goes beside its field.
let fields = ["name", "age", "email"]

/// What the form shows for one validation error: the field, and what is wrong with it,
/// told by the error's code.
func message(for error: NSError) -> String {
    let field = (error.userInfo[NSValidationKeyErrorKey] as? String ?? "value").capitalized
    let value = error.userInfo[NSValidationValueErrorKey].map { "\($0)" } ?? ""
    // The rule the value broke, as the model states it (`SELF >= 16`).
    let rule = (error.userInfo[NSValidationPredicateErrorKey] as? NSPredicate)?.predicateFormat ?? "see the model"
    switch error.code {
    case NSValidationMissingMandatoryPropertyError:
        return "\(field) is required."
    case NSValidationNumberTooSmallError:
        return "\(field) \(value) is below the minimum: \(rule)."
    case NSValidationNumberTooLargeError:
        return "\(field) \(value) is above the maximum: \(rule)."
    case NSValidationStringPatternMatchingError:
        return "\(field) \"\(value)\" is not an email address."
    default:
        return "\(field): \(error.localizedDescription)"
    }
}

/// The form's errors, in the order of its fields: several problems come as one error,
/// `NSValidationMultipleErrorsError` (1560), listing them under `NSDetailedErrorsKey`.
func messages(for error: NSError) -> [String] {
    let errors = error.code == NSValidationMultipleErrorsError
        ? error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
        : [error]
    func place(_ error: NSError) -> Int {
        fields.firstIndex(of: error.userInfo[NSValidationKeyErrorKey] as? String ?? "") ?? fields.count
    }
    return errors.sorted { place($0) < place($1) }.map(message(for:))
}

/// Saves what the form changed: on success the list shows it; on failure the form stays
/// open with its messages, and the context keeps the changes for the user to correct.
func save() -> Bool {
    do {
        try context.save()
        print("  ✓ saved")
        return true
    } catch let error as NSError {
        print("  not saved (\(error.domain) \(error.code)):")
        for line in messages(for: error) { print("  ✗ \(line)") }
        return false
    }
}

/// Copies the form's fields into a student; an empty text field is no value at all.
func fill(_ student: NSManagedObject, name: String, age: Int, email: String) {
    print("Form: name \"\(name)\", age \(age), email \"\(email)\"")
    student.setValue(name.isEmpty ? nil : name, forKey: "name")
    student.setValue(age, forKey: "age")
    student.setValue(email.isEmpty ? nil : email, forKey: "email")
}

func printStudents() {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Student")
    request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
    print("Students")
    for student in (try? context.fetch(request)) ?? [] {
        let email = student.value(forKey: "email") as? String ?? "no email"
        print("  \(student.value(forKey: "name") as! String), \(student.value(forKey: "age") as! Int), \(email)")
    }
}

func student(named name: String) throws -> NSManagedObject {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Student")
    request.predicate = NSPredicate(format: "name == %@", name)
    return try context.fetch(request)[0]
}

// Insert: three students through the form.
for (name, age, email) in [("Ada Lovelace", 17, "ada@example.org"), ("Alan Turing", 19, ""), ("Katherine Johnson", 18, "kj@example.org")] {
    fill(NSEntityDescription.insertNewObject(forEntityName: "Student", into: context), name: name, age: age, email: email)
}
_ = save()
printStudents()

// A form with three mistakes: the save fails with one error that lists the three.
let newcomer = NSEntityDescription.insertNewObject(forEntityName: "Student", into: context)
fill(newcomer, name: "", age: 12, email: "grace-at-navy")
if !save() {
    // The user corrects the fields of the same, still unsaved, student and saves again.
    fill(newcomer, name: "Grace Hopper", age: 16, email: "grace@navy.mil")
    _ = save()
}

// Edit: one mistake is an error of its own, with its own code, not a list.
let alan = try student(named: "Alan Turing")
fill(alan, name: "Alan Turing", age: 130, email: "alan@example.org")
if !save() {
    // The user cancels the form: rolling back restores the student as saved.
    print("Cancel")
    context.rollback()
}

// Delete.
print("Delete Ada Lovelace")
context.delete(try student(named: "Ada Lovelace"))
_ = save()
printStudents()
