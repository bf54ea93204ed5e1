import Cassowary
import Foundation
import LayoutCompiler
import LayoutSyntax
import Testing

/// Minimal conflicting sets, the broken constraint, ambiguity, negative sizes.
struct DiagnosticsTests {
    func conflicts(_ layout: Layout) -> [LayoutDiagnostic] {
        layout.diagnostics.filter { $0.code == .unsatisfiableConstraints }
    }

    func keys(_ refs: [ConstraintRef]?) -> [String] {
        (refs ?? []).map { ref in
            switch ref.key {
            case .scene(let index): return "\(index)" + (ref.part.map { ".\($0)" } ?? "")
            case .group(let name, let index): return "group:\(name)/\(index)"
            case .implicit(let name): return name
            }
        }
    }

    @Test func twoMemberConflict() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.width == 100","a.width == 200","a.left == 0","a.top == 0","a.height == 10"]}
        """#)
        let found = conflicts(result)
        #expect(found.count == 1)
        #expect(found.first?.broken?.text == "a.width == 200")
        #expect(keys(found.first?.conflicting) == ["0.0", "1.0"])
        #expect(result.frame("a").width == 100)
    }

    /// A metric named like a view is warned at `$.metrics.NAME`, in name order, and a bare
    /// name is the metric: the predicate `(b)`, the space `-b-` and `+ b` are 16, while
    /// `[b]` and `b.width` are the view.
    @Test func metricsNamedLikeViewsAreWarned() throws {
        let (compiled, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a","b"],"metrics":{"pad":4,"b":16,"a":2.5},
         "constraints":["H:|-b-[a(b)]","V:|[a(10)]","b.left == a.right + b","b.top == 0","b.width == 5","b.height == 5"]}
        """#)
        let warnings = compiled.diagnostics.filter { $0.code == .invalidScene }
        #expect(warnings.map(\.path) == ["$.metrics.a", "$.metrics.b"])
        #expect(warnings.allSatisfy { $0.severity == .warning })
        #expect(warnings.last?.message == "Metric 'b' has the name of a view: a bare 'b' in a constraint is the metric (16), as in a VFL predicate '[a(b)]' or space '-b-', never the view; the view is '[b]' in VFL and 'b.width' in an equation. Rename the metric to use both")
        #expect(warnings.first?.message.hasPrefix("Metric 'a' has the name of a view: a bare 'a' in a constraint is the metric (2.5)") == true)
        #expect(!compiled.hasErrors)
        #expect(result.frame("a") == Frame(x: 16, y: 0, width: 16, height: 10))
        #expect(result.frame("b").x == 48)
        let plain = try layout(#"{"container":{"width":300,"height":100},"views":["a"],"metrics":{"pad":4},"constraints":["H:|-pad-[a]-pad-|","V:|[a]|"]}"#)
        #expect(plain.compiled.diagnostics.isEmpty)
    }

