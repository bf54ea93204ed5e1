import Foundation
import LayoutCompiler

/// The document-level facts of an imported Interface Builder document.
public struct IBDocumentInfo: Sendable {
    /// `xib` or `storyboard`.
    public var kind: String
    public var toolsVersion: String
    /// `nil` when the document names no device (older documents); the scenes then use
    /// their recorded sizes and no `displayScale`.
    public var device: IBDevice?
    /// The device the document records (`<device>`), when ``device`` is another one
    /// (``IBImportOptions/device``); `nil` otherwise.
    public var recordedDevice: IBDevice?
    /// Whether the hierarchies are laid out on another device than the document's
    /// (``IBImportOptions/device``, when the document names no device or another one):
    /// the recorded frames are then the document's device's, not the answer's.
    public var isRetargeted = false
}

/// One hierarchy of a document: a xib's top-level view, a storyboard scene's root view, or
/// a cell's content view.
public struct IBHierarchy: Sendable {
    /// A readable, valid scene name (the same rules as view names), unique in the document.
    public var name: String
    /// The IB `id` of the hierarchy's root element (the cell, for a cell).
    public var ibId: String
    /// `view` (a xib top-level view), `scene` (a storyboard scene's root view) or `cell`.
    public var kind: String
    /// The scene document (contract "The scene document"), as the decoder reads it.
    public var scene: JSONValue
    /// Scene name → IB id, for every view and guide of the scene (`superview` included), in
    /// document order.
    public var ids: [(name: String, ibId: String)]
    /// What was inferred and from where, one sentence each.
    public var notes: [String]
    /// The frames Interface Builder recorded, relative to the parent (`superview` first,
    /// then document order).
    public var recordedFrames: [(name: String, frame: Frame)]
    /// Views whose element says `misplaced="YES"` or `ambiguous="YES"`: their recorded frame
    /// is not what their constraints give.
    public var markedViews: [String]
    /// The views of ``markedViews`` whose element says `misplaced="YES"` (Xcode's
    /// "frame will be different at run time"), in document order.
    public var misplacedMarks: [String] = []
    /// The layout guides of ``scene`` that no constraint of the document names, in scene
    /// order: only the importer's own constraints place them (a scroll view's content
    /// layout guide, pinned at its top-left, then has no size), so Xcode checks nothing of
    /// them (`ImportServiceTests.anUnusedContentLayoutGuideIsNotLinted`).
    public var guidesNoDocumentConstraintNames: [String] = []
    /// With `?intrinsic=measured`, the labels that keep their recorded size
    /// (``IBLabelFonts/measured(_:labels:notes:kept:shrinking:)``) and why, one sentence
    /// each naming the attribute and its value, in document order: `layoutd lint` warns of
    /// each on the label.
    public var keptLabels: [(name: String, why: String)] = []
    /// With `?intrinsic=measured`, the labels that shrink their text to fit at run time
    /// (`adjustsFontSizeToFit`) and the smallest scale they shrink to
    /// (`minimumScaleFactor`, 0 < scale < 1), in document order: `layoutd lint` does not
    /// call a one-line label truncated when its text fits at that scale.
    public var shrinkingLabels: [(name: String, minimumScale: Double)] = []
}

/// The answer of an import.
public struct IBImport: Sendable {
    public var document: IBDocumentInfo
    public var hierarchies: [IBHierarchy]
    /// IB id → the 1-based line of the element that has it, for every element with an `id`
    /// (views, guides, constraints): where a problem is reported (`layoutd lint`). Looked
    /// up only, never iterated.
    public var lines: [String: Int] = [:]
    /// Faults of the document that leave the rest usable: an `id` given to two elements,
    /// a constraint naming an `id` no element has. Each names the IB id of the view it
    /// concerns (the element when it is a view, else the view owning it: a constraint's
    /// or a guide's) and the line.
    public var problems: [(message: String, line: Int, viewID: String)] = []
    /// Views that would start a hierarchy (``InterfaceBuilderImporter/hierarchyRoots(_:kind:)``)
    /// but record no frame (`<rect key="frame">`), so are not imported: each with a message
    /// naming it, its 1-based line and its IB id, in document order. Reported in the
    /// answer's top-level `diagnostics` and by `layoutd lint`.
    public var skippedRoots: [(message: String, line: Int, ibId: String)] = []
    /// IB id → how Xcode checks the ambiguity of the view with that id, for each view whose
    /// element says `verifyAmbiguity` (``IBAmbiguityCheck``), and for each layout guide
    /// such a view owns (`<viewLayoutGuide>`, e.g. a scroll view's content and frame
    /// guides), which Xcode does not check apart from it. `layoutd lint` leaves out the
    /// ambiguity these exempt; the solved answer's `diagnostics` keep it. Looked up only,
    /// never iterated.
    public var ambiguityChecks: [String: IBAmbiguityCheck] = [:]
}

/// A view's `verifyAmbiguity` attribute: what Xcode leaves out of its ambiguity warnings
/// for that view (the Size inspector's "Ambiguity" menu; IBDecodable's `VerifyAmbiguity`:
/// `off` "Never Verify", `ignoreSizes` "Verify Position Only"). Absent, Xcode checks
/// everything ("Always Verify").
public enum IBAmbiguityCheck: String, Sendable {
    /// `off`: no ambiguity warning for the view.
    case off
    /// `ignoreSizes`: no warning about its width or height; its position is checked.
    case ignoreSizes
}

/// Why a document cannot be imported (the contract's 422 `invalid_document`): a message
/// and the 1-based line it concerns (0 when none).
public struct IBImportError: Error, Sendable, Equatable {
    public var message: String
    public var line: Int
    /// The import itself took more solver work than ``IBImportOptions/maxSolverWork``
    /// (`limit_exceeded`, not `invalid_document`).
    public var isLimit = false
    public init(message: String, line: Int, isLimit: Bool = false) {
        self.message = message
        self.line = line
        self.isLimit = isLimit
    }
}

