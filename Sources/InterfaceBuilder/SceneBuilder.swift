import LayoutCompiler

/// One view of a hierarchy as read from the document.
struct IBView {
    var name: String
    var element: XMLElement
    /// `nil` for the root (`superview`).
    var parent: String?
    /// Recorded frame relative to the parent, and relative to the root.
    var frame: Frame
    var absolute: Frame
    var isArranged: Bool
}

/// Builds one hierarchy's scene from its root element.
struct SceneBuilder {
    let root: HierarchyRoot
    let device: IBDevice?
    var names = NameMaker()
    var views: [IBView] = []
    /// Scene name → index in `views` (names are unique: ``NameMaker``), so looking a view
    /// up by name is O(1) per constraint instead of O(views).
    var viewIndex: [String: Int] = [:]
    /// The solver work the free-size pass may spend (``IBImportOptions/maxSolverWork``).
    var maxSolverWork = SceneLimits().maxSolverWork

    /// The view named `name`, or nil. O(1).
    func view(named name: String) -> IBView? {
        viewIndex[name].map { views[$0] }
    }
    /// IB id → scene name of every view and guide (`superview`, `safeArea` included).
    var itemNames: [String: String] = [:]
    var ids: [(name: String, ibId: String)] = []
    var guides: [(name: String, owner: String)] = []
    /// The items the document's constraints (those with an `id`) name, as imported (a
    /// scroll view's side replaced by its content layout guide). Membership only.
    var documentConstraintItems: Set<String> = []
    var guideConstraints: [JSONValue] = []
    var constraints: [JSONValue] = []
    /// The document's required `==` constraints with multiplier 1 between two items, as read
    /// (for back-solving the safe area).
    var requiredEqualities: [(first: String, firstAttribute: String, second: String, secondAttribute: String, constant: Double)] = []
    /// The same with a priority below required (for margins no required one tells).
    var optionalEqualities: [(first: String, firstAttribute: String, second: String, secondAttribute: String, constant: Double)] = []
    var notes: [String] = []
    /// Elements with an `id` in a `<subviews>` list that record no frame: not views to the
    /// importer (``InterfaceBuilderImporter/isView(_:)``), said in one note.
    var framelessSubviews: [(element: String, id: String)] = []
    /// The ids of the frameless subviews and of every element inside them: a constraint
    /// naming one is noted as naming a view left out for its frame, not as a stranger
    /// (`IBMappingTests.constraintsNamingAFramelessSubviewSayWhy`).
    var framelessIDs: Set<String> = []
    /// IB ids of the safe-area guides of views other than the root: a guide pinned to that
    /// view's edges stands for each (noted).
    var rootSafeAreaID: String?
    /// View name → the axes whose size the constraints leave free, which the recorded size
    /// stands for as intrinsic size (``sizeFreeSizes(of:)``).
    var freeSizes: [String: (width: Bool, height: Bool)] = [:]
    /// The unmarked views whose position the free-size solve left free
    /// (``placeFreePositions(of:sceneChanged:)``), and the constraints that keep them at
    /// their recorded position.
    var freePositionCandidates: [(name: String, x: Bool, y: Bool)] = []
    var positionConstraints: [JSONValue] = []
    /// Views named by a constraint left out as a placeholder (`placeholder="YES"`).
    var placeholderItems: Set<String> = []
    /// Hidden arranged views that cannot collapse (``uncollapsibleConstraints()``).
    var uncollapsible: Set<String> = []
    /// Scroll view name → the content guide made for it (when the document declares none).
    var madeContentGuides: [String: String] = [:]
    /// A controller's top and bottom layout guides: their bottom and top are the safe area's
    /// top and bottom.
    var topGuide: String?, bottomGuide: String?

    /// Ids of constraints and views the size-class variations leave out on the device.
    let excluded: Set<String>
    /// The document's `toolsVersion` (0 when absent): the Xcode that drew it, which chose
    /// the system controls' sizes and alignment insets.
    var toolsVersion = 0
    /// Margins back-solved from the recorded frames: view name → the insets found, per edge
    /// (`nil` where no constraint tells).
    var solvedMargins: [String: (top: Double?, left: Double?, bottom: Double?, right: Double?)] = [:]
    /// Alignment insets of image views showing a system symbol image, back-solved from the
    /// recorded frames (``backSolveSymbolInsets(of:)``): IB id → insets, points.
    var symbolInsets: [String: (top: Double, left: Double, bottom: Double, right: Double)] = [:]
    /// Baselines of text views back-solved from the recorded frames (``inferBaselines()``):
    /// view name → `firstBaseline`/`baseline` → offset from the view's top, points.
    var solvedBaselines: [String: [String: Double]] = [:]

    init(root: HierarchyRoot, device: IBDevice?, excluded: Set<String> = []) {
        self.root = root
        self.device = device
        self.excluded = excluded
    }

    /// The safe-area guides of views other than the root: (guide name, owner view name).
    var viewSafeAreas: [(guide: String, owner: String)] = []

    /// UIKit's safe area of a view other than the root: the root's safe area where it
    /// overlaps the view (`UIView.safeAreaInsets`: the part of the view the root's insets
    /// cover, each edge at least 0), measured on the view's recorded frame. Rewrites the
    /// pins of each such guide to its owner's edges with those insets, and notes them.
    mutating func insetViewSafeAreas(_ safeArea: (top: Double, left: Double, bottom: Double, right: Double)) {
        let rootFrame = views[0].frame
        for (guide, owner) in viewSafeAreas {
            guard let view = view(named: owner) else { continue }
            let frame = view.absolute
            let insets = [
                ("top", max(0, safeArea.top - frame.y)),
                ("leading", max(0, safeArea.left - frame.x)),
                ("bottom", max(0, safeArea.bottom - (rootFrame.height - frame.y - frame.height))),
                ("trailing", max(0, safeArea.right - (rootFrame.width - frame.x - frame.width))),
            ]
            for (attribute, inset) in insets where inset > 0 {
                let plain = JSONValue.string("\(guide).\(attribute) == \(owner).\(attribute)")
                guard let index = guideConstraints.firstIndex(of: plain) else { continue }
                let sign = attribute == "top" || attribute == "leading" ? "+" : "-"
                guideConstraints[index] = .string("\(guide).\(attribute) == \(owner).\(attribute) \(sign) \(JSONWriter.format(inset))")
            }
            let shown = insets.filter { $0.1 > 0 }.map { "\($0.0) \(JSONWriter.format($0.1))" }
            notes.append(shown.isEmpty
                ? "The safe area of \(view.name) is its bounds (the root's safe area does not reach it)"
                : "The safe area of \(view.name) is the root's where it covers the view: \(shown.joined(separator: ", "))")
        }
    }

