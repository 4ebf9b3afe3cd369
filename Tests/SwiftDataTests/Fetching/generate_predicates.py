#!/usr/bin/env python3
"""Writes GeneratedPredicates.swift: the predicates of PredicateConformanceTests.

`#Predicate` is a macro, so each predicate has to be Swift source the compiler sees. This
script writes several hundred of them over `Gadget` (Tests/SwiftDataTests/Models/Inventory.swift)
from fixed lists and a seeded random combination of them; run it again after changing it:

    python3 Tests/SwiftDataTests/Fetching/generate_predicates.py
"""

import os
import random

# Conditions on one attribute each, and on the relationships.
ATOMS = []


def atoms(*sources):
    ATOMS.extend(sources)


def comparisons(left, constants, operators=("==", "!=", "<", "<=", ">", ">=")):
    return [f"{left} {op} {constant}" for constant in constants for op in operators]


# Every attribute type with constants and captured values.
atoms(*comparisons("g.serial", ["1", "150", "300", "limit"]))
atoms(*comparisons("g.score", ["-20", "-3", "0", "7", "limit"]))
atoms(*comparisons("g.size", ["0", "4", "8", "smallSize"]))
atoms(*comparisons("g.weight", ["-2.5", "0", "1.75", "10.0", "heavy"]))
atoms("g.isWorking", "!g.isWorking", "g.isWorking == true", "g.isWorking != false", "g.isWorking == flag", "g.isWorking != flag")
atoms(*comparisons("g.name", ['"lamp"', '"M"', '""', '"zeta"', '"Ångström"', "someName"]))
atoms(*comparisons("g.madeOn", ["someDate", "firstDay"]))
atoms(*comparisons("g.tag", ["someTag"], ("==", "!=")))
atoms(*comparisons("g.kind", ["lampKind", "clockKind"], ("==", "!=")))
atoms(
    'g.kind.rawValue == "radio"', 'g.kind.rawValue < "lamp"', 'g.kind.rawValue != "clock"', 'g.kind.rawValue.starts(with: "r")',
)
# Optionals and nil.
atoms(
    "g.nickname == nil", "g.nickname != nil", 'g.nickname == "Bo"', 'g.nickname != "Bo"', 'g.nickname == ""', 'g.nickname != ""',
    "g.nickname == noNickname", "g.nickname != noNickname", "g.nickname == someNickname", "g.nickname != someNickname",
    "g.nickname == g.owner?.nickname", "g.nickname != g.owner?.nickname", "g.owner?.nickname == g.nickname",
    "g.owner == nil", "g.owner != nil", "nil == g.owner", "g.owner?.nickname == nil", "g.owner?.nickname != nil",
)
# Optional chaining through the to-one.
atoms(
    'g.owner?.name == "Ann"', 'g.owner?.name != "Ann"', "g.owner?.age == 34", "g.owner?.age != 34", 'g.owner?.nickname == "Zed"',
    'g.owner?.nickname != "Zed"', "g.owner?.name == someName", "g.owner?.gadgets.count == 20", "g.owner?.gadgets.isEmpty == false",
    'g.owner?.name.starts(with: "A") == true', 'g.owner?.name.contains("e") == true', 'g.owner?.name.contains("e") != true',
    # Force unwraps only where the value is there: Swift stops at a nil, the store reads it as nil.
    "g.owner != nil && g.owner!.age > 40", "g.owner == nil || g.owner!.age < 40",
)
# flatMap.
atoms(
    "g.owner.flatMap { $0.age > 40 } == true", "g.owner.flatMap { $0.age > 40 } != true", "g.owner.flatMap { $0.age > 40 } == false",
    "g.owner.flatMap { $0.age > 40 } == nil", "g.owner.flatMap { $0.age + 1 } == 35", 'g.nickname.flatMap { $0.starts(with: "B") } == true',
    'g.nickname.flatMap { $0.contains("o") } != false', "g.owner.flatMap { o in o.gadgets.contains { $0.score > 18 } } == true",
    "g.owner.flatMap { $0.nickname } == g.nickname",
)
# ??
atoms(
    '(g.nickname ?? "none") == "none"', '(g.nickname ?? "") < "C"', "(g.owner?.age ?? 0) > 30", "(g.owner?.age ?? 100) < 50",
    "(g.owner?.nickname ?? g.name) == \"lamp\"", '(g.owner?.nickname ?? g.nickname ?? "?") == "Bo"', '(g.nickname ?? g.name).starts(with: "l")',
    "(g.owner?.age ?? g.score) >= 20", '!((g.nickname ?? "x") == "x")',
)
# Ternary conditionals.
atoms(
    "(g.isWorking ? g.score : -g.score) > 3", "(g.kind == lampKind ? g.weight : 0) > 1", "g.isWorking ? g.score > 0 : g.size < 3",
    '(g.score > 0 ? g.name : "zzz") < "m"', "(g.owner == nil ? 0 : 1) == 1", "!(g.isWorking ? g.score > 0 : g.size < 3)",
    "(g.size > 4 ? g.owner?.age : nil) == nil", "((g.isWorking ? 1 : 2) + (g.score > 0 ? 10 : 20)) == 12",
)
# Arithmetic on Int, Int16 and Double. Left out where Swift stops with an error and the store
# answers (README, SwiftData): divisions by zero and overflows. Divisors are never zero here.
atoms(
    "g.score + 3 > 10", "g.score - 5 < -10", "g.score * 2 == 14", "g.score * -3 > 9", "g.score / 7 == 1", "g.score / 7 == -1",
    "g.score / 7 == 0", "g.score % 5 == 0", "g.score % 7 == -2", "g.score % 7 == 3", "-g.score > 5", "-g.score == g.score",
    "g.serial / (g.score * g.score + 1) == 0", "g.score % g.serial == 0",
    "g.serial * g.score > 500", "g.score + g.serial == 100", "(g.serial - g.score) * 2 > 400", "g.size + 1 > 5",
    "g.size * 2 == 8", "g.size % 3 == 0", "g.size / 2 == 2", "-g.size < -6", "g.weight * 2.5 > 3", "g.weight / 4 < 0.5",
    "g.weight + 1.5 == 3.25", "g.weight - g.weight == 0", "-g.weight >= 1", "g.weight * g.weight > 25",
    "g.weight / 0.5 == 3", "(g.weight + 5) / 2.5 > 2",
)
# Strings.
atoms(
    'g.name.contains("a")', 'g.name.contains("")', 'g.name.contains("amp")', 'g.name.contains(someName)', 'g.name.starts(with: "l")',
    'g.name.starts(with: "")', 'g.name.starts(with: "Lam")', 'g.name.starts(with: "É")', "g.name.isEmpty", "!g.name.isEmpty",
    'g.nickname?.contains("o") == true', 'g.nickname?.contains("o") != true', "g.nickname?.isEmpty == true",
    "g.name.contains(g.nickname ?? \"#\")", "g.name.starts(with: g.nickname ?? \"\")",
)
# The to-many relationship.
atoms(
    "g.parts.contains { $0.price > 15 }", "g.parts.contains { $0.label == \"lamp\" }", "g.parts.allSatisfy { $0.quantity < 3 }",
    "g.parts.allSatisfy { $0.price >= 1 && $0.label != \"\" }", "g.parts.filter { $0.price > 5 }.count >= 2",
    "g.parts.filter { $0.quantity == 0 }.isEmpty", "g.parts.count == 0", "g.parts.count > 3", "g.parts.isEmpty", "!g.parts.isEmpty",
    "g.parts.contains { p in p.quantity * 2 > 8 }", "!g.parts.contains { $0.label.starts(with: \"b\") }",
    "g.parts.contains { $0.gadget?.owner == nil }",
)
# min() and max() of collections the predicate holds.
atoms("g.score > (someScores.max() ?? 0)", "g.score < someScores.min()!", "g.weight >= (someWeights.min() ?? 0)", "g.score == (emptyScores.max() ?? 4)", "g.name < (someNames.max() ?? \"\")")
# Ranges.
atoms(
    "(3...9).contains(g.score)", "(-5...5).contains(g.score)", "(0..<4).contains(g.size)", "(lowWeight...heavy).contains(g.weight)",
    '("a"..."m").contains(g.name)', "(firstDay...someDate).contains(g.madeOn)", "(g.score...20).contains(5)", "(0..<limit).contains(g.score)",
)
# Membership of constant collections.
atoms(
    "someScores.contains(g.score)", "someNames.contains(g.name)", "lampOrRadio.contains(g.kind)",
    "someTags.contains(g.tag)", "someNicknames.contains(g.nickname)", "nilOrBo.contains(g.nickname)", "emptyScores.contains(g.score)",
    "someSizes.contains(g.size)", "someWeights.contains(g.weight)",
)
# Models and identifiers. A captured model cannot be written in a predicate: `Value<Gadget>` is
# not Codable, so `#Predicate { $0 == gadget }` does not compile; models compare by identifier.
atoms(
    "g.persistentModelID == someGadgetID",
    "g.persistentModelID != someGadgetID", "g.owner?.persistentModelID == someOwnerID", "g.owner?.persistentModelID != someOwnerID",
    "g.owner?.gadgets.contains { $0.persistentModelID == someGadgetID } == true",
)