/// How recorded facts stand in for what a document does not hold.
public struct IBImportOptions: Sendable {
    /// Bounds on the XML read; its `maxDepth` follows ``maxHierarchyDepth``.
    public var limits = Self.xmlLimits(forHierarchyDepth: SceneLimits().maxHierarchyDepth)
    /// Depth of the view hierarchies read (`--max-hierarchy-depth`,
    /// ``SceneLimits/maxHierarchyDepth``; default 64). Setting it sets `limits.maxDepth` to
    /// ``xmlDepth(forHierarchyDepth:)``, so that a hierarchy deeper than it is imported with
    /// the note of `/solve`'s limit rather than refused by the XML read.
    public var maxHierarchyDepth = SceneLimits().maxHierarchyDepth {
        didSet {
            let derived = Self.xmlLimits(forHierarchyDepth: maxHierarchyDepth)
            (limits.maxDepth, limits.depthAdvice) = (derived.maxDepth, derived.depthAdvice)
        }
    }
    /// Elements around a view hierarchy and inside its deepest view that the XML depth
    /// bound allows beyond two per level: the document's own (`<document>`, `<scenes>`,
    /// `<scene>`, `<objects>`, a controller; a table's `<prototypes>` and cell, about 11
    /// above a cell's content view) and a view's content (`<state>`, `<attributedString>`,
    /// `<fragment>`, `<attributes>`, `<font>`, about 6).
    public static let xmlWrapperDepth = 32

    /// The XML depth bound for view hierarchies `hierarchyDepth` levels deep: each level is
    /// two elements (a `<view>` in its parent's `<subviews>`), plus ``xmlWrapperDepth``; at
    /// most ``XMLLimits/readerMaxDepth`` (256), which fixes the memory and recursion of a
    /// read whatever the flag says (a bound reached from a hierarchy depth of 112).
    public static func xmlDepth(forHierarchyDepth hierarchyDepth: Int) -> Int {
        let levels = max(0, hierarchyDepth)
        guard levels < (XMLLimits.readerMaxDepth - xmlWrapperDepth) / 2 else { return XMLLimits.readerMaxDepth }
        return 2 * levels + xmlWrapperDepth
    }

    /// Default ``XMLLimits`` with the depth bound of ``xmlDepth(forHierarchyDepth:)`` and
    /// its advice (what the bound is, what to do).
    static func xmlLimits(forHierarchyDepth hierarchyDepth: Int) -> XMLLimits {
        var limits = XMLLimits()
        limits.maxDepth = xmlDepth(forHierarchyDepth: hierarchyDepth)
        let raisable = (XMLLimits.readerMaxDepth - xmlWrapperDepth) / 2
        if limits.maxDepth < XMLLimits.readerMaxDepth {
            limits.depthAdvice = "an Interface Builder document may nest twice --max-hierarchy-depth (\(hierarchyDepth)) plus "
                + "\(xmlWrapperDepth) elements, as each view level is two (<view> in <subviews>); flatten the view hierarchy "
                + "or raise --max-hierarchy-depth (up to \(raisable) raises this bound)"
        } else {
            limits.depthAdvice = "an Interface Builder document may nest at most \(XMLLimits.readerMaxDepth) elements whatever "
                + "--max-hierarchy-depth allows (\(hierarchyDepth)), as each view level is two (<view> in <subviews>); "
                + "flatten the view hierarchy"
        }
        return limits
    }
    /// The device to lay the document out for (`?device=`, `?orientation=`), from
    /// ``IBDevice/named(_:orientation:)``; `nil` for the document's own. On another
    /// device, a hierarchy as wide as the document's screen takes the new screen's width
    /// (and its height too when it filled the screen), a full-screen controller view takes
    /// the table's safe area (``IBDevice/safeAreaInsets``) and its system margins follow,
    /// the size-class variations are those of the new device's traits, and
    /// `options.displayScale` is its scale; each hierarchy's `notes` say so.
    public var device: IBDevice?
    /// `?intrinsic=measured`: labels become `text` views measured by the Text feature, their
    /// fonts mapped to built-in families (``IBLabelFonts``), instead of taking their
    /// recorded size as their intrinsic size (`recorded`, the default).
    public var measuresLabels = false
    /// Simplex cell operations the import may spend on each solve it makes: one compile and
    /// solve per hierarchy finding its free sizes (``SceneBuilder/sizeFreeSizes(of:)``), and
    /// a second for a hierarchy with an image view showing a system symbol image
    /// (``SceneBuilder/backSolveSymbolInsets(of:)``); for the whole document, shared evenly
    /// by its hierarchies: a request's `--max-solver-work`. Beyond it the import is refused
    /// (``IBImportError/isLimit``).
    public var maxSolverWork = SceneLimits().maxSolverWork
    public init() {}
}