    /// The pixel grid of the scene's frames (`options.displayScale`): the device's scale,
    /// else ``recordedScale()``; 1 when ``recordsWholePoints``.
    var displayScale: Int?

    /// Whether every frame of the whole document (``InterfaceBuilderImporter/recordsWholePoints(_:)``)
    /// lies on whole points. Such a document drawn before Xcode 9 (``pixelGridToolsVersion``)
    /// was laid out on a grid of whole points (an Xcode 8 storyboard records a 48-point view
    /// centred in 375 points at 164, not 163.5), so its frames are solved with display scale 1. This never undoes a reproduced frame: an edge
    /// that rounds to a whole point on a finer grid (within ¼ point at @2x, ⅙ at @3x) rounds
    /// to the same point on the grid of whole points.
    /// `IBMappingTests.documentsRecordingWholePointsAreSolvedOnWholePoints` holds it.
    var recordsWholePoints = false
    /// The device the hierarchy is laid out for when it is not the document's
    /// (``IBImportOptions/device``): said in the display-scale note of a document that
    /// names no device.
    var targetDevice: IBDevice?

    /// The first `toolsVersion` of Xcode 9, whose canvas records frames on the device's
    /// pixels (the corpus README); a document of an earlier Xcode whose frames all lie on
    /// whole points (``recordsWholePoints``) is solved on whole points.
    static let pixelGridToolsVersion = 13000

    /// The pixel grid a document without a `<device>` (drawn before Xcode 8, whose canvas
    /// did not name one) was laid out on, as its recorded frames show it: the smallest of
    /// 1, 2 and 3 pixels per point on whose grid every recorded edge (in the root's
    /// coordinates) lies, to 10⁻³ point; `nil` when none does. Interface Builder records
    /// frames rounded to the canvas's pixels, so a grid finer than the one the frames use
    /// is never needed and a coarser one would move them.
    func recordedScale() -> Int? {
        let edges = views.flatMap { view in
            [view.absolute.x, view.absolute.y, view.absolute.x + view.absolute.width, view.absolute.y + view.absolute.height]
        }
        return [1, 2, 3].first { scale in
            edges.allSatisfy { edge in abs((edge * Double(scale)).rounded() - edge * Double(scale)) <= 1e-3 * Double(scale) }
        }
    }

    // MARK: Reading

    mutating func build() throws(IBImportError) -> IBHierarchy {
        let rootElement = root.element
        let rootFrame = Self.recordedFrame(rootElement)
        viewIndex["superview"] = views.count
        views.append(IBView(name: "superview", element: rootElement, parent: nil,
                            frame: Frame(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height),
                            absolute: Frame(x: 0, y: 0, width: rootFrame.width, height: rootFrame.height), isArranged: false))
        register(id: rootElement["id"], name: "superview")
        collectSubviews(of: rootElement, name: "superview", absolute: views[0].absolute)
        if !framelessSubviews.isEmpty {
            let shown = framelessSubviews.prefix(8).map { "<\($0.element) id=\"\($0.id)\">" }.joined(separator: ", ")
            let more = framelessSubviews.count > 8 ? " and \(framelessSubviews.count - 8) more" : ""
            notes.append("\(framelessSubviews.count) subview\(framelessSubviews.count == 1 ? " records" : "s record") no frame (<rect key=\"frame\">) and \(framelessSubviews.count == 1 ? "is" : "are") left out with \(framelessSubviews.count == 1 ? "its" : "their") subviews and constraints: \(shown)\(more)")
        }
        collectGuides()
        displayScale = device?.scale
        if let device, device.scale > 1, recordsWholePoints, toolsVersion > 0, toolsVersion < Self.pixelGridToolsVersion {
            displayScale = 1
            notes.append("Every frame the document records lies on whole points, though its device has \(device.scale) pixels per point: the frames are taken as laid out on whole points (display scale 1), as Xcode 8 recorded centred views")
        }
        if device == nil, let scale = recordedScale() {
            displayScale = scale
            if let targetDevice {
                notes.append("The document names no device: its recorded frames lie on a grid of \(scale) pixel\(scale == 1 ? "" : "s") per point; laid out for \(targetDevice.id) at its display scale, \(targetDevice.scale)")
            } else {
                notes.append("The document names no device: its recorded frames lie on a grid of \(scale) pixel\(scale == 1 ? "" : "s") per point, taken as the display scale")
            }
        }
        for view in views {
            for list in view.element.children where list.name == "constraints" {
                for constraint in list.children where constraint.name == "constraint" {
                    try addConstraint(constraint, owner: view.name)
                }
            }
        }
        addAutoresizingConstraints()
        noteAlignmentInsets()
        inferMargins()
        inferBaselines()
        if root.kind == "cell", views[0].element["preservesSuperviewLayoutMargins"] == "YES", explicitMargins(views[0].element) != nil {
            let side = (device?.width ?? views[0].frame.width) > 400 ? 20 : 16
            notes.append("The content view preserves the table's margins: left and right at least \(side) (the system margin for the screen's width)")
        }
        let hiddenArranged = views.filter { $0.isArranged && $0.element["hidden"] == "YES" && recordedShown($0) }.map(\.name)
        if !hiddenArranged.isEmpty {
            notes.append("Hidden arranged views (\(hiddenArranged.joined(separator: ", "))) are laid out shown, as Interface Builder draws and records them; at run time their stack collapses them")
        }
        for view in views where view.element.name == "stackView"
            && Self.arrangesWithinMargins(view, arranged: views.filter { $0.parent == view.name && $0.isArranged }) {
            notes.append("Stack \(view.name) arranges within its margins, as its recorded frames show (the document does not say layoutMarginsRelativeArrangement)")
        }
        for stack in views where stack.element["distribution"] == "fillProportionally" {
            let weighed = views.filter { view in
                guard view.parent == stack.name, let vertical = proportionalWeightAxis(of: view) else { return false }
                return intrinsicSize(view, weighingProportionally: false)?[vertical ? "height" : "width"] == nil
            }.map(\.name)
            guard !weighed.isEmpty else { continue }
            notes.append("Stack \(stack.name) fills proportionally: \(weighed.joined(separator: ", ")), of no intrinsic length along its axis, weigh by their recorded length (their current length, as UIStackView reads it)")
        }
        for view in views where explicitMargins(view.element) == nil && solvedMargins[view.name] == nil {
            guard let side = Self.readableSide(view) else { continue }
            notes.append("Margins of \(view.name) follow the readable width (\(JSONWriter.format(Self.readableWidth)) points): at least \(JSONWriter.format(side)) left and right")
        }
        let safeArea = inferSafeArea()
        insetViewSafeAreas(safeArea)
        var scene = sceneJSON(safeArea: safeArea)
        let sizesTaken = try sizeFreeSizes(of: scene)
        if sizesTaken {
            scene = sceneJSON(safeArea: safeArea)
        }
        if try placeFreePositions(of: scene, sceneChanged: sizesTaken) {
            scene = sceneJSON(safeArea: safeArea)
        }
        if try backSolveSymbolInsets(of: scene) {
            scene = sceneJSON(safeArea: safeArea)
        }
        return IBHierarchy(name: "", ibId: root.cellID ?? rootElement["id"] ?? "", kind: root.kind,
                           scene: scene, ids: ids, notes: notes,
                           recordedFrames: views.map { ($0.name, $0.frame) },
                           markedViews: views.filter { $0.element["misplaced"] == "YES" || $0.element["ambiguous"] == "YES" }.map(\.name),
                           misplacedMarks: views.filter { $0.element["misplaced"] == "YES" }.map(\.name),
                           guidesNoDocumentConstraintNames: guides.map(\.name).filter { !documentConstraintItems.contains($0) })
    }

