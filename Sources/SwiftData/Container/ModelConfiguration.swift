/// Where and how a container stores the models of a schema.
// Sendable as Apple declares it; its schema is read, never changed, once a container uses it.
public struct ModelConfiguration: Hashable, Identifiable, CustomDebugStringConvertible, @unchecked Sendable {
    /// Where a store goes among an app group's files; meaningless on Linux, accepted as given.
    public struct GroupContainer: Hashable, Sendable {
        let identifier: String?
        /// The app's group container, when it has one.
        public static var automatic: GroupContainer { GroupContainer(identifier: nil) }
        /// No group container.
        public static var none: GroupContainer { GroupContainer(identifier: nil) }
        /// A named group container.
        public static func identifier(_ groupName: String) -> GroupContainer { GroupContainer(identifier: groupName) }
    }

    /// The CloudKit database a store mirrors; meaningless on Linux, accepted as given.
    public struct CloudKitDatabase: Hashable, Sendable {
        let identifier: String?
        /// The app's CloudKit container, when it has one.
        public static var automatic: CloudKitDatabase { CloudKitDatabase(identifier: nil) }
        /// No CloudKit mirroring.
        public static var none: CloudKitDatabase { CloudKitDatabase(identifier: nil) }
        /// A named private CloudKit database.
        public static func `private`(_ privateDBName: String) -> CloudKitDatabase { CloudKitDatabase(identifier: privateDBName) }
    }

    /// The configuration's name; "default" unless one is given.
    public let name: String
    /// The store file.
    public let url: URL
    /// Whether the store lives in memory only, and goes away with its container.
    public let isStoredInMemoryOnly: Bool
    /// Whether contexts may save to the store; a store that does not allow saves opens read-only.
    public let allowsSave: Bool
    /// The app group container, as given.
    public let groupContainer: GroupContainer
    /// The identifier of the app group container, as given.
    public var groupAppContainerIdentifier: String? { groupContainer.identifier }
    /// The CloudKit database, as given.
    public let cloudKitDatabase: CloudKitDatabase
    /// The identifier of the CloudKit container, as given.
    public var cloudKitContainerIdentifier: String? { cloudKitDatabase.identifier }
    /// The schema whose models the store holds; nil for the container's whole schema.
    public var schema: Schema?

    /// Creates the default configuration, on disk or in memory.
    public init(isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a configuration for some model classes.
    public init(for forTypes: any PersistentModel.Type..., isStoredInMemoryOnly: Bool = false) {
        self.init(nil, schema: Schema(forTypes), isStoredInMemoryOnly: isStoredInMemoryOnly)
    }

    /// Creates a named configuration, stored in the default directory as `name.store`
    /// (`default.store` without a name).
    ///
    /// On Linux the default directory is the user's data directory (`$XDG_DATA_HOME`, by default
    /// `~/.local/share`), where Apple's platforms use Application Support.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        isStoredInMemoryOnly: Bool = false,
        allowsSave: Bool = true,
        groupContainer: GroupContainer = .automatic,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        let name = name ?? "default"
        self.init(
            name: name, schema: schema, url: Self.defaultDirectory.appendingPathComponent("\(name).store"),
            isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: allowsSave, groupContainer: groupContainer, cloudKitDatabase: cloudKitDatabase)
    }

    /// Creates a configuration whose store is a given file.
    public init(
        _ name: String? = nil,
        schema: Schema? = nil,
        url: URL,
        allowsSave: Bool = true,
        cloudKitDatabase: CloudKitDatabase = .automatic
    ) {
        self.init(
            name: name ?? "default", schema: schema, url: url, isStoredInMemoryOnly: false, allowsSave: allowsSave, groupContainer: .automatic,
            cloudKitDatabase: cloudKitDatabase)
    }

    private init(
        name: String, schema: Schema?, url: URL, isStoredInMemoryOnly: Bool, allowsSave: Bool, groupContainer: GroupContainer, cloudKitDatabase: CloudKitDatabase
    ) {
        self.name = name
        self.schema = schema
        self.url = isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : url
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.groupContainer = groupContainer
        self.cloudKitDatabase = cloudKitDatabase
    }

    /// The configuration's identity: its store file.
    public var id: URL { url }

    public var debugDescription: String {
        "ModelConfiguration(name: \(name), url: \(url.path), isStoredInMemoryOnly: \(isStoredInMemoryOnly), allowsSave: \(allowsSave))"
    }

    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly && lhs.allowsSave == rhs.allowsSave
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
    }

    /// The directory of stores configured without a URL.
    static var defaultDirectory: URL {
        if let dataHome = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], !dataHome.isEmpty {
            return URL(fileURLWithPath: dataHome, isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
    }
}
