#!/usr/bin/env python3
"""Makes NoteStoreHistory.sqlite and NoteStore.xcdatamodel/contents from an iOS Notes store.

Run once, by hand (see README.md): it is not part of the build.

    python3 make-notestore-history.py SOURCE_DIR OUTPUT_DIR

SOURCE_DIR holds NoteStore.sqlite, NoteStore.sqlite-wal and NoteStore.sqlite-shm as Apple's
Core Data left them. The script works on copies: it checkpoints the write-ahead log into the
file, deletes every row of the entity tables (no note remains), keeps three ranges of the
persistent history (KEPT_TRANSACTIONS), vacuums the file into one rollback-journal file, and
writes the store's model, read from Z_MODELCACHE, as an Xcode model file.
"""
import os
import plistlib
import shutil
import sqlite3
import sys
import tempfile
import zlib
from xml.sax.saxutils import quoteattr

# The history kept: the first transactions (inserts, accountsd's account set-up, a save with
# deletes), the lightweight migration's transaction, and the last ones (a save deleting
# attachments, media and cloud states). Z_PRIMARYKEY keeps the Z_MAX values Apple wrote.
KEPT_TRANSACTIONS = [(1, 200), (1288, 1288), (8800, 8886)]

ATTRIBUTE_TYPES = {
    0: "Undefined", 100: "Integer 16", 200: "Integer 32", 300: "Integer 64", 400: "Decimal",
    500: "Double", 600: "Float", 700: "String", 800: "Boolean", 900: "Date", 1000: "Binary",
    1100: "UUID", 1200: "URI", 1800: "Transformable", 2000: "ObjectID",
}
DELETE_RULES = {0: "No Action", 1: "Nullify", 2: "Cascade", 3: "Deny"}


def checkpointed_copy(source_dir, work_dir):
    for suffix in ["", "-wal", "-shm"]:
        shutil.copyfile(os.path.join(source_dir, "NoteStore.sqlite" + suffix), os.path.join(work_dir, "NoteStore.sqlite" + suffix))
    path = os.path.join(work_dir, "NoteStore.sqlite")
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("PRAGMA journal_mode=DELETE")
    connection.close()
    return path


class Archive:
    """The object graph of an NSKeyedArchiver archive."""

    def __init__(self, data):
        plist = plistlib.loads(data)
        self.objects = plist["$objects"]
        self.root = self.get(plist["$top"]["root"])

    def get(self, value):
        if isinstance(value, plistlib.UID):
            target = self.objects[value.data]
            return None if target == "$null" else target
        return value

    def class_name(self, obj):
        return self.objects[obj["$class"].data]["$classname"]

    def dictionary(self, obj):
        return {self.get(k): self.get(v) for k, v in zip(obj["NS.keys"], obj["NS.objects"])}

    def array(self, obj):
        return [self.get(v) for v in obj["NS.objects"]]

    def date(self, obj):
        return obj["NS.time"]


def model_entities(archive):
    entities = archive.get(archive.root["NSEntities"])
    return archive.array(archive.get(entities["values"])) if archive.class_name(entities) == "NSKnownKeysDictionary1" else list(archive.dictionary(entities).values())


def default_value(archive, attribute, type_name):
    value = archive.get(attribute["NSDefaultValue"])
    if value is None:
        return []
    if isinstance(value, dict):
        interval = archive.date(value)
        return [("defaultDateTimeInterval", repr(interval))]
    if type_name == "Boolean":
        return [("defaultValueString", "YES" if value else "NO")]
    if isinstance(value, float) and value.is_integer() and type_name not in ("Double", "Float"):
        value = int(value)
    return [("defaultValueString", str(value))]


def attribute_element(archive, attribute):
    name = archive.get(attribute["NSPropertyName"])
    type_name = ATTRIBUTE_TYPES[attribute["NSAttributeType"]]
    fields = [("name", name)]
    if attribute.get("NSIsOptional"):
        fields.append(("optional", "YES"))
    if attribute.get("NSIsTransient"):
        fields.append(("transient", "YES"))
    fields.append(("attributeType", type_name))
    fields += default_value(archive, attribute, type_name)
    transformer = archive.get(attribute.get("NSValueTransformerName"))
    if transformer:
        fields.append(("valueTransformerName", transformer))
    if attribute.get("NSIndexedBySpotlight"):
        fields.append(("spotlightIndexingEnabled", "YES"))
    modifier = archive.get(attribute.get("NSVersionHashModifier"))
    if modifier:
        fields.append(("versionHashModifier", modifier))
    return ("attribute", fields)