    mutating func register(id: String?, name: String) {
        guard let id else { return }
        itemNames[id] = name
        ids.append((name, id))
    }

    /// `<subviews>` in document order, depth first; a stack view's subviews are its
    /// arranged views, in order.
    mutating func collectSubviews(of element: XMLElement, name: String, absolute: Frame) {
        let isStack = element.name == "stackView"
        for list in element.children where list.name == "subviews" {
            for child in list.children where !InterfaceBuilderImporter.isView(child) {
                if let id = child["id"], !excluded.contains(id) {
                    framelessSubviews.append((child.name, id))
                    Self.collectIDs(in: child, into: &framelessIDs)
                }
            }
            for child in list.children where InterfaceBuilderImporter.isView(child) && !excluded.contains(child["id"] ?? "") {
                let frame = Self.recordedFrame(child)
                let childAbsolute = Frame(x: absolute.x + frame.x, y: absolute.y + frame.y, width: frame.width, height: frame.height)
                let childName = names.make(from: Self.readableName(child), fallback: child.name)
                viewIndex[childName] = views.count
                views.append(IBView(name: childName, element: child, parent: name, frame: frame,
                                    absolute: childAbsolute, isArranged: isStack))
                register(id: child["id"], name: childName)
                collectSubviews(of: child, name: childName, absolute: childAbsolute)
            }
        }
    }

    /// Every `id` of `element` and its descendants. - Complexity: O(elements).
    static func collectIDs(in element: XMLElement, into ids: inout Set<String>) {
        if let id = element["id"] { ids.insert(id) }
        for child in element.children { collectIDs(in: child, into: &ids) }
    }

    /// Why a constraint naming `id` that is not an item of this hierarchy is left out.
    func missingItemNote(_ element: XMLElement, id: String) -> String {
        let why = framelessIDs.contains(id)
            ? "a view left out because it (or a view containing it) records no frame (<rect key=\"frame\">)"
            : "which is not in this hierarchy"
        return "Constraint \(element["id"] ?? "?") (line \(element.line)) names \(id), \(why); left out"
    }

    /// The user label, else the custom class, else the element and its text (a label's
    /// attributed text, a `text` attribute or `<string key="text">`, a button's title, a
    /// placeholder, an image or a title).
    static func readableName(_ element: XMLElement) -> String {
        if let label = element["userLabel"], !label.isEmpty { return label }
        if let custom = element["customClass"], !custom.isEmpty { return custom }
        let text = IBLabelFonts.attributedText(element)?.string ?? element["text"] ?? element.child("string", key: "text")?.text
            ?? element.child("state", key: "normal")?["title"] ?? element["placeholder"]
            ?? element["image"] ?? element["title"] ?? ""
        return element.name + " " + text
    }

    /// `<rect key="frame">`, points (0 × 0 at 0, 0 when absent).
    static func recordedFrame(_ element: XMLElement) -> Frame {
        guard let rect = element.child("rect", key: "frame") else { return Frame(x: 0, y: 0, width: 0, height: 0) }
        func value(_ name: String) -> Double { rect[name].flatMap(Double.init) ?? 0 }
        return Frame(x: value("x"), y: value("y"), width: value("width"), height: value("height"))
    }

    /// Layout guides: the root's safe area is `safeArea`; another view's safe area (inset
    /// later by ``insetViewSafeAreas(_:)``) and a scroll view's frame layout guide are guides
    /// pinned to that view's edges; a scroll
    /// view's content layout guide is pinned at its top-left (content offset 0, as IB
    /// records); a controller's top and bottom layout guides span from the container's edge
    /// to the safe area's.
    mutating func collectGuides() {
        for view in views {
            for guide in view.element.children where guide.name == "viewLayoutGuide" {
                guard let id = guide["id"] else { continue }
                let key = guide["key"] ?? "guide"
                if key == "safeArea" && view.name == "superview" {
                    register(id: id, name: "safeArea")
                    rootSafeAreaID = id
                    continue
                }
                let name = names.make(from: (view.name == "superview" ? "root" : view.name) + " " + key, fallback: "guide")
                register(id: id, name: name)
                guides.append((name, view.name))
                let pins = key == "contentLayoutGuide" ? ["top", "leading"] : ["top", "leading", "bottom", "trailing"]
                for attribute in pins {
                    guideConstraints.append(.string("\(name).\(attribute) == \(view.name).\(attribute)"))
                }
                if key == "safeArea" { viewSafeAreas.append((name, view.name)) }
            }
        }
        for guide in root.controllerGuides where guide.name == "viewControllerLayoutGuide" {
            guard let id = guide["id"], let type = guide["type"] else { continue }
            let name = names.make(from: type + "LayoutGuide", fallback: "guide")
            register(id: id, name: name)
            if type == "top" { topGuide = name } else { bottomGuide = name }
            guides.append((name, "superview"))
            let equations = type == "top"
                ? ["\(name).top == superview.top", "\(name).bottom == safeArea.top"]
                : ["\(name).top == safeArea.bottom", "\(name).bottom == superview.bottom"]
            for equation in equations + ["\(name).leading == superview.leading", "\(name).trailing == superview.trailing"] {
                guideConstraints.append(.string(equation))
            }
        }
    }

