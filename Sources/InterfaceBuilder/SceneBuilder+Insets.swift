import LayoutCompiler

/// What the document does not record about insets: system layout margins and the safe
/// area, back-solved from the recorded frames or taken from the device table
/// (SceneBuilder.swift holds the reading).
extension SceneBuilder {
    /// The layout margins of views whose document gives none (system margins), back-solved
    /// from the recorded frames: each required `==` constraint with multiplier 1 between a
    /// view's margin attribute (`topMargin`, `leadingMargin`, …) and an edge of another
    /// view (or, for an edge no required one tells, such a constraint of lower priority) gives that margin as the distance from the margin owner's recorded frame to the
    /// other view's recorded alignment rectangle, plus the constant. Per view and edge the
    /// most frequent value wins (ties to the smaller); negative values are not margins and
    /// are left out; views marked misplaced or ambiguous give none. Noted per view.
    mutating func inferMargins() {
        let byName = Dictionary(uniqueKeysWithValues: views.map { ($0.name, $0) })
        // Votes of required constraints, then of optional ones (used for an edge only
        // when no required constraint tells it).
        var votes: [String: [String: [Double: Int]]] = [:]
        var optionalVotes: [String: [String: [Double: Int]]] = [:]
        let marginEdges = ["topMargin": "top", "bottomMargin": "bottom", "leadingMargin": "left", "leftMargin": "left",
                           "trailingMargin": "right", "rightMargin": "right"]
        for (index, equality) in (requiredEqualities + optionalEqualities).enumerated() {
            let isRequired = index < requiredEqualities.count
            for marginIsFirst in [true, false] {
                let (owner, ownerAttribute, other, otherAttribute) = marginIsFirst
                    ? (equality.first, equality.firstAttribute, equality.second, equality.secondAttribute)
                    : (equality.second, equality.secondAttribute, equality.first, equality.firstAttribute)
                guard let edge = marginEdges[ownerAttribute], let ownerView = byName[owner], let otherView = byName[other],
                      owner != other, explicitMargins(ownerView.element) == nil,
                      !Self.isMarked(ownerView), !Self.isMarked(otherView),
                      let value = Self.edge(alignmentFrame(otherView), otherAttribute) else { continue }
                // first = second + constant.
                let line = marginIsFirst ? value + equality.constant : value - equality.constant
                let frame = ownerView.absolute
                let inset: Double
                switch edge {
                case "top": inset = line - frame.y
                case "bottom": inset = frame.y + frame.height - line
                case "left": inset = line - frame.x
                default: inset = frame.x + frame.width - line
                }
                guard inset.isFinite, inset >= 0 else { continue }
                let rounded = (inset * 1000).rounded() / 1000
                if isRequired {
                    votes[owner, default: [:]][edge, default: [:]][rounded, default: 0] += 1
                } else {
                    optionalVotes[owner, default: [:]][edge, default: [:]][rounded, default: 0] += 1
                }
            }
        }
        for (owner, edges) in optionalVotes {
            for (edge, counts) in edges where votes[owner]?[edge] == nil {
                votes[owner, default: [:]][edge] = counts
            }
        }
        for view in views {
            guard let edges = votes[view.name] else { continue }
            func chosen(_ edge: String) -> Double? {
                edges[edge]?.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }).first?.key
            }
            let found = (top: chosen("top"), left: chosen("left"), bottom: chosen("bottom"), right: chosen("right"))
            solvedMargins[view.name] = found
            let sides = [("top", found.top), ("left", found.left), ("bottom", found.bottom), ("right", found.right)]
                .compactMap { side, value in value.map { "\(side) \(JSONWriter.format($0))" } }.joined(separator: ", ")
            notes.append("Margins of \(view.name) (\(sides)) back-solved from the recorded frames")
        }
    }

    /// UIKit's readable content width at the default text size (Large): 672 points
    /// (`readableContentGuide`'s widest, as iPad layouts show it).
    static let readableWidth = 672.0

    /// A cell's content view that preserves its superview's margins
    /// (`preservesSuperviewLayoutMargins="YES"`) has, on the left and right, at least the
    /// table's system margin (16 points on screens up to 400 points wide, 20 on wider ones),
    /// as UIKit takes the larger of its own margin and the inherited one.
    func preservingCellMargins(_ margins: JSONValue) -> JSONValue {
        guard root.kind == "cell", views[0].element["preservesSuperviewLayoutMargins"] == "YES",
              case .number(let top)? = margins["top"], case .number(let left)? = margins["left"],
              case .number(let bottom)? = margins["bottom"], case .number(let right)? = margins["right"] else { return margins }
        let side = (device?.width ?? views[0].frame.width) > 400 ? 20.0 : 16.0
        return Self.insets(top, max(left, side), bottom, max(right, side))
    }

    /// A view with `layoutMarginsFollowReadableWidth="YES"` keeps its content within the
    /// readable width: its left and right margins are at least half of what its width
    /// exceeds ``readableWidth`` by; `nil` otherwise (or when it is not wider).
    static func readableSide(_ view: IBView) -> Double? {
        guard view.element["layoutMarginsFollowReadableWidth"] == "YES", view.frame.width > readableWidth else { return nil }
        return (view.frame.width - readableWidth) / 2
    }

    static func isMarked(_ view: IBView) -> Bool {
        view.element["misplaced"] == "YES" || view.element["ambiguous"] == "YES"
    }

    // MARK: Safe area

    /// The safe-area insets of the root: back-solved from the recorded frames where required
    /// `==` constraints with multiplier 1 tie an edge of the safe area (or the facing edge of
    /// a controller's top or bottom layout guide) to an edge of a view
    /// (the most frequent value per edge; ties to the smaller), else, for a controller's
    /// root view that fills the document's screen, the device table's
    /// (``IBDevice/safeAreaInsets``; 44 deep for a `retina6_1` document of an Xcode before
    /// ``notch48ToolsVersion``) with the bars of ``bars(of:device:pushed:)``, else 0.
    mutating func inferSafeArea() -> (top: Double, left: Double, bottom: Double, right: Double) {
        let width = views[0].frame.width, height = views[0].frame.height
        var votes: [String: [Double: Int]] = [:]
        let byName = Dictionary(uniqueKeysWithValues: views.map { ($0.name, $0) })
        for var equality in requiredEqualities {
            // The top layout guide's bottom is the safe area's top; the bottom guide's top its bottom.
            for (guide, attribute, safeAttribute) in [(topGuide, "bottom", "top"), (bottomGuide, "top", "bottom")] {
                guard let guide else { continue }
                if equality.first == guide && equality.firstAttribute == attribute { (equality.first, equality.firstAttribute) = ("safeArea", safeAttribute) }
                if equality.second == guide && equality.secondAttribute == attribute { (equality.second, equality.secondAttribute) = ("safeArea", safeAttribute) }
            }
            let (safe, other, otherAttribute, safeIsFirst): (String, String, String, Bool)
            if equality.first == "safeArea" {
                (safe, other, otherAttribute, safeIsFirst) = (equality.firstAttribute, equality.second, equality.secondAttribute, true)
            } else if equality.second == "safeArea" {
                (safe, other, otherAttribute, safeIsFirst) = (equality.secondAttribute, equality.first, equality.firstAttribute, false)
            } else {
                continue
            }
            let constant = equality.constant
            guard let view = byName[other], view.element["misplaced"] != "YES", view.element["ambiguous"] != "YES",
                  let value = Self.edge(alignmentFrame(view), otherAttribute) else { continue }
            let safeValue = safeIsFirst ? value + constant : value - constant
            let (edge, inset): (String, Double)
            switch safe {
            case "top": (edge, inset) = ("top", safeValue)
            case "bottom": (edge, inset) = ("bottom", height - safeValue)
            case "leading", "left": (edge, inset) = ("left", safeValue)
            case "trailing", "right": (edge, inset) = ("right", width - safeValue)
            default: continue
            }
            guard inset.isFinite, inset >= 0 else { continue }
            let rounded = (inset * 1000).rounded() / 1000
            votes[edge, default: [:]][rounded, default: 0] += 1
        }
        var table = (top: 0.0, left: 0.0, bottom: 0.0, right: 0.0)
        var source = "the device table"
        if root.isControllerView, let device, width == device.width, height == device.height {
            // The table retargeting uses too, so the own device and `?device=` agree
            // (IBDeviceTests.theOwnDeviceTakesTheTablesSafeArea).
            table = device.safeAreaInsets
            if device.id == "retina6_1", toolsVersion > 0, toolsVersion < Self.notch48ToolsVersion {
                // Xcode before 14 drew the iPhone 11's housing 44 deep (the corpus's
                // retina6_1 documents of toolsVersion 17701 and 20037 record 44, that of
                // 22154 records 48; IBDeviceTests.olderXcodeDrewTheIPhone11With44).
                table = device.orientation == "landscape" ? (0, 44, table.bottom, 44) : (44, 0, table.bottom, 0)
                source = "the device table as Xcode before 14 drew it (44 deep, where UIKit has 48)"
            }
            let bars = Self.bars(of: root.controller, device: device, pushed: root.isPushed)
            if bars.top > 0 {
                table.top += bars.top
                notes.append("A navigation bar of \(JSONWriter.format(bars.top)) points is taken to cover the top (the controller " + (root.isPushed ? "is pushed by a show segue onto a navigation controller's stack)" : "has a navigationItem)"))
            }
            if bars.bottom > 0 {
                table.bottom += bars.bottom
                notes.append("A tab bar of \(JSONWriter.format(bars.bottom)) points is taken to cover the bottom (the controller has a tabBarItem)")
            }
        }
        func chosen(_ edge: String, fallback: Double, what: String) -> Double {
            if let counts = votes[edge], let best = counts.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }).first {
                notes.append("Safe area \(what) inset \(JSONWriter.format(best.key)) back-solved from the recorded frames")
                return best.key
            }
            if fallback != 0 { notes.append("Safe area \(what) inset \(JSONWriter.format(fallback)) taken from " + source) }
            return fallback
        }
        return (chosen("top", fallback: table.top, what: "top"), chosen("left", fallback: table.left, what: "left"),
                chosen("bottom", fallback: table.bottom, what: "bottom"), chosen("right", fallback: table.right, what: "right"))
    }

    /// The first `toolsVersion` of Xcode 14 (21000; Xcode 13's last is 20xxx): documents of
    /// an earlier Xcode record a `retina6_1` (iPhone 11, XR) safe area 44 deep at the top,
    /// where UIKit (and the device table) has 48.
    static let notch48ToolsVersion = 21000

    /// The bars UIKit puts over a storyboard controller's root view, which its safe area
    /// excludes: a navigation bar when the controller has a `<navigationItem>` (it is shown
    /// in a navigation controller; 44 points on an iPhone in portrait, 32 in landscape, 50 on
    /// an iPad; none when a `prompt` or a large title makes it taller than the table
    /// knows), a tab bar when it has a `<tabBarItem>` (49 points on an
    /// iPhone, 50 on an iPad). Sizes: UIKit's `UINavigationBar` and `UITabBar` heights
    /// (Apple's Human Interface Guidelines, "Navigation bars", "Tab bars").
    static func bars(of controller: XMLElement?, device: IBDevice, pushed: Bool = false) -> (top: Double, bottom: Double) {
        guard let controller else { return (0, 0) }
        let iPad = device.id.hasPrefix("ipad")
        var top = 0.0, bottom = 0.0
        let item = controller.child("navigationItem", key: "navigationItem")
        if (item == nil && pushed) || (item.map { $0["prompt"] == nil && ($0["largeTitleDisplayMode"] == nil || $0["largeTitleDisplayMode"] == "never") } ?? false) {
            top = iPad ? 50 : (device.orientation == "landscape" ? 32 : 44)
        }
        if controller.child("tabBarItem", key: "tabBarItem") != nil {
            bottom = iPad ? 50 : 49
        }
        return (top, bottom)
    }

    /// The value of an edge attribute of a frame in the root's coordinates (left to right).
    static func edge(_ frame: Frame, _ attribute: String) -> Double? {
        switch attribute {
        case "top": return frame.y
        case "bottom": return frame.y + frame.height
        case "leading", "left": return frame.x
        case "trailing", "right": return frame.x + frame.width
        default: return nil
        }
    }
}
