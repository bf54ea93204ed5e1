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

    /// The count limits of a scene, from its JSON as sent (before any element is
    /// decoded): views, views and guides together (a guide has a view's four variables
    /// and frame: it counts as one), constraints, sizes and the frames they answer,
    /// included groups and `explain` entries; a 422 `limit_exceeded` for each exceeded.
    /// A member of the wrong type counts nothing here (it is a 400 of its own).
    /// - Complexity: O(1).
    func countLimitErrors(_ json: JSONValue) -> [LayoutDiagnostic] {
        func count(_ value: JSONValue?) -> Int {
            switch value {
            case .some(.array(let elements)): return elements.count
            case .some(.object(let members)): return members.count
            default: return 0
            }
        }
        var errors: [LayoutDiagnostic] = []
        let views = count(json["views"])
        var guides = 0
        if case .object(let members)? = json["guides"] { guides = members.count }
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
