import LayoutCompiler

/// The baselines of text views, back-solved from the recorded frames (SceneBuilder.swift
/// holds the reading).
extension SceneBuilder {
    /// Elements whose baselines are their text's (UIKit's `forFirstBaselineLayout` and
    /// `forLastBaselineLayout` of a label, text field, text view or button): where their
    /// text's font puts them, which the document does not record (a custom class can
    /// draw another font than the `<fontDescription>` it shows). Every other view's
    /// baselines are its bottom edge, as UIView's are.
    static let textBaselineElements: Set<String> = ["label", "textField", "textView", "button"]

    /// The first and last baselines of text views, back-solved from the recorded frames:
    /// each required `==` constraint with multiplier 1 between a text view's
    /// `firstBaseline` or `baseline` (its last) and a vertical edge or centre (`top`,
    /// `bottom`, `centerY`) of another view gives that baseline's offset from the text
    /// view's recorded top as the other view's recorded alignment rectangle says it, plus
    /// or minus the constant (the constraint holds on the recorded frames, as it does in an
    /// unmarked hierarchy). Per view and baseline the most frequent value wins (ties to the
    /// smaller); offsets outside the view's recorded height are not its text's and are left
    /// out, and so are views marked misplaced or ambiguous. Then, so that text views
    /// aligned by their baselines stay aligned, a baseline found this way is carried to each
    /// text view whose baseline a required `==` constraint with multiplier 1 ties to it
    /// (plus or minus the constant), or that a baseline-aligned horizontal stack aligns with
    /// it, measured on that view's recorded top, until none is left to carry. A baseline
    /// neither tells keeps the scene's default (the bottom edge; the first baseline as the
    /// last). Noted per view.
    /// `IBMappingTests.textBaselinesAreBackSolvedFromTheRecordedFrames` holds it.
    mutating func inferBaselines() {
        var votes: [String: [String: [Double: Int]]] = [:]
        for equality in requiredEqualities {
            for baselineIsFirst in [true, false] {
                let (owner, ownerAttribute, other, otherAttribute) = baselineIsFirst
                    ? (equality.first, equality.firstAttribute, equality.second, equality.secondAttribute)
                    : (equality.second, equality.secondAttribute, equality.first, equality.firstAttribute)
                let which: String
                switch ownerAttribute {
                case "firstBaseline": which = "firstBaseline"
                case "baseline", "lastBaseline": which = "baseline"
                default: continue
                }
                guard owner != other, let ownerView = view(named: owner), let otherView = view(named: other),
                      Self.textBaselineElements.contains(ownerView.element.name),
                      !Self.isMarked(ownerView), !Self.isMarked(otherView) else { continue }
                let frame = alignmentFrame(otherView)
                let value: Double
                switch otherAttribute {
                case "top": value = frame.y
                case "bottom": value = frame.y + frame.height
                case "centerY": value = frame.y + frame.height / 2
                default: continue
                }
                // first = second + constant.
                let line = baselineIsFirst ? value + equality.constant : value - equality.constant
                let offset = Self.cleaned(line - ownerView.absolute.y)
                guard offset.isFinite, offset >= 0, offset <= ownerView.absolute.height + 1e-3 else { continue }
                votes[owner, default: [:]][which, default: [:]][offset, default: 0] += 1
            }
        }
        for view in views {
            guard let found = votes[view.name] else { continue }
            for which in ["firstBaseline", "baseline"] {
                guard let best = found[which]?.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }).first?.key else { continue }
                solvedBaselines[view.name, default: [:]][which] = best
            }
        }
        carryBaselines()
        for view in views {
            guard let found = solvedBaselines[view.name] else { continue }
            let said = [("firstBaseline", "first"), ("baseline", "last")].compactMap { which, word in
                found[which].map { "\(word) \(JSONWriter.format($0))" }
            }
            notes.append("Baselines of \(view.name) (\(said.joined(separator: ", ")) below its top) back-solved from the recorded frames (its text's font metrics are not recorded)")
        }
    }

    /// The baseline attribute (`firstBaseline` or `baseline`) an IB attribute names, or nil.
    static func baselineKind(_ attribute: String) -> String? {
        switch attribute {
        case "firstBaseline": return "firstBaseline"
        case "baseline", "lastBaseline": return "baseline"
        default: return nil
        }
    }

    /// Carries back-solved baselines along baseline-to-baseline ties (``inferBaselines()``).
    /// - Complexity: O(ties × text views): each pass sets at least one baseline or ends.
    mutating func carryBaselines() {
        // (first view, its baseline, second view, its baseline, constant): first = second + constant.
        var ties: [(String, String, String, String, Double)] = []
        for equality in requiredEqualities {
            guard let firstKind = Self.baselineKind(equality.firstAttribute),
                  let secondKind = Self.baselineKind(equality.secondAttribute) else { continue }
            ties.append((equality.first, firstKind, equality.second, secondKind, equality.constant))
        }
        for stack in views where stack.element.name == "stackView" && stack.element["axis"] != "vertical" {
            let kind: String
            switch stack.element["alignment"] {
            case "firstBaseline": kind = "firstBaseline"
            case "baseline", "lastBaseline": kind = "baseline"
            default: continue
            }
            let arranged = views.filter { $0.parent == stack.name && $0.isArranged }
            guard let first = arranged.first else { continue }
            for other in arranged.dropFirst() { ties.append((other.name, kind, first.name, kind, 0)) }
        }
        // A view's first baseline is its last when only the last is known (the scene's default).
        func line(_ name: String, _ kind: String) -> Double? {
            guard let view = view(named: name) else { return nil }
            let known = solvedBaselines[name]
            guard let offset = known?[kind] ?? (kind == "firstBaseline" ? known?["baseline"] : nil) else { return nil }
            return view.absolute.y + offset
        }
        var changed = true
        while changed {
            changed = false
            for (first, firstKind, second, secondKind, constant) in ties {
                for (known, knownKind, other, otherKind, value) in [(second, secondKind, first, firstKind, constant),
                                                                     (first, firstKind, second, secondKind, -constant)] {
                    guard solvedBaselines[other]?[otherKind] == nil, let knownLine = line(known, knownKind),
                          let view = view(named: other), Self.textBaselineElements.contains(view.element.name),
                          !Self.isMarked(view) else { continue }
                    let offset = Self.cleaned(knownLine + value - view.absolute.y)
                    guard offset.isFinite, offset >= 0, offset <= view.absolute.height + 1e-3 else { continue }
                    solvedBaselines[other, default: [:]][otherKind] = offset
                    changed = true
                }
            }
        }
    }
}
