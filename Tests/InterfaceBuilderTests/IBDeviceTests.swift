import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// The device table (docs/scenes.md, "From Interface Builder"): sizes, traits, safe areas,
/// and a document moved to another device.
struct IBDeviceTests {
    /// A cell whose stack is pinned to its content view's margins, its bottom constraint 0
    /// with a `heightClass=compact` variation of 4, recorded in portrait (regular height):
    /// the margins are back-solved under the recorded traits (11 at the top and bottom,
    /// the variation not applied), so in landscape the variation's 4 moves the stack's
    /// bottom up by 4 instead of changing the back-solved margin.
    @Test func variationsDoNotSkewWhatIsBackSolved() throws {
        let document = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useTraitCollections="YES">
            <device id="retina6_12" orientation="portrait" appearance="light"/>
            <objects>
                <tableViewCell contentMode="scaleToFill" id="cell-1" customClass="RowCell">
                    <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                    <tableViewCellContentView key="contentView" contentMode="center" tableViewCell="cell-1" id="cv-1">
                        <rect key="frame" x="0.0" y="0.0" width="393" height="44"/>
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="st-1">
                                <rect key="frame" x="20" y="11" width="353" height="22"/>
                            </view>
                        </subviews>
                        <constraints>
                            <constraint firstItem="st-1" firstAttribute="leading" secondItem="cv-1" secondAttribute="leadingMargin" id="c1"/>
                            <constraint firstAttribute="trailingMargin" secondItem="st-1" secondAttribute="trailing" id="c2"/>
                            <constraint firstItem="st-1" firstAttribute="top" secondItem="cv-1" secondAttribute="topMargin" id="c3"/>
                            <constraint firstAttribute="bottomMargin" secondItem="st-1" secondAttribute="bottom" id="c4">
                                <variation key="heightClass=compact" constant="4"/>
                            </constraint>
                        </constraints>
                    </tableViewCellContentView>
                </tableViewCell>
            </objects>
        </document>
        """.utf8)
        func solved(_ orientation: String?) throws -> (margins: JSONValue?, frame: Frame?) {
            var options = IBImportOptions()
            options.device = orientation.flatMap { IBDevice.named("retina6_12", orientation: $0) }
            let hierarchy = try #require(try InterfaceBuilderImporter.importDocument(document, options: options).hierarchies.first)
            let (frames, _) = try IBMappingTests.solve(hierarchy)
            return (hierarchy.scene["container"]?["margins"], frames["view"])
        }
        let recorded = try solved(nil)
        #expect(recorded.frame == Frame(x: 20, y: 11, width: 353, height: 22))
        let landscape = try solved("landscape")
        #expect(landscape.margins == recorded.margins)
        #expect(landscape.margins?["bottom"] == .number(11))
        // Recorded 44 high (a cell keeps its height): the stack's bottom 4 above the margin.
        #expect(landscape.frame?.y == 11)
        #expect(landscape.frame?.height == 18)
    }

    @Test func rowsOfTheTable() throws {
        let phone = try #require(IBDevice.named("retina6_1", orientation: "portrait"))
        #expect((phone.width, phone.height, phone.scale) == (414, 896, 2))
        #expect(phone.safeAreaInsets == (48, 0, 34, 0))
        let turned = try #require(IBDevice.named("retina6_1", orientation: "landscape"))
        #expect((turned.width, turned.height) == (896, 414))
        #expect(turned.safeAreaInsets == (0, 48, 21, 48))
        #expect(turned.traits == ("regular", "compact"))
        #expect(try #require(IBDevice.named("retina4_7", orientation: "portrait")).safeAreaInsets == (20, 0, 0, 0))
        #expect(try #require(IBDevice.named("retina4_7", orientation: "landscape")).safeAreaInsets == (0, 0, 0, 0))
        #expect(try #require(IBDevice.named("ipad12_9rounded", orientation: "landscape")).safeAreaInsets == (24, 0, 20, 0))
        // iPhone 14 Pro, 15, 16 (Dynamic Island): 393 × 852, not the 390 × 844 of retina6_0.
        let island = try #require(IBDevice.named("retina6_12", orientation: "portrait"))
        #expect((island.width, island.height, island.scale) == (393, 852, 3))
        #expect(island.safeAreaInsets == (59, 0, 34, 0))
        #expect(try #require(IBDevice.named("retina6_12", orientation: "landscape")).safeAreaInsets == (0, 59, 21, 59))
        let islandMax = try #require(IBDevice.named("retina6_72", orientation: "portrait"))
        #expect((islandMax.width, islandMax.height, islandMax.scale) == (430, 932, 3))
        #expect(islandMax.safeAreaInsets == (59, 0, 34, 0))
        let twelve = try #require(IBDevice.named("retina6_0", orientation: "portrait"))
        #expect((twelve.width, twelve.height, twelve.safeAreaInsets.top) == (390, 844, 47))
        #expect(IBDevice.named("nokia3310", orientation: "portrait") == nil)
        #expect(IBDevice.ids.count == 23 && IBDevice.ids.first == "ipad10_2" && IBDevice.ids.last == "retina6_9")
    }

    /// A storyboard whose controller's root view fills the screen of `device` and ties
    /// nothing to its safe area, saved by the Xcode of `toolsVersion`.
    static func bareScene(device: String, orientation: String = "portrait", toolsVersion: String = "22505") throws -> [UInt8] {
        let screen = try #require(IBDevice.named(device, orientation: orientation))
        return Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(toolsVersion)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
        <device id="\(device)" orientation="\(orientation)" appearance="light"/>
        <scenes><scene sceneID="s1"><objects>
        <viewController id="vc1" sceneMemberID="viewController">
        <view key="view" contentMode="scaleToFill" id="root">
        <rect key="frame" x="0.0" y="0.0" width="\(JSONWriter.format(screen.width))" height="\(JSONWriter.format(screen.height))"/>
        <viewLayoutGuide key="safeArea" id="sa1"/>
        </view></viewController></objects></scene></scenes></document>
        """.utf8)
    }

    static func safeArea(_ document: [UInt8], on device: IBDevice? = nil) throws -> JSONValue? {
        var options = IBImportOptions()
        options.device = device
        return try #require(try InterfaceBuilderImporter.importDocument(document, options: options).hierarchies.first)
            .scene["container"]?["safeArea"]
    }

    static func insets(_ top: Double, _ left: Double, _ bottom: Double, _ right: Double) -> JSONValue {
        .object([("top", .number(top)), ("left", .number(left)), ("bottom", .number(bottom)), ("right", .number(right))])
    }

    /// A full-screen controller view whose constraints do not tell its safe area takes the
    /// table's on its own device, as it does laid out on that device with `?device=`.
    @Test func theOwnDeviceTakesTheTablesSafeArea() throws {
        for (id, orientation, expected) in [("retina6_0", "portrait", Self.insets(47, 0, 34, 0)),
                                            ("retina6_1", "portrait", Self.insets(48, 0, 34, 0)),
                                            ("retina6_12", "portrait", Self.insets(59, 0, 34, 0)),
                                            ("retina6_12", "landscape", Self.insets(0, 59, 21, 59)),
                                            ("retina4_7", "portrait", Self.insets(20, 0, 0, 0)),
                                            ("ipad12_9rounded", "portrait", Self.insets(24, 0, 20, 0))] {
            let document = try Self.bareScene(device: id, orientation: orientation)
            #expect(try Self.safeArea(document) == expected, "\(id) \(orientation)")
            #expect(try Self.safeArea(document, on: IBDevice.named(id, orientation: orientation)) == expected, "\(id) \(orientation) retargeted")
        }
    }

    /// Xcode 12 and 13 drew the iPhone 11 (`retina6_1`) with a safe area 44 deep, as the
    /// corpus's documents of those versions record it; Xcode 15 with UIKit's 48.
    @Test func olderXcodeDrewTheIPhone11With44() throws {
        #expect(try Self.safeArea(Self.bareScene(device: "retina6_1", toolsVersion: "17701")) == Self.insets(44, 0, 34, 0))
        #expect(try Self.safeArea(Self.bareScene(device: "retina6_1", orientation: "landscape", toolsVersion: "20037")) == Self.insets(0, 44, 21, 44))
        #expect(try Self.safeArea(Self.bareScene(device: "retina6_1", toolsVersion: "22154")) == Self.insets(48, 0, 34, 0))
        let notes = try #require(try InterfaceBuilderImporter.importDocument(Self.bareScene(device: "retina6_1", toolsVersion: "17701")).hierarchies.first).notes
        #expect(notes.first == "Safe area top inset 44 taken from the device table as Xcode before 14 drew it (44 deep, where UIKit has 48)")
        // Only the iPhone 11's depth changed.
        #expect(try Self.safeArea(Self.bareScene(device: "retina6_0", toolsVersion: "17701")) == Self.insets(47, 0, 34, 0))
    }

    /// A storyboard scene recorded on an iPhone 8 (375 × 667, safe area 20 at the top) laid
    /// out on an iPhone 11: the container, the safe area from the table, the margins (16 →
    /// 20 at the sides, the safe area added), the scale.
    @Test func aFullScreenSceneMovesToAnotherDevice() throws {
        let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
        <device id="retina4_7" orientation="portrait"/>
        <scenes><scene sceneID="s-1"><objects>
        <viewController id="vc-1" customClass="LoginViewController" sceneMemberID="viewController">
        <view key="view" id="root-1"><rect key="frame" x="0" y="0" width="375" height="667"/>
        <viewLayoutGuide key="safeArea" id="safe-1"/>
        </view></viewController></objects></scene></scenes></document>
        """
        var options = IBImportOptions()
        options.device = IBDevice.named("retina6_1", orientation: "portrait")
        let imported = try InterfaceBuilderImporter.importDocument(Array(document.utf8), options: options)
        #expect(imported.document.device?.id == "retina6_1")
        #expect(imported.document.recordedDevice?.id == "retina4_7")
        let scene = try #require(imported.hierarchies.first).scene
        #expect(scene["container"] == .object([
            ("width", .number(414)), ("height", .number(896)),
            ("safeArea", .object([("top", .number(48)), ("left", .number(0)), ("bottom", .number(34)), ("right", .number(0))])),
            ("margins", .object([("top", .number(48)), ("left", .number(20)), ("bottom", .number(34)), ("right", .number(20))])),
        ]))
        #expect(scene["options"] == .object([("displayScale", .number(2))]))
    }
}