CONNECTIVES = ["&&", "||"]


def combination(rng, atoms):
    """Two atoms joined by && or ||, negated sometimes. Deeper nesting of these generic
    builders takes the type checker minutes per predicate."""
    source = f"({rng.choice(atoms)}) {rng.choice(CONNECTIVES)} ({rng.choice(atoms)})"
    return f"!({source})" if rng.random() < 0.3 else source


def is_simple(atom):
    """Whether an atom is cheap to type-check inside a combination."""
    return not any(token in atom for token in ("?", "{", "+", "-", "*", "/", "%", "...", "..<"))


def predicates():
    rng = random.Random(22)
    result = list(ATOMS)
    result += [f"!({atom})" for atom in rng.sample(ATOMS, 80)]
    simple = [atom for atom in ATOMS if is_simple(atom)]
    result += [combination(rng, simple) for _ in range(100)]
    return result


HEADER = """// Generated by generate_predicates.py; do not edit.

import Foundation
import SwiftData

/// The predicates of `PredicateConformanceTests`, with their source.
func generatedPredicates(capturing captures: PredicateCaptures) -> [(String, Predicate<Gadget>)] {
    let limit = 12
    let smallSize: Int16 = 4
    let heavy = 3.5
    let lowWeight = -1.0
    let flag = true
    let someName = "lamp"
    let noNickname: String? = nil
    let someNickname: String? = "Bo"
    let emptyScores: [Int] = []
    let firstDay = Date(timeIntervalSinceReferenceDate: 631_152_000)
    let someDate = captures.date
    let someTag = captures.tag
    let someTags = captures.tags
    let lampKind = GadgetKind.lamp
    let clockKind = GadgetKind.clock
    let lampOrRadio = [GadgetKind.lamp, GadgetKind.radio]
    let someScores = [1, 5, 9, 13, -2]
    let someSizes: [Int16] = [2, 4, 6]
    let someWeights = [2.5, -1.25, 1.5]
    let someNames = ["lamp", "a", "Zed"]
    let someNicknames: [String?] = ["Bo", "Ace"]
    let nilOrBo: [String?] = [nil, "Bo"]
    let someGadgetID = captures.gadget.persistentModelID
    let someOwnerID = captures.owner.persistentModelID
    var predicates: [(String, Predicate<Gadget>)] = []
"""


def main():
    lines = [HEADER]
    for source in predicates():
        lines.append(f'    predicates.append((##"{source}"##, #Predicate<Gadget> {{ g in {source} }}))\n')
    lines.append("    return predicates\n}\n")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "GeneratedPredicates.swift")
    with open(path, "w") as output:
        output.write("".join(lines))


if __name__ == "__main__":
    main()