    /// An intrinsic size (a label's measured width) is quoted to 6 decimals in notes, as
    /// frames are written.
    @Test func measuredSizesInNotesHaveSixDecimals() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},
         "views":{"a":{"intrinsicSize":{"width":24,"height":24}},"b":{"intrinsicSize":{"width":202.33333333333334,"height":20}}},
         "constraints":["H:|-16-[a]-12-[b]-16-|","V:|[a]","V:|[b]"]}
        """#)
        let width = result.diagnostics.first { $0.code == .ambiguousLayout && $0.view == "b" && $0.attribute == "width" }
        #expect(width?.notes.first == "These constraints tie (same priority, and every value between them costs the same): "
            + "'a.width <= 24 @250' (a.hugging.horizontal), 'b.width <= 202.333333 @250' (b.hugging.horizontal)")
    }

    @Test func aConstraintThatCanNeverHoldSaysSo() throws {
        let scene = #"{"container":{"width":300,"height":100},"views":["a"],"constraints":["a.width == a.width + 1","a.left == 0","a.top == 0","a.height == 10","a.width == 40"]}"#
        let result = try layout(scene).1
        let conflict = try #require(conflicts(result).first)
        #expect(conflicts(result).count == 1)
        #expect(keys(conflict.conflicting) == ["0.0"])
        #expect(conflict.message == "Unable to satisfy constraint: 'a.width == a.width + 1' can never hold (its view attributes cancel out); it was left out")
        #expect(result.frame("a").width == 40)   // the constraint left out, the rest hold
    }

    @Test func threeMemberConflictNamesOnlyTheMembers() throws {
        // a.left = 0, a.width = 100, a.right == 50 conflict; the other constraints do not belong.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a","b"],
         "constraints":["a.left == 0","b.width == 10","a.width == 100","b.left == 5","a.right == 50",
                        "a.top == 0","a.height == 10","b.top == 0","b.height == 10"]}
        """#)
        let found = conflicts(result)
        #expect(found.count == 1)
        #expect(keys(found.first?.conflicting) == ["0.0", "2.0", "4.0"])
        #expect(found.first?.constraint == .scene(4))
    }

    @Test func fiveMemberConflictThroughAChain() throws {
        // a.left 0, b.left == a.right + 10, a.width 50, b.width 50, b.right == 100 → 110 ≠ 100.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a","b"],
         "constraints":["a.left == 0","b.left == a.right + 10","a.width == 50","b.width == 50","b.right == 100",
                        "a.top == 0","a.height == 10","b.top == 0","b.height == 10"]}
        """#)
        let found = conflicts(result)
        #expect(found.count == 1)
        #expect(keys(found.first?.conflicting) == ["0.0", "1.0", "2.0", "3.0", "4.0"])
    }

    @Test func oneConflictAmongAThousandConstraints() throws {
        // A chain of 250 views, 4 constraints each, then one contradicting the chain's end.
        var constraints: [String] = []
        var views: [String] = []
        for index in 0..<250 {
            let name = "v\(index)"
            views.append("\"\(name)\"")
            constraints.append(index == 0 ? "\"\(name).left == 0\"" : "\"\(name).left == v\(index - 1).right\"")
            constraints.append("\"\(name).width == 1\"")
            constraints.append("\"\(name).top == 0\"")
            constraints.append("\"\(name).height == 1\"")
        }
        constraints.append("\"v249.right == 100\"")
        let (_, result) = try layout("""
        {"container":{"width":300,"height":100},"views":[\(views.joined(separator: ","))],
         "constraints":[\(constraints.joined(separator: ","))]}
        """)
        let found = conflicts(result)
        #expect(found.count == 1)
        // Minimal: the first view's left, the 249 links and 250 widths of the chain, and the broken one.
        let expectedCount = 1 + 249 + 250 + 1
        #expect(found.first?.conflicting?.count == expectedCount)
        #expect(found.first?.broken?.key == .scene(1000))
    }

    @Test func twoIndependentConflicts() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a","b"],
         "constraints":["a.width == 10","a.width == 20","b.height == 10","b.height == 30",
                        "a.left == 0","a.top == 0","a.height == 5","b.left == 0","b.top == 0","b.width == 5"]}
        """#)
        let found = conflicts(result)
        #expect(found.map(\.constraint) == [.scene(1), .scene(3)])
        #expect(keys(found[0].conflicting) == ["0.0", "1.0"])
        #expect(keys(found[1].conflicting) == ["2.0", "3.0"])
    }

    @Test func redundantConstraintsAreNotAConflict() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.width == 0.3","a.width == 0.1 + 0.2","a.left == 0","a.right == 0.3",
                        "a.top == 0","a.height == 10","a.bottom == 10"]}
        """#)
        #expect(result.diagnostics.isEmpty)
    }

    @Test func aNestedViewsVisualFormatTextNamesItsParent() throws {
        // VFL `|` of a view inside `card` is card's edge; in an equation `superview` is
        // the container, so the text must name `card` to read back as the same constraint.
        let (_, result) = try layout(#"""
        {"container":{"width":400,"height":300},"views":{"card":{},"c":{"parent":"card"}},
         "constraints":["H:|-100-[card(200)]","V:|[card(100)]","H:|-10-[c(30)]","V:|[c(10)]",
                        "c.leading == superview.leading + 10"]}
        """#)
        let conflict = try #require(conflicts(result).first)
        #expect(conflict.broken?.text == "c.leading == superview.leading + 10")
        #expect(keys(conflict.conflicting) == ["0.0", "2.0", "4.0"])
        #expect(conflict.conflicting?.map(\.text) == ["card.leading == superview.leading + 100",
                                                     "c.leading == card.leading + 10",
                                                     "c.leading == superview.leading + 10"])
        #expect(result.frame("c") == frame(10, 0, 30, 10))   // in card's bounds: the equation is left out
    }

    @Test func aVisualFormatStringAcrossParentsSaysWhereEachViewIs() throws {
        let json = #"""
        {"container":{"width":400,"height":300},"views":{"card":{},"c":{"parent":"card"}},
         "constraints":["H:|[card(200)]","H:|[c(==card)]"]}
        """#
        let compiled = SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8))).compile()
        let error = try #require(compiled.diagnostics.first { $0.severity == .error })
        #expect(error.code == .invalidScene)
        #expect(error.message == "Views joined in one VFL string must share a parent: 'c' is in 'card', 'card' is in the container; relate views in different parents with an equation")
        #expect(error.column == 8)   // `card` in the predicate, the first view outside c's parent
        #expect(compiled.diagnostics.filter { $0.severity == .error }.count == 1)
    }

    @Test func containerConflictNamesTheImplicitConstraint() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":375,"height":100},"views":["red"],"constraints":["H:|-[red(500)]-|","V:|[red(10)]"]}
        """#)
        let found = conflicts(result)
        #expect(keys(found.first?.conflicting) == ["container.width", "0.0", "0.1", "0.2"])
        #expect(found.first?.broken?.text == "superview.trailing == red.trailing + 20")
        #expect(found.first?.column == 14)
        #expect(result.frame("red") == frame(20, 0, 500, 10))
    }

    @Test func requiredIntrinsicSizeConflictNamesCompressionResistance() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":100},
         "views":{"a":{"intrinsicSize":{"width":80,"height":10},"compressionResistance":{"horizontal":1000}}},
         "constraints":["a.width == 50","a.left == 0","a.top == 0"]}
        """#)
        let found = conflicts(result)
        #expect(keys(found.first?.conflicting) == ["a.compressionResistance.horizontal", "0.0"])
    }

    @Test func conflictsErrorRejectsTheLayout() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.width == 10","a.width == 20","a.left == 0","a.top == 0","a.height == 5"],
         "options":{"conflicts":"error"}}
        """#)
        #expect(result.isRejected)
        #expect(result.codes == ["unsatisfiable_constraints"])
    }

    // MARK: Ambiguity

    @Test func freeViewIsAmbiguousInEveryField() throws {
        let (_, result) = try layout(#"{"container":{"width":300,"height":100},"views":["a","b"],"constraints":["H:|[a]|","V:|[a]|"]}"#)
        #expect(result.ambiguous("a").isEmpty)
        #expect(result.ambiguous("b") == ["x", "y", "width", "height"])
    }

    @Test func tieBetweenSamePriorityOptionalsIsAmbiguous() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.width == 100 @500","a.width == 200 @500","a.left == 0","a.top == 0","a.height == 20"]}
        """#)
        #expect(result.ambiguous("a") == ["width"])
        // The hint names exactly the tied pair (not `a.left == 0`, which is on the same
        // axis but takes no part in the tie).
        let notes = result.diagnostics.first { $0.code == .ambiguousLayout }?.notes ?? []
        #expect(notes == [
            "These constraints tie (same priority, and every value between them costs the same): 'a.width == 100 @500' (constraint 0 part 0), 'a.width == 200 @500' (constraint 1 part 0)",
            "Fix it by giving one of them a higher priority, or with a required constraint on its width",
        ])
    }

    @Test func aMissingConstraintStillListsTheAxis() throws {
        // No tie: the width is simply free, so the note lists what is on that axis.
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.left == 0","a.top == 0","a.height == 20"]}
        """#)
        #expect(result.ambiguous("a") == ["width"])
        let notes = result.diagnostics.first { $0.code == .ambiguousLayout }?.notes ?? []
        #expect(notes.first == "Its horizontal constraints: 'a.left == 0' (constraint 0 part 0)")
    }

    @Test func aLowerPriorityBreaksTheTie() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":300,"height":100},"views":["a"],
         "constraints":["a.width == 100 @500","a.width == 200 @500","a.width == 150 @400","a.left == 0","a.top == 0","a.height == 20"]}
        """#)
        #expect(result.ambiguous("a").isEmpty)
        #expect(result.frame("a").width == 150)
    }

    @Test func ambiguityOptions() throws {
        let base = #"{"container":{"width":300,"height":100},"views":["a"],"constraints":["a.left == 0","a.top == 0","a.height == 5"],"options":{"ambiguity":"MODE"}}"#
        let (_, warn) = try layout(base.replacingOccurrences(of: "MODE", with: "warn"))
        let (_, error) = try layout(base.replacingOccurrences(of: "MODE", with: "error"))
        let (_, ignore) = try layout(base.replacingOccurrences(of: "MODE", with: "ignore"))
        let warnSeverities: [Diagnostic.Severity] = warn.diagnostics.map(\.severity)
        let errorSeverities: [Diagnostic.Severity] = error.diagnostics.map(\.severity)
        #expect(warnSeverities == [.warning])
        #expect(!warn.isRejected)
        #expect(errorSeverities == [.error])
        #expect(error.isRejected)
        #expect(ignore.diagnostics.isEmpty)
    }

    @Test func ambiguousFramesAreDeterministic() throws {
        let json = #"{"container":{"width":300,"height":100},"views":["a","b"],"constraints":["a.width == 100 @500","a.width == 200 @500","b.left >= a.right"]}"#
        let first = try layout(json).layout.frames.map(\.frame)
        for _ in 0..<5 {
            #expect(try layout(json).layout.frames.map(\.frame) == first)
        }
    }

    @Test func negativeSizeIsAWarning() throws {
        let (_, result) = try layout(#"""
        {"container":{"width":100,"height":100},"views":["a"],"constraints":["a.left == 60","a.right == 40","a.top == 0","a.height == 5"]}
        """#)
        #expect(result.frame("a").width == -20)
        let warning = result.diagnostics.first { $0.code == .negativeSize }
        #expect(warning?.view == "a")
        #expect(warning?.attribute == "width")
        #expect(warning?.severity == .warning)
    }

    @Test func aNegativeSizeUnderAFittedContainerSaysTheContainerWasFitted() throws {
        // No height: the container is fitted to the least height the constraints allow (0),
        // and the standard 20-point margins then leave 'red' -40 high.
        let (_, result) = try layout(#"""
        {"container":{"width":320},"views":["red"],"constraints":["H:|-[red]-|","V:|-[red]-|"]}
        """#)
        #expect(result.frame("red") == frame(20, 20, 280, -40))
        let warning = try #require(result.diagnostics.first { $0.code == .negativeSize })
        #expect(warning.message == "'red' has a negative height (-40 points)")
        #expect(warning.notes == ["the container's height was fitted (none was given) to 0 points, the least the constraints allow; give the container a height, or 'red' a height or an intrinsic size"])
    }

    @Test func anAmbiguousNegativeSizeIsNotReportedAsNegative() throws {
        // Two widths share 392 points in any proportion: the frames show one solution of
        // many (a is -8 wide), which the constraints do not make negative.
        let (_, result) = try layout(#"""
        {"container":{"width":400,"height":300},"views":["a","b"],"constraints":["H:|[a]-[b]|","V:|[a(10)]","V:|[b(10)]"]}
        """#)
        #expect(result.frame("a").width + result.frame("b").width == 392)
        #expect(result.frame("a").width < 0)
        #expect(!result.diagnostics.contains { $0.code == .negativeSize })
        #expect(result.diagnostics.contains { $0.code == .ambiguousLayout && $0.view == "a" && $0.attribute == "width" })
        // Without the ambiguity check nothing says the width is ambiguous: then it is reported.
        let (_, unchecked) = try layout(#"""
        {"container":{"width":400,"height":300},"views":["a","b"],"constraints":["H:|[a]-[b]|","V:|[a(10)]","V:|[b(10)]"],
         "options":{"ambiguity":"ignore"}}
        """#)
        #expect(unchecked.diagnostics.map(\.code) == [.negativeSize])
    }
}

/// `maxSolverWork` and `maxMagnitude`: limits that turn hostile scenes into 422s.
struct SolverLimitTests {
    @Test func sceneBeyondTheSolverWorkLimitIsRejected() throws {
        var views: [String] = []
        var constraints: [String] = []
        for index in 0..<100 {
            views.append("\"v\(index)\"")
            constraints.append("\"v\(index).width == v\((index * 7 + 3) % 100).width + 1 @\(1 + index % 99)\"")
            constraints.append("\"v\(index).left >= v\((index * 13 + 5) % 100).right @500\"")
        }
        let json = "{\"container\":{\"width\":400,\"height\":400},\"views\":[\(views.joined(separator: ","))],\"constraints\":[\(constraints.joined(separator: ","))]}"
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        var limits = SceneLimits()
        limits.maxSolverWork = 1_000
        let layout = SceneCompiler(scene: scene, limits: limits).compile().solve(size: scene.container.size)
        #expect(layout.isRejected)
        #expect(layout.frames.isEmpty)
        #expect(layout.diagnostics.last?.code == .limitExceeded)
        #expect(layout.diagnostics.last?.message.contains("maxSolverWork") == true)
        // The importer tells the work budget apart by this flag, not by the message.
        #expect(layout.diagnostics.last?.isWorkBudget == true)
    }

    /// The ambiguity analysis is work too: with a budget the solve alone just fits, the
    /// analysis is over it, and the 422 says that `"ambiguity": "ignore"` would skip it.
    @Test func theAmbiguityAnalysisCountsTowardTheWorkLimit() throws {
        // A chain of optional constraints with conflicting wishes: rows fill in.
        let count = 30
        var constraints = ["\"v0.left == 0\"", "\"v0.top == 0\""]
        for index in 1..<count { constraints.append("\"v\(index).left == v\(index - 1).right @500\"") }
        for index in 0..<count {
            constraints += ["\"v\(index).width == 10 @500\"", "\"v\(index).width == 30 @500\"", "\"v\(index).height == 1\""]
            if index > 0 { constraints.append("\"v\(index).top == 0\"") }
        }
        let views = (0..<count).map { "\"v\($0)\"" }.joined(separator: ",")
        func solve(ambiguity: String, limit: Int) throws -> Layout {
            let json = #"{"container":{"width":400,"height":400},"options":{"ambiguity":"\#(ambiguity)"},"views":[\#(views)],"constraints":[\#(constraints.joined(separator: ","))]}"#
            let scene = try SceneDecoder().decode(body: Array(json.utf8))
            var limits = SceneLimits()
            limits.maxSolverWork = limit
            return SceneCompiler(scene: scene, limits: limits).compile().solve(size: scene.container.size)
        }
        // The least budget the solve alone needs (binary search; rejected below it).
        var low = 0, high = 1 << 24
        #expect(try !solve(ambiguity: "ignore", limit: high).isRejected)
        while high - low > 1 {
            let middle = (low + high) / 2
            if try solve(ambiguity: "ignore", limit: middle).isRejected { low = middle } else { high = middle }
        }
        let exact = try solve(ambiguity: "warn", limit: high)
        #expect(exact.isRejected)
        #expect(exact.frames.isEmpty)
        #expect(exact.diagnostics.last?.code == .limitExceeded)
        #expect(exact.diagnostics.last?.message.contains("checking it for ambiguity") == true)
        #expect(exact.diagnostics.last?.message.contains(#""ambiguity": "ignore" skips the check"#) == true)
        // With room for the analysis the ties are reported as usual.
        let roomy = try solve(ambiguity: "warn", limit: 1 << 24)
        #expect(!roomy.isRejected)
        #expect(roomy.diagnostics.contains { $0.code == .ambiguousLayout })
    }

    /// More distinct optional priorities than `maxPriorityLevels` is a 422 before
    /// solving; as many is fine.
    @Test func distinctPrioritiesAreLimited() throws {
        func scene(levels: Int) throws -> CompiledScene {
            // Priorities 1.5, 2.0, 2.5, ...: `levels` distinct ones below 1000.
            let wishes = (0..<levels).map { "\"a.width == \($0 % 97) @\(1 + Double($0 + 1) / 2)\"" }
            let json = #"{"container":{"width":400,"height":400},"views":["a"],"constraints":["V:|[a(10)]",\#(wishes.joined(separator: ","))]}"#
            var limits = SceneLimits()
            limits.maxPriorityLevels = 100
            return SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8)), limits: limits).compile()
        }
        #expect(try !scene(levels: 100).hasErrors)
        let over = try scene(levels: 101)
        #expect(over.diagnostics.map(\.code) == [.limitExceeded])
        #expect(over.diagnostics.first?.message == "The scene uses 101 different priorities below 1000; at most 100 are allowed (limit maxPriorityLevels): round them, each distinct priority is a level of its own")
    }

    /// The count of distinct optional priorities is exact whether it stays within the
    /// short list the compiler compares in place or goes past it: `k` distinct values,
    /// each repeated and in a scrambled order (a later repeat of an early value, fractions
    /// and the intrinsic sizes' 250 and 750 among them), are `k` levels, at the limit and
    /// one past it.
    @Test(arguments: [1, 15, 16, 17, 18, 40])
    func levelCountIsTheDistinctCount(_ distinct: Int) throws {
        // Priorities 100.5, 101.5, ... plus 250 and 750 from the intrinsic size: `distinct` in all.
        let values = (0..<(distinct - 2 > 0 ? distinct - 2 : 0)).map { 100.5 + Double($0) }
        var wishes: [String] = []
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for round in 0..<3 {
            for index in values.indices {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let value = values[(index + Int(state >> 59) + round) % values.count]
                wishes.append("\"a.width == \(index % 7) @\(value)\"")
            }
        }
        for value in values { wishes.append("\"a.height == 3 @\(value)\"") }   // each value at least once
        let views = distinct >= 2 ? #"{"a":{"intrinsicSize":{"width":10,"height":10}}}"# : #"{"a":{"intrinsicSize":{"width":10,"height":-1},"hugging":{"horizontal":250},"compressionResistance":{"horizontal":250}}}"#
        let json = #"{"container":{"width":400,"height":400},"views":\#(views),"constraints":\#("[" + (["\"V:|[a]\""] + wishes).joined(separator: ",") + "]")}"#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        for limit in [distinct, distinct - 1] where limit >= 1 {
            var limits = SceneLimits()
            limits.maxPriorityLevels = limit
            let compiled = SceneCompiler(scene: scene, limits: limits).compile()
            if limit == distinct {
                #expect(!compiled.hasErrors, "\(distinct) levels at a limit of \(limit)")
            } else {
                #expect(compiled.diagnostics.map(\.code) == [.limitExceeded])
                #expect(compiled.diagnostics.first?.message.hasPrefix("The scene uses \(distinct) different priorities below 1000; at most \(limit) are allowed") == true)
            }
        }
    }

    /// The constraint text of a scene and its groups together is limited (groups are
    /// stored separately, each within the body limit).
    @Test func constraintBytesWithGroupsAreLimited() throws {
        let scene = try SceneDecoder().decode(body: Array(#"{"container":{"width":100,"height":10},"views":["a"],"constraints":["H:|[a]|"]}"#.utf8))
        let entry = ConstraintEntry(kind: .equation, source: "a.height == 10")   // 14 bytes
        let group = ResolvedGroup(name: "g", version: 1, constraints: Array(repeating: entry, count: 10), metrics: [:])
        var limits = SceneLimits()
        limits.maxTotalConstraintBytes = 7 + 140
        #expect(!SceneCompiler(scene: scene, groups: [group], limits: limits).compile().hasErrors)
        limits.maxTotalConstraintBytes = 7 + 139
        let over = SceneCompiler(scene: scene, groups: [group], limits: limits).compile()
        #expect(over.diagnostics.map(\.code) == [.limitExceeded])
        #expect(over.diagnostics.first?.message == "The scene and its groups have 147 bytes of constraints; at most 146 are allowed (limit maxTotalConstraintBytes)")
    }

    /// Diagnostics quote a constraint's text cut to 256 scalars: an equation of 400
    /// terms, ambiguous everywhere, does not make every note carry it whole.
    @Test func longConstraintTextsAreCutInDiagnostics() throws {
        let views = (0..<400).map { "v\($0)" }
        let sum = views.map { "\($0).left" }.joined(separator: " + ")
        let json = #"{"container":{"width":100,"height":10},"views":[\#(views.map { "\"\($0)\"" }.joined(separator: ","))],"constraints":["\#(sum) == 5"]}"#
        let (_, layout) = try layout(json)
        let notes = layout.diagnostics.flatMap(\.notes)
        #expect(!notes.isEmpty)
        let quoted = notes.first { $0.contains("v0.left") }
        #expect(quoted != nil)
        #expect(quoted?.contains("…") == true)
        #expect((quoted?.count ?? .max) < 400)
        #expect(ConstraintRef(key: .scene(0), text: String(repeating: "x", count: 300)).text
            == String(repeating: "x", count: 255) + "…")
        #expect(ConstraintRef(key: .scene(0), text: String(repeating: "x", count: 256)).text == String(repeating: "x", count: 256))
        #expect(ConstraintRef(key: .scene(0), text: "a.width == 5").text == "a.width == 5")
    }

    @Test func conflictExplanationsCountTowardTheWorkLimit() throws {
        // A chain of required equalities and one closure that contradicts it: the
        // solve rejects the closure cheaply, explaining it re-adds the whole chain.
        let count = 40
        var constraints = ["\"v0.left == 0\""]
        for index in 1..<count { constraints.append("\"v\(index).left == v\(index - 1).left + 1\"") }
        for index in 0..<count { constraints += ["\"v\(index).width == 10\"", "\"v\(index).top == 0\"", "\"v\(index).height == 10\""] }
        let withClosure = constraints + ["\"v\(count - 1).left == v0.left + 0.5\""]
        let views = (0..<count).map { "\"v\($0)\"" }.joined(separator: ",")
        func solve(_ constraints: [String], limit: Int) throws -> Layout {
            let json = #"{"container":{"width":400,"height":400},"options":{"ambiguity":"ignore"},"views":[\#(views)],"constraints":[\#(constraints.joined(separator: ","))]}"#
            let scene = try SceneDecoder().decode(body: Array(json.utf8))
            var limits = SceneLimits()
            limits.maxSolverWork = limit
            return SceneCompiler(scene: scene, limits: limits).compile().solve(size: scene.container.size)
        }
        /// The least budget under which `constraints` are not rejected (binary search).
        func leastBudget(_ constraints: [String]) throws -> Int {
            var low = 0, high = 1 << 24
            #expect(try !solve(constraints, limit: high).isRejected)
            while high - low > 1 {
                let middle = (low + high) / 2
                if try solve(constraints, limit: middle).isRejected { low = middle } else { high = middle }
            }
            return high
        }
        // The solve without the closure, and with it and its explanation, which re-adds
        // the chain to scratch solvers (measured: 16,238 and 25,000 cell operations).
        let solveAlone = try leastBudget(constraints)
        let withExplanation = try leastBudget(withClosure)
        #expect(withExplanation > solveAlone + 10 * count, "\(solveAlone) \(withExplanation)")
        for limit in [(solveAlone + withExplanation) / 2, withExplanation - 1] {
            let tight = try solve(withClosure, limit: limit)
            #expect(tight.isRejected)
            #expect(tight.frames.isEmpty)
            #expect(tight.diagnostics.last?.code == .limitExceeded)
            #expect(tight.diagnostics.last?.message.contains("explaining its conflicts") == true, "\(limit)")
            #expect(tight.diagnostics.last?.message.contains("ambiguity") == false)
        }
        // With room for the explanation the conflict names the whole chain, as before.
        let roomy = try solve(withClosure, limit: withExplanation)
        #expect(!roomy.isRejected)   // conflicts: break by default
        let conflict = roomy.diagnostics.first { $0.code == .unsatisfiableConstraints }
        #expect(conflict?.conflicting?.count == count)   // the count - 1 links and the closure
        #expect(!roomy.diagnostics.contains { $0.code == .limitExceeded })
    }

    /// Each ambiguity diagnostic is charged to the budget, so many sizes of an
    /// ambiguous scene stop at the limit instead of writing one per field per size.
    @Test func ambiguityDiagnosticsAcrossSizesCountTowardTheWorkLimit() throws {
        // Ten views in a row with no widths: the widths are ambiguous at every size.
        let views = (0..<10).map { "\"v\($0)\"" }.joined(separator: ",")
        let row = "H:|-" + (0..<10).map { "[v\($0)]" }.joined(separator: "-") + "-|"
        let json = #"{"container":{"height":100},"views":[\#(views)],"constraints":["\#(row)"]}"#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        var limits = SceneLimits()
        limits.maxSolverWork = 1_000_000
        let layouts = SceneCompiler(scene: scene, limits: limits).compile()
            .solve(sizes: (0..<100).map { ContainerSize(width: 400 + Double($0), height: 100) })
        let served = layouts.filter { !$0.isRejected }
        #expect(!served.isEmpty)
        #expect(served.allSatisfy { $0.diagnostics.contains { $0.code == .ambiguousLayout } })
        // 10 ambiguous widths (and more) per size at 2,500 each: well under 100 sizes fit.
        #expect(served.count < 40, "\(served.count)")
        #expect(layouts.last?.diagnostics.last?.code == .limitExceeded)
    }

    /// Each explained conflict is charged: its explanation (every required constraint
    /// indexed again, at ``Solver/linkIndexCost`` a record or term), its diagnostic and
    /// its refs. So `sizes` of a scene that explains conflicts at every size stop at the
    /// limit at the pace of the simplex instead of taking several seconds.
    @Test func conflictsAcrossSizesCountTowardTheWorkLimit() throws {
        let count = 20
        let names = (0..<count).map { "v\($0)" }
        let base = names.flatMap { ["\"H:|[\($0)(10)]\"", "\"V:|[\($0)(20)]\""] }
        let conflicting = names.map { "\"\($0).width == 11\"" }
        func compile(_ constraints: [String], limit: Int) throws -> CompiledScene {
            let views = names.map { "\"\($0)\"" }.joined(separator: ",")
            let json = #"{"container":{"width":400,"height":400},"views":[\#(views)],"constraints":[\#(constraints.joined(separator: ","))]}"#
            var limits = SceneLimits()
            limits.maxSolverWork = limit
            return SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8)), limits: limits).compile()
        }
        func leastBudget(_ constraints: [String]) throws -> Int {
            var low = 0, high = 1 << 24
            #expect(try !compile(constraints, limit: high).solve(size: ContainerSize(width: 400, height: 400)).isRejected)
            while high - low > 1 {
                let middle = (low + high) / 2
                if try compile(constraints, limit: middle).solve(size: ContainerSize(width: 400, height: 400)).isRejected {
                    low = middle
                } else {
                    high = middle
                }
            }
            return high
        }
        let alone = try leastBudget(base)
        let withConflicts = try leastBudget(base + conflicting)
        // Per conflict at least: its diagnostic, its two refs, and the records looked at
        // while finding the linked constraints (the container's two and each view's four).
        let perConflict = CompiledScene.conflictDiagnosticCost + 2 * CompiledScene.explanationRefCost
            + Solver.linkIndexCost * (2 + 4 * count)
        #expect(withConflicts - alone >= count * perConflict, "\(alone) \(withConflicts)")
        let layout = try compile(base + conflicting, limit: withConflicts).solve(size: ContainerSize(width: 400, height: 400))
        #expect(layout.diagnostics.filter { $0.code == .unsatisfiableConstraints }.count == count)

        // 100 sizes within the budget of 20: each size costs the same, the base solve
        // (refused by the conflicts) costs less than one, so 19 or 20 are served and
        // the rest are `limit_exceeded`.
        let layouts = try compile(base + conflicting, limit: 20 * withConflicts)
            .solve(sizes: (0..<100).map { ContainerSize(width: 400 + Double($0), height: 400) })
        let served = layouts.prefix { !$0.isRejected }
        #expect((19...20).contains(served.count), "\(served.count)")
        #expect(served.allSatisfy { $0.diagnostics.filter { $0.code == .unsatisfiableConstraints }.count == count })
        #expect(layouts.dropFirst(served.count).allSatisfy { $0.isRejected && $0.diagnostics.last?.code == .limitExceeded })
    }

    @Test func hugeConstantsAreLimitExceeded() throws {
        let scene = try SceneDecoder().decode(body: Array(#"{"container":{"width":100,"height":10},"views":["a"],"constraints":["a.width == 1e308","H:|[a]","V:|[a]|"]}"#.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        #expect(compiled.diagnostics.map(\.code) == [.limitExceeded])
        #expect(compiled.diagnostics.first?.constraint == .scene(0))
        #expect(compiled.diagnostics.first?.column == 11)   // at "1e308", not at "a.width"
    }

    /// The column of a limit error is the number's own (its first digit): in an
    /// equation, in a VFL predicate, as a multiplier.
    @Test("limit error columns", arguments: [
        ("a.left == b.right * 2 + 2.5e13", 24),
        ("H:|-(-30000000000000)-[a]", 6),
        ("a.width == 1e13 * b.width", 11),
    ])
    func limitErrorColumn(_ text: String, _ expected: Int) throws {
        let json = #"{"container":{"width":100,"height":10},"views":["a","b"],"constraints":["# + "\"" + text + "\"" + "]}"
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let compiled = SceneCompiler(scene: scene).compile()
        let diagnostic = compiled.diagnostics.first { $0.code == .limitExceeded || $0.severity == .error }
        #expect(diagnostic?.code == .limitExceeded, "\(compiled.diagnostics)")
        #expect(diagnostic?.column == expected)
    }

    @Test func hugeContainerIsLimitExceeded() {
        #expect(throws: SceneRejection.self) {
            try SceneDecoder().decode(body: Array(#"{"container":{"width":1e308,"height":10}}"#.utf8))
        }
    }

    @Test func farAwaySolutionIsLimitExceeded() throws {
        // Every number is within 1e12, but the chain multiplies: 1e11 · 20 = 2e12 > 1e12.
        let (_, layout) = try layout(#"""
        {"container":{"width":100,"height":10},"views":["a","b"],
         "constraints":["a.left == 100000000000","b.left == a.left * 20","a.width == 1","b.width == 1","V:|[a]|","V:|[b]|"]}
        """#)
        #expect(layout.isRejected)
        #expect(layout.diagnostics.contains { $0.code == .limitExceeded })
        #expect(!layout.diagnostics.contains { $0.isWorkBudget })
    }
}

/// Where a name or a number fault points: the column of the name or number itself.
struct FaultColumnTests {
    func compile(_ constraints: [String], metrics: String = "{}") throws -> CompiledScene {
        let list = constraints.map { $0.hasPrefix("{") ? $0 : "\"" + $0 + "\"" }.joined(separator: ",")
        let json = #"{"container":{"width":100,"height":10},"views":["a","b"],"metrics":"# + metrics + #","constraints":["# + list + "]}"
        return SceneCompiler(scene: try SceneDecoder().decode(body: Array(json.utf8))).compile()
    }

    /// A VFL string that is one view alone makes no constraint; an unknown name in it is
    /// still `unknown_view` at the name (as `H:[c(10)]` and `H:|[c]` always were).
    @Test("a view alone in VFL is checked", arguments: [
        ("H:[c]", 3), ("V:[c]", 3), ("[c]", 1), ("H: [ c ]", 5), ("H:[c(10)]", 3), ("H:|[c]", 4), ("[superview]", 1),
    ])
    func loneUnknownView(_ source: String, _ column: Int) throws {
        let compiled = try compile([source])
        #expect(compiled.diagnostics.map(\.code) == [.unknownView])
        #expect(compiled.diagnostics.first?.severity == .error)
        #expect(compiled.diagnostics.first?.column == column)
        #expect(compiled.diagnostics.first?.constraint == .scene(0))
        #expect(compiled.hasErrors)
    }

    /// A name in a VFL predicate or connection that is neither a metric nor a view of the
    /// scene is `unknown_metric` at its first character, with Apple's message (the
    /// contract's caret table); a bracketed one is a view, `unknown_view`.
    @Test("a VFL name neither a metric nor a view", arguments: [
        ("H:[a(width)]", 5), ("H:[a(>=width@750)]", 7), ("H:[a]-width-[b]", 6), ("H:[a]-(<=width)-[b]", 9),
        ("H:[a(50@width)]", 8), ("V:[a(==width)]-[b]", 7),
    ])
    func unknownNameInAPredicateIsAnUnknownMetric(_ source: String, _ column: Int) throws {
        let compiled = try compile([source])
        #expect(compiled.diagnostics.map(\.code) == [.unknownMetric])
        #expect(compiled.diagnostics.first?.column == column)
        #expect(compiled.diagnostics.first?.message
            == #"Encountered metric with name "width", but value was not specified in metrics or views dictionaries"#)
        #expect(compiled.hasErrors)
        let bracketed = try compile(["H:[a]-[width]"])
        #expect(bracketed.diagnostics.map(\.code) == [.unknownView])
        #expect(bracketed.diagnostics.first?.message == "Unknown view 'width'")
    }

    /// Names other tools give the container (`container`, UIKit's `view`, `self`) point to
    /// `superview`, in equations and in VFL; a close view name still wins.
    @Test func containerNamesPointToSuperview() throws {
        let hint = "; the container is 'superview' in equations (superview.ATTRIBUTE) and '|' in VFL"
        let equation = try compile(["a.width == container.width"])
        #expect(equation.diagnostics.map(\.message) == ["Unknown view 'container'" + hint])
        #expect(equation.diagnostics.first?.column == 11)
        #expect(try compile(["a.width == self.width"]).diagnostics.map(\.message) == ["Unknown view 'self'" + hint])
        #expect(try compile(["H:|[a][View]|"]).diagnostics.map(\.message) == ["Unknown view 'View'" + hint])
        // Another unknown name gets no such hint.
        #expect(try compile(["a.width == header.width"]).diagnostics.map(\.message) == ["Unknown view 'header'"])
    }

    /// A view of the scene in a predicate is a view (whether or not the string brackets
    /// it), and `superview` there keeps its own message.
    @Test func aSceneViewInAPredicateIsAView() throws {
        let compiled = try compile(["H:|[a(==b)]", "V:|[a(10)]"])
        #expect(compiled.diagnostics.isEmpty)
        let container = try compile(["H:[a(==superview)]"])
        #expect(container.diagnostics.map(\.code) == [.unknownView])
        #expect(container.diagnostics.first?.column == 7)
    }

    /// A view of the scene as a connection's space is `vfl_syntax` just after its name,
    /// bracketed in the string or not; a metric of the same name wins.
    @Test("a view as a space", arguments: [("H:[a]-(b)-|", 8), ("H:|-b-[a]", 5), ("V:[a]-(>=a@750)-|", 10)])
    func aViewAsASpace(_ source: String, _ column: Int) throws {
        let compiled = try compile([source])
        #expect(compiled.diagnostics.map(\.code) == [.vflSyntax])
        #expect(compiled.diagnostics.first?.column == column)
        #expect(compiled.diagnostics.first?.message.hasPrefix("It's not possible to set a space equal to the width or height of a view") == true)
        let metric = try compile([source], metrics: #"{"a":5,"b":5}"#)
        #expect(!metric.diagnostics.contains { $0.code == .vflSyntax })
    }

    @Test func loneKnownViewIsFine() throws {
        let compiled = try compile(["H:[a]", "V:[b]", "[a]"])
        #expect(compiled.diagnostics.isEmpty)
        #expect(compiled.constraints.allSatisfy { $0.source == nil })   // only the implicit ones
    }

    /// Every literal beyond ±1e12, and every metric used whose value is beyond it, is
    /// `limit_exceeded` at its own column, even when the arithmetic cancels it out.
    @Test("limit error at the number or metric", arguments: [
        ("a.width == b.width + big", 21, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:|-big-[a]", 4, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:|-(==big)-[a]", 7, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:[a(>=big@500)]", 7, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
        ("distribute(by: big, horizontally: a, b)", 15, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
        ("a.width == 1e13 - 1e13 + 5", 11, "The number 1e13 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("a.width == 5 + 2e13 - 2e13", 15, "The number 2e13 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("a.width == b.width * 3e12 / 3e12", 21, "The number 3e12 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        // Arithmetic that overflows a double: still the first number beyond the limit
        // (not an `equation_syntax` "Number is out of range" at column 0).
        ("a.width == b.width * 1e300 * 1e300", 21, "The number 1e300 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        // A literal beyond a double is beyond the limit too (not "Number is out of range").
        ("a.width == 1e309", 11, "The number 1e309 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("a.width == b.width - 1e309 + 1e309", 21, "The number 1e309 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("distribute(by: 1e400, horizontally: a, b)", 15, "The number 1e400 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:|-1e999-[a]", 4, "The number 1e999 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:[a(<=1e999)]", 7, "The number 1e999 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        ("H:|-(-30000000000000)-[a]", 6, "The number 30000000000000 in constraint 0 is beyond ±1000000000000 (limit maxMagnitude)"),
        (#"{"equation":"a.width == pad + big","id":"x"}"#, 17, "Metric 'big' in constraint 0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)"),
    ])
    func limitAtTheNumber(_ source: String, _ expected: Int, _ message: String) throws {
        let compiled = try compile([source], metrics: #"{"big":1e13,"pad":8}"#)
        #expect(compiled.diagnostics.map(\.code) == [.limitExceeded], "\(compiled.diagnostics)")
        #expect(compiled.diagnostics.first?.severity == .error)
        #expect(compiled.diagnostics.first?.column == expected)
        #expect(compiled.diagnostics.first?.message == message)
    }

    /// A product of numbers within the limit is checked on the combined constraint, at its start.
    @Test func productBeyondTheLimitIsAtTheStart() throws {
        let compiled = try compile(["a.width == 5 + 1e12 * 1e12 * b.width"])
        #expect(compiled.diagnostics.map(\.code) == [.limitExceeded])
        #expect(compiled.diagnostics.first?.column == 0)
        #expect(compiled.diagnostics.first?.part == 0)
        #expect(compiled.diagnostics.first?.message == "Constraint 0 has a number beyond ±1000000000000 (limit maxMagnitude)")
        #expect(ConstraintKey.group(name: "g4", index: 0).sentenceStart == "The constraint group:g4/0")
        #expect(ConstraintKey.scene(3).sentenceStart == "Constraint 3")
    }

    /// An unused metric beyond the limit is not checked (openapi.yaml, Metrics), nor a
    /// metric within it; a group's metric overrides the scene's before the check.
    @Test func unusedOrOverriddenMetricIsFine() throws {
        #expect(try compile(["a.width == pad"], metrics: #"{"big":1e13,"pad":8}"#).diagnostics.isEmpty)
        #expect(try compile(["a.width == 1e12", "b.width == -1e12"]).diagnostics.isEmpty)
        let json = #"{"views":["a"],"metrics":{"big":1e13},"constraints":["a.height == 1"]}"#
        let scene = try SceneDecoder().decode(body: Array(json.utf8))
        let group = ResolvedGroup(name: "g", version: 1, constraints: [ConstraintEntry(kind: .equation, source: "a.width == big")],
                                  metrics: ["big": 5])
        #expect(SceneCompiler(scene: scene, groups: [group]).compile().diagnostics.isEmpty)
        let plain = ResolvedGroup(name: "g", version: 1, constraints: [ConstraintEntry(kind: .equation, source: "a.width == big")],
                                  metrics: [:])
        let beyond = SceneCompiler(scene: scene, groups: [plain]).compile().diagnostics
        #expect(beyond.map(\.code) == [.limitExceeded])
        #expect(beyond.first?.constraint == .group(name: "g", index: 0))
        #expect(beyond.first?.column == 11)
        #expect(beyond.first?.message == "Metric 'big' in group:g/0 is 10000000000000, which is beyond ±1000000000000 (limit maxMagnitude)")
    }

    /// A priority both in the `priority` field and in the text: the error is at the `@`.
    @Test("double priority at the @", arguments: [
        (#"{"equation":"a.width == 5 @500","priority":500}"#, 13, 0),
        (#"{"equation":"a.width == 5 ~ high","priority":500}"#, 13, 0),
        (#"{"equation":"align(top: a, b) @250","priority":500}"#, 17, 0),
        (#"{"equation":"a.size == b.size @300","priority":500}"#, 17, 0),
        (#"{"vfl":"H:|-(8@500)-[a]","priority":500}"#, 6, 0),
        (#"{"vfl":"H:[a(>=10,<=20@700)]","priority":500}"#, 14, 1),
    ])
    func doublePriority(_ entry: String, _ expected: Int, _ part: Int) throws {
        let compiled = try compile([entry])
        let errors = compiled.diagnostics.filter { $0.severity == .error }
        #expect(errors.first?.code == .invalidScene)
        #expect(errors.first?.message == "The constraint gives a priority both in its \"priority\" field and in its text; give one")
        #expect(errors.first?.column == expected)
        #expect(errors.first?.part == part)
    }
}

/// Views nothing constrains are all ambiguous, and each ambiguous field's diagnostic
/// is charged against the work limit: when that uses the budget up, the 422 names the
/// ambiguity check and `"ambiguity": "ignore"` (not "solving it").
struct AmbiguityBudgetTests {
    @Test func unconstrainedViewsOverTheBudgetPointAtTheAmbiguityCheck() throws {
        func layout(ambiguity: String) throws -> Layout {
            let views = (0..<400).map { "\"v\($0)\"" }.joined(separator: ",")
            let json = #"{"container":{"width":320,"height":100},"options":{"ambiguity":"\#(ambiguity)"},"views":[\#(views)],"constraints":[]}"#
            let scene = try SceneDecoder().decode(body: Array(json.utf8))
            var limits = SceneLimits()
            limits.maxSolverWork = 3_000_000   // 1,600 ambiguous fields cost 4,000,000
            return SceneCompiler(scene: scene, limits: limits).compile().solve(sizes: [scene.container.size])[0]
        }
        let checked = try layout(ambiguity: "warn")
        #expect(checked.isRejected)
        let message = checked.diagnostics.last?.message ?? ""
        #expect(checked.diagnostics.last?.code == .limitExceeded)
        #expect(message.contains("in checking it for ambiguity"))
        #expect(message.contains(#""ambiguity": "ignore" skips the check"#))
        let ignored = try layout(ambiguity: "ignore")
        #expect(!ignored.isRejected)
        #expect(ignored.frames.count == 401)
    }
}

/// A scene whose views widen one after another, each bound by the container's right
/// edge: the resizable base (container width free) defers those bounds and installs
/// them widest first, so its work grows linearly (in n² order, 4,000 such views would
/// exceed the default work limit).
struct WideningRowsTests {
    static func scene(views count: Int) throws -> Scene {
        var views: [String] = []
        var constraints: [String] = []
        for index in 1...count {
            views.append("\"v\(index)\"")
            constraints.append("\"H:|-8-[v\(index)(\(index)@500)]-(>=8)-|\"")
            constraints.append("\"V:|-\(20 * index)-[v\(index)(10)]\"")
        }
        let json = "{\"container\":{\"width\":100000,\"height\":600},\"views\":[\(views.joined(separator: ","))],\"constraints\":[\(constraints.joined(separator: ","))]}"
        return try SceneDecoder().decode(body: Array(json.utf8))
    }

    @Test func theResizableBaseOfWideningRowsCostsLinearWork() throws {
        let small = try Self.scene(views: 500)
        let large = try Self.scene(views: 1_000)
        let smallBase = SceneCompiler(scene: small, limits: SceneLimits()).compile().makeResizableBase(fitsWidth: true, fitsHeight: true)
        let largeBase = SceneCompiler(scene: large, limits: SceneLimits()).compile().makeResizableBase(fitsWidth: true, fitsHeight: true)
        #expect(smallBase.solver != nil && largeBase.solver != nil)
        // Twice the views, about twice the work (four times before).
        #expect(largeBase.work < 5 * smallBase.work / 2)
        // The fitted width: the widest view (1,000) between margins of 8.
        let fitted = largeBase.solver!.value(of: SceneCompiler(scene: large, limits: SceneLimits()).compile().hierarchy.widthVariable(0))
        #expect(fitted == 1_016)
    }
}
