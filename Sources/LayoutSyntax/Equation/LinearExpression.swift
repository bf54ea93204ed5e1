/// A compound attribute of the equation syntax, expanded into several constraints.
enum CompoundAttribute: Equatable {
    case edges, size, center

    /// The attributes it expands to, in the contract's order.
    var attributes: [Attribute] {
        switch self {
        case .edges: return [.top, .leading, .bottom, .trailing]
        case .size: return [.width, .height]
        case .center: return [.centerX, .centerY]
        }
    }

    var name: String {
        switch self {
        case .edges: return "edges"
        case .size: return "size"
        case .center: return "center"
        }
    }

    init?(name: String) {
        switch name {
        case "edges": self = .edges; return
        case "size": self = .size; return
        case "center": self = .center; return
        default: break
        }
        // Names are case-insensitive; only a name with an uppercase letter pays for lowercasing.
        guard (4...6).contains(name.utf8.count), name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        switch name.lowercased() {
        case "edges": self = .edges
        case "size": self = .size
        case "center": self = .center
        default: return nil
        }
    }
}

/// What a term's attribute is before compound attributes are expanded.
enum AttributeSlot: Equatable {
    /// `a.width`.
    case single(Attribute)
    /// `a.edges`, `a.size`, `a.center`.
    case compound(CompoundAttribute)
    /// `a.top | left | right`.
    case list([Attribute])
    /// A bare view name (`b` in `a.edges == b`): the same attributes as the other terms.
    case bare
    /// An unknown attribute, already diagnosed.
    case invalid
}

/// One term while parsing: `coefficient × item.slot`.
struct ExpressionTerm {
    var item: ItemReference
    var slot: AttributeSlot
    var coefficient: Double
    /// The item's name.
    var itemSpan: Range<Int>
    /// The attribute's name (the item's name for a bare view).
    var attributeSpan: Range<Int>
}

/// A linear expression while parsing: `Σ terms + constant`, plus per-side amounts
/// from `inset(b.edges, top, leading, bottom, trailing)`.
struct LinearExpression {
    var terms: [ExpressionTerm] = []
    var constant: Double = 0
    /// Per-side insets for `edges` (top, leading, bottom, trailing), when `inset(…)` was used.
    var insets: [Double]?
    /// Where the expression starts (UTF-8 offset), for diagnostics.
    var start: Int

    var hasTerms: Bool { !terms.isEmpty }

    /// `self += sign × other`. - Complexity: O(other.terms).
    mutating func add(_ other: LinearExpression, sign: Double) {
        if sign == 1 {
            terms.append(contentsOf: other.terms)
        } else {
            for var term in other.terms {
                term.coefficient *= sign
                terms.append(term)
            }
        }
        constant += sign * other.constant
        if let otherInsets = other.insets {
            var merged = insets ?? [0, 0, 0, 0]
            for index in 0..<4 { merged[index] += sign * otherInsets[index] }
            insets = merged
        }
    }

    /// `self × numerator / denominator`, each coefficient computed as `c × n / d`
    /// (so `a.width * 3 / 3` keeps coefficient 1 exactly). - Complexity: O(terms).
    mutating func scale(numerator: Double, denominator: Double = 1) {
        for index in terms.indices {
            terms[index].coefficient = terms[index].coefficient * numerator / denominator
        }
        constant = constant * numerator / denominator
        if let current = insets { insets = current.map { $0 * numerator / denominator } }
    }
}
