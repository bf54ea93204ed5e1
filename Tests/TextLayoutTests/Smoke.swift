import Testing
@testable import TextLayout
@Test func smoke() throws {
    let m = TextMeasurer()
    let r = try m.measure("Good morning", font: FontRequest(family: "Inter", size: 20))
    print(r, r.intrinsicSize(displayScale: 1), r.intrinsicSize(displayScale: 2))
    let w = try m.measure("Tomorrow will be sunny in the morning with clouds moving in after lunch and light rain by evening", font: FontRequest(family: "DejaVu Sans", size: 14), numberOfLines: 0, width: 280)
    print(w.lines.count, w.intrinsicSize(displayScale: 2))
}
