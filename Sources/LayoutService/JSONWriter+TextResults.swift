import LayoutCompiler

extension JSONWriter {
    /// Writes `labels` as the answer's `text` member's value: label name → `{"lines",
    /// "truncated"}`, in the given order (``Layout/text`` is sorted by name). `/solve`,
    /// `/import?solve=true` and the `sizes` entries all write it here (openapi.yaml, `TextResults`).
    mutating func textResults(_ labels: [LabelText]) {
        beginObject()
        for label in labels {
            key(label.name)
            beginObject()
            key(plain: "lines"); number(Double(label.lines))
            key(plain: "truncated"); bool(label.truncated)
            endObject()
        }
        endObject()
    }
}
