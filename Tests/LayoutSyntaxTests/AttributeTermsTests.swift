import Testing
@testable import LayoutSyntax

/// ``AttributeTerms`` holds one term inline and others in an array: however a list of
/// terms is made, it reads, compares and hashes as the array it stands for.
@Suite struct AttributeTermsTests {
    static let a = AttributeTerm(item: .view("a"), attribute: .leading, span: 3..<4)
    static let b = AttributeTerm(item: .superview, attribute: .trailing, coefficient: -0.5, span: 0..<1)
    static let c = AttributeTerm(item: .container, attribute: .width, coefficient: 2, span: 7..<16)

    @Test func readsAsTheArray() {
        for terms in [[], [Self.a], [Self.a, Self.b], [Self.c, Self.b, Self.a]] as [[AttributeTerm]] {
            let list = AttributeTerms(terms)
            #expect(list.count == terms.count)
            #expect(list.isEmpty == terms.isEmpty)
            #expect(Array(list) == terms)
            for index in terms.indices { #expect(list[index] == terms[index]) }
        }
    }

    @Test func oneTermIsTheSameHoweverMade() {
        let inline = LinearSide(term: Self.a, constant: 5)
        let fromArray = LinearSide(terms: [Self.a], constant: 5)
        #expect(inline == fromArray)
        #expect(inline.hashValue == fromArray.hashValue)
        #expect(AttributeTerms(Self.b) == [Self.b])
        #expect(AttributeTerms(Self.b) != [Self.b, Self.b])
        #expect(AttributeTerms([Self.a, Self.b]) == [Self.a, Self.b])
    }

    /// Every side a parse makes has the terms its text renders, the same with one term
    /// inline as with the array it stands for.
    @Test func parsedSidesRenderAsArrays() {
        let sources = ["H:|-8-[a]-[b(==a)]-(>=5@750)-|", "V:[a(44)]-0-[b]", "a.width == 2 * b.height + 3", "a.centerX == superview.centerX"]
        for source in sources {
            let result = source.hasPrefix("H:") || source.hasPrefix("V:")
                ? VisualFormatParser().parse(source) : EquationParser().parse(source)
            #expect(!result.constraints.isEmpty)
            for constraint in result.constraints {
                let rebuilt = ParsedConstraint(lhs: LinearSide(terms: Array(constraint.lhs.terms), constant: constraint.lhs.constant),
                                               relation: constraint.relation,
                                               rhs: LinearSide(terms: Array(constraint.rhs.terms), constant: constraint.rhs.constant),
                                               priority: constraint.priority, span: constraint.span, priorityOffset: constraint.priorityOffset)
                #expect(rebuilt == constraint)
                #expect(rebuilt.text == constraint.text)
            }
        }
    }
}