    // MARK: Constraints

    /// One `<constraint>`: `first.attribute relation second.attribute × multiplier + constant`
    /// (NSLayoutConstraint's equation); an omitted `firstItem` is the owning view, an omitted
    /// `secondItem` makes it a constant constraint; `placeholder="YES"` ones are left out
    /// (IB removes them at build time).
    mutating func addConstraint(_ element: XMLElement, owner: String) throws(IBImportError) {
        if element["placeholder"] == "YES" {
            for id in [element["firstItem"], element["secondItem"]].compactMap({ $0 }) {
                if let name = itemNames[id] { placeholderItems.insert(name) }
            }
            if element["firstItem"] == nil { placeholderItems.insert(owner) }
            return
        }
        if excluded.contains(element["id"] ?? "") { return }
        guard let firstAttribute = element["firstAttribute"] else {
            throw IBImportError(message: "A constraint without firstAttribute", line: element.line)
        }
        var first: String
        if let id = element["firstItem"] {
            guard let name = itemNames[id] else {
                notes.append(missingItemNote(element, id: id))
                return
            }
            first = name
        } else {
            first = owner
        }
        var second = element["secondItem"].flatMap { itemNames[$0] }
        let secondAttribute = element["secondAttribute"] ?? firstAttribute
        // A subview's edge or centre tied to its scroll view's is tied to the content.
        if let scroll = second, let guide = contentGuide(of: scroll, child: first, attribute: secondAttribute) {
            second = guide
        }
        if let scroll = second, let guide = contentGuide(of: first, child: scroll, attribute: firstAttribute) {
            first = guide
        }
        let relation: String
        switch element["relation"] {
        case nil: relation = "=="
        case "greaterThanOrEqual": relation = ">="
        case "lessThanOrEqual": relation = "<="
        case let other?: throw IBImportError(message: "Unknown constraint relation \"\(other)\"", line: element.line)
        }
        let constant = try Self.number(element["constant"], default: 0, what: "constant", line: element.line)
        var equation = "\(first).\(Self.attribute(firstAttribute)) \(relation) "
        if let secondID = element["secondItem"] {
            guard let second else {
                notes.append(missingItemNote(element, id: secondID))
                return
            }
            var multiplier = try Self.multiplier(element["multiplier"], line: element.line)
            if let text = element["multiplier"], let ratio = Self.ratio(ofRounded: text) {
                multiplier = Double(ratio.numerator) / Double(ratio.denominator)
                notes.append("Multiplier \(text) of constraint \(element["id"] ?? "?") is read as \(ratio.numerator):\(ratio.denominator), the simplest ratio it rounds (Interface Builder writes six significant digits)")
            }
            equation += "\(second).\(Self.attribute(secondAttribute))"
            if multiplier != 1 { equation += " * " + JSONWriter.format(multiplier) }
            if constant > 0 { equation += " + " + JSONWriter.format(constant) }
            if constant < 0 { equation += " - " + JSONWriter.format(-constant) }
        } else {
            equation += JSONWriter.format(constant)
        }
        var members: [(String, JSONValue)] = [("equation", .string(equation))]
        if relation == "==", let second, (try? Self.multiplier(element["multiplier"], line: element.line)) == 1 {
            if element["priority"] == nil || element["priority"] == "1000" {
                requiredEqualities.append((first, firstAttribute, second, secondAttribute, constant))
            } else {
                optionalEqualities.append((first, firstAttribute, second, secondAttribute, constant))
            }
        }
        if let priority = element["priority"] {
            let value = try Self.number(priority, default: 1000, what: "priority", line: element.line)
            guard value >= 1, value <= 1000 else {
                throw IBImportError(message: "Constraint priority \(priority) is outside 1…1000", line: element.line)
            }
            if value != 1000 { members.append(("priority", .number(value))) }
        }
        if let id = element["id"] {
            members.append(("id", .string(id)))
            documentConstraintItems.insert(first)
            if let second { documentConstraintItems.insert(second) }
        }
        constraints.append(.object(members))
    }

    /// The content layout guide standing for scroll view `scroll` in a constraint between
    /// it and its direct subview `child` on an edge or centre `attribute` (UIScrollView's
    /// rule: such constraints size the content, not the frame): the scroll view's declared
    /// `contentLayoutGuide`, else one made for it, pinned at its top-left (content offset 0).
    mutating func contentGuide(of scroll: String, child: String, attribute: String) -> String? {
        guard ["top", "bottom", "leading", "trailing", "left", "right", "centerX", "centerY"].contains(attribute),
              let scrollView = view(named: scroll), scrollView.element.name == "scrollView"
                || scrollView.element.name == "tableView" || scrollView.element.name == "collectionView",
              view(named: child)?.parent == scroll else { return nil }
        if let declared = scrollView.element.children.first(where: { $0.name == "viewLayoutGuide" && $0["key"] == "contentLayoutGuide" }),
           let id = declared["id"], let name = itemNames[id] {
            return name
        }
        if let made = madeContentGuides[scroll] { return made }
        let name = names.make(from: scroll + " content", fallback: "guide")
        madeContentGuides[scroll] = name
        guides.append((name, scroll))
        guideConstraints.append(.string("\(name).top == \(scroll).top"))
        guideConstraints.append(.string("\(name).leading == \(scroll).leading"))
        notes.append("The constraints between \(scroll) and its subviews' edges act on its content, the guide \(name)")
        return name
    }

    /// IB's attribute names are NSLayoutAttribute's; `baseline` is the last baseline.
    static func attribute(_ name: String) -> String {
        name == "baseline" ? "lastBaseline" : name
    }

