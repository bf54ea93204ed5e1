/// An Interface Builder device (`<device id="…" orientation="…">`): its screen in points and
/// its scale. Sizes are UIKit's `UIScreen.main.bounds` in portrait for the device family
/// Interface Builder names by that id (Apple's Human Interface Guidelines, "Layout",
/// "iOS, iPadOS device screen sizes":
/// https://developer.apple.com/design/human-interface-guidelines/layout#Specifications);
/// `IBDeviceTests` holds the table's rows the corpus uses.
public struct IBDevice: Sendable, Hashable {
    public var id: String
    public var orientation: String
    /// Points, in the document's orientation.
    public var width: Double
    public var height: Double
    /// Pixels per point (1, 2 or 3).
    public var scale: Int

    public init(id: String, orientation: String, width: Double, height: Double, scale: Int) {
        self.id = id
        self.orientation = orientation
        self.width = width
        self.height = height
        self.scale = scale
    }

    /// UIKit's size classes on this device: iPads are regular on both axes; iPhones are
    /// compact in width, and regular in height in portrait, compact in landscape, where the
    /// Plus and Max sizes (736 points wide and more) are regular in width.
    public var traits: (widthClass: String, heightClass: String) {
        if id.hasPrefix("ipad") { return ("regular", "regular") }
        if orientation == "landscape" { return (width >= 736 ? "regular" : "compact", "compact") }
        return ("compact", "regular")
    }

    /// Whether a `<variation key="…">` applies here: every `trait=value` of the key (joined
    /// with `-`) holds; `default` is the variation of every device (any width, any height).
    public func matches(variation key: String) -> Bool {
        if key == "default" { return true }
        let traits = self.traits
        for part in key.split(separator: "-") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { return false }
            switch pair[0] {
            case "widthClass": if pair[1] != traits.widthClass { return false }
            case "heightClass": if pair[1] != traits.heightClass { return false }
            default: return false
            }
        }
        return true
    }

    /// id → (portrait width, portrait height, scale). Ordered by id for reading; looked up by id.
    static let table: [(id: String, width: Double, height: Double, scale: Int)] = [
        ("ipad10_2", 810, 1080, 2),
        ("ipad10_5", 834, 1112, 2),
        ("ipad10_9rounded", 820, 1180, 2),
        ("ipad11_0rounded", 834, 1194, 2),
        ("ipad12_9", 1024, 1366, 2),
        ("ipad12_9rounded", 1024, 1366, 2),
        ("ipad7_9", 768, 1024, 2),
        ("ipad9_7", 768, 1024, 2),
        ("retina3_5", 320, 480, 2),
        ("retina4_0", 320, 568, 2),
        ("retina4_7", 375, 667, 2),
        ("retina5_4", 375, 812, 3),
        ("retina5_5", 414, 736, 3),
        ("retina5_9", 375, 812, 3),
        ("retina6_0", 390, 844, 3),
        ("retina6_1", 414, 896, 2),
        // iPhone 14 Pro, 15, 15 Pro, 16 (1179 × 2556 pixels); the corpus's retina6_12
        // documents record 393 × 852 roots.
        ("retina6_12", 393, 852, 3),
        ("retina6_3", 402, 874, 3),
        ("retina6_5", 414, 896, 3),
        // iPhone Air (6.5-inch, 1260 × 2736 pixels): Xcode 26 names it `retina6_54`.
        ("retina6_54", 420, 912, 3),
        ("retina6_7", 428, 926, 3),
        ("retina6_72", 430, 932, 3),
        ("retina6_9", 440, 956, 3),
    ]

    /// Every device id of the table, sorted (what `?device=` accepts).
    public static var ids: [String] { table.map(\.id) }

    /// The safe-area insets UIKit gives a full-screen view controller's root view on this
    /// device, in points (top, left, bottom, right), from the device table: the status
    /// bar (20 points) on screens without a sensor housing in portrait (none in landscape
    /// on iPhones); on screens with one, the housing's depth on the top in portrait and on
    /// both sides in landscape, and the home indicator's 34 points below (21 in landscape);
    /// iPads keep 20 (24 on the rounded ones, with 20 for the home indicator). Values are
    /// UIKit's `safeAreaInsets` on each device family as Apple's simulators report them
    /// (iOS 17); `IBDeviceTests` holds rows of the table. Used for a full-screen controller
    /// view whose constraints do not tell its safe area, on the document's own device as on
    /// another one (where its recorded frames say nothing).
    public var safeAreaInsets: (top: Double, left: Double, bottom: Double, right: Double) {
        let housing: Double? = switch id {
        case "retina5_9", "retina6_5": 44
        case "retina6_1": 48
        case "retina5_4": 50
        case "retina6_0", "retina6_7": 47
        // The Dynamic Island's devices (retina6_12: iPhone 14 Pro, 15, 15 Pro, 16;
        // retina6_72: iPhone 14 Pro Max, 15 Plus, 15 Pro Max, 16 Plus).
        case "retina6_12", "retina6_72": 59
        case "retina6_3", "retina6_9": 62
        default: nil
        }
        if id.hasPrefix("ipad") {
            let rounded = id.hasSuffix("rounded")
            return (rounded ? 24 : 20, 0, rounded ? 20 : 0, 0)
        }
        guard let housing else { return orientation == "landscape" ? (0, 0, 0, 0) : (20, 0, 0, 0) }
        return orientation == "landscape" ? (0, housing, 21, housing) : (housing, 0, 34, 0)
    }

    /// The device of a `<device>` element (or of `?device=`), or `nil` for an id the table
    /// does not hold; any orientation but `landscape` is portrait.
    public static func named(_ id: String, orientation: String) -> IBDevice? {
        guard let row = table.first(where: { $0.id == id }) else { return nil }
        let landscape = orientation == "landscape"
        return IBDevice(id: id, orientation: landscape ? "landscape" : "portrait",
                        width: landscape ? row.height : row.width, height: landscape ? row.width : row.height,
                        scale: row.scale)
    }
}