/// Reads `.xib` and `.storyboard` documents (contract "Interface Builder documents") into
/// scenes: one ``IBHierarchy`` per xib top-level view, per storyboard scene's root view and
/// per table or collection view cell (its content view is the container).
public enum InterfaceBuilderImporter {
    /// Imports one document.
    ///
    /// - Throws: ``IBImportError`` when the bytes are not well-formed XML (or pass a bound
    ///   of ``XMLLimits``), are not an iOS Interface Builder document (the platform named),
    ///   or hold a numeric attribute that is not a finite number (``IBNumbers``).
    /// - Complexity: O(elements + constraints × log views).
    public static func importDocument(_ bytes: [UInt8], options: IBImportOptions = IBImportOptions()) throws(IBImportError) -> IBImport {
        var root: XMLElement
        do {
            root = try SafeXML.parse(bytes, limits: options.limits)
        } catch {
            throw IBImportError(message: error.message, line: error.line)
        }
        guard root.name == "document", let type = root["type"] else {
            throw IBImportError(message: "Not an Interface Builder document: the root element is <\(root.name)>, not <document type=…>", line: root.line)
        }
        let runtime = root["targetRuntime"] ?? ""
        if let platform = otherPlatform(type: type, runtime: runtime) {
            throw IBImportError(message: "A \(platform) Interface Builder document (targetRuntime \"\(runtime)\"): only iOS documents (iOS.CocoaTouch) are laid out", line: root.line)
        }
        guard type.contains("CocoaTouch") else {
            throw IBImportError(message: "Not an iOS Interface Builder document (type \"\(type)\")", line: root.line)
        }
        try IBNumbers.validate(root)
        let kind = type.contains("Storyboard") ? "storyboard" : "xib"
        var device: IBDevice?
        if let element = root.child("device"), let id = element["id"] {
            device = IBDevice.named(id, orientation: element["orientation"] ?? "portrait")
        }
        let recorded = device
        let target = options.device.flatMap { $0 == recorded ? nil : $0 }
        let info = IBDocumentInfo(kind: kind, toolsVersion: root["toolsVersion"] ?? "", device: target ?? recorded,
                                  recordedDevice: target == nil ? nil : recorded, isRetargeted: target != nil)
        var varied: [(id: String, text: String)] = []
        let original = root
        if let traitsDevice = target ?? device {
            root = applyingPropertyVariations(root, device: traitsDevice, applied: &varied)
        }

        let roots = hierarchyRoots(root, kind: kind)
        // On another device, what is back-solved from the recorded frames (margins, insets,
        // free sizes, baselines) is found with the variations of the recorded device's
        // traits, under which the frames were recorded (``withRecordedFacts(_:into:)``).
        var recordedTraits: (roots: [HierarchyRoot], excluded: Set<String>)?
        if target != nil && containsVariation(original) {
            var ignored: [(id: String, text: String)] = []
            let recordedRoot = device.map { applyingPropertyVariations(original, device: $0, applied: &ignored) } ?? original
            recordedTraits = (hierarchyRoots(recordedRoot, kind: kind), excludedByVariations(recordedRoot, device: device))
        }

        let excluded = excludedByVariations(root, device: target ?? device)
        let wholePoints = recordsWholePoints(root)
        var hierarchyNames = NameMaker()
        var hierarchies: [IBHierarchy] = []
        for (index, hierarchyRoot) in roots.enumerated() {
            func built(_ hierarchyRoot: HierarchyRoot, excluded: Set<String>) throws(IBImportError) -> IBHierarchy {
                var builder = SceneBuilder(root: hierarchyRoot, device: device, excluded: excluded)
                builder.maxSolverWork = max(1, options.maxSolverWork / max(1, roots.count * (recordedTraits == nil ? 1 : 2)))
                builder.toolsVersion = Int(info.toolsVersion) ?? 0
                builder.recordsWholePoints = wholePoints
                builder.targetDevice = target
                return try builder.build()
            }
            var hierarchy = try built(hierarchyRoot, excluded: excluded)
            if let recordedTraits, index < recordedTraits.roots.count {
                let recordedHierarchy = try built(recordedTraits.roots[index], excluded: recordedTraits.excluded)
                hierarchy.scene = withRecordedFacts(recordedHierarchy.scene, into: hierarchy.scene)
                hierarchy.notes = recordedHierarchy.notes
            }
            hierarchy.name = hierarchyNames.make(from: hierarchyRoot.title, fallback: "hierarchy")
            if options.measuresLabels {
                hierarchy.scene = IBLabelFonts.measured(hierarchy.scene, labels: IBLabelFonts.labels(in: hierarchyRoot.element, ids: hierarchy.ids),
                                                        notes: &hierarchy.notes, kept: &hierarchy.keptLabels,
                                                        shrinking: &hierarchy.shrinkingLabels)
            }
            if !varied.isEmpty {
                var inside: Set<String> = []
                collectIDs(hierarchyRoot.element, into: &inside)
                for entry in varied where inside.contains(entry.id) { hierarchy.notes.append(entry.text) }
            }
            if let target {
                hierarchy.scene = retarget(hierarchy.scene, root: hierarchyRoot, recorded: recorded, to: target, notes: &hierarchy.notes)
            }
            hierarchies.append(hierarchy)
        }
        var lines: [String: Int] = [:]
        var problems: [(message: String, line: Int, viewID: String)] = []
        var references: [(id: String, line: Int, constraintID: String, ownerID: String)] = []
        var checks: [String: IBAmbiguityCheck] = [:]
        collectLines(root, ownerID: "", into: &lines, problems: &problems, references: &references, checks: &checks)
        for reference in references where lines[reference.id] == nil {
            problems.append(("Constraint \(reference.constraintID) names \(reference.id), which no element of the document has; it is left out",
                             reference.line, reference.ownerID))
        }
        let skipped = framelessRoots(root, kind: kind).map { found in
            (message: "The \(found.role) \(found.element["id"] ?? "") records no frame (<rect key=\"frame\">), so it is not "
                + "imported: Xcode records one for every view when it saves the document",
             line: found.element.line, ibId: found.element["id"] ?? "")
        }
        return IBImport(document: info, hierarchies: hierarchies, lines: lines, problems: problems, skippedRoots: skipped,
                        ambiguityChecks: checks)
    }

    /// Whether any element of the tree is a `<variation>`. Recursion depth is bounded by
    /// ``XMLLimits/maxDepth``.
    static func containsVariation(_ element: XMLElement) -> Bool {
        element.name == "variation" || element.children.contains(where: containsVariation)
    }

    /// The members of a view back-solved from the recorded frames or taken from them.
    static let recordedFactKeys = ["margins", "alignmentInsets", "intrinsicSize", "baseline", "firstBaseline"]

