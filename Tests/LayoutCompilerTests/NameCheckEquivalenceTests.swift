@testable import LayoutCompiler
import LayoutSyntax
import Testing

/// `SceneDecoder.checkNamesAndHierarchy` against the implementation it replaced (kept
/// here as the reference, unchanged): the same views in the same order with the same
/// parents, and the same diagnostics in the same order, over generated views with valid,
/// invalid, reserved, too long and repeated names, unknown and own parents, cycles and
/// chains deeper than the limit.
struct NameCheckEquivalenceTests {
    @Test func theNameCheckIsTheReferencesOverGeneratedViews() {
        var generator = StackPropertyTests.SplitMix64(state: 0x5EED_0036)
        let long = String(repeating: "n", count: SceneLimits.maxNameLength + 1)
        let pool = ["a", "b", "c", "card", "x1", "_y", "Zz", "header", "footer", "v10", "v9",
                    "1a", "a-b", "\u{212A}", "é", "", "superview", long, "K",
                    // Valid names about 16 bytes long, sharing their first 15 or 16.
                    "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopr", "abcdefghijklmnoq", "abcdefghijklmnopqrstuvwxyz_0"]
        for round in 0..<3_000 {
            var limits = SceneLimits()
            limits.maxHierarchyDepth = 1 + Int(generator.next() % 5)
            let count = Int(generator.next() % 14)
            let arrayForm = generator.next() % 3 == 0
            var views: [ViewSpec] = []
            for index in 0..<count {
                let name = pool[Int(generator.next() % UInt64(pool.count))]
                var view = ViewSpec(name: name)
                switch generator.next() % 4 {
                case 0: view.parent = nil
                case 1: view.parent = "superview"
                default: view.parent = pool[Int(generator.next() % UInt64(pool.count))]
                }
                if arrayForm { view.jsonPath = "$.views[\(index)]" }
                views.append(view)
            }
            var expectedScene = Scene(), actualScene = Scene()
            expectedScene.views = views
            actualScene.views = views
            var expectedContext = DecodingContext(), actualContext = DecodingContext()
            referenceCheckNamesAndHierarchy(&expectedScene, &expectedContext, limits: limits)
            SceneDecoder(limits: limits).checkNamesAndHierarchy(&actualScene, &actualContext)
            #expect(actualScene.views.map(\.name) == expectedScene.views.map(\.name), "round \(round)")
            #expect(actualScene.views.map(\.parent) == expectedScene.views.map(\.parent), "round \(round)")
            #expect(actualScene.views.map(\.jsonPath) == expectedScene.views.map(\.jsonPath), "round \(round)")
            #expect(actualContext.sceneErrors == expectedContext.sceneErrors, "round \(round)")
            #expect(actualContext.typeErrors.isEmpty && expectedContext.typeErrors.isEmpty)
        }
    }

    @Test func permuteMovesEachViewToItsPlace() {
        var generator = StackPropertyTests.SplitMix64(state: 7)
        for _ in 0..<500 {
            let count = Int(generator.next() % 12)
            let views = (0..<count).map { ViewSpec(name: "v\($0)", parent: $0 % 2 == 0 ? nil : "p\($0)") }
            var positions = Array(0..<count)
            for index in positions.indices.reversed() where index > 0 {
                positions.swapAt(index, Int(generator.next() % UInt64(index + 1)))
            }
            let order = Array(positions.prefix(Int(generator.next() % UInt64(count + 1))))
            var moved = views
            SceneDecoder.permute(&moved, into: order)
            let rest = (0..<count).filter { !order.contains($0) }
            #expect(moved.map(\.name) == (order + rest).map { views[$0].name })
            #expect(moved.map(\.parent) == (order + rest).map { views[$0].parent })
        }
    }
}

