import Testing

/// The stack-view cases of the public corpus v1.1 (`../shared/corpus/v1.1`, read at test
/// time), through the scene engine with ``CorpusTests/corpusCase(_:)``'s comparison:
/// `301`–`308` lay out stacks (distributions, alignments, nesting, a hidden arranged
/// view, `layoutMarginsRelative`), `316` is the 422 of a view arranged in two stacks.
struct StackCorpusTests {
    /// The v1.1 files that stack views cover.
    static let stackCases = [
        "301_table_cell_row.json",
        "302_form_of_three_rows.json",
        "303_toolbar_equal_spacing.json",
        "304_segmented_fill_equally.json",
        "305_storage_bar_fill_proportionally.json",
        "306_sent_bubbles_trailing.json",
        "307_hidden_banner_in_fill_column.json",
        "308_card_margins_relative.json",
        "316_error_view_in_two_stacks.json",
    ]

    @Test("corpus v1.1 stack case", arguments: stackCases)
    func stackCase(_ file: String) throws {
        try CorpusTests().corpusCase("v1.1/" + file)
    }

    /// `sizes` answers what separate solves answer for the stack scenes too (the resize
    /// path through stack constraints: ``CorpusTests/sizesEqualSeparateSolves(_:)``).
    @Test("corpus v1.1 stack sizes equal separate solves", arguments: stackCases.filter { !$0.hasPrefix("316") })
    func stackSizes(_ file: String) throws {
        try CorpusTests().sizesEqualSeparateSolves("v1.1/" + file)
    }
}
