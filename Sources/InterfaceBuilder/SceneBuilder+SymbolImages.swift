import LayoutCompiler

/// The alignment insets of image views showing system symbol images, back-solved from the
/// recorded frames (SceneBuilder.swift holds the reading).
extension SceneBuilder {
    /// Whether `element` is an image view showing a system symbol image (SF Symbols): its
    /// `image` attribute with `catalog="system"`, or an `<imageReference key="image">` child
    /// with `catalog="system"`.
    static func showsSymbolImage(_ element: XMLElement) -> Bool {
        guard element.name == "imageView" else { return false }
        if element["image"] != nil && element["catalog"] == "system" { return true }
        return element.child("imageReference", key: "image")?["catalog"] == "system"
    }

    /// An image view's alignment rectangle is its image's (UIKit, `UIImage.alignmentRectInsets`:
    /// "used by UIImageView … to determine the view's alignment rect insets for
    /// constraint-based layout"), and a system symbol image has insets that place its glyph,
    /// which the document does not record (its `<resources>` give only the symbol's
    /// proportions). So the constraints of such a view place a rectangle that differs from
    /// its recorded frame, and the difference is the insets: each unmarked image view
    /// showing a symbol image, that the scene places without ambiguity, gets as alignment
    /// insets its recorded frame less the rectangle `scene` (built without them) gives it
    /// (top = placed y − recorded y, bottom = recorded max y − placed max y, likewise left
    /// and right), and its intrinsic size becomes the recorded size less them, so the
    /// rectangle its constraints place is unchanged. Where its intrinsic size (the recorded
    /// size) fixes an axis, the insets there are a shift of the frame, 0 when it sits where
    /// its constraints put it. Insets of more than half the placed rectangle's length on
    /// their axis are not a symbol's padding and are left out. Found by compiling and
    /// solving `scene` once; noted per view. Returns whether any insets were taken (the
    /// scene must then be built again).
    /// `IBMappingTests.symbolImageViewsGetTheirAlignmentInsetsFromTheRecordedFrames` holds it.
    /// - Complexity: one compile and solve of the hierarchy's scene, only when it has such a view.
    /// - Throws: ``IBImportError`` with `isLimit` when that solve takes more than
    ///   ``maxSolverWork`` cell operations.
    mutating func backSolveSymbolInsets(of scene: JSONValue) throws(IBImportError) -> Bool {
        let symbols = views.dropFirst().filter { Self.showsSymbolImage($0.element) && !Self.isMarked($0) && $0.element["id"] != nil }
        guard !symbols.isEmpty else { return false }
        // The rectangle is taken before pixel alignment: the recorded frame is on the grid,
        // so the insets are the exact difference and the re-solved frame snaps back to it
        // (measured against the snapped rectangle, a @3x edge landed a hair below a half
        // pixel and snapped away: IBMappingTests.symbolInsetsAreTakenBeforePixelAlignment).
        guard let layout = try solvedOnce(scene, purpose: "symbol images", pixelAligned: false) else { return false }
        let ambiguous = Set(layout.diagnostics.filter { $0.code == .ambiguousLayout }.compactMap(\.view))
        let placed = Dictionary(layout.frames.map { ($0.name, $0.frame) }, uniquingKeysWith: { first, _ in first })
        var taken = false
        for view in symbols where !ambiguous.contains(view.name) {
            guard let id = view.element["id"], let rectangle = placed[view.name] else { continue }
            let recorded = view.frame
            let top = rectangle.y - recorded.y, left = rectangle.x - recorded.x
            let bottom = (recorded.y + recorded.height) - (rectangle.y + rectangle.height)
            let right = (recorded.x + recorded.width) - (rectangle.x + rectangle.width)
            let insets = (top: Self.cleaned(top), left: Self.cleaned(left), bottom: Self.cleaned(bottom), right: Self.cleaned(right))
            guard insets != (0, 0, 0, 0) else { continue }
            guard max(insets.top.magnitude, insets.bottom.magnitude) <= rectangle.height / 2,
                  max(insets.left.magnitude, insets.right.magnitude) <= rectangle.width / 2 else { continue }
            symbolInsets[id] = insets
            taken = true
            let sides = [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)]
                .filter { $0.1 != 0 }.map { "\($0.0) \(JSONWriter.format($0.1))" }.joined(separator: ", ")
            notes.append("Alignment insets \(sides) of \(view.name), which shows a system symbol image (the document does not record its insets), back-solved from its recorded frame and the rectangle its constraints place; its intrinsic size is the recorded size less these")
        }
        return taken
    }

    /// `value` without float noise: to 10⁻³ point, as the recorded frames are compared.
    static func cleaned(_ value: Double) -> Double {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == 0 ? 0 : rounded
    }
}