/// The check as it was before it sorted indices and moved views (the reference).
func referenceCheckNamesAndHierarchy(_ scene: inout Scene, _ context: inout DecodingContext, limits: SceneLimits) {
    var seen = Set<String>(minimumCapacity: scene.views.count)
    var valid: [ViewSpec] = []
    valid.reserveCapacity(scene.views.count)
    for view in scene.views {
        func path() -> String { view.jsonPath ?? "$.views" + pathComponent(view.name) }
        if !isValidName(view.name) {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View name '\(Diagnostic.echo(view.name))' is invalid: \(nameRule(view.name))", path: path()))
        } else if view.name == "superview" {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'superview' is reserved for the container and cannot name a view", path: path(), view: view.name))
        } else if view.name.utf8.count > SceneLimits.maxNameLength {
            context.sceneErrors.append(nameTooLong("View", view.name, path: path()))
        } else if !seen.insert(view.name).inserted {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(view.name))' is listed twice", path: path(), view: view.name))
        } else {
            valid.append(view)
        }
    }
    // Sorted through an index array: moving the views themselves (large values with
    // three strings) while sorting cost more than the comparisons. Names are unique here.
    // Valid names are ASCII, where `<` (scalar order) is the UTF-8 byte order and takes
    // the standard library's fast paths.
    let order = valid.indices.sorted { valid[$0].name < valid[$1].name }
    valid = order.map { valid[$0] }
    // Parents as indices into `valid` (found by binary search over the sorted names),
    // so the walks below compare integers, not strings.
    let names = valid.map(\.name)
    func position(of name: String) -> Int? {
        var low = 0
        var high = names.count
        while low < high {
            let middle = (low + high) / 2
            // `<` orders the (ASCII) names by their bytes, as they are sorted; `name`
            // is a valid (ASCII) name too.
            if names[middle] < name { low = middle + 1 } else { high = middle }
        }
        return low < names.count && names[low] == name ? low : nil
    }
    var parentIndex = [Int](repeating: -1, count: valid.count)
    for index in valid.indices {
        guard let parent = valid[index].parent else { continue }
        let name = valid[index].name
        func path() -> String { "$.views" + pathComponent(name) + ".parent" }
        if !isValidName(parent) {
            // Not a name: never compared (a spelling canonically equivalent to a view's
            // name, `\u212a` for `K`, is not that view).
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(name))' names an unknown parent '\(Diagnostic.echo(parent))': \(nameRule(parent))", path: path(), view: name))
        } else if parent == "superview" {
            valid[index].parent = nil
        } else if let parentPosition = position(of: parent), parentPosition != index {
            parentIndex[index] = parentPosition
        } else if parent == name {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(parent))' cannot be its own parent", path: path(), view: parent))
        } else {
            context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(name))' names an unknown parent '\(Diagnostic.echo(parent))'", path: path(), view: name))
        }
    }
    // Cycles and depth: walk each chain, bounded.
    var reported: Set<String> = []
    var chain: [Int] = []
    // The chain's names as the walk met them: the start's name, then each parent as
    // its child spelled it (for the messages).
    var chainNames: [String] = []
    for start in valid.indices {
        chain.removeAll(keepingCapacity: true)
        chainNames.removeAll(keepingCapacity: true)
        chain.append(start)
        chainNames.append(names[start])
        var current = start
        var depth = 1
        while parentIndex[current] >= 0 {
            let parent = parentIndex[current]
            let parentName = valid[current].parent ?? names[parent]
            if let position = chain.firstIndex(of: parent) {
                let cycle = Array(chainNames[position...]) + [parentName]
                // One diagnostic per cycle, whichever of its views the walk started from.
                if reported.insert("cycle:" + Set(cycle).sorted().joined(separator: ",")).inserted {
                    context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "The parents form a cycle: \(cycle.joined(separator: " → "))", path: "$.views" + pathComponent(parentName) + ".parent", view: parentName))
                }
                break
            }
            chain.append(parent)
            chainNames.append(parentName)
            current = parent
            depth += 1
            if depth > limits.maxHierarchyDepth {
                // One diagnostic for the deepest problem, not one per view below it.
                if reported.insert("depth").inserted {
                    context.sceneErrors.append(LayoutDiagnostic(code: .limitExceeded, message: "View '\(names[start])' is nested more than \(limits.maxHierarchyDepth) levels deep (limit maxHierarchyDepth)", view: names[start]))
                }
                break
            }
        }
    }
    scene.views = valid
}