    /// `scene` (built with the size-class variations of another device's traits) with the
    /// container and, for each view both have, the ``recordedFactKeys`` members of
    /// `recorded` (built with the variations of the recorded device's traits): what was
    /// back-solved from the frames is what those frames say under the traits they were
    /// recorded with. A variation's constraint constants stay the other device's.
    /// `IBDeviceTests.variationsDoNotSkewWhatIsBackSolved` holds it.
    static func withRecordedFacts(_ recorded: JSONValue, into scene: JSONValue) -> JSONValue {
        guard case .object(var members) = scene, case .object(let recordedMembers) = recorded else { return scene }
        func member(_ key: String, _ object: [(String, JSONValue)]) -> JSONValue? { object.first(where: { $0.0 == key })?.1 }
        for index in members.indices {
            switch members[index].0 {
            case "container":
                if let container = member("container", recordedMembers) { members[index].1 = container }
            case "views":
                guard case .object(var views) = members[index].1, case .object(let recordedViews)? = member("views", recordedMembers) else { continue }
                for viewIndex in views.indices {
                    guard case .object(var view) = views[viewIndex].1,
                          case .object(let recordedView)? = member(views[viewIndex].0, recordedViews) else { continue }
                    for key in recordedFactKeys {
                        view.removeAll { $0.0 == key }
                        if let value = member(key, recordedView) { view.append((key, value)) }
                    }
                    views[viewIndex].1 = .object(view)
                }
                members[index].1 = .object(views)
            default:
                continue
            }
        }
        return .object(members)
    }

    /// The hierarchies of a document's element tree, in document order: each storyboard
    /// scene's root view (or each top-level view of a xib), then every cell's content view.
    /// The same for trees that differ only in attributes (size-class variations applied).
    static func hierarchyRoots(_ root: XMLElement, kind: String) -> [HierarchyRoot] {
        var roots: [HierarchyRoot] = []
        let pushed = kind == "storyboard" ? pushedControllers(root) : []
        if kind == "storyboard" {
            for scenes in root.children where scenes.name == "scenes" {
                for scene in scenes.children where scene.name == "scene" {
                    guard let objects = scene.child("objects") else { continue }
                    for controller in objects.children {
                        if let view = controller.children.first(where: { $0["key"] == "view" && isView($0) }) {
                            let title = controller["title"] ?? controller["userLabel"] ?? controller["customClass"] ?? controller.name
                            let guides = controller.child("layoutGuides")?.children ?? []
                            var hierarchyRoot = HierarchyRoot(element: view, kind: "scene", title: title, controllerGuides: guides, isControllerView: true)
                            hierarchyRoot.controller = controller
                            hierarchyRoot.isPushed = controller["id"].map(pushed.contains) ?? false
                            roots.append(hierarchyRoot)
                        }
                    }
                }
            }
        } else {
            let ownerView = ownerViewID(root)
            for objects in root.children where objects.name == "objects" {
                for element in objects.children where isView(element) && !isCell(element) {
                    let title = element["userLabel"] ?? element["customClass"] ?? element.name
                    roots.append(HierarchyRoot(element: element, kind: "view", title: title, controllerGuides: [],
                                               isControllerView: element["id"] == ownerView))
                }
            }
        }
        // Cells anywhere in the document, in document order.
        collectCells(root) { cell in
            guard let content = cell.children.first(where: { $0["key"] == "contentView" && isView($0) }) else { return }
            let title = cell["userLabel"] ?? cell["customClass"] ?? cell["reuseIdentifier"] ?? cell.name
            roots.append(HierarchyRoot(element: content, kind: "cell", title: title, controllerGuides: [],
                                       isControllerView: false, cellID: cell["id"]))
        }
        return roots
    }

    /// The elements ``hierarchyRoots(_:kind:)`` would start a hierarchy at but for their
    /// missing frame, in document order, each with its role in words: a storyboard
    /// controller's `view` with an `id` and no `<rect key="frame">` ("scene's root view"); a
    /// xib's top-level element with an `id` and no frame that is a view (``looksLikeView(_:)``;
    /// "top-level NAME"); a cell's `contentView` with an `id` and no frame ("cell's content
    /// view"). `IBMappingTests.framelessRootsAreReported` holds it.
    static func framelessRoots(_ root: XMLElement, kind: String) -> [(element: XMLElement, role: String)] {
        var found: [(element: XMLElement, role: String)] = []
        func isFrameless(_ element: XMLElement) -> Bool { element["id"] != nil && element.child("rect", key: "frame") == nil }
        if kind == "storyboard" {
            for scenes in root.children where scenes.name == "scenes" {
                for scene in scenes.children where scene.name == "scene" {
                    for controller in scene.child("objects")?.children ?? [] {
                        if let view = controller.children.first(where: { $0["key"] == "view" }), isFrameless(view) {
                            found.append((view, "scene's root view"))
                        }
                    }
                }
            }
        } else {
            for objects in root.children where objects.name == "objects" {
                for element in objects.children where isFrameless(element) && !isCell(element) && looksLikeView(element) {
                    found.append((element, "top-level \(element.name)"))
                }
            }
        }
        collectCells(root) { cell in
            if let content = cell.children.first(where: { $0["key"] == "contentView" }), isFrameless(content) {
                found.append((content, "cell's content view"))
            }
        }
        return found
    }

    /// Whether an element names a UIKit view: `<view>`, an element whose name ends in `View`
    /// (`imageView`, `stackView`, …), one of the controls IB writes under their own names,
    /// or any element with `<subviews>`. Placeholders, controllers, gesture recognizers and
    /// custom objects are not.
    static func looksLikeView(_ element: XMLElement) -> Bool {
        let controls: Set<String> = ["label", "button", "textField", "switch", "slider", "segmentedControl", "stepper",
                                     "pageControl", "datePicker", "searchBar", "navigationBar", "toolbar", "tabBar"]
        return element.name == "view" || element.name.hasSuffix("View") || controls.contains(element.name)
            || element.child("subviews") != nil
    }

