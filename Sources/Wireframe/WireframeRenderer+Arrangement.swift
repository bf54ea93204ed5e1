import LayoutCompiler

/// Where the panels go and at what scale: one panel for a plain `/solve`, small multiples
/// in rows for `sizes` (all at one scale, each captioned with its container size).
extension WireframeRenderer {
    /// Where each panel goes and at what scale.
    struct Arrangement {
        /// Pixels per point.
        var scale: Double
        /// Each panel's translation, points (the viewBox's unit).
        var origins: [(x: Double, y: Double)]
        /// Each panel's origin in display pixels (`origins × scale`).
        var originsPx: [(x: Double, y: Double)]
        /// The drawing's display size (margins included), pixels.
        var widthPx: Double
        var heightPx: Double
        /// The default fit grew the picture in height (``minPanelWidth``): the arrangement
        /// is final, the lists below it are not fitted into ``WireframeDisplay/fitHeight``.
        var grows = false
    }

    /// The default fit of `sizes` draws the narrowest panel at least this wide, pixels
    /// (a caption has the panel's width and 28 px of the gap: `1300×400` is 65 px), when that is not larger
    /// than 1 px per point: the picture then grows in height, up to
    /// ``WireframeDisplay/maxDimension`` pixels (WireframeSizingTests.manySizesGrowInHeight).
    static let minPanelWidth = 32.0

    /// The work units ``arrange(_:captionSpace:display:fitHeight:)`` is charged for `panels`
    /// panels: each of `panels` row lengths tried over every panel, for the fit and again
    /// for growing in height, 2 × panels² (1,000 sizes: 2 × 10⁶ of the default 10⁸).
    static func arrangeWork(panels: Int) -> Int {
        guard panels > 1 else { return 0 }
        let bounded = min(panels, 1 << 24)
        return 2 * bounded * bounded
    }

