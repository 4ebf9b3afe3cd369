internal import CoreData

extension AnyModelObject {
    /// A new object of another model's entity of the same name, holding this object's attribute
    /// values, which this object's model (if it is alive) takes as its backing data.
    func rebound(to entity: NSEntityDescription) -> AnyModelObject {
        rebound(to: entity, as: binding.modelType)
    }

    private func rebound<Model: PersistentModel>(to entity: NSEntityDescription, as modelType: Model.Type) -> AnyModelObject {
        let object = ModelObject<Model>(entity: entity, insertInto: nil)
        for (property, target) in zip(binding.properties, object.binding.properties) {
            guard case .attribute = property.access else { continue }
            object.setValue(value(atPropertyIndex: property.slot, named: property.name), atPropertyIndex: target.slot, named: target.name)
        }
        if let model = unsafeDowncast(self, to: ModelObject<Model>.self).model {
            model.persistentBackingData = object
            object.remember(model)
        }
        return object
    }

    /// The object's relationships, with each related object replaced by the one it was rebound
    /// to, if any: what an object of a rebound graph is to be related to.
    func relationshipValues(through rebound: [ObjectIdentifier: AnyModelObject]) -> [Any?] {
        func replaced(_ related: Any) -> Any {
            guard let object = related as? AnyModelObject else { return related }
            return rebound[ObjectIdentifier(object)] ?? object
        }
        return binding.relationships.map { property in
            let related = value(atPropertyIndex: property.slot, named: property.name)
            if let set = related as? NSSet {
                return NSSet(array: set.allObjects.map(replaced))
            }
            return related.map(replaced)
        }
    }

    /// Sets the object's relationships, in the order of `relationshipValues(through:)`.
    func setRelationshipValues(_ values: [Any?]) {
        for (property, value) in zip(binding.relationships, values) {
            setValue(value, atPropertyIndex: property.slot, named: property.name)
        }
    }
}