    /// Every element's `id` → its line (the first element with an id, if repeated; a
    /// repeat is a problem), and the ids constraints name (`firstItem`, `secondItem`) with
    /// the id of the view owning the constraint, and each view's `verifyAmbiguity` (with
    /// its layout guides, ``IBImport/ambiguityChecks``). Recursion depth is bounded by
    /// ``XMLLimits/maxDepth``.
    static func collectLines(_ element: XMLElement, ownerID: String, into lines: inout [String: Int],
                             problems: inout [(message: String, line: Int, viewID: String)],
                             references: inout [(id: String, line: Int, constraintID: String, ownerID: String)],
                             checks: inout [String: IBAmbiguityCheck]) {
        var owner = ownerID
        if let id = element["id"] {
            if let first = lines[id] {
                // A view is reported on itself, anything else (a constraint, a guide) on the
                // view owning it, so that the problem lands in that view's hierarchy.
                let outcome = isView(element) ? "the second is a view of its own" : "both <\(element.name)> elements are read"
                problems.append(("The id \(id) is given to another element too (line \(first)): \(outcome)", element.line,
                                 isView(element) ? id : ownerID))
            } else {
                lines[id] = element.line
                // The first element with an id is the one its name stands for (as `lines`).
                if isView(element), let check = element["verifyAmbiguity"].flatMap(IBAmbiguityCheck.init(rawValue:)) {
                    checks[id] = check
                } else if element.name == "viewLayoutGuide", let check = checks[ownerID] {
                    checks[id] = check
                }
            }
            if isView(element) { owner = id }
        }
        if element.name == "constraint" {
            for attribute in ["firstItem", "secondItem"] {
                if let id = element[attribute] { references.append((id, element.line, element["id"] ?? "?", owner)) }
            }
        }
        for child in element.children {
            collectLines(child, ownerID: owner, into: &lines, problems: &problems, references: &references, checks: &checks)
        }
    }

    /// A hierarchy's scene, built from the recorded frames of the document's device,
    /// moved to `target` (``IBImportOptions/device``): a root as wide as the recorded
    /// screen (either orientation) takes the target's width, and its height too when it
    /// was as high; such a full-screen controller view gets the target's safe-area insets
    /// from the table, and its system margins (the margins less the recorded safe area)
    /// keep their rule: 16 points at the sides on screens up to 400 points wide, 20 on
    /// wider ones. Without a recorded device, a storyboard scene's root counts as full screen.
    static func retarget(_ scene: JSONValue, root: HierarchyRoot, recorded: IBDevice?, to target: IBDevice,
                         notes: inout [String]) -> JSONValue {
        guard case .object(var members) = scene,
              let containerIndex = members.firstIndex(where: { $0.0 == "container" }),
              case .object(var container) = members[containerIndex].1 else { return scene }
        func number(_ key: String, in object: [(String, JSONValue)]) -> Double? {
            if case .number(let value)? = object.first(where: { $0.0 == key })?.1 { return value }
            return nil
        }
        func set(_ key: String, _ value: JSONValue, in object: inout [(String, JSONValue)]) {
            if let index = object.firstIndex(where: { $0.0 == key }) { object[index].1 = value } else { object.append((key, value)) }
        }
        let width = number("width", in: container) ?? 0, height = number("height", in: container) ?? 0
        let screenWidths = recorded.map { [$0.width, $0.height] } ?? []
        let spansWidth = screenWidths.contains(width) || (recorded == nil && root.kind == "scene")
        let fullScreen = spansWidth && (recorded.map { [$0.width, $0.height].contains(height) && width != height } ?? (root.kind == "scene"))
        var said: [String] = []
        if spansWidth {
            set("width", .number(target.width), in: &container)
            said.append("width \(JSONWriter.format(target.width))")
        }
        if fullScreen {
            set("height", .number(target.height), in: &container)
            said.append("height \(JSONWriter.format(target.height))")
        }
        if fullScreen && root.isControllerView {
            let old = insets(container.first(where: { $0.0 == "safeArea" })?.1)
            let new = target.safeAreaInsets
            set("safeArea", .object([("top", .number(new.top)), ("left", .number(new.left)),
                                     ("bottom", .number(new.bottom)), ("right", .number(new.right))]), in: &container)
            said.append("safe area \(JSONWriter.format(new.top))/\(JSONWriter.format(new.left))/\(JSONWriter.format(new.bottom))/\(JSONWriter.format(new.right)) (top/left/bottom/right) from the device table")
            if root.element.child("edgeInsets", key: "layoutMargins") == nil,
               root.element.child("directionalEdgeInsets", key: "directionalLayoutMargins") == nil,
               let marginsValue = container.first(where: { $0.0 == "margins" })?.1 {
                let margins = insets(marginsValue)
                let side = (target.width > 400 ? 20.0 : 16.0) - ((recorded?.width ?? width) > 400 ? 20.0 : 16.0)
                set("margins", .object([("top", .number(margins.top - old.top + new.top)),
                                        ("left", .number(margins.left - old.left + new.left + side)),
                                        ("bottom", .number(margins.bottom - old.bottom + new.bottom)),
                                        ("right", .number(margins.right - old.right + new.right + side))]), in: &container)
                said.append("system margins follow")
            }
        }
        members[containerIndex].1 = .object(container)
        if let optionsIndex = members.firstIndex(where: { $0.0 == "options" }), case .object(var options) = members[optionsIndex].1 {
            set("displayScale", .number(Double(target.scale)), in: &options)
            members[optionsIndex].1 = .object(options)
        } else {
            members.append(("options", .object([("displayScale", .number(Double(target.scale)))])))
        }
        let recordedName = recorded.map { "\($0.id) \($0.orientation)" } ?? "no device"
        notes.append("Laid out for \(target.id) \(target.orientation) (recorded on \(recordedName))"
                     + (said.isEmpty ? ": the recorded size is kept" : ": " + said.joined(separator: ", ")))
        return .object(members)
    }