    /// Arranges panels of the given bounds (points) in rows and chooses the scale:
    /// ``WireframeDisplay/Sizing/fit`` picks the number of panels per row that allows the
    /// largest scale ≤ 1 fitting `fitWidth` × `fitHeight` pixels (ties: fewer rows);
    /// `scale` and `width` keep that arrangement and set the scale; any scale is then
    /// reduced so that the drawing is at most ``WireframeDisplay/maxDimension`` pixels.
    ///
    /// - Complexity: O(panels²) (each row count tried over all panels, at most twice),
    /// charged to the rendering's work by its caller (``arrangeWork(panels:)``).
    static func arrange(_ bounds: [Bounds], captionSpace: Double, display: WireframeDisplay, fitHeight: Double) -> Arrangement {
        let count = max(1, bounds.count)
        func rows(_ columns: Int) -> [Range<Int>] {
            stride(from: 0, to: bounds.count, by: columns).map { $0..<min(bounds.count, $0 + columns) }
        }
        /// Points and pixels of a row arrangement: widest row, sum of row heights.
        func extent(_ rows: [Range<Int>]) -> (widths: [(points: Double, pixels: Double)], height: (points: Double, pixels: Double)) {
            let widths = rows.map { row in
                (row.reduce(0.0) { $0 + bounds[$1].width }, 2 * margin + Double(row.count - 1) * panelGap)
            }
            let heightPoints = rows.reduce(0.0) { total, row in total + row.map { bounds[$0].height }.max()! }
            let heightPixels = 2 * margin + Double(rows.count) * captionSpace + Double(max(0, rows.count - 1)) * panelGap
            return (widths, (heightPoints, heightPixels))
        }
        /// The largest scale at which `rows` fit `width` × `height` pixels (∞ when nothing
        /// has a size; ≤ 0 when the fixed pixels alone do not fit).
        func fitting(_ rows: [Range<Int>], width: Double, height: Double) -> Double {
            let (widths, tall) = extent(rows)
            var scale = Double.infinity
            for row in widths {
                if row.pixels > width { return 0 }
                if row.points > 0 { scale = min(scale, (width - row.pixels) / row.points) }
            }
            if tall.pixels > height { return 0 }
            if tall.points > 0 { scale = min(scale, (height - tall.pixels) / tall.points) }
            return scale
        }
        var columns = count
        var best = -1.0
        if bounds.count > 1 {
            for candidate in stride(from: count, through: 1, by: -1) {
                let scale = min(1, fitting(rows(candidate), width: WireframeDisplay.fitWidth, height: fitHeight))
                if scale > best { best = scale; columns = candidate }
            }
            if !(best > 0) { columns = min(count, max(1, Int(WireframeDisplay.fitWidth / (panelGap + 8)))) }
        }
        var arranged = rows(columns)
        var (widths, tall) = extent(arranged)
        var scale: Double
        switch display.sizing {
        case .fit:
            scale = min(1, fitting(arranged, width: WireframeDisplay.fitWidth, height: fitHeight))
        case .scale(let value):
            scale = value
        case .width(let pixels):
            scale = min(WireframeDisplay.maxScale, fitting(arranged, width: Double(pixels), height: .infinity))
        }
        // Panels too narrow in fitWidth × fitHeight: the most panels per row that reach
        // minPanelWidth in fitWidth × maxDimension (the largest scale when none does).
        var grows = false
        if display.sizing == .fit, bounds.count > 1, let narrowest = bounds.map(\.width).filter({ $0 > 0 }).min() {
            let target = min(1, minPanelWidth / narrowest)
            if !(scale >= target) {
                var tallest = (scale: -1.0, columns: columns)
                for candidate in stride(from: count, through: 1, by: -1) {
                    let fitted = min(target, fitting(rows(candidate), width: WireframeDisplay.fitWidth, height: WireframeDisplay.maxDimension))
                    if fitted > tallest.scale { tallest = (fitted, candidate) }
                }
                if tallest.scale > max(0, scale) {
                    (scale, columns, grows) = (tallest.scale, tallest.columns, true)
                    arranged = rows(columns)
                    (widths, tall) = extent(arranged)
                }
            }
        }
        // Nothing to fit (every panel 0 × 0) draws at 1; no room at all, at a scale that
        // makes the drawing one pixel.
        if scale == .infinity { scale = 1 }
        let widestPoints = widths.map(\.points).max() ?? 0
        let largest = max(widestPoints, tall.points)
        if !(scale > 0) { scale = largest > 0 ? 1 / largest : 1 }
        // The cap counts the margins, gaps and captions too: the drawing is at most
        // maxDimension pixels a side (WireframeReadabilityTests.theReducedScaleHonoursTheCapWithMargins).
        let capped = fitting(arranged, width: WireframeDisplay.maxDimension, height: WireframeDisplay.maxDimension)
        if capped > 0 {
            scale = min(scale, capped)
        } else if largest > 0 {
            scale = min(scale, WireframeDisplay.maxDimension / largest)
        }
        if !(scale > 0) || !scale.isFinite { scale = .leastNormalMagnitude }

        var origins: [(x: Double, y: Double)] = Array(repeating: (0, 0), count: bounds.count)
        var originsPx = origins
        var widthPx = 0.0
        var yPx = margin
        for row in arranged {
            yPx += captionSpace
            var xPx = margin
            for (position, panel) in row.enumerated() {
                if position > 0 { xPx += panelGap }
                originsPx[panel] = (xPx - bounds[panel].minX * scale, yPx - bounds[panel].minY * scale)
                // Points from the pixels: at scale 1 the same numbers as the pixels.
                origins[panel] = (originsPx[panel].x / scale, originsPx[panel].y / scale)
                xPx += bounds[panel].width * scale
            }
            widthPx = max(widthPx, xPx + margin)
            yPx += (row.map { bounds[$0].height }.max() ?? 0) * scale + panelGap
        }
        let heightPx = arranged.isEmpty ? 2 * margin : yPx - panelGap + margin
        return Arrangement(scale: scale, origins: origins, originsPx: originsPx, widthPx: max(widthPx, 2 * margin), heightPx: heightPx,
                           grows: grows)
    }

    // MARK: - Small multiples

    static func sizeAt(_ sizes: [ContainerSize]?, _ index: Int) -> ContainerSize? {
        guard let sizes, index < sizes.count else { return nil }
        return sizes[index]
    }

    /// A panel's caption: the solved container size, `W×H`, noting a fitted dimension.
    static func caption(_ layout: Layout, size: ContainerSize?) -> String {
        var caption = "\(number(layout.containerWidth))×\(number(layout.containerHeight))"
        if let size {
            if size.width == nil && size.height == nil {
                caption += " (fitted)"
            } else if size.width == nil {
                caption += " (fitted width)"
            } else if size.height == nil {
                caption += " (fitted height)"
            }
        }
        return caption
    }
}