def relationship_element(archive, relationship):
    fields = [("name", archive.get(relationship["NSPropertyName"]))]
    if relationship.get("NSIsOptional"):
        fields.append(("optional", "YES"))
    if relationship.get("NSIsTransient"):
        fields.append(("transient", "YES"))
    max_count, min_count = relationship["NSMaxCount"], relationship["NSMinCount"]
    if max_count == 1:
        fields.append(("maxCount", "1"))
    else:
        fields.append(("toMany", "YES"))
        if max_count:
            fields.append(("maxCount", str(max_count)))
    if min_count:
        fields.append(("minCount", str(min_count)))
    if relationship.get("NSIsOrdered"):
        fields.append(("ordered", "YES"))
    fields.append(("deletionRule", DELETE_RULES[relationship["NSDeleteRule"]]))
    fields.append(("destinationEntity", archive.get(relationship["_NSDestinationEntityName"])))
    inverse = archive.get(relationship.get("NSInverseRelationship"))
    if inverse is not None:
        fields.append(("inverseName", archive.get(inverse["NSPropertyName"])))
        fields.append(("inverseEntity", archive.get(archive.get(inverse["NSEntity"])["NSEntityName"])))
    if relationship.get("NSIndexedBySpotlight"):
        fields.append(("spotlightIndexingEnabled", "YES"))
    modifier = archive.get(relationship.get("NSVersionHashModifier"))
    if modifier:
        fields.append(("versionHashModifier", modifier))
    return ("relationship", fields)


def entity_element(archive, entity):
    name = archive.get(entity["NSEntityName"])
    parent = archive.get(entity.get("NSSuperentity"))
    properties = archive.dictionary(archive.get(entity["NSProperties"]))
    inherited = set(archive.dictionary(archive.get(parent["NSProperties"]))) if parent else set()
    fields = [("name", name)]
    if parent:
        fields.append(("parentEntity", archive.get(parent["NSEntityName"])))
    if entity.get("NSIsAbstract"):
        fields.append(("isAbstract", "YES"))
    modifier = archive.get(entity.get("NSVersionHashModifier"))
    if modifier:
        fields.append(("versionHashModifier", modifier))
    declared = [properties[key] for key in sorted(properties) if key not in inherited]
    children = [attribute_element(archive, p) for p in declared if archive.class_name(p) == "NSAttributeDescription"]
    children += [relationship_element(archive, p) for p in declared if archive.class_name(p) == "NSRelationshipDescription"]
    others = [archive.class_name(p) for p in declared if archive.class_name(p) not in ("NSAttributeDescription", "NSRelationshipDescription")]
    assert not others, f"{name} declares properties a model file cannot hold: {others}"
    for key in ("NSFetchIndexDescriptions", "NSCompoundIndexes"):
        assert not archive.array(archive.get(entity[key])), f"{name} has {key}, which this script does not write"
    constraints = []
    if entity.get("NSUniqueTuples") is not None:
        for tuple_ in archive.array(archive.get(entity["NSUniqueTuples"])):
            constraints.append([member if isinstance(member, str) else archive.get(member["NSPropertyName"]) for member in archive.array(tuple_)])
    return name, fields, children, constraints


def model_contents(archive):
    lines = [
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
        '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic" sourceLanguage="Swift">',
    ]
    for name, fields, children, constraints in sorted((entity_element(archive, e) for e in model_entities(archive)), key=lambda e: e[0]):
        attributes = " ".join(f"{key}={quoteattr(value)}" for key, value in fields)
        if not children and not constraints:
            lines.append(f"    <entity {attributes}/>")
            continue
        lines.append(f"    <entity {attributes}>")
        for tag, child in children:
            lines.append(f"        <{tag} " + " ".join(f"{key}={quoteattr(value)}" for key, value in child) + "/>")
        if constraints:
            lines.append("        <uniquenessConstraints>")
            for constraint in constraints:
                lines.append("            <uniquenessConstraint>")
                lines += [f"                <constraint value={quoteattr(member)}/>" for member in constraint]
                lines.append("            </uniquenessConstraint>")
            lines.append("        </uniquenessConstraints>")
        lines.append("    </entity>")
    lines.append("</model>")
    return "\n".join(lines) + "\n"


def reduce_store(path):
    connection = sqlite3.connect(path)
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'")]
    for table in tables:
        if table not in ("Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"):
            connection.execute(f'DELETE FROM "{table}"')
    kept = " OR ".join(f"Z_PK BETWEEN {low} AND {high}" for low, high in KEPT_TRANSACTIONS)
    connection.execute(f"DELETE FROM ATRANSACTION WHERE NOT ({kept})")
    connection.execute("DELETE FROM ACHANGE WHERE ZTRANSACTIONID NOT IN (SELECT Z_PK FROM ATRANSACTION)")
    connection.commit()
    connection.execute("VACUUM")
    connection.close()


def main(source_dir, output_dir):
    with tempfile.TemporaryDirectory() as work_dir:
        path = checkpointed_copy(source_dir, work_dir)
        connection = sqlite3.connect(path)
        archive = Archive(zlib.decompress(connection.execute("SELECT Z_CONTENT FROM Z_MODELCACHE").fetchone()[0], -15))
        connection.close()
        reduce_store(path)
        os.makedirs(os.path.join(output_dir, "NoteStore.xcdatamodel"), exist_ok=True)
        shutil.copyfile(path, os.path.join(output_dir, "NoteStoreHistory.sqlite"))
    with open(os.path.join(output_dir, "NoteStore.xcdatamodel", "contents"), "w") as contents:
        contents.write(model_contents(archive))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