    /// Top, left, bottom, right of an insets object (0 for what is absent).
    static func insets(_ value: JSONValue?) -> (top: Double, left: Double, bottom: Double, right: Double) {
        guard case .object(let members)? = value else { return (0, 0, 0, 0) }
        func get(_ key: String) -> Double {
            if case .number(let number)? = members.first(where: { $0.0 == key })?.1 { return number }
            return 0
        }
        return (get("top"), get("left"), get("bottom"), get("right"))
    }

    /// The ids of the constraints and views that the document's size-class variations leave
    /// out on `device`: those a `default` variation excludes (installed in no size class
    /// by default), unless a variation matching the device's traits includes them, plus
    /// those a matching non-default variation excludes. Without a device, only the `default`
    /// exclusions count.
    static func excludedByVariations(_ root: XMLElement, device: IBDevice?) -> Set<String> {
        var defaultExcluded: Set<String> = [], included: Set<String> = [], matchingExcluded: Set<String> = []
        func visit(_ element: XMLElement) {
            for child in element.children {
                if child.name == "variation", let key = child["key"] {
                    let matches = key != "default" && (device?.matches(variation: key) ?? false)
                    for mask in child.children where mask.name == "mask" {
                        for entry in mask.children {
                            guard let reference = entry["reference"] else { continue }
                            switch (entry.name, key == "default", matches) {
                            case ("exclude", true, _): defaultExcluded.insert(reference)
                            case ("exclude", false, true): matchingExcluded.insert(reference)
                            case ("include", false, true): included.insert(reference)
                            default: break
                            }
                        }
                    }
                } else {
                    visit(child)
                }
            }
        }
        visit(root)
        return defaultExcluded.subtracting(included).union(matchingExcluded)
    }

    /// `element` with the attribute overrides of its size-class variations applied for
    /// `device`'s traits: a child `<variation key="heightClass=compact" hidden="NO"/>` (or
    /// `constant=`, `spacing=`, `axis=`, …) sets those attributes of its parent element where
    /// its key matches (``IBDevice/matches(variation:)``), as UIKit's trait collection selects
    /// them at run time; among several that match, the more specific key (more traits) wins.
    /// `default` keys and mask variations (``excludedByVariations(_:device:)``) are left
    /// alone. Each override is listed in `applied` with the element's id, for the notes.
    /// Recursion depth is bounded by ``XMLLimits/maxDepth``.
    /// `IBMappingTests.sizeClassAttributeVariationsAreApplied` holds it.
    static func applyingPropertyVariations(_ element: XMLElement, device: IBDevice,
                                           applied: inout [(id: String, text: String)]) -> XMLElement {
        var result = element
        let overrides = element.children
            .filter { $0.name == "variation" && $0.attributes.count > 1 }
            .compactMap { variation -> (parts: Int, key: String, attributes: [(name: String, value: String)])? in
                guard let key = variation["key"], key != "default", device.matches(variation: key) else { return nil }
                return (key.split(separator: "-").count, key, variation.attributes.filter { $0.name != "key" })
            }
            .enumerated().sorted { ($0.element.parts, $0.offset) < ($1.element.parts, $1.offset) }.map(\.element)
        for override in overrides {
            for attribute in override.attributes {
                if let index = result.attributes.firstIndex(where: { $0.name == attribute.name }) {
                    result.attributes[index].value = attribute.value
                } else {
                    result.attributes.append(attribute)
                }
                if let id = element["id"] {
                    applied.append((id, "Size-class variation \(override.key) sets \(attribute.name)=\"\(attribute.value)\" on \(element.name) \(id) (the device's traits)"))
                }
            }
        }
        result.children = element.children.map { applyingPropertyVariations($0, device: device, applied: &applied) }
        return result
    }

    /// The ids of a storyboard's controllers shown inside a navigation controller without
    /// a `<navigationItem>` of their own: the destinations of `show` (or `push`) segues from
    /// a controller in a navigation stack (a `rootViewController` of a
    /// `navigationController`, a controller with a `navigationItem`, or one so reached),
    /// which UIKit pushes onto that stack, under its navigation bar. To a fixed point: at
    /// most one pass per controller, each O(elements).
    static func pushedControllers(_ root: XMLElement) -> Set<String> {
        var controllers: [String: XMLElement] = [:]
        var inStack: Set<String> = []
        var order: [String] = []
        for scenes in root.children where scenes.name == "scenes" {
            for scene in scenes.children where scene.name == "scene" {
                for controller in scene.child("objects")?.children ?? [] {
                    guard let id = controller["id"], controller["sceneMemberID"] == "viewController" else { continue }
                    controllers[id] = controller
                    order.append(id)
                    if controller.child("navigationItem", key: "navigationItem") != nil { inStack.insert(id) }
                }
            }
        }
        func segues(_ element: XMLElement, _ body: (XMLElement) -> Void) {
            for child in element.children {
                if child.name == "segue" { body(child) }
                segues(child, body)
            }
        }
        for id in order where controllers[id]?.name == "navigationController" {
            segues(controllers[id]!) { segue in
                if segue["relationship"] == "rootViewController", let destination = segue["destination"] { inStack.insert(destination) }
            }
        }
        var pushed: Set<String> = []
        var queue = order.filter(inStack.contains)
        var visited = Set(queue)
        while let id = queue.popLast() {
            guard let controller = controllers[id] else { continue }
            segues(controller) { segue in
                guard segue["kind"] == "show" || segue["kind"] == "push", let destination = segue["destination"],
                      controllers[destination]?.name != "navigationController" else { return }
                if controllers[destination]?.child("navigationItem", key: "navigationItem") == nil { pushed.insert(destination) }
                if visited.insert(destination).inserted { queue.append(destination) }
            }
        }
        return pushed
    }

