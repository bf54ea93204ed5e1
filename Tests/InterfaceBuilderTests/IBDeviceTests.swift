import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// The device table (docs/scenes.md, "From Interface Builder"): sizes, traits, safe areas,
/// and a document moved to another device.
struct IBDeviceTests {
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
        #expect(IBDevice.named("nokia3310", orientation: "portrait") == nil)
        #expect(IBDevice.ids.count == 22 && IBDevice.ids.first == "ipad10_2" && IBDevice.ids.last == "retina6_9")
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
