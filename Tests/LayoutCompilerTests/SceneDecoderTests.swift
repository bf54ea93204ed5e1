import LayoutCompiler
import LayoutSyntax
import Testing

/// The hierarchy rules of the contract (422 `invalid_scene`): exact messages, paths and
/// order, as layoutd has always reported them.
struct SceneDecoderTests {
    func rejection(_ json: String) -> SceneRejection? {
        do {
            _ = try SceneDecoder().decode(body: Array(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// Own parent and unknown parent in name order, then the cycle, named from its first
    /// view in name order and reported once.
    /// The contract's codes ("Responses") in one list, and each parser code maps to the
    /// contract's code of the same spelling.
    @Test func contractCodesAreSpelledAsTheContract() {
        #expect(LayoutDiagnostic.Code.allCases.map(\.rawValue).sorted() == [
            "ambiguous_layout", "equation_syntax", "incompatible_attributes", "invalid_document", "invalid_font", "invalid_json", "invalid_scene",
            "limit_exceeded", "missing_glyphs", "negative_size", "nonlinear", "text_layout_unstable", "unknown_attribute",
            "unknown_font", "unknown_group", "unknown_metric", "unknown_view", "unsatisfiable_constraints", "vfl_syntax",
        ])
        for code in Diagnostic.Code.allCases {
            #expect(LayoutDiagnostic.Code(code).rawValue == code.rawValue)
        }
    }

    @Test func parentErrors() throws {
        let found = try #require(rejection(#"{"views":{"c":{"parent":"a"},"a":{"parent":"b"},"b":{"parent":"c"},"d":{"parent":"d"},"e":{"parent":"zz"}}}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.message) == [
            "View 'd' cannot be its own parent",
            "View 'e' names an unknown parent 'zz'",
            "The parents form a cycle: a → b → c → a",
        ])
        #expect(found.diagnostics.map(\.path) == ["$.views.d.parent", "$.views.e.parent", "$.views.a.parent"])
        #expect(found.diagnostics.map(\.view) == ["d", "e", "a"])
    }

    /// `"parent": "superview"` names the container, as leaving `parent` out does.
    @Test func superviewAsParentIsTheContainer() throws {
        let scene = try SceneDecoder().decode(body: Array(#"{"views":{"a":{"parent":"superview"},"b":{"parent":"a"}}}"#.utf8))
        #expect(scene.views.map(\.parent) == [nil, "a"])
    }

    /// Views + 1 frames per size, at most a million in one answer: 999 views at 1,000
    /// sizes are fine, 1,000 views are not.
    @Test func framesInOneAnswerAreLimited() throws {
        func scene(views: Int, sizes: Int) -> String {
            let names = (0..<views).map { "\"v\($0)\"" }.joined(separator: ",")
            let list = (0..<sizes).map { "{\"width\":\(300 + $0)}" }.joined(separator: ",")
            return #"{"container":{"height":100},"views":[\#(names)],"sizes":[\#(list)]}"#
        }
        #expect(rejection(scene(views: 999, sizes: 1_000)) == nil)
        let found = try #require(rejection(scene(views: 1_000, sizes: 1_000)))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.code) == [.limitExceeded])
        #expect(found.diagnostics.map(\.path) == ["$.sizes"])
        #expect(found.diagnostics.first?.message == "The scene asks for 1000 sizes of 1001 frames each; at most 1000000 frames are answered at once (limit maxFrames): split the sizes over several requests")
    }

    @Test func listedTwice() throws {
        let found = try #require(rejection(#"{"views":["x","x"]}"#))
        #expect(found.diagnostics.map(\.message) == ["View 'x' is listed twice"])
        #expect(found.diagnostics.map(\.path) == ["$.views[1]"])
    }

    /// A field given twice is an error (400), like an unknown one, wherever the object
    /// has fixed fields; it is reported at each repetition.
    @Test func fieldGivenTwice() throws {
        let found = try #require(rejection(#"{"views":["a"],"views":["b"],"options":{"layoutDirection":"leftToRight","layoutDirection":"rightToLeft"}}"#))
        #expect(found.reason == .malformed)
        #expect(found.diagnostics.map(\.message) == [
            "Field 'views' is given more than once at $; give it once",
            "Field 'layoutDirection' is given more than once at $.options; give it once",
        ])
        #expect(found.diagnostics.map(\.path) == ["$.views", "$.options.layoutDirection"])
    }