    /// Every `id` in `element`'s subtree. Recursion depth is bounded by ``XMLLimits/maxDepth``.
    static func collectIDs(_ element: XMLElement, into ids: inout Set<String>) {
        if let id = element["id"] { ids.insert(id) }
        for child in element.children { collectIDs(child, into: &ids) }
    }

    /// The platform of a non-iOS document, from `targetRuntime` (`MacOSX.Cocoa`,
    /// `watchKit`, `AppleTV`) or its `type`.
    static func otherPlatform(type: String, runtime: String) -> String? {
        if runtime.hasPrefix("MacOSX") || type.hasSuffix(".Cocoa.XIB") || type.contains(".Cocoa.Storyboard") { return "macOS" }
        if runtime.lowercased().hasPrefix("watchkit") || type.contains("WatchKit") { return "watchOS" }
        if runtime.hasPrefix("AppleTV") || type.contains("AppleTV") { return "tvOS" }
        return nil
    }

    /// Whether the document records at least one frame and every `<rect key="frame">` in it
    /// lies on whole points (each value within 10⁻³ of an integer). Recursion depth is
    /// bounded by ``XMLLimits/maxDepth``.
    static func recordsWholePoints(_ root: XMLElement) -> Bool {
        var frames = 0
        func visit(_ element: XMLElement) -> Bool {
            if element.name == "rect", element["key"] == "frame" {
                frames += 1
                for attribute in ["x", "y", "width", "height"] {
                    guard let value = element[attribute].flatMap(Double.init) else { continue }
                    if abs(value - value.rounded()) > 1e-3 { return false }
                }
            }
            return element.children.allSatisfy(visit)
        }
        return visit(root) && frames > 0
    }

    /// The id of the view File's Owner's `view` outlet names, when the xib has one.
    static func ownerViewID(_ root: XMLElement) -> String? {
        for objects in root.children where objects.name == "objects" {
            for placeholder in objects.children where placeholder.name == "placeholder" && placeholder["placeholderIdentifier"] == "IBFilesOwner" {
                for outlet in placeholder.child("connections")?.children ?? [] where outlet.name == "outlet" && outlet["property"] == "view" {
                    return outlet["destination"]
                }
            }
        }
        return nil
    }

    /// An element is a view when it has an `id` and a recorded frame (`<rect key="frame">`).
    static func isView(_ element: XMLElement) -> Bool {
        element["id"] != nil && element.child("rect", key: "frame") != nil
    }

    static func isCell(_ element: XMLElement) -> Bool {
        ["tableViewCell", "collectionViewCell", "collectionReusableView"].contains(element.name)
    }

    static func collectCells(_ element: XMLElement, _ body: (XMLElement) -> Void) {
        for child in element.children {
            if isCell(child) { body(child) }
            collectCells(child, body)
        }
    }
}

/// Where a hierarchy starts.
struct HierarchyRoot {
    var element: XMLElement
    var kind: String
    var title: String
    /// A storyboard controller's `<layoutGuides>` (`topLayoutGuide`/`bottomLayoutGuide`).
    var controllerGuides: [XMLElement]
    /// A view controller's root view (or a cell's content view): it has system margins.
    var isControllerView: Bool
    var cellID: String? = nil
    /// A storyboard scene's controller element (its `navigationItem` and `tabBarItem` say
    /// which bars cover the root view).
    var controller: XMLElement? = nil
    /// The controller is pushed onto a navigation controller's stack without a
    /// `navigationItem` of its own (``InterfaceBuilderImporter/pushedControllers(_:)``):
    /// the navigation bar covers it all the same.
    var isPushed = false
}

/// Makes valid (`[A-Za-z_][A-Za-z0-9_]*`), readable, unique lowerCamelCase names.
struct NameMaker {
    var used: Set<String> = ["superview", "safeArea"]

