import Foundation
import Testing
import LayoutCompiler
@testable import InterfaceBuilder

/// One small document per mapping rule of the contract's "Interface Builder documents":
/// each imports, decodes with the scene decoder, compiles and solves to the frames asserted.
struct IBMappingTests {
    static func xib(_ objects: String, device: String = "retina4_7") -> [UInt8] {
        Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <device id="\(device)" orientation="portrait" appearance="light"/>
            <objects>
                <placeholder placeholderIdentifier="IBFilesOwner" id="-1" userLabel="File's Owner"/>
        \(objects)
            </objects>
        </document>
        """.utf8)
    }

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> String {
        "<rect key=\"frame\" x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\"/>"
    }

    /// Decodes, compiles and solves a hierarchy's scene at its container size.
    static func solve(_ hierarchy: IBHierarchy) throws -> (frames: [String: Frame], diagnostics: [LayoutDiagnostic]) {
        let scene = try SceneDecoder().decode(hierarchy.scene)
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(!compiled.hasErrors, "\(compiled.diagnostics.map(\.message))")
        let layout = compiled.solve(size: scene.container.size)
        return (Dictionary(uniqueKeysWithValues: layout.frames.map { ($0.name, $0.frame) }), layout.diagnostics)
    }

    static func single(_ bytes: [UInt8]) throws -> IBHierarchy {
        let result = try InterfaceBuilderImporter.importDocument(bytes)
        #expect(result.hierarchies.count == 1)
        return try #require(result.hierarchies.first)
    }

    @Test func eachTopLevelViewIsAHierarchyWithItsRecordedSizeAsContainer() throws {
        let result = try InterfaceBuilderImporter.importDocument(Self.xib("""
            <view contentMode="scaleToFill" id="aaa-11-bbb">\(Self.rect(0, 0, 375, 667))</view>
            <view contentMode="scaleToFill" id="ccc-22-ddd" customClass="HeaderView">\(Self.rect(0, 0, 320, 44))</view>
        """))
        #expect(result.document.kind == "xib")
        #expect(result.document.toolsVersion == "22505")
        #expect(result.document.device == IBDevice(id: "retina4_7", orientation: "portrait", width: 375, height: 667, scale: 2))
        #expect(result.hierarchies.map(\.name) == ["view", "headerView"])
        #expect(result.hierarchies.map(\.ibId) == ["aaa-11-bbb", "ccc-22-ddd"])
        #expect(result.hierarchies[1].scene["container"] == .object([("width", .number(320)), ("height", .number(44))]))
        #expect(result.hierarchies[1].scene["options"] == .object([("displayScale", .number(2))]))
        #expect(result.hierarchies[0].ids.map(\.ibId) == ["aaa-11-bbb"])
    }

    @Test func namesComeFromUserLabelCustomClassOrElementAndTextAndAreUnique() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root-id">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view userLabel="Title Card" id="v1">\(Self.rect(0, 0, 10, 10))</view>
                    <view customClass="AvatarView" id="v2">\(Self.rect(0, 0, 10, 10))</view>
                    <label text="E-mail address" id="v3">\(Self.rect(0, 0, 10, 10))</label>
                    <label text="E-mail address" id="v4">\(Self.rect(0, 0, 10, 10))</label>
                    <button id="v5">\(Self.rect(0, 0, 10, 10))<state key="normal" title="Sign in"/></button>
                    <view userLabel="2 safeArea!" id="v6">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="superview" id="v7">\(Self.rect(0, 0, 10, 10))</view>
                </subviews>
            </view>
        """))
        #expect(hierarchy.ids.map(\.name) == ["superview", "titleCard", "avatarView", "labelEMailAddress",
                                              "labelEMailAddress2", "buttonSignIn", "_2SafeArea", "superview2"])
        #expect(hierarchy.ids.map(\.ibId) == ["root-id", "v1", "v2", "v3", "v4", "v5", "v6", "v7"])
        _ = try Self.solve(hierarchy)
    }

    /// Names are ASCII: Latin letters with diacritics fold to their base letters (`é` → `e`,
    /// also written as `e` and a combining acute), `ß` → `ss`, `æ` → `ae`; other scripts
    /// separate words, and a label of nothing foldable falls back to its element.
    @Test func nonASCIILabelsFoldToReadableNames() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root-id">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view userLabel="Café" id="v1">\(Self.rect(0, 0, 10, 10))</view>
                    <label text="Größe" id="v2">\(Self.rect(0, 0, 10, 10))</label>
                    <view userLabel="Cafe\u{301} Crème Brûlée" id="v3">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="Ærø Łódź" id="v4">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="Привет" id="v5">\(Self.rect(0, 0, 10, 10))</view>
                    <label text="Prix × 2 — Ñandú" id="v6">\(Self.rect(0, 0, 10, 10))</label>
                    <view userLabel="İstanbul ǅemal ﬁne Brand™ Ｓale" id="v7">\(Self.rect(0, 0, 10, 10))</view>
                </subviews>
            </view>
        """))
        #expect(hierarchy.ids.map(\.name) == ["superview", "cafe", "labelGrosse", "cafeCremeBrulee", "aeroLodz", "view",
                                              "labelPrix2Nandu", "istanbulDzemalFineBrandSale"])
        let scene = try SceneDecoder().decode(hierarchy.scene)
        #expect(scene.views.map(\.name).sorted() == ["aeroLodz", "cafe", "cafeCremeBrulee", "istanbulDzemalFineBrandSale",
                                                     "labelGrosse", "labelPrix2Nandu", "view"])
        _ = try Self.solve(hierarchy)
    }

    /// The capital sharp s folds as `ß` does, and a compatibility folding of several letters
    /// is in title case whatever the letter's case (`Ǆ` as `ǅ`).
    @Test func capitalSharpSAndDigraphsFoldAsTheirOtherForms() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root-id">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view userLabel="ẞig" id="v1">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="Ǆemal" id="v2">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="ǲemal" id="v3">\(Self.rect(0, 0, 10, 10))</view>
                    <view userLabel="Big ǄEMAL" id="v4">\(Self.rect(0, 0, 10, 10))</view>
                </subviews>
            </view>
        """))
        #expect(hierarchy.ids.map(\.name) == ["superview", "ssig", "dzemal", "dzemal2", "bigDzEMAL"])
    }

    /// A subview that records no frame is not a view to the importer; a note says which
    /// were left out (eight named, then a count), so nothing disappears silently.
    @Test func subviewsWithoutAFrameAreLeftOutWithANote() throws {
        let frameless = (1...10).map { "<view id=\"f\($0)\"/>" }.joined()
        let hierarchy = try Self.single(Self.xib("""
            <view id="root-id">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view id="v1">\(Self.rect(0, 0, 10, 10))</view>
                    <label text="No frame" id="l1"/>
                    \(frameless)
                </subviews>
            </view>
        """))
        #expect(hierarchy.ids.map(\.name) == ["superview", "view"])
        #expect(hierarchy.notes.contains("11 subviews record no frame (<rect key=\"frame\">) and are left out with their subviews and constraints: <label id=\"l1\">, <view id=\"f1\">, <view id=\"f2\">, <view id=\"f3\">, <view id=\"f4\">, <view id=\"f5\">, <view id=\"f6\">, <view id=\"f7\"> and 3 more"),
                "\(hierarchy.notes)")
    }

    /// A constraint naming a frameless subview (or a view inside one) says the view was
    /// left out for its missing frame; one naming an unknown id says it is not in the hierarchy.
    @Test func constraintsNamingAFramelessSubviewSayWhy() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="v1">\(Self.rect(0, 0, 10, 10))</view>
                    <view id="f1"><subviews><view id="f2">\(Self.rect(0, 0, 5, 5))</view></subviews></view>
                </subviews>
                <constraints>
                    <constraint firstItem="v1" firstAttribute="width" secondItem="f1" secondAttribute="width" id="c1"/>
                    <constraint firstItem="f2" firstAttribute="height" constant="4" id="c2"/>
                    <constraint firstItem="v1" firstAttribute="height" secondItem="zz" secondAttribute="height" id="c3"/>
                </constraints>
            </view>
        """))
        let noFrame = "a view left out because it (or a view containing it) records no frame (<rect key=\"frame\">); left out"
        #expect(hierarchy.notes.contains("Constraint c1 (line 12) names f1, \(noFrame)"), "\(hierarchy.notes)")
        #expect(hierarchy.notes.contains("Constraint c2 (line 13) names f2, \(noFrame)"), "\(hierarchy.notes)")
        #expect(hierarchy.notes.contains("Constraint c3 (line 14) names zz, which is not in this hierarchy; left out"), "\(hierarchy.notes)")
    }

    /// A multiplier that pushes a length past the magnitude bound is said as that limit, in
    /// a note, and the hierarchy is imported; it is not blamed on the work budget.
    @Test func aMagnitudeLimitIsNotBlamedOnWork() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 100))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="v1">\(Self.rect(0, 0, 10, 10))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="v1" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="1e10" id="c1"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.ids.map(\.name) == ["superview", "view"])
        #expect(hierarchy.notes.contains("Solving this hierarchy to infer what the document does not record stopped at a limit: The solution has lengths beyond ±1000000000000 points; the constraints push views far out (limit maxMagnitude); nothing was inferred from that solve, and /solve of this scene answers the same limit"),
                "\(hierarchy.notes)")
    }

    @Test func constraintsBecomeEquations() throws {
        // a: pinned by constraints owned by the root (omitted firstItem = the root);
        // b: width = a.width × 1:2, height = a.height × 1/3, placeholder constraint dropped;
        // c: width = 0.25 × root width, a low-priority width that loses, a >= relation.
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 400, 600))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(10, 20, 300, 90))</view>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(10, 110, 150, 30))
                        <constraints>
                            <constraint firstAttribute="width" constant="999" placeholder="YES" id="p1"/>
                        </constraints>
                    </view>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(10, 140, 100, 12))
                        <constraints>
                            <constraint firstAttribute="width" constant="50" priority="250" id="c1"/>
                            <constraint firstAttribute="height" relation="greaterThanOrEqual" constant="12" id="c2"/>
                            <constraint firstAttribute="height" relation="lessThanOrEqual" constant="12" id="c3"/>
                        </constraints>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="10" id="k1"/>
                    <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="k2"/>
                    <constraint firstAttribute="trailing" secondItem="a" secondAttribute="trailing" constant="90" id="k3"/>
                    <constraint firstItem="a" firstAttribute="height" constant="90" id="k4"/>
                    <constraint firstItem="b" firstAttribute="width" secondItem="a" secondAttribute="width" multiplier="1:2" id="k5"/>
                    <constraint firstItem="b" firstAttribute="height" secondItem="a" secondAttribute="height" multiplier="1/3" id="k6"/>
                    <constraint firstItem="b" firstAttribute="leading" secondItem="a" secondAttribute="leading" id="k7"/>
                    <constraint firstItem="b" firstAttribute="top" secondItem="a" secondAttribute="bottom" id="k8"/>
                    <constraint firstItem="c" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="0.25" id="k9"/>
                    <constraint firstItem="c" firstAttribute="leading" secondItem="b" secondAttribute="leading" id="k10"/>
                    <constraint firstItem="c" firstAttribute="top" secondItem="b" secondAttribute="bottom" constant="-0.0" id="k11"/>
                </constraints>
            </view>
        """))
        let constraints = try #require(hierarchy.scene["constraints"]?.arrayValue)
        #expect(constraints.contains(.object([("equation", .string("superview.trailing == view.trailing + 90")), ("id", .string("k3"))])))
        #expect(constraints.contains(.object([("equation", .string("view2.width == view.width * 0.5")), ("id", .string("k5"))])))
        #expect(constraints.contains(.object([("equation", .string("view3.width == 50")), ("priority", .number(250)), ("id", .string("c1"))])))
        #expect(!constraints.contains { $0["id"] == .string("p1") })
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 10, y: 20, width: 300, height: 90))
        #expect(frames["view2"] == Frame(x: 10, y: 110, width: 150, height: 30))
        #expect(frames["view3"] == Frame(x: 10, y: 140, width: 100, height: 12))
    }

    @Test func malformedMultiplierIsRefusedNamingTheLine() throws {
        let bytes = Self.xib("""
            <view id="root">\(Self.rect(0, 0, 400, 600))
                <subviews><view id="a">\(Self.rect(0, 0, 1, 1))</view></subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="1:0" id="k1"/>
                </constraints>
            </view>
        """)
        #expect(throws: IBImportError(message: "Malformed multiplier \"1:0\"", line: 9)) {
            try InterfaceBuilderImporter.importDocument(bytes)
        }
    }

    /// A ratio whose quotient overflows or underflows, a hexadecimal float and a zero
    /// are malformed (the overflowing ratios were imported as a multiplier of 0, silently).
    @Test func malformedMultipliersAreRefused() throws {
        for text in ["1e-320", "4.9e-324", "-1e-310", "1e-320:1e-320", "1:1e-320", "1e300:1e-300", "3:1e-310", "1e-320:1e300", "0x10", "0x1p4:1", "0:1", "0", "1/0", "inf", " 2:1"] {
            #expect(throws: IBImportError(message: "Malformed multiplier \"\(text)\"", line: 7), "\(text)") {
                try SceneBuilder.multiplier(text, line: 7)
            }
        }
        #expect(try SceneBuilder.multiplier("1:2", line: 7) == 0.5)
        #expect(try SceneBuilder.multiplier("3/4", line: 7) == 0.75)
        #expect(try SceneBuilder.multiplier("1.5e0", line: 7) == 1.5)
        #expect(try SceneBuilder.multiplier("-2", line: 7) == -2)
        #expect(try SceneBuilder.multiplier(nil, line: 7) == 1)
    }

    @Test func nonFiniteFontSizesAndInsetsAreRefusedNamingTheLine() throws {
        for value in ["NaN", "abc", "-inf"] {
            let label = Self.xib("""
                <view id="root">\(Self.rect(0, 0, 400, 600))
                    <subviews><label id="a" text="Hi">\(Self.rect(0, 0, 20, 20))
                        <fontDescription key="fontDescription" type="system" pointSize="\(value)"/>
                    </label></subviews>
                </view>
            """)
            #expect(throws: IBImportError(message: "Malformed <fontDescription> pointSize \"\(value)\"", line: 8)) {
                try InterfaceBuilderImporter.importDocument(label)
            }
        }
        let inset = Self.xib("""
            <view id="root">\(Self.rect(0, 0, 400, 600))
                <edgeInsets key="layoutMargins" top="8" left="NaN" bottom="8" right="8"/>
            </view>
        """)
        #expect(throws: IBImportError(message: "Malformed <edgeInsets> left \"NaN\"", line: 7)) {
            try InterfaceBuilderImporter.importDocument(inset)
        }
        let hugging = Self.xib("""
            <view id="root" horizontalHuggingPriority="1e999">\(Self.rect(0, 0, 400, 600))
            </view>
        """)
        #expect(throws: IBImportError(message: "Malformed <view> horizontalHuggingPriority \"1e999\"", line: 6)) {
            try InterfaceBuilderImporter.importDocument(hugging)
        }
    }

    @Test func contentSizedViewsGetRecordedIntrinsicSizesAndPriorities() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 100))
                <subviews>
                    <label text="Hi" horizontalHuggingPriority="251" verticalCompressionResistancePriority="751" translatesAutoresizingMaskIntoConstraints="NO" id="l">\(Self.rect(16, 10, 42.5, 20.5))</label>
                    <view placeholderIntrinsicWidth="80" placeholderIntrinsicHeight="infinite" translatesAutoresizingMaskIntoConstraints="NO" id="p">\(Self.rect(16, 40, 80, 10))</view>
                    <slider translatesAutoresizingMaskIntoConstraints="NO" id="s">\(Self.rect(14, 60, 204, 31))</slider>
                    <view hidden="YES" translatesAutoresizingMaskIntoConstraints="NO" id="h">\(Self.rect(0, 0, 5, 5))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="l" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="k1"/>
                    <constraint firstItem="l" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="k2"/>
                    <constraint firstItem="p" firstAttribute="leading" secondItem="l" secondAttribute="leading" id="k3"/>
                    <constraint firstItem="p" firstAttribute="top" secondItem="root" secondAttribute="top" constant="40" id="k4"/>
                    <constraint firstItem="p" firstAttribute="height" constant="10" id="k5"/>
                    <constraint firstItem="s" firstAttribute="leading" secondItem="l" secondAttribute="leading" id="k6"/>
                    <constraint firstItem="s" firstAttribute="top" secondItem="root" secondAttribute="top" constant="60" id="k7"/>
                    <constraint firstItem="s" firstAttribute="width" constant="200" id="k8"/>
                    <constraint firstItem="h" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k9"/>
                    <constraint firstItem="h" firstAttribute="top" secondItem="root" secondAttribute="top" id="k10"/>
                    <constraint firstItem="h" firstAttribute="width" constant="5" id="k11"/>
                    <constraint firstItem="h" firstAttribute="height" constant="5" id="k12"/>
                </constraints>
            </view>
        """))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["labelHi"] == .object([
            ("intrinsicSize", .object([("width", .number(42.5)), ("height", .number(20.5))])),
            ("hugging", .object([("horizontal", .number(251))])),
            ("compressionResistance", .object([("vertical", .number(751))])),
        ]))
        #expect(views["view"] == .object([("intrinsicSize", .object([("width", .number(80)), ("height", .number(-1))]))]))
        #expect(views["slider"] == .object([
            ("intrinsicSize", .object([("height", .number(30))])),
            ("alignmentInsets", .object([("top", .number(0)), ("left", .number(2)), ("bottom", .number(1)), ("right", .number(2))])),
        ]))
        #expect(views["view2"] == .object([("hidden", .bool(true))]))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["labelHi"] == Frame(x: 16, y: 10, width: 42.5, height: 20.5))
        #expect(frames["view"] == Frame(x: 16, y: 40, width: 80, height: 10))
        #expect(frames["slider"] == Frame(x: 14, y: 60, width: 204, height: 31))
    }

    /// A switch, a segmented control and a slider get UIKit's alignment insets from the
    /// system-control table, their intrinsic size is the recorded size less the insets, and
    /// constraints place the alignment rectangle (a switch 16 points from the margin has
    /// its frame 2 points past it), said in the notes.
    @Test func systemControlsGetTheirAlignmentInsets() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 200))
                <subviews>
                    <switch translatesAutoresizingMaskIntoConstraints="NO" id="w">\(Self.rect(310, 10, 51, 31))</switch>
                    <segmentedControl translatesAutoresizingMaskIntoConstraints="NO" id="g">\(Self.rect(16, 60, 343, 32))</segmentedControl>
                    <slider translatesAutoresizingMaskIntoConstraints="NO" id="s">\(Self.rect(14, 110, 347, 31))</slider>
                </subviews>
                <constraints>
                    <constraint firstAttribute="trailing" secondItem="w" secondAttribute="trailing" constant="16" id="c1"/>
                    <constraint firstItem="w" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="c2"/>
                    <constraint firstItem="g" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c3"/>
                    <constraint firstAttribute="trailing" secondItem="g" secondAttribute="trailing" constant="16" id="c4"/>
                    <constraint firstItem="g" firstAttribute="top" secondItem="w" secondAttribute="bottom" constant="19" id="c5"/>
                    <constraint firstItem="s" firstAttribute="leading" secondItem="g" secondAttribute="leading" id="c6"/>
                    <constraint firstItem="s" firstAttribute="trailing" secondItem="g" secondAttribute="trailing" id="c7"/>
                    <constraint firstItem="s" firstAttribute="top" secondItem="g" secondAttribute="bottom" constant="19" id="c8"/>
                </constraints>
            </view>
        """))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["switch"]?["intrinsicSize"] == .object([("width", .number(49)), ("height", .number(31))]))
        #expect(views["switch"]?["alignmentInsets"] == .object([("top", .number(0)), ("left", .number(0)), ("bottom", .number(0)), ("right", .number(2))]))
        #expect(views["segmentedControl"]?["intrinsicSize"] == .object([("width", .number(343)), ("height", .number(31))]))
        #expect(views["segmentedControl"]?["alignmentInsets"] == .object([("top", .number(0)), ("left", .number(0)), ("bottom", .number(1)), ("right", .number(0))]))
        #expect(hierarchy.notes.contains("Alignment insets right 2 of switch (switch) taken from the system-control table; their intrinsic size is the recorded size less these"))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["switch"] == Frame(x: 310, y: 10, width: 51, height: 31))
        #expect(frames["segmentedControl"] == Frame(x: 16, y: 60, width: 343, height: 32))
        #expect(frames["slider"] == Frame(x: 14, y: 110, width: 347, height: 31))
        #expect(IBMisplacement.misplacedViews(in: hierarchy, solvedFrames: frames.map { ($0.key, $0.value) }).isEmpty)
    }

    /// A view Interface Builder left without constraints (`fixedFrame="YES"`) keeps its
    /// frame through its autoresizing mask, even when the file says
    /// `translatesAutoresizingMaskIntoConstraints="NO"`.
    @Test func fixedFrameViewsArePlacedByTheirAutoresizingMask() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 200))
                <subviews>
                    <button fixedFrame="YES" translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(20, 20, 34, 30))
                        <autoresizingMask key="autoresizingMask" flexibleMaxX="YES" flexibleMaxY="YES"/>
                    </button>
                </subviews>
            </view>
        """))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["button"] == Frame(x: 20, y: 20, width: 34, height: 30))
        #expect(hierarchy.notes.contains("button has a fixed frame (no constraints): placed by its autoresizing mask, as Interface Builder builds it"))
    }

    @Test func safeAreaIsBackSolvedFromRecordedFramesAndMarginsAreRead() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 414, 896))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(20, 56, 374, 806))
                        <edgeInsets key="layoutMargins" top="1" left="2" bottom="3" right="4"/>
                    </view>
                </subviews>
                <viewLayoutGuide key="safeArea" id="sa"/>
                <constraints>
                    <constraint firstItem="a" firstAttribute="top" secondItem="sa" secondAttribute="top" constant="8" id="k1"/>
                    <constraint firstItem="sa" firstAttribute="bottom" secondItem="a" secondAttribute="bottom" id="k2"/>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leadingMargin" id="k3"/>
                    <constraint firstAttribute="trailingMargin" secondItem="a" secondAttribute="trailing" id="k4"/>
                </constraints>
            </view>
        """, device: "retina6_1"))
        #expect(hierarchy.ids.map(\.name) == ["superview", "view", "safeArea"])
        #expect(hierarchy.scene["container"]?["safeArea"] == .object([("top", .number(48)), ("left", .number(0)),
                                                                      ("bottom", .number(34)), ("right", .number(0))]))
        #expect(hierarchy.notes.contains("Safe area top inset 48 back-solved from the recorded frames"))
        #expect(hierarchy.scene["views"]?["view"]?["margins"] == .object([("top", .number(1)), ("left", .number(2)),
                                                                         ("bottom", .number(3)), ("right", .number(4))]))
        // The File's Owner has no view outlet: the root is a plain view (8-point margins),
        // but its recorded frames say 20 on the leading and trailing sides: those win.
        #expect(hierarchy.notes.contains("Margins of superview (left 20, right 20) back-solved from the recorded frames"))
        #expect(hierarchy.scene["container"]?["margins"] == .object([("top", .number(8)), ("left", .number(20)),
                                                                      ("bottom", .number(8)), ("right", .number(20))]))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 20, y: 56, width: 374, height: 806))
    }

    @Test func stackViewsBecomeStacks() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 100))
                <subviews>
                    <stackView axis="vertical" distribution="fillEqually" alignment="center" spacing="10" translatesAutoresizingMaskIntoConstraints="NO" id="st">\(Self.rect(0, 0, 320, 100))
                        <subviews>
                            <view placeholderIntrinsicWidth="40" placeholderIntrinsicHeight="10" id="a">\(Self.rect(140, 0, 40, 45))</view>
                            <view placeholderIntrinsicWidth="60" placeholderIntrinsicHeight="10" id="b">\(Self.rect(130, 55, 60, 45))</view>
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="st" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k1"/>
                    <constraint firstItem="st" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k2"/>
                    <constraint firstItem="st" firstAttribute="top" secondItem="root" secondAttribute="top" id="k3"/>
                    <constraint firstItem="st" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="k4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["stackView"]?["stack"] == .object([
            ("axis", .string("vertical")), ("distribution", .string("fillEqually")), ("alignment", .string("center")),
            ("spacing", .number(10)), ("arranged", .array([.string("view"), .string("view2")])),
        ]))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 140, y: 0, width: 40, height: 45))
        #expect(frames["view2"] == Frame(x: 130, y: 55, width: 60, height: 45))
    }

    @Test func stackCrossSizesSettledOnlyByAmbiguitySuppressionTakeTheRecordedSize() throws {
        // A plain view in a centring vertical stack: only its height is constrained;
        // UIStackView's ambiguity suppression would make it 0 wide, the file records 240.
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 300, 120))
                <subviews>
                    <stackView axis="vertical" alignment="center" translatesAutoresizingMaskIntoConstraints="NO" id="st">\(Self.rect(0, 0, 300, 120))
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(30, 0, 240, 20))
                                <constraints>
                                    <constraint firstAttribute="height" constant="20" id="h"/>
                                </constraints>
                            </view>
                            <view placeholderIntrinsicWidth="60" placeholderIntrinsicHeight="80" id="b">\(Self.rect(120, 20, 60, 80))</view>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(90, 100, 120, 20))
                                <constraints>
                                    <constraint firstAttribute="height" constant="20" id="h2"/>
                                    <constraint firstAttribute="width" relation="greaterThanOrEqual" constant="50" id="w2"/>
                                </constraints>
                            </view>
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="st" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k1"/>
                    <constraint firstItem="st" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k2"/>
                    <constraint firstItem="st" firstAttribute="top" secondItem="root" secondAttribute="top" id="k3"/>
                    <constraint firstItem="st" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="k4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["view"]?["intrinsicSize"] == .object([("width", .number(240))]))
        #expect(hierarchy.notes.contains { $0.hasPrefix("The constraints leave the width of view free") })
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["view"] == Frame(x: 30, y: 0, width: 240, height: 20))
        #expect(frames["view2"] == Frame(x: 120, y: 20, width: 60, height: 80))
        // Only `width >= 50` bounds the third: the suppression would make it 50 wide.
        #expect(hierarchy.scene["views"]?["view3"]?["intrinsicSize"] == .object([("width", .number(120))]))
        #expect(frames["view3"] == Frame(x: 90, y: 100, width: 120, height: 20))
    }

    @Test func aDocumentWithoutADeviceTakesThePixelGridOfItsRecordedFrames() throws {
        // Four columns of 93.75 points: @2x, UIKit rounds their edges to 94, 187.5, 281.5.
        var objects = ""
        var constraints = ""
        for (index, x) in [0.0, 94, 187.5, 281.5].enumerated() {
            let end = [94.0, 187.5, 281.5, 375][index]
            objects += "<view translatesAutoresizingMaskIntoConstraints=\"NO\" id=\"c\(index)\">\(Self.rect(x, 0, end - x, 40))</view>"
            constraints += """
                <constraint firstItem="c\(index)" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="0.25" id="w\(index)"/>
                <constraint firstItem="c\(index)" firstAttribute="top" secondItem="root" secondAttribute="top" id="t\(index)"/>
                <constraint firstItem="c\(index)" firstAttribute="height" constant="40" id="h\(index)"/>
                <constraint firstItem="c\(index)" firstAttribute="leading" secondItem="\(index == 0 ? "root" : "c\(index - 1)")" secondAttribute="\(index == 0 ? "leading" : "trailing")" id="l\(index)"/>
                """
        }
        let bytes = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="11542" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <objects>
                <view id="root">\(Self.rect(0, 0, 375, 40))<subviews>\(objects)</subviews><constraints>\(constraints)</constraints></view>
            </objects>
        </document>
        """.utf8)
        let hierarchy = try Self.single(bytes)
        #expect(hierarchy.scene["options"] == .object([("displayScale", .number(2))]))
        #expect(hierarchy.notes.contains("The document names no device: its recorded frames lie on a grid of 2 pixels per point, taken as the display scale"))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["view"] == Frame(x: 0, y: 0, width: 94, height: 40))
        #expect(frames["view2"] == Frame(x: 94, y: 0, width: 93.5, height: 40))
        #expect(frames["view3"] == Frame(x: 187.5, y: 0, width: 94, height: 40))
        #expect(frames["view4"] == Frame(x: 281.5, y: 0, width: 93.5, height: 40))
    }

    @Test func recordedLengthsLoseTheirFloatNoise() throws {
        // A 31-point switch recorded as 31.000000000000004, centred in 44 points at @3x:
        // its edges 6.5 and 37.5 round to 6.667 and 37.667 (31 high); with the noise they
        // would round to 6.333 and 37.667 (31.333 high).
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 44))
                <subviews>
                    <switch translatesAutoresizingMaskIntoConstraints="NO" id="s"><rect key="frame" x="306" y="6.6666666666666679" width="51" height="31.000000000000004"/></switch>
                </subviews>
                <constraints>
                    <constraint firstAttribute="trailing" secondItem="s" secondAttribute="trailing" constant="18" id="k1"/>
                    <constraint firstItem="s" firstAttribute="centerY" secondItem="root" secondAttribute="centerY" id="k2"/>
                </constraints>
            </view>
        """, device: "retina5_9"))
        #expect(hierarchy.scene["views"]?["switch"]?["intrinsicSize"] == .object([("width", .number(49)), ("height", .number(31))]))
        let frame = try #require(try Self.solve(hierarchy).frames["switch"])
        #expect(frame == Frame(x: 308, y: 6.666667, width: 51, height: 31))
    }

    @Test func aViewsSafeAreaIsTheRootsWhereItCoversTheView() throws {
        // The root's safe area is 20 at the top (back-solved from view a); view b fills the
        // root, so its own safe area is inset 20 at the top too, and c, 10 below it, is at 30.
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 568))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, 20, 320, 10))</view>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(0, 0, 320, 568))
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(0, 30, 320, 10))</view>
                        </subviews>
                        <constraints>
                            <constraint firstItem="c" firstAttribute="top" secondItem="bs" secondAttribute="top" constant="10" id="c1"/>
                            <constraint firstItem="c" firstAttribute="leading" secondItem="b" secondAttribute="leading" id="c2"/>
                            <constraint firstItem="c" firstAttribute="trailing" secondItem="b" secondAttribute="trailing" id="c3"/>
                            <constraint firstItem="c" firstAttribute="height" constant="10" id="c4"/>
                        </constraints>
                        <viewLayoutGuide key="safeArea" id="bs"/>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="top" secondItem="rs" secondAttribute="top" id="a1"/>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="a2"/>
                    <constraint firstItem="a" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="a3"/>
                    <constraint firstItem="a" firstAttribute="height" constant="10" id="a4"/>
                    <constraint firstItem="b" firstAttribute="top" secondItem="root" secondAttribute="top" id="b1"/>
                    <constraint firstItem="b" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="b2"/>
                    <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="b3"/>
                    <constraint firstItem="b" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="b4"/>
                </constraints>
                <viewLayoutGuide key="safeArea" id="rs"/>
            </view>
        """, device: "retina4_0"))
        #expect(hierarchy.notes.contains("The safe area of view2 is the root's where it covers the view: top 20"))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["view3"] == Frame(x: 0, y: 30, width: 320, height: 10))
    }

    @Test func roundedMultipliersAreReadAsRatios() throws {
        #expect(SceneBuilder.ratio(ofRounded: "0.689655")! == (20, 29))
        #expect(SceneBuilder.ratio(ofRounded: "0.893048")! == (167, 187))
        #expect(SceneBuilder.ratio(ofRounded: "0.894737")! == (17, 19))
        #expect(SceneBuilder.ratio(ofRounded: "1.333333")! == (4, 3))
        #expect(SceneBuilder.ratio(ofRounded: "-0.333333")! == (-1, 3))
        // As typed (fewer than six significant digits), a ratio, or a whole number: as written.
        #expect(SceneBuilder.ratio(ofRounded: "0.25") == nil)
        #expect(SceneBuilder.ratio(ofRounded: "0.33333") == nil)
        #expect(SceneBuilder.ratio(ofRounded: "20:29") == nil)
        #expect(SceneBuilder.ratio(ofRounded: "100000") == nil)
        // 20:29 of a 43.5-point cell is 30 points, where 0.689655 gives 29.99999: the
        // equation carries the ratio.
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 374, 43.5))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, -0.5, 374, 44.5))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="height" secondItem="root" secondAttribute="height" multiplier="0.689655" constant="13.999999999999996" id="k1"/>
                    <constraint firstItem="a" firstAttribute="centerY" secondItem="root" secondAttribute="centerY" id="k2"/>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k3"/>
                    <constraint firstItem="a" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.notes.contains("Multiplier 0.689655 of constraint k1 is read as 20:29, the simplest ratio it rounds (Interface Builder writes six significant digits)"))
        let equations = try #require(hierarchy.scene["constraints"].flatMap { value -> [String]? in
            guard case .array(let items) = value else { return nil }
            return items.compactMap { item in if case .string(let text)? = item["equation"] { text } else { nil } }
        })
        #expect(equations.contains("view.height == superview.height * \(JSONWriter.format(20.0 / 29.0)) + \(JSONWriter.format(13.999999999999996))"))
    }

    @Test func autoresizingViewsKeepTheirRecordedFrames() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 200))
                <subviews>
                    <view id="a">\(Self.rect(10, 20, 300, 50))
                        <autoresizingMask key="autoresizingMask" widthSizable="YES" flexibleMaxY="YES"/>
                    </view>
                    <view id="b">\(Self.rect(100, 100, 120, 40))
                        <autoresizingMask key="autoresizingMask" flexibleMinX="YES" flexibleMaxX="YES" flexibleMinY="YES"/>
                    </view>
                </subviews>
            </view>
        """))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 10, y: 20, width: 300, height: 50))
        #expect(frames["view2"] == Frame(x: 100, y: 100, width: 120, height: 40))
    }

    /// A controller with a `navigationItem` (shown in a navigation controller) has a
    /// 44-point navigation bar under the 20-point status bar when no constraint tells the
    /// safe area: a label centred in the safe area of a 414 × 736 screen is at y 375.
    @Test func aNavigationItemPutsANavigationBarOnTheSafeArea() throws {
        let bytes = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="23727" targetRuntime="iOS.CocoaTouch" useSafeAreas="YES">
            <device id="retina5_5" orientation="portrait"/>
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController id="vc" customClass="TextViewController" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="root">\(Self.rect(0, 0, 414, 736))
                                <subviews>
                                    <label text="Label" translatesAutoresizingMaskIntoConstraints="NO" id="l">\(Self.rect(82, 375, 250, 50))</label>
                                </subviews>
                                <viewLayoutGuide key="safeArea" id="sa"/>
                                <constraints>
                                    <constraint firstItem="l" firstAttribute="centerX" secondItem="sa" secondAttribute="centerX" id="k1"/>
                                    <constraint firstItem="l" firstAttribute="centerY" secondItem="sa" secondAttribute="centerY" id="k2"/>
                                </constraints>
                            </view>
                            <navigationItem key="navigationItem" id="ni"/>
                        </viewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """.utf8)
        let hierarchy = try Self.single(bytes)
        #expect(hierarchy.scene["container"]?["safeArea"] == .object([("top", .number(64)), ("left", .number(0)),
                                                                      ("bottom", .number(0)), ("right", .number(0))]))
        #expect(hierarchy.notes.contains("A navigation bar of 44 points is taken to cover the top (the controller has a navigationItem)"))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["labelLabel"] == Frame(x: 82, y: 375, width: 250, height: 50))
    }

    /// A view Xcode did not mark ambiguous whose width the constraints leave free keeps its
    /// recorded width as intrinsic width; a text view that does not scroll is sized by its
    /// text; a view following the readable width has margins of at least half its excess
    /// over 672 points (here where only margin-to-margin constraints, which are not
    /// back-solved, tell).
    @Test func freeSizesTextViewsAndReadableWidth() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view layoutMarginsFollowReadableWidth="YES" id="root">\(Self.rect(0, 0, 1024, 300))
                <subviews>
                    <view customClass="BadgeView" translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(462, 20, 100, 30))</view>
                    <textView scrollEnabled="NO" text="Hello" translatesAutoresizingMaskIntoConstraints="NO" id="t">\(Self.rect(168, 60, 120, 33))</textView>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="r">\(Self.rect(168, 100, 688, 10))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="b" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="k1"/>
                    <constraint firstItem="b" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="k2"/>
                    <constraint firstItem="b" firstAttribute="height" constant="30" id="k3"/>
                    <constraint firstItem="t" firstAttribute="leading" secondItem="r" secondAttribute="leading" id="k4"/>
                    <constraint firstItem="t" firstAttribute="top" secondItem="root" secondAttribute="top" constant="60" id="k5"/>
                    <constraint firstItem="r" firstAttribute="leadingMargin" secondItem="root" secondAttribute="leadingMargin" id="k6"/>
                    <constraint firstItem="r" firstAttribute="trailingMargin" secondItem="root" secondAttribute="trailingMargin" id="k7"/>
                    <constraint firstItem="r" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k8"/>
                    <constraint firstItem="r" firstAttribute="height" constant="10" id="k9"/>
                </constraints>
            </view>
        """))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["badgeView"]?["intrinsicSize"] == .object([("width", .number(100))]))
        #expect(views["textViewHello"]?["intrinsicSize"] == .object([("width", .number(120)), ("height", .number(33))]))
        #expect(hierarchy.notes.contains("The constraints leave the width of badgeView free and Interface Builder did not mark it ambiguous: its recorded width is taken as its intrinsic size (a size of its own at design time)"))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["badgeView"] == Frame(x: 462, y: 20, width: 100, height: 30))
        #expect(frames["textViewHello"] == Frame(x: 168, y: 60, width: 120, height: 33))
        // The root's margins are 176 (readable); the view's own 8 put its frame 8 outside.
        #expect(hierarchy.notes.contains("Margins of superview follow the readable width (672 points): at least 176 left and right"))
        #expect(frames["view"] == Frame(x: 168, y: 100, width: 688, height: 10))
    }

    /// A view Xcode did not mark ambiguous whose position the constraints leave free keeps
    /// its recorded position at priority 1: `card`, placed by a top constraint removed at
    /// build time (`placeholder="YES"`), and `shadow`, tied to it, keep their recorded y.
    /// `badge`, whose y is free only while its height is (bottom-pinned, no height), is
    /// placed by its recorded height once that is taken: no position of its own. `loose`,
    /// marked ambiguous, stays ambiguous.
    @Test func freePositionsKeepTheirRecordedPlace() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 300))
                <subviews>
                    <view userLabel="Card" translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(16, 50, 300, 50))</view>
                    <view userLabel="Shadow" translatesAutoresizingMaskIntoConstraints="NO" id="s">\(Self.rect(16, 50, 300, 50))</view>
                    <view userLabel="Badge" customClass="BadgeView" translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(20, 250, 40, 30))</view>
                    <view userLabel="Loose" ambiguous="YES" translatesAutoresizingMaskIntoConstraints="NO" id="l">\(Self.rect(100, 120, 40, 40))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="c" firstAttribute="top" secondItem="root" secondAttribute="top" constant="50" placeholder="YES" id="k1"/>
                    <constraint firstItem="c" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="k2"/>
                    <constraint firstItem="c" firstAttribute="width" constant="300" id="k3"/>
                    <constraint firstItem="c" firstAttribute="height" constant="50" id="k4"/>
                    <constraint firstItem="s" firstAttribute="top" secondItem="c" secondAttribute="top" id="k5"/>
                    <constraint firstItem="s" firstAttribute="bottom" secondItem="c" secondAttribute="bottom" id="k6"/>
                    <constraint firstItem="s" firstAttribute="leading" secondItem="c" secondAttribute="leading" id="k7"/>
                    <constraint firstItem="s" firstAttribute="trailing" secondItem="c" secondAttribute="trailing" id="k8"/>
                    <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k9"/>
                    <constraint firstItem="b" firstAttribute="width" constant="40" id="k10"/>
                    <constraint firstAttribute="bottom" secondItem="b" secondAttribute="bottom" constant="20" id="k11"/>
                    <constraint firstItem="l" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="100" id="k12"/>
                    <constraint firstItem="l" firstAttribute="width" constant="40" id="k13"/>
                    <constraint firstItem="l" firstAttribute="height" constant="40" id="k14"/>
                </constraints>
            </view>
        """))
        let constraints = try #require(hierarchy.scene["constraints"]?.arrayValue)
        let kept = constraints.filter { $0["id"]?.stringValue?.hasPrefix("position:") == true }
        #expect(kept == [
            .object([("equation", .string("card.top == superview.top + 50")), ("priority", .number(1)), ("id", .string("position:card"))]),
            .object([("equation", .string("shadow.top == superview.top + 50")), ("priority", .number(1)), ("id", .string("position:shadow"))]),
        ])
        #expect(hierarchy.notes.contains("The constraints leave the y of card free and a constraint on it is removed at build time (placeholder): its recorded y is kept, at priority 1 (nothing at run time places it elsewhere)"))
        #expect(hierarchy.notes.contains("The constraints leave the y of shadow free and Interface Builder did not mark it ambiguous: its recorded y is kept, at priority 1 (nothing at run time places it elsewhere)"))
        #expect(hierarchy.scene["views"]?["badge"]?["intrinsicSize"] == .object([("height", .number(30))]))
        #expect(!hierarchy.notes.contains { $0.contains("the y of badge") })
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(frames["card"] == Frame(x: 16, y: 50, width: 300, height: 50))
        #expect(frames["shadow"] == Frame(x: 16, y: 50, width: 300, height: 50))
        #expect(frames["badge"] == Frame(x: 20, y: 250, width: 40, height: 30))
        #expect(diagnostics.map { "\($0.view ?? "").\($0.attribute ?? "")" } == ["loose.y"])
    }

    /// A stack's hidden arranged view that the recorded frames show laid out (the next
    /// arranged view one spacing after its end) is imported shown, and noted; one they show
    /// collapsed keeps `hidden`.
    @Test func hiddenArrangedViewsAreLaidOutShown() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 200))
                <subviews>
                    <stackView axis="vertical" translatesAutoresizingMaskIntoConstraints="NO" id="st">\(Self.rect(0, 0, 320, 60))
                        <subviews>
                            <view hidden="YES" translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, 0, 320, 20))</view>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(0, 20, 320, 40))</view>
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="st" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k1"/>
                    <constraint firstItem="st" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k2"/>
                    <constraint firstItem="st" firstAttribute="top" secondItem="root" secondAttribute="top" id="k3"/>
                    <constraint firstItem="a" firstAttribute="height" constant="20" id="k4"/>
                    <constraint firstItem="b" firstAttribute="height" constant="40" id="k5"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["view"]?["hidden"] == nil)
        #expect(hierarchy.notes.contains("Hidden arranged views (view) are laid out shown, as Interface Builder draws and records them; at run time their stack collapses them"))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["view"] == Frame(x: 0, y: 0, width: 320, height: 20))
        #expect(frames["view2"] == Frame(x: 0, y: 20, width: 320, height: 40))

        // Recorded collapsed: the next view starts where the hidden one does.
        let collapsed = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 200))
                <subviews>
                    <stackView axis="vertical" translatesAutoresizingMaskIntoConstraints="NO" id="st">\(Self.rect(0, 0, 320, 40))
                        <subviews>
                            <view hidden="YES" translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, 0, 320, 20))</view>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(0, 0, 320, 40))</view>
                        </subviews>
                    </stackView>
                </subviews>
            </view>
        """))
        #expect(collapsed.scene["views"]?["view"]?["hidden"] == .bool(true))
    }

    /// A scene's root view and a cell's content view without `<rect key="frame">` start no
    /// hierarchy and are listed, in document order, with their role and line; a framed
    /// scene beside them is imported.
    @Test func framelessRootsAreReported() throws {
        let bytes = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="13196" targetRuntime="iOS.CocoaTouch">
        <scenes>
        <scene sceneID="s1"><objects><viewController id="vc1"><view key="view" id="bare"/></viewController></objects></scene>
        <scene sceneID="s2"><objects><viewController id="vc2"><view key="view" id="root">\(Self.rect(0, 0, 375, 667))
        <subviews><tableView id="t">\(Self.rect(0, 0, 375, 667))<prototypes>
        <tableViewCell id="cell"><tableViewCellContentView key="contentView" id="content"/></tableViewCell>
        </prototypes></tableView></subviews></view></viewController></objects></scene>
        </scenes>
        </document>
        """.utf8)
        let result = try InterfaceBuilderImporter.importDocument(bytes)
        #expect(result.hierarchies.map(\.ibId) == ["root"])
        let tail = " records no frame (<rect key=\"frame\">), so it is not imported: Xcode records one for every view when it saves the document"
        #expect(result.skippedRoots.map(\.message) == ["The scene's root view bare" + tail, "The cell's content view content" + tail])
        #expect(result.skippedRoots.map(\.line) == [4, 7])
        #expect(result.skippedRoots.map(\.ibId) == ["bare", "content"])
    }

    @Test func storyboardScenesCellsAndControllerGuides() throws {
        let bytes = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="13196" targetRuntime="iOS.CocoaTouch">
            <device id="retina4_7" orientation="portrait"/>
            <scenes>
                <scene sceneID="s1">
                    <objects>
                        <viewController id="vc" customClass="LoginViewController" sceneMemberID="viewController">
                            <layoutGuides>
                                <viewControllerLayoutGuide type="top" id="tg"/>
                                <viewControllerLayoutGuide type="bottom" id="bg"/>
                            </layoutGuides>
                            <view key="view" contentMode="scaleToFill" id="root">
                                \(Self.rect(0, 0, 375, 667))
                                <subviews>
                                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, 28, 375, 619))</view>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="a" firstAttribute="top" secondItem="tg" secondAttribute="bottom" constant="8" id="k1"/>
                                    <constraint firstItem="bg" firstAttribute="top" secondItem="a" secondAttribute="bottom" constant="20" id="k2"/>
                                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k3"/>
                                    <constraint firstItem="a" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k4"/>
                                </constraints>
                            </view>
                        </viewController>
                    </objects>
                </scene>
                <scene sceneID="s2">
                    <objects>
                        <tableViewController id="tvc" sceneMemberID="viewController">
                            <tableView key="view" id="table">\(Self.rect(0, 0, 375, 667))
                                <prototypes>
                                    <tableViewCell reuseIdentifier="Cell" id="cell">\(Self.rect(0, 28, 375, 44))
                                        <tableViewCellContentView key="contentView" id="content">\(Self.rect(0, 0, 375, 43.5))
                                            <subviews>
                                                <label text="Name" translatesAutoresizingMaskIntoConstraints="NO" id="name">\(Self.rect(16, 11.5, 42, 21))</label>
                                            </subviews>
                                            <constraints>
                                                <constraint firstItem="name" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="c1"/>
                                                <constraint firstItem="name" firstAttribute="centerY" secondItem="content" secondAttribute="centerY" id="c2"/>
                                            </constraints>
                                        </tableViewCellContentView>
                                    </tableViewCell>
                                </prototypes>
                            </tableView>
                        </tableViewController>
                    </objects>
                </scene>
            </scenes>
        </document>
        """.utf8)
        let result = try InterfaceBuilderImporter.importDocument(bytes)
        #expect(result.document.kind == "storyboard")
        #expect(result.hierarchies.map(\.name) == ["loginViewController", "tableViewController", "cell"])
        #expect(result.hierarchies.map(\.kind) == ["scene", "scene", "cell"])
        #expect(result.hierarchies[2].ibId == "cell")
        let login = result.hierarchies[0]
        #expect(login.ids.map(\.name) == ["superview", "view", "topLayoutGuide", "bottomLayoutGuide"])
        let (frames, diagnostics) = try Self.solve(login)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 0, y: 28, width: 375, height: 619))
        // The guides' constraints back-solve the safe area; the table view scene, without
        // any, takes it from the device table.
        #expect(login.notes == ["Safe area top inset 20 back-solved from the recorded frames",
                                "Safe area bottom inset 0 back-solved from the recorded frames"])
        #expect(result.hierarchies[1].notes == ["Safe area top inset 20 taken from the device table"])
        let cell = try Self.solve(result.hierarchies[2])
        // The cell's content view (375 wide) has UIKit's 16-point side margins; centred at
        // y 11.25, rounded to the @2x pixel grid.
        #expect(cell.frames["labelName"] == Frame(x: 16, y: 11.5, width: 42, height: 21))
    }

    @Test func scrollViewSubviewsPinnedToItsEdgesSizeItsContent() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 320, 480))
                <subviews>
                    <scrollView translatesAutoresizingMaskIntoConstraints="NO" id="sc">\(Self.rect(0, 0, 320, 480))
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(0, 0, 320, 1000))</view>
                        </subviews>
                        <constraints>
                            <constraint firstItem="c" firstAttribute="top" secondItem="sc" secondAttribute="top" id="s1"/>
                            <constraint firstAttribute="bottom" secondItem="c" secondAttribute="bottom" id="s2"/>
                            <constraint firstItem="c" firstAttribute="leading" secondItem="sc" secondAttribute="leading" id="s3"/>
                            <constraint firstItem="c" firstAttribute="trailing" secondItem="sc" secondAttribute="trailing" id="s4"/>
                            <constraint firstItem="c" firstAttribute="width" secondItem="sc" secondAttribute="width" id="s5"/>
                            <constraint firstItem="c" firstAttribute="height" constant="1000" id="s6"/>
                        </constraints>
                    </scrollView>
                </subviews>
                <constraints>
                    <constraint firstItem="sc" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k1"/>
                    <constraint firstItem="sc" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k2"/>
                    <constraint firstItem="sc" firstAttribute="top" secondItem="root" secondAttribute="top" id="k3"/>
                    <constraint firstItem="sc" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="k4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["guides"] == .object([("scrollViewContent", .object([("owner", .string("scrollView"))]))]))
        let scene = try SceneDecoder().decode(hierarchy.scene)
        let layout = SceneCompiler(scene: scene).compile().solve(size: scene.container.size)
        #expect(layout.diagnostics.isEmpty, "\(layout.diagnostics.map(\.message))")
        let frames = Dictionary(uniqueKeysWithValues: layout.frames.map { ($0.name, $0.frame) })
        #expect(frames["scrollView"] == Frame(x: 0, y: 0, width: 320, height: 480))
        #expect(frames["view"] == Frame(x: 0, y: 0, width: 320, height: 1000))
        #expect(layout.guides.first?.frame == Frame(x: 0, y: 0, width: 320, height: 1000))
    }

    @Test func sizeClassVariationsMatchingTheDeviceAreApplied() throws {
        // k1 (top 10) is installed only in compact width, k2 (top 99) only in regular width:
        // an iPhone in portrait is compact in width.
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 667))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(0, 10, 375, 20))</view>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="k1"/>
                    <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="99" id="k2"/>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k3"/>
                    <constraint firstItem="a" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k4"/>
                    <constraint firstItem="a" firstAttribute="height" constant="20" id="k5"/>
                </constraints>
                <variation key="default">
                    <mask key="constraints"><exclude reference="k1"/><exclude reference="k2"/></mask>
                </variation>
                <variation key="heightClass=regular-widthClass=compact">
                    <mask key="constraints"><include reference="k1"/></mask>
                </variation>
                <variation key="widthClass=regular">
                    <mask key="constraints"><include reference="k2"/></mask>
                </variation>
            </view>
        """))
        let ids = try #require(hierarchy.scene["constraints"]?.arrayValue).compactMap { $0["id"]?.stringValue }
        #expect(ids == ["k1", "k3", "k4", "k5"])
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["view"] == Frame(x: 0, y: 10, width: 375, height: 20))
    }

    /// A vertical `fillProportionally` stack of two plain views (no intrinsic height) drawn
    /// 30 and 90 high in a 124-point stack (spacing 4): UIStackView weighs each by its
    /// current height, so the recorded 30 and 90 reproduce; without the weights each would
    /// get 0 × the stack's height.
    @Test func proportionalStacksWeighViewsByTheirRecordedLength() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 200, 124))
                <subviews>
                    <stackView axis="vertical" distribution="fillProportionally" spacing="4" translatesAutoresizingMaskIntoConstraints="NO" id="stk">\(Self.rect(0, 0, 200, 124))
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" userLabel="top" id="v1">\(Self.rect(0, 0, 200, 30))</view>
                            <view translatesAutoresizingMaskIntoConstraints="NO" userLabel="bottom" id="v2">\(Self.rect(0, 34, 200, 90))</view>
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="stk" firstAttribute="top" secondItem="root" secondAttribute="top" id="c1"/>
                    <constraint firstItem="stk" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
                    <constraint firstItem="stk" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="c3"/>
                    <constraint firstItem="stk" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="c4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["top"]?["intrinsicSize"] == .object([("height", .number(30))]))
        #expect(hierarchy.scene["views"]?["bottom"]?["intrinsicSize"] == .object([("height", .number(90))]))
        #expect(hierarchy.notes.contains { $0.contains("fills proportionally: top, bottom") })
        let frames = try Self.solve(hierarchy).frames
        #expect(frames["top"] == Frame(x: 0, y: 0, width: 200, height: 30))
        #expect(frames["bottom"] == Frame(x: 0, y: 34, width: 200, height: 90))
    }

    /// `spacingType="standard"` (Interface Builder's "Standard" stack spacing) is the system
    /// spacing between siblings, 8 points: a 100-point label and a 50-point one in a
    /// 200-point horizontal stack that fills leave the first 142 wide, the second at 150.
    @Test func standardStackSpacingIsEightPoints() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 200, 40))
                <subviews>
                    <stackView spacingType="standard" translatesAutoresizingMaskIntoConstraints="NO" id="stk">\(Self.rect(0, 0, 200, 40))
                        <subviews>
                            <label text="Title" horizontalHuggingPriority="249" translatesAutoresizingMaskIntoConstraints="NO" id="l1">\(Self.rect(0, 0, 142, 40))</label>
                            <label text="On" translatesAutoresizingMaskIntoConstraints="NO" id="l2">\(Self.rect(150, 0, 50, 40))</label>
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="stk" firstAttribute="top" secondItem="root" secondAttribute="top" id="c1"/>
                    <constraint firstItem="stk" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
                    <constraint firstItem="stk" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="c3"/>
                    <constraint firstItem="stk" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="c4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["stackView"]?["stack"]?["spacing"] == .number(8))
        let frames = try Self.solve(hierarchy).frames
        #expect(frames["labelTitle"] == Frame(x: 0, y: 0, width: 142, height: 40))
        #expect(frames["labelOn"] == Frame(x: 150, y: 0, width: 50, height: 40))
    }

    /// A document drawn before Xcode 9 whose every frame lies on whole points was laid out
    /// on whole points: a 48-point view centred in 375 points is recorded at 164 and solves
    /// there with display scale 1 (noted); the same document from a later Xcode keeps its
    /// device's grid and solves at 163.5.
    @Test func documentsRecordingWholePointsAreSolvedOnWholePoints() throws {
        let objects = """
            <view id="root">\(Self.rect(0, 0, 375, 667))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" userLabel="dot" id="v1">\(Self.rect(164, 0, 48, 48))
                        <constraints>
                            <constraint firstAttribute="width" constant="48" id="c1"/>
                            <constraint firstAttribute="height" constant="48" id="c2"/>
                        </constraints>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="v1" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="c3"/>
                    <constraint firstItem="v1" firstAttribute="top" secondItem="root" secondAttribute="top" id="c4"/>
                </constraints>
            </view>
        """
        let xcode8 = try Self.single(Array(String(decoding: Self.xib(objects), as: UTF8.self)
            .replacingOccurrences(of: "toolsVersion=\"22505\"", with: "toolsVersion=\"11762\"").utf8))
        #expect(xcode8.scene["options"] == .object([("displayScale", .number(1))]))
        #expect(xcode8.notes.contains { $0.contains("lies on whole points") })
        #expect(try Self.solve(xcode8).frames["dot"] == Frame(x: 164, y: 0, width: 48, height: 48))
        let later = try Self.single(Self.xib(objects))
        #expect(later.scene["options"] == .object([("displayScale", .number(2))]))
        #expect(try Self.solve(later).frames["dot"] == Frame(x: 163.5, y: 0, width: 48, height: 48))
    }

    /// A `<variation key=… constant=…/>` (or `hidden=`, `spacing=`, …) sets its element's
    /// attribute where its key matches the device's traits, the more specific key winning:
    /// on an iPhone in portrait (compact width, regular height) the height constant is 150
    /// (`heightClass=regular-widthClass=compact` over `widthClass=compact`'s 180), and the
    /// view hidden only in regular width is shown.
    @Test func sizeClassAttributeVariationsAreApplied() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 667))
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" userLabel="box" id="a">\(Self.rect(0, 0, 375, 150))
                        <constraints>
                            <constraint firstAttribute="height" constant="50" id="k1">
                                <variation key="widthClass=compact" constant="180"/>
                                <variation key="heightClass=regular-widthClass=compact" constant="150"/>
                            </constraint>
                        </constraints>
                    </view>
                    <view hidden="YES" translatesAutoresizingMaskIntoConstraints="NO" userLabel="regularOnly" id="b">\(Self.rect(0, 0, 10, 10))
                        <variation key="widthClass=regular" hidden="NO"/>
                    </view>
                    <view hidden="YES" translatesAutoresizingMaskIntoConstraints="NO" userLabel="compactOnly" id="c">\(Self.rect(0, 0, 10, 10))
                        <variation key="widthClass=compact" hidden="NO"/>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" id="k2"/>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="k3"/>
                    <constraint firstItem="a" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="k4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.scene["views"]?["regularOnly"]?["hidden"] == .bool(true))
        #expect(hierarchy.scene["views"]?["compactOnly"]?["hidden"] == nil)
        #expect(hierarchy.notes.contains("Size-class variation heightClass=regular-widthClass=compact sets constant=\"150\" on constraint k1 (the device's traits)"))
        let frames = try Self.solve(hierarchy).frames
        #expect(frames["box"] == Frame(x: 0, y: 0, width: 375, height: 150))
    }

    /// A hidden arranged view whose own required width (44) cannot take its stack's hiding
    /// width 0 keeps its width where the stack hides it, as Interface Builder records it:
    /// between two visible 44-point buttons of a `fillEqually` stack it starts at the first
    /// one's end (x 44), the second button beside the first; no conflict is left.
    @Test func hiddenArrangedViewsThatCannotCollapseKeepTheirLength() throws {
        func button(_ id: String, _ label: String, _ x: Double, hidden: Bool = false) -> String {
            """
            <button \(hidden ? "hidden=\"YES\" " : "")userLabel="\(label)" translatesAutoresizingMaskIntoConstraints="NO" id="\(id)">\(Self.rect(x, 0, 44, 44))
                <constraints><constraint firstAttribute="width" constant="44" id="w\(id)"/></constraints>
            </button>
            """
        }
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 88, 44))
                <subviews>
                    <stackView distribution="fillEqually" translatesAutoresizingMaskIntoConstraints="NO" id="stk">\(Self.rect(0, 0, 88, 44))
                        <subviews>
                            \(button("b1", "first", 0))
                            \(button("b2", "gone", 44, hidden: true))
                            \(button("b3", "second", 44))
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="stk" firstAttribute="top" secondItem="root" secondAttribute="top" id="c1"/>
                    <constraint firstItem="stk" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
                    <constraint firstItem="stk" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="c4"/>
                </constraints>
            </view>
        """))
        #expect(hierarchy.notes.contains { $0.hasPrefix("Hidden arranged view gone cannot collapse") })
        #expect(hierarchy.scene["views"]?["stackView"]?["stack"]?["arranged"] == .array([.string("first"), .string("second")]))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(!diagnostics.contains { $0.code == .unsatisfiableConstraints }, "\(diagnostics.map(\.message))")
        #expect(frames["first"] == Frame(x: 0, y: 0, width: 44, height: 44))
        #expect(frames["gone"] == Frame(x: 44, y: 0, width: 44, height: 44))
        #expect(frames["second"] == Frame(x: 44, y: 0, width: 44, height: 44))

        // Hidden first, drawn before the stack's start (not laid out shown, though the next
        // view starts at its end): its end at the next visible view's start.
        let first = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 44, 44))
                <subviews>
                    <stackView distribution="fillEqually" translatesAutoresizingMaskIntoConstraints="NO" id="stk">\(Self.rect(0, 0, 44, 44))
                        <subviews>
                            \(button("b1", "gone", -44, hidden: true))
                            \(button("b2", "only", 0))
                        </subviews>
                    </stackView>
                </subviews>
                <constraints>
                    <constraint firstItem="stk" firstAttribute="top" secondItem="root" secondAttribute="top" id="c1"/>
                    <constraint firstItem="stk" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
                    <constraint firstItem="stk" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="c4"/>
                </constraints>
            </view>
        """))
        let firstFrames = try Self.solve(first).frames
        #expect(firstFrames["gone"] == Frame(x: -44, y: 0, width: 44, height: 44))
        #expect(firstFrames["only"] == Frame(x: 0, y: 0, width: 44, height: 44))
    }

    /// A controller without a `navigationItem` that a `show` segue pushes from the root of a
    /// navigation controller sits under the navigation bar all the same: its safe area's
    /// top is 20 + 44 on a 4.7-inch iPhone; a controller no segue pushes keeps 20.
    @Test func controllersPushedByShowSeguesAreUnderTheNavigationBar() throws {
        func controller(_ id: String, navigationItem: Bool, segue: String) -> String {
            let item = navigationItem ? "<navigationItem key=\"navigationItem\" title=\"Parent\" id=\"\(id)-nav\"/>" : ""
            return """
            <viewController id="\(id)" sceneMemberID="viewController">
                <view key="view" contentMode="scaleToFill" id="\(id)-root">\(Self.rect(0, 0, 375, 667))
                    <subviews>
                        <button translatesAutoresizingMaskIntoConstraints="NO" userLabel="item" id="\(id)-a">\(Self.rect(0, 64, 375, 44))
                            <connections>\(segue)</connections>
                        </button>
                    </subviews>
                    <viewLayoutGuide key="safeArea" id="\(id)-safe"/>
                    <constraints>
                        <constraint firstItem="\(id)-a" firstAttribute="top" secondItem="\(id)-root" secondAttribute="top" constant="64" id="\(id)-k1"/>
                        <constraint firstItem="\(id)-a" firstAttribute="leading" secondItem="\(id)-root" secondAttribute="leading" id="\(id)-k2"/>
                        <constraint firstItem="\(id)-a" firstAttribute="trailing" secondItem="\(id)-root" secondAttribute="trailing" id="\(id)-k3"/>
                        <constraint firstItem="\(id)-a" firstAttribute="height" constant="44" id="\(id)-k4"/>
                    </constraints>
                </view>
                \(item)
            </viewController>
            """
        }
        let bytes = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch">
            <device id="retina4_7" orientation="portrait"/>
            <scenes>
                <scene sceneID="s1"><objects>
                    <navigationController id="nav" sceneMemberID="viewController">
                        <connections><segue destination="parent" kind="relationship" relationship="rootViewController" id="g1"/></connections>
                    </navigationController>
                </objects></scene>
                <scene sceneID="s2"><objects>\(controller("parent", navigationItem: true, segue: "<segue destination=\"child\" kind=\"show\" id=\"g2\"/>"))</objects></scene>
                <scene sceneID="s3"><objects>\(controller("child", navigationItem: false, segue: ""))</objects></scene>
                <scene sceneID="s4"><objects>\(controller("alone", navigationItem: false, segue: ""))</objects></scene>
            </scenes>
        </document>
        """.utf8)
        let result = try InterfaceBuilderImporter.importDocument(bytes)
        #expect(result.hierarchies.count == 3)
        let child = try #require(result.hierarchies.first { $0.ibId == "child-root" })
        #expect(child.notes.contains { $0.contains("is pushed by a show segue") })
        #expect(child.scene["container"]?["safeArea"]?["top"] == .number(64))
        let alone = try #require(result.hierarchies.first { $0.ibId == "alone-root" })
        #expect(alone.scene["container"]?["safeArea"]?["top"] == .number(20))
    }

    /// An image view showing a system symbol image is laid out by the symbol's alignment
    /// rectangle, which the document does not record: its insets are back-solved from its
    /// recorded frame and the rectangle its constraints place. A chevron drawn 12.5 × 16.5
    /// where a 20-point height centres it, and one (named by an `<imageReference>`) drawn
    /// 20 × 14 where a 1:1 ratio makes it 20 × 20; an image that is not a symbol gets none.
    @Test func symbolImageViewsGetTheirAlignmentInsetsFromTheRecordedFrames() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 132))
                <subviews>
                    <imageView contentMode="scaleAspectFit" horizontalHuggingPriority="251" verticalHuggingPriority="251" image="chevron.right" catalog="system" userLabel="Chevron" translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(346.5, 13.5, 12.5, 16.5))
                        <constraints>
                            <constraint firstAttribute="height" constant="20" id="h"/>
                        </constraints>
                    </imageView>
                    <imageView contentMode="scaleAspectFit" horizontalHuggingPriority="251" verticalHuggingPriority="251" userLabel="Down" translatesAutoresizingMaskIntoConstraints="NO" id="b">\(Self.rect(16, 59, 20, 14))
                        <constraints>
                            <constraint firstAttribute="width" secondItem="b" secondAttribute="height" multiplier="1:1" id="r"/>
                        </constraints>
                        <imageReference key="image" image="chevron.down" catalog="system" symbolScale="default"/>
                    </imageView>
                    <imageView contentMode="scaleAspectFit" image="photo" userLabel="Photo" translatesAutoresizingMaskIntoConstraints="NO" id="c">\(Self.rect(16, 101.5, 12.5, 16.5))
                        <constraints>
                            <constraint firstAttribute="height" constant="20" id="k"/>
                        </constraints>
                    </imageView>
                </subviews>
                <constraints>
                    <constraint firstAttribute="trailing" secondItem="a" secondAttribute="trailing" constant="16" id="c1"/>
                    <constraint firstItem="a" firstAttribute="centerY" secondItem="root" secondAttribute="top" constant="22" id="c2"/>
                    <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c3"/>
                    <constraint firstItem="b" firstAttribute="centerY" secondItem="root" secondAttribute="top" constant="66" id="c4"/>
                    <constraint firstItem="c" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c5"/>
                    <constraint firstItem="c" firstAttribute="centerY" secondItem="root" secondAttribute="top" constant="110" id="c6"/>
                </constraints>
            </view>
        """))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["chevron"]?["alignmentInsets"] == .object([("top", .number(-1.5)), ("left", .number(0)), ("bottom", .number(-2)), ("right", .number(0))]))
        #expect(views["chevron"]?["intrinsicSize"] == .object([("width", .number(12.5)), ("height", .number(20))]))
        #expect(views["down"]?["alignmentInsets"] == .object([("top", .number(-3)), ("left", .number(0)), ("bottom", .number(-3)), ("right", .number(0))]))
        #expect(views["down"]?["intrinsicSize"] == .object([("width", .number(20)), ("height", .number(20))]))
        #expect(views["photo"]?["alignmentInsets"] == nil)
        #expect(hierarchy.notes.contains("Alignment insets top -1.5, bottom -2 of chevron, which shows a system symbol image (the document does not record its insets), back-solved from its recorded frame and the rectangle its constraints place; its intrinsic size is the recorded size less these"))
        let (frames, _) = try Self.solve(hierarchy)
        #expect(frames["chevron"] == Frame(x: 346.5, y: 13.5, width: 12.5, height: 16.5))
        #expect(frames["down"] == Frame(x: 16, y: 59, width: 20, height: 14))
        #expect(frames["photo"] == Frame(x: 16, y: 100, width: 12.5, height: 20))
        let misplaced = IBMisplacement.misplacedViews(in: hierarchy, solvedFrames: frames.map { ($0.key, $0.value) }).map(\.view)
        #expect(misplaced == ["photo"])
    }

    /// At 3 pixels per point a symbol's rectangle placed at y 22.5, 15 high (snapped to
    /// 22.667…37.667) and recorded at 74 px, 34 px high (24.667, 11.333): the insets are
    /// taken against the rectangle before pixel alignment (top −2.167, bottom −1.5), so
    /// the re-solved frame snaps back to the recorded one. Taken against the snapped
    /// rectangle (bottom −1.667) its bottom landed at 107.499 px and snapped to 107.
    @Test func symbolInsetsAreTakenBeforePixelAlignment() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 414, 60))
                <subviews>
                    <imageView image="chevron.right" catalog="system" userLabel="Active" translatesAutoresizingMaskIntoConstraints="NO" id="a">\(Self.rect(271, 24.666666666666668, 15, 11.333333333333334))
                        <constraints>
                            <constraint firstAttribute="height" constant="15" id="h"/>
                            <constraint firstAttribute="width" constant="15" id="w"/>
                        </constraints>
                    </imageView>
                </subviews>
                <constraints>
                    <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="271" id="c1"/>
                    <constraint firstItem="a" firstAttribute="centerY" secondItem="root" secondAttribute="top" constant="30" id="c2"/>
                </constraints>
            </view>
        """, device: "retina5_5"))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["active"]?["alignmentInsets"] == .object([("top", .number(-2.167)), ("left", .number(0)), ("bottom", .number(-1.5)), ("right", .number(0))]))
        let (frames, _) = try Self.solve(hierarchy)
        let frame = try #require(frames["active"])
        #expect(abs(frame.y - 74.0 / 3) < 1e-3 && abs(frame.height - 34.0 / 3) < 1e-3, "\(frame)")
        #expect(frame.x == 271 && frame.width == 15)
    }

    /// A text view's baselines come from its font, which the document does not record: a
    /// constraint between a baseline and another view's edge back-solves it from the
    /// recorded frames, and a baseline-to-baseline tie carries it to the other label. A
    /// chevron's bottom on a 51-point label's first baseline 18 below its top; a label whose
    /// last baseline is 8 above the root's bottom; a larger label aligned with it.
    @Test func textBaselinesAreBackSolvedFromTheRecordedFrames() throws {
        let hierarchy = try Self.single(Self.xib("""
            <view id="root">\(Self.rect(0, 0, 375, 80))
                <subviews>
                    <label text="Title" userLabel="Title" translatesAutoresizingMaskIntoConstraints="NO" id="l1">\(Self.rect(16, 0, 100, 51))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                    <imageView image="chevron" userLabel="Chevron" translatesAutoresizingMaskIntoConstraints="NO" id="im">\(Self.rect(124, 6, 7, 12))</imageView>
                    <label text="Small" userLabel="Small" translatesAutoresizingMaskIntoConstraints="NO" id="l2">\(Self.rect(16, 55, 60, 20.5))
                        <fontDescription key="fontDescription" type="system" pointSize="17"/>
                    </label>
                    <label text="Large" userLabel="Large" translatesAutoresizingMaskIntoConstraints="NO" id="l3">\(Self.rect(200, 49, 100, 29))
                        <fontDescription key="fontDescription" type="system" pointSize="24"/>
                    </label>
                </subviews>
                <constraints>
                    <constraint firstItem="l1" firstAttribute="top" secondItem="root" secondAttribute="top" id="c1"/>
                    <constraint firstItem="l1" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c2"/>
                    <constraint firstItem="l1" firstAttribute="height" constant="51" id="c3"/>
                    <constraint firstItem="im" firstAttribute="leading" secondItem="l1" secondAttribute="trailing" constant="8" id="c4"/>
                    <constraint firstItem="im" firstAttribute="bottom" secondItem="l1" secondAttribute="firstBaseline" id="c5"/>
                    <constraint firstItem="l2" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c6"/>
                    <constraint firstAttribute="bottom" secondItem="l2" secondAttribute="baseline" constant="8" id="c7"/>
                    <constraint firstItem="l3" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="200" id="c8"/>
                    <constraint firstItem="l3" firstAttribute="baseline" secondItem="l2" secondAttribute="baseline" id="c9"/>
                </constraints>
            </view>
        """))
        let views = try #require(hierarchy.scene["views"])
        #expect(views["title"]?["firstBaseline"] == .number(18))
        #expect(views["title"]?["baseline"] == nil)
        #expect(views["small"]?["baseline"] == .number(17))
        #expect(views["large"]?["baseline"] == .number(23))
        #expect(views["chevron"]?["baseline"] == nil)
        #expect(hierarchy.notes.contains("Baselines of title (first 18 below its top) back-solved from the recorded frames (its text's font metrics are not recorded)"))
        #expect(hierarchy.notes.contains("Baselines of large (last 23 below its top) back-solved from the recorded frames (its text's font metrics are not recorded)"))
        let (frames, diagnostics) = try Self.solve(hierarchy)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(frames["chevron"] == Frame(x: 124, y: 6, width: 7, height: 12))
        #expect(frames["small"] == Frame(x: 16, y: 55, width: 60, height: 20.5))
        #expect(frames["large"] == Frame(x: 200, y: 49, width: 100, height: 29))
        #expect(IBMisplacement.misplacedViews(in: hierarchy, solvedFrames: frames.map { ($0.key, $0.value) }).isEmpty)
    }

    @Test func theAnswerHasTheContractsShape() throws {
        let result = try InterfaceBuilderImporter.importDocument(Self.xib("""
            <view userLabel="Card" id="c-1">\(Self.rect(0, 0, 320, 44))</view>
        """))
        var writer = JSONWriter()
        writer.value(result.answer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == """
            {"document":{"kind":"xib","toolsVersion":"22505","device":{"id":"retina4_7","orientation":"portrait","width":375,"height":667,"scale":2}},\
            "hierarchies":[{"name":"card","ibId":"c-1","kind":"view","scene":{"container":{"width":320,"height":44},"views":{},\
            "constraints":[],"options":{"displayScale":2}},"ids":{"superview":"c-1"},"notes":[]}],"diagnostics":[]}
            """)
    }

    @Test func otherPlatformsAndNonDocumentsAreRefused() throws {
        let mac = Array("<?xml version=\"1.0\"?>\n<document type=\"com.apple.InterfaceBuilder3.Cocoa.XIB\" targetRuntime=\"MacOSX.Cocoa\"/>".utf8)
        #expect(throws: IBImportError(message: "A macOS Interface Builder document (targetRuntime \"MacOSX.Cocoa\"): only iOS documents (iOS.CocoaTouch) are laid out", line: 2)) {
            try InterfaceBuilderImporter.importDocument(mac)
        }
        #expect(throws: IBImportError(message: "Not an Interface Builder document: the root element is <svg>, not <document type=…>", line: 1)) {
            try InterfaceBuilderImporter.importDocument(Array("<svg/>".utf8))
        }
    }
}
