import LayoutSyntax

/// The view, guide and metric names and the hierarchy they make (422), and the limits
/// counted before any per-element work.
extension SceneDecoder {
    /// The view names (422 `invalid_scene`): each matches `[A-Za-z_][A-Za-z0-9_]*` —
    /// checked by its bytes before it is compared with anything, so every comparison,
    /// hash and sort below is of ASCII names, where Swift's `String` is byte-exact — within
    /// ``SceneLimits/maxNameLength``, is not `superview`, and is given once. Each `parent`
    /// is a valid name of another view (found by binary search, never by a scan), and the
    /// parents form no cycle within ``SceneLimits/maxHierarchyDepth``. Leaves the valid
    /// views sorted by name.
    /// - Complexity: O(views × (log views + hierarchy depth)).
    func checkNamesAndHierarchy(_ scene: inout Scene, _ context: inout DecodingContext) {
        let count = scene.views.count
        // What is wrong with each view's name, found in document order; the diagnostics
        // are written in that order once the repeats are known.
        enum Verdict: UInt8 { case valid, invalid, superview, tooLong, repeated }
        var verdicts = [Verdict](repeating: .valid, count: count)
        // The views with a name that may be valid, by name then document position: a
        // name's first view is valid, the views after it repeat it. Names are ordered
        // by their bytes (``NameKey``: two words, for most names no string compared);
        // sorted as indices, not as the views themselves (large values with three strings).
        var order: [Int] = []
        order.reserveCapacity(count)
        // Each view's name as a key (its validity found in the same pass over its bytes).
        var keys: [NameKey] = []
        keys.reserveCapacity(count)
        for index in 0..<count {
            let name = scene.views[index].name
            let key = NameKey(name)
            keys.append(key)
            if !key.isValid {
                verdicts[index] = .invalid
            } else if name == "superview" {
                verdicts[index] = .superview
            } else if name.utf8.count > SceneLimits.maxNameLength {
                verdicts[index] = .tooLong
            } else {
                order.append(index)
            }
        }
        order.sort { a, b in
            let order = keys[a].compare(scene.views[a].name, with: keys[b], scene.views[b].name)
            return order == 0 ? a < b : order < 0
        }
        var unique = 0
        for slot in order.indices {
            let index = order[slot]
            let previous = unique > 0 ? order[unique - 1] : -1
            if previous >= 0 && keys[previous].compare(scene.views[previous].name, with: keys[index], scene.views[index].name) == 0 {
                verdicts[index] = .repeated
            } else {
                order[unique] = index
                unique += 1
            }
        }
        order.removeLast(order.count - unique)
        let sortedKeys = order.map { keys[$0] }
        for index in 0..<count where verdicts[index] != .valid {
            let view = scene.views[index]
            let path = view.jsonPath ?? "$.views" + pathComponent(view.name)
            switch verdicts[index] {
            case .invalid:
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View name '\(Diagnostic.echo(view.name))' is invalid: \(nameRule(view.name))", path: path))
            case .superview:
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "'superview' is reserved for the container and cannot name a view", path: path, view: view.name))
            case .tooLong:
                context.sceneErrors.append(nameTooLong("View", view.name, path: path))
            case .repeated:
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(view.name))' is listed twice", path: path, view: view.name))
            case .valid:
                break
            }
        }
        // The valid views in name order, moved into place (no copy of a view): view
        // `order[k]` goes to position `k`, the others after them, then are dropped.
        var views = scene.views
        scene.views = []
        Self.permute(&views, into: order)
        views.removeLast(count - order.count)
        // Parents as indices into `views` (found by binary search over the sorted names),
        // so the walks below compare integers, not strings.
        func position(of name: String, key: NameKey) -> Int? {
            var low = 0
            var high = views.count
            while low < high {
                let middle = (low + high) / 2
                if sortedKeys[middle].compare(views[middle].name, with: key, name) < 0 { low = middle + 1 } else { high = middle }
            }
            return low < views.count && sortedKeys[low].compare(views[low].name, with: key, name) == 0 ? low : nil
        }
        var parentIndex = [Int](repeating: -1, count: views.count)
        for index in views.indices {
            guard let parent = views[index].parent else { continue }
            let name = views[index].name
            func path() -> String { "$.views" + pathComponent(name) + ".parent" }
            let parentKey = NameKey(parent)
            if !parentKey.isValid {
                // Not a name: never compared (a spelling canonically equivalent to a view's
                // name, `\u212a` for `K`, is not that view).
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "View '\(Diagnostic.echo(name))' names an unknown parent '\(Diagnostic.echo(parent))': \(nameRule(parent))", path: path(), view: name))
            } else if parent == "superview" {
                views[index].parent = nil
            } else if let parentPosition = position(of: parent, key: parentKey), parentPosition != index {
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
        chain.reserveCapacity(min(views.count, limits.maxHierarchyDepth + 1))
        for start in views.indices {
            chain.removeAll(keepingCapacity: true)
            chain.append(start)
            var current = start
            var depth = 1
            while parentIndex[current] >= 0 {
                let parent = parentIndex[current]
                if let position = chain.firstIndex(of: parent) {
                    // The chain's names as the walk met them: each parent as its child
                    // spelled it (the names are valid, so the same bytes as the parent's).
                    let cycle = chain[position...].map { views[$0].name } + [views[current].parent ?? views[parent].name]
                    let parentName = cycle[cycle.count - 1]
                    // One diagnostic per cycle, whichever of its views the walk started from.
                    if reported.insert("cycle:" + Set(cycle).sorted().joined(separator: ",")).inserted {
                        context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "The parents form a cycle: \(cycle.joined(separator: " → "))", path: "$.views" + pathComponent(parentName) + ".parent", view: parentName))
                    }
                    break
                }
                chain.append(parent)
                current = parent
                depth += 1
                if depth > limits.maxHierarchyDepth {
                    // One diagnostic for the deepest problem, not one per view below it.
                    if reported.insert("depth").inserted {
                        context.sceneErrors.append(LayoutDiagnostic(code: .limitExceeded, message: "View '\(views[start].name)' is nested more than \(limits.maxHierarchyDepth) levels deep (limit maxHierarchyDepth)", view: views[start].name))
                    }
                    break
                }
            }
        }
        scene.views = views
    }

    /// A name's validity (``isValidName(_:)``, found from its bytes in one pass) and, for
    /// a valid one, its first 16 bytes as two big-endian words, zero past its end: valid
    /// names have no NUL, so the words order them as their bytes do, up to those 16
    /// bytes; names longer than that are compared as strings where the words tie.
    struct NameKey {
        var high: UInt64 = 0
        var low: UInt64 = 0
        var isLong = false
        var isValid = false

        init(_ name: String) {
            var name = name
            name.withUTF8 { bytes in
                guard let first = bytes.first, first == UInt8(ascii: "_") || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")) else { return }
                for index in bytes.indices {
                    let byte = bytes[index]
                    guard byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) else { return }
                    if index < 8 {
                        high |= UInt64(byte) << (56 - 8 * UInt64(index))
                    } else if index < 16 {
                        low |= UInt64(byte) << (56 - 8 * UInt64(index - 8))
                    }
                }
                isLong = bytes.count > 16
                isValid = true
            }
        }

        /// -1, 0 or 1 as valid name `name` (of this key) sorts before, equals or sorts
        /// after valid name `other` (of `otherKey`), by their bytes.
        @inline(__always)
        func compare(_ name: String, with otherKey: NameKey, _ other: String) -> Int {
            if high != otherKey.high { return high < otherKey.high ? -1 : 1 }
            if low != otherKey.low { return low < otherKey.low ? -1 : 1 }
            guard isLong || otherKey.isLong else { return 0 }
            // ASCII: `<` is the order of the bytes.
            return name == other ? 0 : name < other ? -1 : 1
        }
    }

    /// Reorders `views` so that position `k` holds the view that was at `order[k]`
    /// (`order` holds distinct positions), the views not in `order` after those in their
    /// own order. Views are moved, never copied (no retain or release of their strings).
    /// - Complexity: O(views) moves.
    static func permute(_ views: inout [ViewSpec], into order: [Int]) {
        let count = views.count
        // `source[k]`: the position whose view goes to `k`, for every position.
        var source = order
        source.reserveCapacity(count)
        if order.count < count {
            var taken = [Bool](repeating: false, count: count)
            for index in order { taken[index] = true }
            for index in 0..<count where !taken[index] { source.append(index) }
        }
        views.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // Each cycle of the permutation: hold its first view, move each later one
            // down the cycle, put the held view in the last place. A done position's
            // `source` is set to itself.
            for start in 0..<count where source[start] != start {
                let held = (base + start).move()
                var target = start
                while source[target] != start {
                    let from = source[target]
                    (base + target).moveInitialize(from: base + from, count: 1)
                    source[target] = target
                    target = from
                }
                (base + target).initialize(to: held)
                source[target] = target
            }
        }
    }

    /// The count limits of a scene, from its JSON as sent (before any element is
    /// decoded): views, views and guides together (a guide has a view's four variables
    /// and frame: it counts as one), constraints, sizes and the frames they answer,
    /// included groups and `explain` entries; a 422 `limit_exceeded` for each exceeded.
    /// A member of the wrong type counts nothing here (it is a 400 of its own).
    /// - Complexity: O(1).
    func countLimitErrors(_ json: JSONNode) -> [LayoutDiagnostic] {
        func count(_ value: JSONNode?) -> Int {
            switch value?.node.kind {
            case .array?, .object?: return value!.node.count
            default: return 0
            }
        }
        var errors: [LayoutDiagnostic] = []
        let views = count(json["views"])
        var guides = 0
        if let members = json["guides"]?.objectValue { guides = members.count }
        let constraints = json["constraints"]?.arrayValue?.count ?? 0
        let sizes = json["sizes"]?.arrayValue?.count
        let groups = json["groups"]?.arrayValue?.count ?? 0
        let explain = json["explain"]?.arrayValue?.count ?? 0
        if views > limits.maxViews {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene has \(views) views; at most \(limits.maxViews) are allowed (limit maxViews)", path: "$.views"))
        } else if views + guides > limits.maxViews {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene has \(views) views and \(guides) layout guides; at most \(limits.maxViews) together are allowed (limit maxViews)", path: "$.guides"))
        }
        if constraints > limits.maxConstraints {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene has \(constraints) constraints; at most \(limits.maxConstraints) are allowed (limit maxConstraints)", path: "$.constraints"))
        }
        if let sizes, sizes > limits.maxSizes {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene asks for \(sizes) sizes; at most \(limits.maxSizes) are allowed (limit maxSizes)", path: "$.sizes"))
        } else if let sizes, (views + guides + 1) * sizes > limits.maxFrames {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene asks for \(sizes) sizes of \(views + guides + 1) frames each; at most \(limits.maxFrames) frames are answered at once (limit maxFrames): split the sizes over several requests", path: "$.sizes"))
        }
        if groups > limits.maxIncludedGroups {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene includes \(groups) groups; at most \(limits.maxIncludedGroups) are allowed (limit maxIncludedGroups)", path: "$.groups"))
        }
        if explain > limits.maxExplainEntries {
            errors.append(LayoutDiagnostic(code: .limitExceeded, message: "The scene asks to explain \(explain) entries; at most \(limits.maxExplainEntries) are allowed (limit maxExplainEntries)", path: "$.explain"))
        }
        return errors
    }

    /// The limits on each constraint (``SceneLimits/maxConstraintBytes``).
    func checkLimits(_ scene: Scene, _ context: inout DecodingContext) {
        for (index, entry) in scene.constraints.enumerated() where entry.source.utf8.count > limits.maxConstraintBytes {
            context.sceneErrors.append(LayoutDiagnostic(code: .limitExceeded, message: "Constraint \(index) is \(entry.source.utf8.count) bytes long; at most \(limits.maxConstraintBytes) are allowed (limit maxConstraintBytes)", constraint: .scene(index)))
        }
    }
}
