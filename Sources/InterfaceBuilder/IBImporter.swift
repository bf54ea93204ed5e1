import LayoutCompiler

/// The document-level facts of an imported Interface Builder document.
public struct IBDocumentInfo: Sendable {
    /// `xib` or `storyboard`.
    public var kind: String
    public var toolsVersion: String
    /// `nil` when the document names no device (older documents); the scenes then use
    /// their recorded sizes and no `displayScale`.
    public var device: IBDevice?
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
}

/// The answer of an import.
public struct IBImport: Sendable {
    public var document: IBDocumentInfo
    public var hierarchies: [IBHierarchy]
}

/// Why a document cannot be imported (the contract's 422 `invalid_document`): a message
/// and the 1-based line it concerns (0 when none).
public struct IBImportError: Error, Sendable, Equatable {
    public var message: String
    public var line: Int
    public init(message: String, line: Int) {
        self.message = message
        self.line = line
    }
}

/// How recorded facts stand in for what a document does not hold.
public struct IBImportOptions: Sendable {
    /// `?intrinsic=recorded` (the only mode so far): views sized by their content get their
    /// recorded size as their intrinsic size.
    public var limits = XMLLimits()
    public init() {}
}

/// Reads `.xib` and `.storyboard` documents (contract "Interface Builder documents") into
/// scenes: one ``IBHierarchy`` per xib top-level view, per storyboard scene's root view and
/// per table or collection view cell (its content view is the container).
public enum InterfaceBuilderImporter {
    /// Imports one document.
    ///
    /// - Throws: ``IBImportError`` when the bytes are not well-formed XML (or pass a bound
    ///   of ``XMLLimits``), or are not an iOS Interface Builder document (the platform named).
    /// - Complexity: O(elements + constraints × log views).
    public static func importDocument(_ bytes: [UInt8], options: IBImportOptions = IBImportOptions()) throws(IBImportError) -> IBImport {
        let root: XMLElement
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
        let kind = type.contains("Storyboard") ? "storyboard" : "xib"
        var device: IBDevice?
        if let element = root.child("device"), let id = element["id"] {
            device = IBDevice.named(id, orientation: element["orientation"] ?? "portrait")
        }
        let info = IBDocumentInfo(kind: kind, toolsVersion: root["toolsVersion"] ?? "", device: device)

        var roots: [HierarchyRoot] = []
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

        let excluded = excludedByVariations(root, device: device)
        var hierarchyNames = NameMaker()
        var hierarchies: [IBHierarchy] = []
        for hierarchyRoot in roots {
            var builder = SceneBuilder(root: hierarchyRoot, device: device, excluded: excluded)
            builder.toolsVersion = Int(info.toolsVersion) ?? 0
            var hierarchy = try builder.build()
            hierarchy.name = hierarchyNames.make(from: hierarchyRoot.title, fallback: "hierarchy")
            hierarchies.append(hierarchy)
        }
        return IBImport(document: info, hierarchies: hierarchies)
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

    /// The platform of a non-iOS document, from `targetRuntime` (`MacOSX.Cocoa`,
    /// `watchKit`, `AppleTV`) or its `type`.
    static func otherPlatform(type: String, runtime: String) -> String? {
        if runtime.hasPrefix("MacOSX") || type.hasSuffix(".Cocoa.XIB") || type.contains(".Cocoa.Storyboard") { return "macOS" }
        if runtime.lowercased().hasPrefix("watchkit") || type.contains("WatchKit") { return "watchOS" }
        if runtime.hasPrefix("AppleTV") || type.contains("AppleTV") { return "tvOS" }
        return nil
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
}

/// Makes valid (`[A-Za-z_][A-Za-z0-9_]*`), readable, unique lowerCamelCase names.
struct NameMaker {
    var used: Set<String> = ["superview", "safeArea"]

    /// `text` split into words at every character that is not a letter or digit, joined in
    /// lowerCamelCase; `fallback` when nothing is left; `2`, `3`, … appended until unique.
    mutating func make(from text: String, fallback: String) -> String {
        var words: [String] = []
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
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
        var counter = 2
        while used.contains(name) {
            name = base + String(counter)
            counter += 1
        }
        used.insert(name)
        return name
    }
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
