import CoreData

// The classes the Cinema model leaves to the program: Series generates only its properties
// ("Category/Extension"), and Theme generates nothing ("Manual/None").

public class Series: Production {}

public class Theme: NSManagedObject {
    var name: String? {
        get { value(forKey: "name") as? String }
        set { setValue(newValue, forKey: "name") }
    }
}
