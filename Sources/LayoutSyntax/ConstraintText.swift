/// Renders constraints as equations, Apple style (`green.leading == red.trailing + 8`).
enum ConstraintText {
    /// `lhs relation rhs [@priority]`; see ``ParsedConstraint/text``. `superview`, if
    /// given, is the name VFL `|` is written as (else `superview`).
    static func render(lhs: LinearSide, relation: Relation, rhs: LinearSide, priority: Double?,
                       superview: String? = nil) -> String {
        var text = render(side: lhs, superview: superview)
        text += " "
        text += relation.rawValue
        text += " "
        text += render(side: rhs, superview: superview)
        if let priority { text += " @" + format(priority) }
        return text
    }

    /// `0.5 * card.centerX + 8`, `-a.width`, or the constant alone (`100`); VFL `|` as
    /// `superview` when given.
    static func render(side: LinearSide, superview: String? = nil) -> String {
        var text = ""
        for term in side.terms {
            var item = term.item.displayName
            if case .superview = term.item, let superview { item = superview }
            let name = item + "." + term.attribute.rawValue
            let magnitude = abs(term.coefficient)
            let isNegative = term.coefficient < 0
            if text.isEmpty {
                if isNegative { text += "-" }
            } else {
                text += isNegative ? " - " : " + "
            }
            if magnitude != 1 { text += format(magnitude) + " * " }
            text += name
        }
        if text.isEmpty { return format(side.constant) }
        if side.constant != 0 {
            text += side.constant < 0 ? " - " : " + "
            text += format(abs(side.constant))
        }
        return text
    }

    /// A number without a needless `.0`: `8`, `0.5`, `-12.25`.
    static func format(_ value: Double) -> String {
        if value == 0 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
