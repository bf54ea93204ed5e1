import LayoutSyntax

/// Decoding and validating `guides` (contract, "Layout guides and the safe area").
extension SceneDecoder {
    /// `guides`: an object of name → `{"owner"?: VIEW}`. Types only (400 `invalid_scene`
    /// naming the JSON path); names and owners are checked by ``checkGuides(_:_:)``.
    /// - Complexity: O(guides).
    /// The members of a layout guide.
    static let guideMembers: KnownFields = ["owner"]

    func decodeGuides(_ value: JSONNode?, _ context: inout DecodingContext) -> [GuideSpec] {
        guard let value else { return [] }
        guard case .object(let members) = value.shape else {
            context.typeErrors.append(context.typeError("$.guides", expected: "an object of name → layout guide", found: value))
            return []
        }
        var guides: [GuideSpec] = []
        guides.reserveCapacity(members.count)
        for (name, body) in members {
            func path() -> String { "$.guides" + pathComponent(name) }
            guard case .object(let fields) = body.shape else {
                context.typeErrors.append(context.typeError(path(), expected: "an object (a layout guide: {\"owner\": VIEW})", found: body))
                continue
            }
            context.checkMembers(fields, known: Self.guideMembers, path: path())
            var guide = GuideSpec(name: name)
            if let owner = body["owner"] {
                if case .string(let ownerName) = owner.shape {
                    guide.owner = ownerName
                } else {
                    context.typeErrors.append(context.typeError(path() + ".owner", expected: "a view name (a string)", found: owner))
                }
            }
            guides.append(guide)
        }
        return guides
    }

    /// The name rules of guides (422 `invalid_scene`): a guide's name matches
    /// `[A-Za-z_][A-Za-z0-9_]*` within ``SceneLimits/maxNameLength``, is not `superview`
    /// or `safeArea` (reserved), names no view and no other guide; its owner is a view
    /// (or `superview`, the default). No view may be named `safeArea` either. Leaves the
    /// guides sorted by name with `owner` `nil` for the container.
    ///
    /// Every name and owner is validated by its bytes before it is compared with anything
    /// (an owner that is not a valid name is unknown), so the lookups below are of ASCII
    /// names, byte-exact; an unknown owner is looked up in a set, never by a scan.
    /// - Complexity: O(guides × log views).
    func checkGuides(_ scene: inout Scene, _ context: inout DecodingContext) {
        for view in scene.views where view.name == GuideSpec.safeAreaName {
            context.sceneErrors.append(LayoutDiagnostic(
                code: .invalidScene,
                message: "'safeArea' is reserved for the container's safe-area layout guide and cannot name a view",
                path: view.jsonPath ?? "$.views.safeArea", view: view.name))
        }
        // `scene.views` is sorted by name here (``checkNamesAndHierarchy``): binary search.
        func isView(_ name: String) -> Bool {
            var low = 0
            var high = scene.views.count
            while low < high {
                let middle = (low + high) / 2
                if scene.views[middle].name < name { low = middle + 1 } else { high = middle }
            }
            return low < scene.views.count && scene.views[low].name == name
        }
        var valid: [GuideSpec] = []
        valid.reserveCapacity(scene.guides.count)
        var seen = Set<String>(minimumCapacity: scene.guides.count)   // membership only
        // The valid guide names, for the message of an owner that names one.
        var guideNames = Set<String>(minimumCapacity: scene.guides.count)   // membership only
        for guide in scene.guides where isValidName(guide.name) { guideNames.insert(guide.name) }
        for var guide in scene.guides {
            let path = "$.guides" + pathComponent(guide.name)
            if !isValidName(guide.name) {
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Layout guide name '\(Diagnostic.echo(guide.name))' is invalid: \(nameRule(guide.name))", path: path))
                continue
            }
            if guide.name == "superview" || guide.name == GuideSpec.safeAreaName {
                context.sceneErrors.append(LayoutDiagnostic(
                    code: .invalidScene,
                    message: "'\(guide.name)' is reserved (\(guide.name == "superview" ? "the container" : "the container's safe-area layout guide")) and cannot name a layout guide",
                    path: path))
                continue
            }
            if guide.name.utf8.count > SceneLimits.maxNameLength {
                context.sceneErrors.append(nameTooLong("Layout guide", guide.name, path: path))
                continue
            }
            if isView(guide.name) {
                context.sceneErrors.append(LayoutDiagnostic(
                    code: .invalidScene,
                    message: "Layout guide '\(guide.name)' has the name of a view: guides and views share one namespace",
                    path: path, view: guide.name))
                continue
            }
            if !seen.insert(guide.name).inserted {
                context.sceneErrors.append(LayoutDiagnostic(code: .invalidScene, message: "Layout guide '\(guide.name)' is listed twice", path: path))
                continue
            }
            if let owner = guide.owner {
                if !isValidName(owner) {
                    context.sceneErrors.append(LayoutDiagnostic(
                        code: .invalidScene,
                        message: "Layout guide '\(guide.name)' names an unknown owner '\(Diagnostic.echo(owner))': \(nameRule(owner))",
                        path: path + ".owner"))
                    continue
                }
                if owner == "superview" {
                    guide.owner = nil
                } else if !isView(owner) {
                    let isGuide = guideNames.contains(owner) || owner == GuideSpec.safeAreaName
                    context.sceneErrors.append(LayoutDiagnostic(
                        code: .invalidScene,
                        message: isGuide
                            ? "Layout guide '\(guide.name)' names the layout guide '\(Diagnostic.echo(owner))' as its owner: an owner is a view"
                            : "Layout guide '\(guide.name)' names an unknown owner '\(Diagnostic.echo(owner))'",
                        path: path + ".owner"))
                    continue
                }
            }
            valid.append(guide)
        }
        valid.sort { $0.name < $1.name }
        scene.guides = valid
    }
}