    /// `text` split into words at every character that is not a letter or digit, joined in
    /// lowerCamelCase; `fallback` when nothing is left; `2`, `3`, … appended until unique.
    /// Names are ASCII (the contract's `[A-Za-z_][A-Za-z0-9_]*`), so Latin letters outside
    /// ASCII are folded first (``asciiFolding(of:)``: `Café` → `cafe`, `Größe` → `grosse`;
    /// ``compatibilityFolding(of:)`` for the rest: `ﬁne` → `fine`) and combining marks dropped (`e` + U+0301 → `e`); any other character, such as a
    /// Cyrillic or CJK letter, separates words. Held by `IBMappingTests.nonASCIILabelsFoldToReadableNames`.
    mutating func make(from text: String, fallback: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if let folded = Self.asciiFolding(of: scalar) ?? Self.compatibilityFolding(of: scalar) {
                current += folded
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        var base = ""
        for (index, word) in words.prefix(6).enumerated() {
            if index == 0 {
                base += word.prefix(1).lowercased() + word.dropFirst()
            } else {
                base += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        if base.isEmpty { base = fallback }
        if let first = base.unicodeScalars.first, ("0"..."9").contains(first) { base = "_" + base }
        if base.count > 60 { base = String(base.prefix(60)) }
        var name = base
        // Resumes where the last search for this base stopped: `used` only grows, so every
        // counter below it is still taken, and n views of one base cost O(n), not O(n²).
        var counter = nextCounter[base] ?? 2
        while used.contains(name) {
            name = base + String(counter)
            counter += 1
        }
        if name != base { nextCounter[base] = counter }
        used.insert(name)
        return name
    }

    /// Base → the first counter not yet tried for it.
    var nextCounter: [String: Int] = [:]

    /// The ASCII letters of a Latin letter of U+00C0–U+017F (Latin-1 Supplement and Latin
    /// Extended-A), `nil` for any other scalar or for `×` and `÷`: the base letter of its
    /// canonical decomposition (Unicode's UnicodeData.txt: `é` → `e`, `Ł` has none), else
    /// CLDR's Latin-ASCII transliteration (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, `þ` → `th`,
    /// `ł` → `l`, `đ` → `d`, `ı` → `i`), its capitals in title case (`Æ` → `Ae`, so that a
    /// word's first letter stays its only capital in lowerCamelCase).
    static func asciiFolding(of scalar: Unicode.Scalar) -> String? {
        // U+1E9E LATIN CAPITAL LETTER SHARP S has no decomposition; CLDR's Latin-ASCII gives SS.
        if scalar.value == 0x1E9E { return "Ss" }
        guard (0xC0...0x17F).contains(scalar.value) else { return nil }
        let folded = latinFolding[Int(scalar.value - 0xC0)]
        return folded.isEmpty ? nil : folded
    }

    /// The ASCII letters and digits of a letter outside ``asciiFolding(of:)``'s table whose
    /// compatibility decomposition (Unicode NFKD) is ASCII letters and digits with combining
    /// marks, the marks left out, in title case: `ǅ` and `Ǆ` → `Dz`, `ﬁ` → `fi`, `İ` → `I`, `Ａ` → `A`; `nil` for any
    /// other scalar (symbols such as `™` stay separators, Cyrillic and CJK letters too).
    static func compatibilityFolding(of scalar: Unicode.Scalar) -> String? {
        guard !scalar.isASCII, scalar.properties.isAlphabetic,
              scalar.properties.generalCategory != .nonspacingMark else { return nil }
        var folded = ""
        for part in String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars {
            if part.isASCII, part.properties.isAlphabetic || ("0"..."9").contains(part) {
                folded.unicodeScalars.append(part)
            } else if part.properties.generalCategory != .nonspacingMark {
                return nil
            }
        }
        guard let first = folded.first else { return nil }
        // Title case, as the table's capitals: `Ǆ` → `Dz` as `ǅ` (a word's first letter
        // stays its only capital in lowerCamelCase).
        return String(first) + folded.dropFirst().lowercased()
    }

    /// ``asciiFolding(of:)``'s table, from U+00C0; `""` for the two signs. Where a letter's
    /// NFKD is its base letter and marks (`é`), ``compatibilityFolding(of:)`` would give the
    /// same; the table is kept whole so that one lookup answers the whole block.
    static let latinFolding: [String] = [
        "A", "A", "A", "A", "A", "A", "Ae", "C", "E", "E", "E", "E", "I", "I", "I", "I",  // U+00C0
        "D", "N", "O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "Th", "ss",  // U+00D0
        "a", "a", "a", "a", "a", "a", "ae", "c", "e", "e", "e", "e", "i", "i", "i", "i",  // U+00E0
        "d", "n", "o", "o", "o", "o", "o", "", "o", "u", "u", "u", "u", "y", "th", "y",  // U+00F0
        "A", "a", "A", "a", "A", "a", "C", "c", "C", "c", "C", "c", "C", "c", "D", "d",  // U+0100
        "D", "d", "E", "e", "E", "e", "E", "e", "E", "e", "E", "e", "G", "g", "G", "g",  // U+0110
        "G", "g", "G", "g", "H", "h", "H", "h", "I", "i", "I", "i", "I", "i", "I", "i",  // U+0120
        "I", "i", "Ij", "ij", "J", "j", "K", "k", "q", "L", "l", "L", "l", "L", "l", "L",  // U+0130
        "l", "L", "l", "N", "n", "N", "n", "N", "n", "n", "N", "n", "O", "o", "O", "o",  // U+0140
        "O", "o", "Oe", "oe", "R", "r", "R", "r", "R", "r", "S", "s", "S", "s", "S", "s",  // U+0150
        "S", "s", "T", "t", "T", "t", "T", "t", "U", "u", "U", "u", "U", "u", "U", "u",  // U+0160
        "U", "u", "U", "u", "W", "w", "Y", "y", "Y", "Z", "z", "Z", "z", "Z", "z", "s",  // U+0170
    ]
}

extension IBImport {
    /// The contract's `POST /import` answer (without `?solve=true`): `document` (`kind`,
    /// `toolsVersion`, `device` when known), `hierarchies` (each `name`, `ibId`, `kind`,
    /// `scene`, `ids`, `notes`) and `diagnostics` (empty: a document that imports has none
    /// at this level).
    public var answer: JSONValue {
        var document: [(String, JSONValue)] = [("kind", .string(self.document.kind)), ("toolsVersion", .string(self.document.toolsVersion))]
        if let device = self.document.device {
            document.append(("device", .object([
                ("id", .string(device.id)), ("orientation", .string(device.orientation)),
                ("width", .number(device.width)), ("height", .number(device.height)), ("scale", .number(Double(device.scale))),
            ])))
        }
        if let recorded = self.document.recordedDevice {
            document.append(("recordedDevice", .object([
                ("id", .string(recorded.id)), ("orientation", .string(recorded.orientation)),
                ("width", .number(recorded.width)), ("height", .number(recorded.height)), ("scale", .number(Double(recorded.scale))),
            ])))
        }
        let hierarchies = self.hierarchies.map { hierarchy -> JSONValue in
            .object([
                ("name", .string(hierarchy.name)), ("ibId", .string(hierarchy.ibId)), ("kind", .string(hierarchy.kind)),
                ("scene", hierarchy.scene),
                ("ids", .object(hierarchy.ids.map { ($0.name, .string($0.ibId)) })),
                ("notes", .array(hierarchy.notes.map { .string($0) })),
            ])
        }
        return .object([("document", .object(document)), ("hierarchies", .array(hierarchies)), ("diagnostics", .array([]))])
    }
}
