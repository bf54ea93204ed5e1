/// The two grids that keep labels readable: ``WireframeRenderer/LabelPlacer`` keeps label
/// boxes apart, ``WireframeRenderer/ObstacleGrid`` keeps them off other views' edges.
extension WireframeRenderer {
    /// A rectangle in display pixels.
    struct Rect: Equatable {
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
        var width: Double { maxX - minX }
        var height: Double { maxY - minY }

        init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        init(x: Double, y: Double, width: Double, height: Double) {
            self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
        }

        /// Whether the two overlap with a positive area (touching edges do not).
        func intersects(_ other: Rect) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        func contains(_ other: Rect) -> Bool {
            other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
        }
    }

    /// Places label boxes so that no two intersect: a uniform grid of 64-px cells over the
    /// document lists the boxes that touch each cell (looked up, never iterated), so a
    /// candidate is compared only with the boxes near it. Boxes are kept 1 px apart.
    ///
    /// - Complexity: a candidate costs the boxes in the cells it covers; as boxes do not
    ///   overlap, a cell holds at most about (64 + w)(64 + h)/(w·h) of the smallest boxes.
    struct LabelPlacer {
        static let cell = 64.0
        /// Where a moved label may go: the drawing with its margins.
        let area: Rect
        private(set) var boxes: [Rect] = []
        private var grid: [Int: [Int32]] = [:]

        init(area: Rect) {
            self.area = area
        }

        static func cellRange(_ low: Double, _ high: Double) -> ClosedRange<Int> {
            // Extreme frames can make a coordinate infinite or NaN: such a box is kept
            // in the cells at the grid's edge (never converted to Int unbounded).
            guard low.isFinite, high.isFinite else {
                let edge = (low.isNaN || high.isNaN) ? 0 : (high < 0 ? -(1 << 20) : 1 << 20)
                return edge...edge
            }
            let bound = Double(1 << 20)
            let first = Int(max(-bound, min(bound, (low / cell).rounded(.down))))
            let last = Int(max(-bound, min(bound, (high / cell).rounded(.down))))
            return first...max(first, last)
        }

        static func key(_ x: Int, _ y: Int) -> Int { (y + (1 << 20)) << 22 | (x + (1 << 20)) }

        /// Whether `box` (kept 1 px from every placed box) is free, and how many boxes were compared.
        func isFree(_ box: Rect) -> (free: Bool, compared: Int) {
            let padded = Rect(minX: box.minX - 1, minY: box.minY - 1, maxX: box.maxX + 1, maxY: box.maxY + 1)
            var compared = 0
            for y in Self.cellRange(padded.minY, padded.maxY) {
                for x in Self.cellRange(padded.minX, padded.maxX) {
                    for index in grid[Self.key(x, y)] ?? [] {
                        compared += 1
                        if boxes[Int(index)].intersects(padded) { return (false, compared) }
                    }
                }
            }
            return (true, compared)
        }

        mutating func insert(_ box: Rect) {
            let index = Int32(boxes.count)
            boxes.append(box)
            for y in Self.cellRange(box.minY, box.maxY) {
                for x in Self.cellRange(box.minX, box.maxX) {
                    grid[Self.key(x, y), default: []].append(index)
                }
            }
        }
    }

    /// The views' rects of one panel, to keep labels off their edges: a label box is
    /// *clean* when every rect (other than its own view's) either misses it or holds it
    /// whole (an ancestor). Same grid as ``LabelPlacer``.
    struct ObstacleGrid {
        private var rects: [Rect] = []
        private var owners: [Int] = []
        private var grid: [Int: [Int32]] = [:]

        mutating func insert(_ rect: Rect, owner: Int) {
            let index = Int32(rects.count)
            rects.append(rect)
            owners.append(owner)
            for y in LabelPlacer.cellRange(rect.minY, rect.maxY) {
                for x in LabelPlacer.cellRange(rect.minX, rect.maxX) {
                    grid[LabelPlacer.key(x, y), default: []].append(index)
                }
            }
        }

        /// Whether `box`, the label of `owner`, crosses no other rect's edge; and how many rects were compared.
        func isClean(_ box: Rect, owner: Int) -> (clean: Bool, compared: Int) {
            var compared = 0
            for y in LabelPlacer.cellRange(box.minY, box.maxY) {
                for x in LabelPlacer.cellRange(box.minX, box.maxX) {
                    for index in grid[LabelPlacer.key(x, y)] ?? [] {
                        compared += 1
                        let rect = rects[Int(index)]
                        if owners[Int(index)] != owner && rect.intersects(box) && !rect.contains(box) { return (false, compared) }
                    }
                }
            }
            return (true, compared)
        }
    }
}