    @Test func aMisspeltEquationFieldIsReportedOnce() throws {
        let found = try #require(rejection(#"{"views":["a"],"constraints":[{"eqation":"a.width == 5"},{}]}"#))
        #expect(found.reason == .malformed)
        #expect(found.diagnostics.map(\.message) == [
            "Unknown field 'eqation' at $.constraints[0]; did you mean 'equation'?",
            #"A constraint object needs a "vfl" or an "equation" string"#,
        ])
        #expect(found.diagnostics.map(\.path) == ["$.constraints[0].eqation", "$.constraints[1]"])
    }

    /// UIKit's and other common names no known field is close to get the field to write
    /// (``DecodingContext/fieldAliases``), and `rtl` the direction it means: a 400
    /// `invalid_scene` each, at the member's path.
    @Test func uikitNamesSuggestTheField() throws {
        let found = try #require(rejection(#"""
            {"width":320,"height":480,
             "views":{"a":{"intrinsicContentSize":{"width":1,"height":2},"contentHuggingPriority":250,
                           "contentCompressionResistancePriority":750,"numberOfLines":0,
                           "text":{"string":"x","font":{"name":"Inter"}}}},
             "options":{"layoutDirection":"rtl"}}
            """#))
        #expect(found.reason == .malformed)
        #expect(found.diagnostics.map(\.code) == Array(repeating: .invalidScene, count: 8))
        #expect(found.diagnostics.map(\.message) == [
            "Unknown field 'width' at $; did you mean 'container.width'?",
            "Unknown field 'height' at $; did you mean 'container.height'?",
            "Unknown field 'intrinsicContentSize' at $.views.a; did you mean 'intrinsicSize'?",
            "Unknown field 'contentHuggingPriority' at $.views.a; did you mean 'hugging'?",
            "Unknown field 'contentCompressionResistancePriority' at $.views.a; did you mean 'compressionResistance'?",
            "Unknown field 'numberOfLines' at $.views.a; did you mean 'text.numberOfLines'?",
            "Unknown field 'name' at $.views.a.text.font; did you mean 'family'?",
            "'rtl' is not a value of $.options.layoutDirection: use one of leftToRight, rightToLeft; did you mean 'rightToLeft'?",
        ])
        #expect(found.diagnostics.map(\.path) == [
            "$.width", "$.height", "$.views.a.intrinsicContentSize", "$.views.a.contentHuggingPriority",
            "$.views.a.contentCompressionResistancePriority", "$.views.a.numberOfLines", "$.views.a.text.font.name",
            "$.options.layoutDirection",
        ])
        // An alias is for its own object only: `width` in a font is no container's.
        let font = try #require(rejection(#"{"views":{"a":{"text":{"string":"x","font":{"width":3}}}}}"#))
        #expect(font.diagnostics.map(\.message) == ["Unknown field 'width' at $.views.a.text.font"])
    }

    /// A value outside an enumeration keeps its message and, when one is close, gets the
    /// nearest valid value as a field-name typo does: stack `axis`, `distribution`,
    /// `alignment`, the options, a named priority, an explained field.
    @Test func enumTyposSuggestTheValue() throws {
        let found = try #require(rejection(#"""
            {"views":{"s":{"stack":{"axis":"vertcal","distribution":"fillEqualy","alignment":"Center","arranged":["a"]}},"a":{}},
             "constraints":[{"equation":"a.width == 5","priority":"requried"},{"equation":"a.height == 5","priority":"loud"},
                            {"equation":"a.height == 6","priority":"hi"},{"equation":"a.height == 7","priority":"High"},
                            {"equation":"a.height == 8","priority":"fitting"}],
             "options":{"layoutDirection":"leftToRigth","conflicts":"brake","ambiguity":"wrn","coordinates":"zzz"},
             "explain":["a.widht","a.Height","a.zz"]}
            """#))
        #expect(found.diagnostics.map(\.message) == [
            "'vertcal' is not a value of $.views.s.stack.axis: use one of horizontal, vertical; did you mean 'vertical'?",
            "'fillEqualy' is not a value of $.views.s.stack.distribution: use one of fill, fillEqually, fillProportionally, equalSpacing, equalCentering; did you mean 'fillEqually'?",
            "'Center' is not a value of $.views.s.stack.alignment: use one of fill, leading, top, center, trailing, bottom, firstBaseline, lastBaseline; did you mean 'center'?",
            "Unknown priority 'requried' at $.constraints[0].priority: use a number from 1 to 1000, or required, high, low, fittingSize; did you mean 'required'?",
            "Unknown priority 'loud' at $.constraints[1].priority: use a number from 1 to 1000, or required, high, low, fittingSize; did you mean 'low'?",
            "Unknown priority 'hi' at $.constraints[2].priority: use a number from 1 to 1000, or required, high, low, fittingSize; did you mean 'high'?",
            "Unknown priority 'High' at $.constraints[3].priority: use a number from 1 to 1000, or required, high, low, fittingSize; did you mean 'high'?",
            "Unknown priority 'fitting' at $.constraints[4].priority: use a number from 1 to 1000, or required, high, low, fittingSize",
            "'leftToRigth' is not a value of $.options.layoutDirection: use one of leftToRight, rightToLeft; did you mean 'leftToRight'?",
            "'brake' is not a value of $.options.conflicts: use one of break, error; did you mean 'break'?",
            "'wrn' is not a value of $.options.ambiguity: use one of warn, error, ignore; did you mean 'warn'?",
            "'zzz' is not a value of $.options.coordinates: use one of parent, root",
            #"'a.widht' is not a field to explain: write "VIEW" or "VIEW.FIELD" with FIELD one of x, y, width, height; did you mean 'a.width'?"#,
            #"'a.Height' is not a field to explain: write "VIEW" or "VIEW.FIELD" with FIELD one of x, y, width, height; did you mean 'a.height'?"#,
            #"'a.zz' is not a field to explain: write "VIEW" or "VIEW.FIELD" with FIELD one of x, y, width, height"#,
        ])
    }

    /// At most 64 groups in one scene, reported as `maxIncludedGroups` (not `maxGroups`,
    /// the name of the store's `--max-groups`).
    @Test func includedGroupsAreLimitedAsMaxIncludedGroups() throws {
        func scene(groups: Int) -> String {
            let names = (0..<groups).map { "\"g\($0)\"" }.joined(separator: ",")
            return #"{"views":["c"],"groups":[\#(names)]}"#
        }
        #expect(rejection(scene(groups: 64)) == nil)
        let found = try #require(rejection(scene(groups: 65)))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.code) == [.limitExceeded])
        #expect(found.diagnostics.map(\.path) == ["$.groups"])
        #expect(found.diagnostics.first?.message == "The scene includes 65 groups; at most 64 are allowed (limit maxIncludedGroups)")
    }

    @Test func aGroupIncludedTwiceIsAnError() throws {
        let found = try #require(rejection(#"{"views":["c"],"groups":["nest","other","nest@1"]}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.message) == [
            "Group 'nest' is included twice ($.groups[0] and $.groups[2]): include each group once, as its constraint refs (group:nest/N) would not tell the copies apart",
        ])
        #expect(found.diagnostics.map(\.path) == ["$.groups[2]"])
        #expect(rejection(#"{"views":["c"],"groups":["nest","nest.v2","other@3"]}"#) == nil)
    }

    /// One diagnostic for a chain deeper than `maxHierarchyDepth`, naming the first view
    /// (in name order) whose chain is too deep.
    @Test func depthLimit() throws {
        var limits = SceneLimits()
        limits.maxHierarchyDepth = 3
        let json = #"{"views":{"v1":{},"v2":{"parent":"v1"},"v3":{"parent":"v2"},"v4":{"parent":"v3"}}}"#
        do {
            _ = try SceneDecoder(limits: limits).decode(body: Array(json.utf8))
            Issue.record("expected a rejection")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["View 'v4' is nested more than 3 levels deep (limit maxHierarchyDepth)"])
        }
    }

    /// JSON nested deeper than `maxJSONDepth` is a 400 `invalid_json` naming the limit.
    @Test func jsonDepthLimitIsNamed() throws {
        var limits = SceneLimits()
        limits.maxJSONDepth = 3
        let json = #"{"views":{"v1":{"intrinsicSize":{"width":1}}}}"#
        do {
            _ = try SceneDecoder(limits: limits).decode(body: Array(json.utf8))
            Issue.record("expected a rejection")
        } catch {
            #expect(error.diagnostics.map(\.code) == [.invalidJSON])
            #expect(error.diagnostics.map(\.message) == ["Malformed JSON: JSON nested deeper than 3 levels (limit maxJSONDepth) at line 1, column 33"])
        }
    }

    /// A body that starts with a UTF-8 byte order mark is refused naming it.
    @Test func byteOrderMarkIsNamed() throws {
        do {
            _ = try SceneDecoder().decode(body: [0xEF, 0xBB, 0xBF] + Array(#"{"views":["a"]}"#.utf8))
            Issue.record("expected a rejection")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["Malformed JSON: The body starts with a UTF-8 byte order mark (EF BB BF), which JSON text must not have (RFC 8259 §8.1): remove it at line 1, column 1"])
        }
    }

    /// A parent spelled with U+212A KELVIN SIGN does not name the view `K`: names are
    /// compared by their bytes, after the name rule (ASCII), never by Swift's canonical
    /// equivalence.
    @Test func canonicallyEquivalentParentIsUnknown() throws {
        let found = try #require(rejection(#"{"views":{"K":{},"k2":{"parent":"\u212a"}}}"#))
        #expect(found.reason == .invalid)
        #expect(found.diagnostics.map(\.message) == ["View 'k2' names an unknown parent '\u{212A}': names match [A-Za-z_][A-Za-z0-9_]* (U+212A is not ASCII)"])
        #expect(found.diagnostics.map(\.path) == ["$.views.k2.parent"])
    }
}

/// View and metric names (a scene's and a group's) and ids are at most 256
/// characters; beyond, a 422 `invalid_scene` naming the path and the limit, quoting the
/// name cut.
extension SceneDecoderTests {
    @Test func namesOf256CharactersAndNoMore() throws {
        let fits = String(repeating: "v", count: 256)
        let over = String(repeating: "v", count: 257)
        let cut = String(repeating: "v", count: 255) + "…"
        let scene = try SceneDecoder().decode(body: Array(#"{"views":{"\#(fits)":{}},"metrics":{"\#(fits)":4},"constraints":["H:|-\#(fits)-[\#(fits)]|"]}"#.utf8))
        #expect(scene.views.map(\.name) == [fits])

        let view = try #require(rejection(#"{"views":{"\#(over)":{}}}"#))
        #expect(view.reason == .invalid)
        #expect(view.diagnostics.map(\.code) == [.invalidScene])
        #expect(view.diagnostics.first?.message == "View name '\(cut)' is 257 characters long; names are at most 256 characters (limit maxNameLength)")
        #expect(view.diagnostics.first?.path == "$.views[\"\(cut)\"]")
        let listed = try #require(rejection(#"{"views":["a","\#(over)"]}"#))
        #expect(listed.reason == .invalid)
        #expect(listed.diagnostics.first?.path == "$.views[1]")

        let metric = try #require(rejection(#"{"views":["a"],"metrics":{"\#(over)":4}}"#))
        #expect(metric.reason == .invalid)
        #expect(metric.diagnostics.first?.message == "Metric name '\(cut)' is 257 characters long; names are at most 256 characters (limit maxNameLength)")
        #expect(metric.diagnostics.first?.path == "$.metrics[\"\(cut)\"]")

        let overGroup = try JSONParser().parse(Array(#"{"constraints":["a.width == 1"],"metrics":{"\#(over)":4}}"#.utf8))
        do {
            _ = try SceneDecoder().decodeGroupBody(overGroup)
            Issue.record("a group metric of 257 characters was accepted")
        } catch {
            #expect(error.reason == .invalid)
            #expect(error.diagnostics.first?.path == "$.metrics[\"\(cut)\"]")
            #expect(error.diagnostics.first?.message.contains("(limit maxNameLength)") == true)
        }
        let group = try SceneDecoder().decodeGroupBody(JSONParser().parse(Array(#"{"constraints":["a.width == 1"],"metrics":{"\#(fits)":4}}"#.utf8)))
        #expect(group.metrics.keys.sorted() == [fits])

        let id = try #require(rejection(#"{"views":["a"],"constraints":[{"equation":"a.width == 1","id":"\#(over)"}]}"#))
        #expect(id.reason == .invalid)
        #expect(id.diagnostics.first?.path == "$.constraints[0].id")
        #expect(id.diagnostics.first?.message == "The id '\(cut)' is 257 characters long; ids are at most 256 characters (limit maxNameLength)")
    }
}