    /// `text` as a decimal number (digits, sign, point, exponent: what Interface Builder
    /// writes), `nil` for anything else, hexadecimal floats (`0x10`), `inf` and `nan`
    /// included, and for a value beyond `Double`'s range.
    static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }), let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    static func number(_ text: String?, default value: Double, what: String, line: Int) throws(IBImportError) -> Double {
        guard let text else { return value }
        guard let number = decimal(text) else {
            throw IBImportError(message: "Malformed \(what) \"\(text)\"", line: line)
        }
        return number
    }

    /// IB writes multipliers as `a:b`, `a/b` or a decimal. The value must be a finite,
    /// non-zero, normal number: a ratio whose quotient overflows (`1:1e-320`) or underflows
    /// to 0 is malformed, as `0` and `1/0` are, and so is a subnormal value (`1e-320`,
    /// `4.9e-324`) or a ratio with a subnormal term, which keeps too few significant bits
    /// to scale a length (IEEE 754-2008 §3.4). `IBMappingTests.malformedMultipliersAreRefused`.
    static func multiplier(_ text: String?, line: Int) throws(IBImportError) -> Double {
        guard let text else { return 1 }
        for separator in [":", "/"] where text.contains(separator) {
            let parts = text.split(separator: Character(separator), omittingEmptySubsequences: false)
            if parts.count == 2, let a = decimal(parts[0]), let b = decimal(parts[1]), b != 0 {
                let value = a / b
                if value.isFinite, value != 0, !value.isSubnormal, !a.isSubnormal, !b.isSubnormal { return value }
            }
            throw IBImportError(message: "Malformed multiplier \"\(text)\"", line: line)
        }
        guard let value = decimal(text), value != 0, !value.isSubnormal else {
            throw IBImportError(message: "Malformed multiplier \"\(text)\"", line: line)
        }
        return value
    }

    /// Interface Builder writes a multiplier it holds as a ratio (`a:b` typed, or two sizes
    /// on the canvas) as a decimal of six significant digits (20:29 as `0.689655`): such a
    /// decimal stands for the simplest ratio within half a unit of its last digit (the
    /// first convergent of the decimal's continued-fraction expansion that falls in that
    /// interval), so the engine gets the value IB held. `nil` for a ratio (`a:b`),
    /// fewer than six significant digits (a value as typed), or no ratio with a
    /// denominator up to 10⁶. `IBMappingTests.roundedMultipliersAreReadAsRatios` holds it.
    /// - Complexity: O(digits): at most 40 steps of the expansion.
    static func ratio(ofRounded text: String) -> (numerator: Int, denominator: Int)? {
        guard !text.contains(":"), !text.contains("/"), !text.lowercased().contains("e"),
              let value = Double(text), value.isFinite, value != 0 else { return nil }
        let digits = text.filter(\.isNumber).drop { $0 == "0" }
        guard digits.count >= 6 else { return nil }
        let decimals = text.split(separator: ".", maxSplits: 1).dropFirst().first?.count ?? 0
        var half = 0.5
        for _ in 0..<min(decimals, 20) { half /= 10 }
        let magnitude = value.magnitude
        let (low, high) = (magnitude - half, magnitude + half)
        // Convergents h/k of magnitude's continued fraction until one lies in (low, high).
        var (h0, h1, k0, k1) = (0.0, 1.0, 1.0, 0.0)
        var x = magnitude
        for _ in 0..<40 {
            let a = x.rounded(.down)
            (h0, h1) = (h1, a * h1 + h0)
            (k0, k1) = (k1, a * k1 + k0)
            guard k1 <= 1_000_000 else { return nil }
            let candidate = h1 / k1
            if candidate > low && candidate < high {
                guard k1 > 1 || candidate != magnitude else { return nil }
                return ((value < 0 ? -1 : 1) * Int(h1), Int(k1))
            }
            let fraction = x - a
            guard fraction > 1e-12 else { return nil }
            x = 1 / fraction
        }
        return nil
    }

    /// A view that keeps `translatesAutoresizingMaskIntoConstraints` (IB writes `NO` for the
    /// others) is placed by its autoresizing mask, as UIKit's
    /// `NSAutoresizingMaskLayoutConstraint`s do: on each axis the fixed ones of the leading
    /// margin, the size and the trailing margin keep their recorded values, and when more
    /// than one is flexible the flexible ones scale with the parent (their recorded share).
    mutating func addAutoresizingConstraints() {
        let byName = Dictionary(uniqueKeysWithValues: views.map { ($0.name, $0) })
        // `fixedFrame="YES"`: a view Interface Builder left without constraints, which it
        // builds with `translatesAutoresizingMaskIntoConstraints` on whatever the file says.
        for view in views.dropFirst() where (view.element["translatesAutoresizingMaskIntoConstraints"] != "NO" || view.element["fixedFrame"] == "YES")
            && !view.isArranged {
            guard let parentName = view.parent, let parent = byName[parentName] else { continue }
            if view.element["translatesAutoresizingMaskIntoConstraints"] == "NO" {
                notes.append("\(view.name) has a fixed frame (no constraints): placed by its autoresizing mask, as Interface Builder builds it")
            }
            let mask = view.element.child("autoresizingMask", key: "autoresizingMask")
            func flag(_ name: String) -> Bool { mask?[name] == "YES" }
            let parentRef = parentName
            // The mask fixes the frame; the constraints act on the alignment rectangle.
            let inset = alignmentInsets(of: view.element) ?? (0, 0, 0, 0)
            for horizontal in [true, false] {
                let start = horizontal ? view.frame.x + inset.left : view.frame.y + inset.top
                let length = horizontal ? view.frame.width - inset.left - inset.right : view.frame.height - inset.top - inset.bottom
                let parentLength = horizontal ? parent.frame.width : parent.frame.height
                let flexibleStart = flag(horizontal ? "flexibleMinX" : "flexibleMinY")
                let flexibleLength = flag(horizontal ? "widthSizable" : "heightSizable")
                let flexibleEnd = flag(horizontal ? "flexibleMaxX" : "flexibleMaxY")
                let (startAttribute, endAttribute, lengthAttribute) = horizontal ? ("left", "right", "width") : ("top", "bottom", "height")
                let end = parentLength - start - length - (horizontal ? inset.right : inset.bottom)
                var equations: [String] = []
                if !flexibleLength {
                    equations.append("\(view.name).\(lengthAttribute) == \(JSONWriter.format(length))")
                } else if flexibleStart || flexibleEnd, parentLength > 0 {
                    equations.append("\(view.name).\(lengthAttribute) == \(parentRef).\(lengthAttribute) * \(JSONWriter.format(length / parentLength))")
                }
                if !flexibleStart {
                    equations.append("\(view.name).\(startAttribute) == \(parentRef).\(startAttribute) + \(JSONWriter.format(start))")
                }
                if !flexibleEnd && (flexibleStart || flexibleLength) {
                    equations.append("\(view.name).\(endAttribute) == \(parentRef).\(endAttribute) - \(JSONWriter.format(end))")
                } else if flexibleStart && flexibleEnd && parentLength > 0 {
                    // The parent's centre in its own bounds is half its length.
                    let center = horizontal ? "centerX" : "centerY"
                    equations.append("\(view.name).\(startAttribute) == \(parentRef).\(center) * \(JSONWriter.format(2 * start / parentLength))")
                }
                constraints.append(contentsOf: equations.map { .object([("equation", .string($0)), ("id", .string("autoresizing:\(view.name)"))]) })
            }
        }
    }

    /// One note per kind of system control with alignment insets in the hierarchy.
    mutating func noteAlignmentInsets() {
        for kind in ["segmentedControl", "slider", "switch"] {
            guard let inset = Self.alignmentInsets[kind] else { continue }
            let named = views.filter { $0.element.name == kind && alignmentInsets(of: $0.element) != nil }.map(\.name)
            guard !named.isEmpty else { continue }
            let sides = [("top", inset.top), ("left", inset.left), ("bottom", inset.bottom), ("right", inset.right)]
                .filter { $0.1 != 0 }.map { "\($0.0) \(JSONWriter.format($0.1))" }.joined(separator: ", ")
            notes.append("Alignment insets \(sides) of \(kind) (\(named.joined(separator: ", "))) taken from the system-control table; their intrinsic size is the recorded size less these")
        }
    }

    // MARK: The scene

    /// Elements sized by their content: their recorded size stands for their intrinsic
    /// size (`?intrinsic=recorded`), on both axes or, for sliders and progress views, the
    /// vertical one only.
    static let contentSized: Set<String> = ["label", "button", "textField", "segmentedControl", "switch", "stepper",
                                             "activityIndicatorView", "pageControl"]
    static let contentSizedVertically: Set<String> = ["slider", "progressView", "navigationBar", "toolbar", "tabBar", "searchBar"]

    func sceneJSON(safeArea: (top: Double, left: Double, bottom: Double, right: Double)) -> JSONValue {
        let rootView = views[0]
        var container: [(String, JSONValue)] = [("width", .number(rootView.frame.width)), ("height", .number(rootView.frame.height))]
        if safeArea != (0, 0, 0, 0) {
            container.append(("safeArea", Self.insets(safeArea.top, safeArea.left, safeArea.bottom, safeArea.right)))
        }
        let solved = solvedMargins["superview"]
        if let margins = explicitMargins(rootView.element) {
            container.append(("margins", preservingCellMargins(margins)))
        } else if root.isControllerView || root.kind == "cell" {
            // UIKit's system minimum margins follow the screen, not the view: 16 points on
            // screens up to 400 points wide, 20 on wider ones; a cell's content view has 11
            // above and below; a controller's root view adds the safe area
            // (insetsLayoutMarginsFromSafeArea). Back-solved edges win.
            var side = (device?.width ?? rootView.frame.width) > 400 ? 20.0 : 16.0
            if let readable = Self.readableSide(rootView) { side = max(side, readable) }
            let vertical = root.kind == "cell" ? 11.0 : 0.0
            container.append(("margins", Self.insets(solved?.top ?? safeArea.top + vertical, solved?.left ?? safeArea.left + side,
                                                     solved?.bottom ?? safeArea.bottom + vertical, solved?.right ?? safeArea.right + side)))
        } else if let solved {
            container.append(("margins", Self.insets(solved.top ?? 8, solved.left ?? 8, solved.bottom ?? 8, solved.right ?? 8)))
        } else if let readable = Self.readableSide(rootView) {
            container.append(("margins", Self.insets(8, max(8, readable), 8, max(8, readable))))
        }
        var viewMembers: [(String, JSONValue)] = []
        for view in views.dropFirst() {
            var members: [(String, JSONValue)] = []
            if let parent = view.parent, parent != "superview", !view.isArranged || uncollapsible.contains(view.name) {
                members.append(("parent", .string(parent)))
            }
            let element = view.element
            if let intrinsic = intrinsicSize(view) { members.append(("intrinsicSize", intrinsic)) }
            if let hugging = Self.priorities(element, "HuggingPriority") { members.append(("hugging", hugging)) }
            if let baselines = solvedBaselines[view.name] {
                for which in ["baseline", "firstBaseline"] {
                    if let offset = baselines[which] { members.append((which, .number(offset))) }
                }
            }
            if let resistance = Self.priorities(element, "CompressionResistancePriority") { members.append(("compressionResistance", resistance)) }
            if let margins = explicitMargins(element) {
                members.append(("margins", margins))
            } else if let solved = solvedMargins[view.name] {
                members.append(("margins", Self.insets(solved.top ?? 8, solved.left ?? 8, solved.bottom ?? 8, solved.right ?? 8)))
            } else if let readable = Self.readableSide(view) {
                members.append(("margins", Self.insets(8, max(8, readable), 8, max(8, readable))))
            }
            if let inset = alignmentInsets(of: element) {
                members.append(("alignmentInsets", Self.insets(inset.top, inset.left, inset.bottom, inset.right)))
            }
            // A stack's hidden arranged view that the recorded frames show laid out is
            // imported shown (``recordedShown(_:)``), and noted.
            if element["hidden"] == "YES" && !(view.isArranged && recordedShown(view)) { members.append(("hidden", .bool(true))) }
            if element.name == "stackView" { members.append(("stack", stack(view))) }
            viewMembers.append((view.name, .object(members)))
        }
        var scene: [(String, JSONValue)] = [("container", .object(container)), ("views", .object(viewMembers))]
        if !guides.isEmpty {
            scene.append(("guides", .object(guides.map { ($0.name, .object([("owner", .string($0.owner))])) })))
        }
        scene.append(("constraints", .array(guideConstraints + constraints + uncollapsibleConstraints() + positionConstraints)))
        if let displayScale { scene.append(("options", .object([("displayScale", .number(Double(displayScale)))]))) }
        return .object(scene)
    }

    /// UIKit's `alignmentRectInsets` of the system controls that have them, as Interface
    /// Builder's recorded frames show them (a frame is the alignment rectangle its
    /// constraints place, grown by these): a UISwitch 2 points on its trailing (right)
    /// side, in both its 51 × 31 and its 63 × 28 sizes; a UISlider 2 points left and right
    /// and 1 below; a UISegmentedControl 1 below. Points; docs/scenes.md, "From Interface
    /// Builder", lists them; `IBMappingTests.systemControlsGetTheirAlignmentInsets` holds them.
    static let alignmentInsets: [String: (top: Double, left: Double, bottom: Double, right: Double)] = [
        "switch": (0, 0, 0, 2),
        "slider": (0, 2, 1, 2),
        "segmentedControl": (0, 0, 1, 0),
    ]

    /// The first `toolsVersion` of Xcode 26, whose UISlider (iOS 26) has no alignment insets:
    /// its recorded frames sit on the constraints' edges.
    static let insetFreeSliderToolsVersion = 24000

    /// The alignment insets of `element` in a document of this `toolsVersion` (a symbol
    /// image view's back-solved ones, ``backSolveSymbolInsets(of:)``), or `nil`.
    func alignmentInsets(of element: XMLElement) -> (top: Double, left: Double, bottom: Double, right: Double)? {
        if let id = element["id"], let insets = symbolInsets[id] { return insets }
        if element.name == "slider" && toolsVersion >= Self.insetFreeSliderToolsVersion { return nil }
        return Self.alignmentInsets[element.name]
    }

    /// The recorded frame of `view` in the root's coordinates less its alignment insets:
    /// the rectangle its constraints act on.
    func alignmentFrame(_ view: IBView) -> Frame {
        guard let inset = alignmentInsets(of: view.element) else { return view.absolute }
        return Frame(x: view.absolute.x + inset.left, y: view.absolute.y + inset.top,
                     width: view.absolute.width - inset.left - inset.right, height: view.absolute.height - inset.top - inset.bottom)
    }

    /// A recorded length without its float noise (`31.000000000000004` for the 31 points
    /// Interface Builder computed): the nearest multiple of a pixel when it is within
    /// 10⁻³ point of one (the corpus README: recorded values sit on the device's pixels and
    /// carry such noise), else as recorded. Without it a length that is a whole number of
    /// pixels could cross a half-pixel boundary when centred and round a pixel the other way.
    func onPixelGrid(_ length: Double) -> Double {
        guard let displayScale else { return length }
        let pixels = (length * Double(displayScale)).rounded()
        return abs(pixels - length * Double(displayScale)) <= 1e-3 * Double(displayScale) ? pixels / Double(displayScale) : length
    }

    /// The recorded size (less the alignment insets: the intrinsic size is the alignment
    /// rectangle's) of a view sized by its content; `placeholderIntrinsicWidth/Height` win.
    func intrinsicSize(_ view: IBView) -> JSONValue? {
        intrinsicSize(view, weighingProportionally: true)
    }

    /// ``intrinsicSize(_:)``, with or without the recorded length standing for the weight
    /// of an arranged view in a proportional stack (``proportionalWeightAxis(of:)``).
    func intrinsicSize(_ view: IBView, weighingProportionally: Bool) -> JSONValue? {
        let element = view.element
        var width: Double?, height: Double?
        let inset = alignmentInsets(of: element) ?? (0, 0, 0, 0)
        // A text view that does not scroll is sized by its text, as a label is.
        if Self.contentSized.contains(element.name) || (element.name == "imageView" && element["image"] != nil)
            || (element.name == "textView" && element["scrollEnabled"] == "NO") {
            width = view.frame.width - inset.left - inset.right
            height = view.frame.height - inset.top - inset.bottom
        } else if Self.contentSizedVertically.contains(element.name) {
            height = view.frame.height - inset.top - inset.bottom
        }
        if let free = freeSizes[view.name] {
            if free.width { width = view.frame.width - inset.left - inset.right }
            if free.height { height = view.frame.height - inset.top - inset.bottom }
        }
        width = width.map(onPixelGrid)
        height = height.map(onPixelGrid)
        // `placeholderIntrinsicWidth/Height`: a number, or `infinite` for none.
        for (attribute, isWidth) in [("placeholderIntrinsicWidth", true), ("placeholderIntrinsicHeight", false)] {
            guard let text = element[attribute] else { continue }
            let value = text == "infinite" ? -1 : (Double(text) ?? -1)
            if isWidth { width = value } else { height = value }
        }
        // A proportional stack weighs an arranged view of no intrinsic length on its axis
        // by its current length (``proportionalWeightAxis(of:)``).
        if weighingProportionally, let vertical = proportionalWeightAxis(of: view) {
            let inset = alignmentInsets(of: element) ?? (0, 0, 0, 0)
            if vertical, height == nil || height! < 0 {
                height = onPixelGrid(view.frame.height - inset.top - inset.bottom)
            } else if !vertical, width == nil || width! < 0 {
                width = onPixelGrid(view.frame.width - inset.left - inset.right)
            }
        }
        guard width != nil || height != nil else { return nil }
        var members: [(String, JSONValue)] = []
        if let width { members.append(("width", .number(width))) }
        if let height { members.append(("height", .number(height))) }
        return .object(members)
    }

    /// Whether `view` is a shown arranged view of a `fillProportionally` stack: then `true`
    /// for a vertical stack, `false` for a horizontal one; `nil` otherwise.
    ///
    /// UIStackView sizes such views in proportion to their intrinsic lengths along its axis
    /// (Apple's `UIStackView.Distribution.fillProportionally`); a view that has none (a plain
    /// view, a nested stack view: `UIView.noIntrinsicMetric`) keeps the share of its current
    /// length, which a loaded document sets to the recorded frame, as the recorded frames
    /// show: a stack of plain views keeps lengths that no content gives (they are a fixed
    /// point of this rule). So the recorded length along the axis stands for the view's
    /// weight, as its intrinsic length there.
    /// `IBMappingTests.proportionalStacksWeighViewsByTheirRecordedLength` holds it.
    func proportionalWeightAxis(of view: IBView) -> Bool? {
        guard view.isArranged, let stackName = view.parent, let stack = self.view(named: stackName),
              stack.element["distribution"] == "fillProportionally",
              view.element["hidden"] != "YES" || recordedShown(view) else { return nil }
        return stack.element["axis"] == "vertical"
    }

    static func priorities(_ element: XMLElement, _ suffix: String) -> JSONValue? {
        var members: [(String, JSONValue)] = []
        for axis in ["horizontal", "vertical"] {
            if let text = element[axis + suffix], let value = Double(text), value >= 1, value <= 1000 {
                members.append((axis, .number(value)))
            }
        }
        return members.isEmpty ? nil : .object(members)
    }

    /// `<edgeInsets key="layoutMargins">` or `<directionalEdgeInsets key="directionalLayoutMargins">`
    /// (leading and trailing as left and right: the scenes are left to right).
    func explicitMargins(_ element: XMLElement) -> JSONValue? {
        func value(_ inset: XMLElement, _ name: String) -> Double { inset[name].flatMap(Double.init) ?? 0 }
        if let inset = element.child("edgeInsets", key: "layoutMargins") {
            return Self.insets(value(inset, "top"), value(inset, "left"), value(inset, "bottom"), value(inset, "right"))
        }
        if let inset = element.child("directionalEdgeInsets", key: "directionalLayoutMargins") {
            return Self.insets(value(inset, "top"), value(inset, "leading"), value(inset, "bottom"), value(inset, "trailing"))
        }
        return nil
    }

    /// Whether the recorded frames show the hidden arranged view `view` laid out as if shown
    /// (Interface Builder draws them so in some versions and collapses them in others): it
    /// has a length along the stack's axis, and the next arranged view starts one spacing
    /// after its end (the last one: it ends at the stack's end, one spacing after the view
    /// before it), to 10⁻² point. Stacks that distribute space (`equalSpacing`,
    /// `equalCentering`) never tell: their hidden views collapse, as UIStackView's do.
    func recordedShown(_ view: IBView) -> Bool {
        guard let stackName = view.parent, let stack = self.view(named: stackName) else { return false }
        let distribution = stack.element["distribution"] ?? "fill"
        guard distribution != "equalSpacing", distribution != "equalCentering" else { return false }
        let vertical = stack.element["axis"] == "vertical"
        let arranged = views.filter { $0.parent == stackName && $0.isArranged }
        guard let index = arranged.firstIndex(where: { $0.name == view.name }) else { return false }
        let spacing = stack.element["spacing"].flatMap(Double.init) ?? (stack.element["spacingType"] == "standard" ? Self.systemSpacing : 0)
        func start(_ item: IBView) -> Double { vertical ? item.frame.y : item.frame.x }
        func end(_ item: IBView) -> Double { vertical ? item.frame.y + item.frame.height : item.frame.x + item.frame.width }
        // Laid out shown, a view lies within its stack: one drawn before the stack's start
        // was placed by the hiding (``uncollapsibleConstraints()``).
        guard end(view) - start(view) > 0.01, start(view) >= -0.01 else { return false }
        if index + 1 < arranged.count {
            return abs(start(arranged[index + 1]) - (end(view) + spacing)) <= 0.01
        }
        guard index > 0 else { return false }
        let stackLength = vertical ? stack.frame.height : stack.frame.width
        return abs(start(view) - (end(arranged[index - 1]) + spacing)) <= 0.01 && abs(end(view) - stackLength) <= 0.01
    }

    /// Whether a stack view with explicit margins but no `layoutMarginsRelativeArrangement`
    /// attribute arranges within its margins all the same, as its recorded frames show:
    /// its first arranged view starts at the margin (a non-zero one) along the axis and
    /// across it.
    static func arrangesWithinMargins(_ stack: IBView, arranged: [IBView]) -> Bool {
        guard stack.element["layoutMarginsRelativeArrangement"] == nil, let first = arranged.first else { return false }
        func value(_ inset: XMLElement, _ name: String) -> Double { inset[name].flatMap(Double.init) ?? 0 }
        let top: Double, left: Double
        if let inset = stack.element.child("edgeInsets", key: "layoutMargins") {
            (top, left) = (value(inset, "top"), value(inset, "left"))
        } else if let inset = stack.element.child("directionalEdgeInsets", key: "directionalLayoutMargins") {
            (top, left) = (value(inset, "top"), value(inset, "leading"))
        } else {
            return false
        }
        guard top != 0 || left != 0 else { return false }
        return abs(first.frame.x - left) <= 1e-3 && abs(first.frame.y - top) <= 1e-3
    }

    static func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> JSONValue {
        .object([("top", .number(top)), ("left", .number(left)), ("bottom", .number(bottom)), ("right", .number(right))])
    }

    /// The system spacing between sibling views (Interface Builder's "Standard" spacing,
    /// UIStackView's `spacingUseSystem`, written `spacingType="standard"`): 8 points.
    /// `IBMappingTests.standardStackSpacingIsEightPoints` holds it.
    static let systemSpacing = 8.0

    /// UIStackView's IB attributes → the scene's `stack`: the subviews are the arranged views;
    /// `spacingType="standard"` without a `spacing` is ``systemSpacing``.
    func stack(_ view: IBView) -> JSONValue {
        let element = view.element
        let axis = element["axis"] == "vertical" ? "vertical" : "horizontal"
        var members: [(String, JSONValue)] = [("axis", .string(axis))]
        if let distribution = element["distribution"] { members.append(("distribution", .string(distribution))) }
        if var alignment = element["alignment"] {
            if alignment == "baseline" { alignment = "lastBaseline" }
            if axis == "horizontal" || !alignment.hasSuffix("aseline") { members.append(("alignment", .string(alignment))) }
        }
        if let spacing = element["spacing"].flatMap(Double.init) {
            members.append(("spacing", .number(spacing)))
        } else if element["spacingType"] == "standard" {
            members.append(("spacing", .number(Self.systemSpacing)))
        }
        let arranged = views.filter { $0.parent == view.name && $0.isArranged && !uncollapsible.contains($0.name) }.map { JSONValue.string($0.name) }
        members.append(("arranged", .array(arranged)))
        if element["layoutMarginsRelativeArrangement"] == "YES" || Self.arrangesWithinMargins(view, arranged: views.filter { $0.parent == view.name && $0.isArranged }) {
            members.append(("layoutMarginsRelative", .bool(true)))
        }
        if element["baselineRelativeArrangement"] == "YES", axis == "vertical" { members.append(("baselineRelative", .bool(true))) }
        return .object(members)
    }
}
