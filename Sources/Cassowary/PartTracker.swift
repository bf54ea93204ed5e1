/// The parts of a bulk load (`Solver.installPending`): each queued constraint's set in
/// the solver's ``SymbolTable/links`` once the queued constraints' own ties are added, ranked
/// by first appearance in the queue.
///
/// Installing part by part, each part in level order, makes exactly the pivots of the
/// plain level order: the tableau is optimal before each install, so a new row can only
/// make its own part's reduced costs negative; a pivot rewrites only rows that hold its
/// entering symbol, which are in that part; and every choice compares symbols of one
/// part, whose ids keep their relative order. What changes is locality: a flow
/// layout's rows are solved one after another while their cells are in cache, instead
/// of once per strength level across the whole scene.
struct PartTracker {
    private var sets: DisjointSets
    /// Whether parts are worked out (a short queue installs in plain level order).
    let isActive: Bool
    /// Each queued constraint's element in `sets`, in queue order; -1 for one that
    /// names no variable (or only pinned ones).
    private var anchors: [Int] = []
    /// Elements for variables that have no symbol yet (lookups only).
    private var unnamed: [Variable: Int] = [:]

    init(links: DisjointSets?) {
        sets = links ?? DisjointSets(count: 0)
        isActive = links != nil
    }

    /// Ties the variables of the next queued constraint, `expression`.
    /// - Complexity: O(terms), nearly.
    mutating func tie(_ expression: Expression, in solver: Solver) {
        var anchor = -1
        for term in expression.terms {
            let node: Int
            if let symbol = solver.variableSymbols[term.variable] {
                // A variable a required equality pins ties nothing.
                if solver.table.isPinned[symbol.id] { continue }
                node = symbol.id
            } else if let known = unnamed[term.variable] {
                node = known
            } else {
                node = sets.add()
                unnamed[term.variable] = node
            }
            if anchor < 0 { anchor = node } else { sets.union(anchor, node) }
        }
        anchors.append(anchor)
    }

    /// Interleaves the other parts with the largest part's install, in a queue sorted by
    /// part: each other part goes, whole and in its own order, just before the first
    /// entry of the largest part's *sweep level* whose handle is above all of the part's
    /// handles. The sweep level is the weakest of the largest part's levels that holds at
    /// least half as many of its constraints as its most populous level does (a flow
    /// layout's "top aligned" wishes, one per view).
    ///
    /// Why: a flow layout's vertical chain is one large part, installed level by level,
    /// and each row's horizontal constraints are a small part. Their variables and rows
    /// were made view by view, so in memory a row's horizontal data sits beside its
    /// vertical data. Installed after the whole chain, each row's part reads its data back
    /// cold; installed just after the chain's sweep passed that row, the data is still
    /// in cache. A queue that fits in cache gains nothing, hence ``BulkLoad/weaveMinimum``.
    /// (With an edit variable on the width, the free width ties a flow layout's rows into
    /// one part: nothing to weave.)
    ///
    /// Exact, as the part order itself is (see the type's documentation): any order of
    /// whole parts makes every part's own pivots. Parts are woven in rank order, each
    /// before the first sweep entry above its handles; a part whose handles reach past
    /// the whole sweep ends the weaving, and it and the parts ranked after it follow the
    /// largest part, in rank order. So does a part holding a deferred constraint:
    /// `orderByDemand` reorders runs of those, so they keep the place the sort gave them.
    /// - Returns: the number of parts woven in.
    /// - Complexity: O(queue).
    static func weave(_ queue: inout [PendingInstall]) -> Int {
        var ranges: [(start: Int, end: Int, highestHandle: ConstraintHandle, hasDeferred: Bool)] = []
        var start = 0
        while start < queue.count {
            var end = start
            var highest = ConstraintHandle.invalid
            var hasDeferred = false
            while end < queue.count && queue[end].part == queue[start].part {
                highest = max(highest, queue[end].handle)
                hasDeferred = hasDeferred || queue[end].isDeferred
                end += 1
            }
            ranges.append((start, end, highest, hasDeferred))
            start = end
        }
        guard ranges.count > 2 else { return 0 }
        var largest = 0
        for index in ranges.indices
        where ranges[index].end - ranges[index].start > ranges[largest].end - ranges[largest].start {
            largest = index
        }
        // The largest part's levels are runs of equal strength (strongest first).
        var runs: [(strength: Double, count: Int)] = []
        for position in ranges[largest].start..<ranges[largest].end where !queue[position].isDeferred {
            let strength = queue[position].strength
            if let last = runs.last, last.strength == strength {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((strength, 1))
            }
        }
        let most = runs.map(\.count).max() ?? 0
        guard let sweep = runs.last(where: { $0.count * 2 >= most })?.strength else { return 0 }
        var woven: [PendingInstall] = []
        woven.reserveCapacity(queue.count)
        var isPlaced = [Bool](repeating: false, count: ranges.count)
        isPlaced[largest] = true
        var next = 0
        var count = 0
        for position in ranges[largest].start..<ranges[largest].end {
            let entry = queue[position]
            if !entry.isDeferred && entry.strength == sweep {
                while next < ranges.count {
                    let range = ranges[next]
                    if next == largest || range.hasDeferred {
                        next += 1
                        continue
                    }
                    guard range.highestHandle < entry.handle else { break }
                    woven.append(contentsOf: queue[range.start..<range.end])
                    isPlaced[next] = true
                    count += 1
                    next += 1
                }
            }
            woven.append(entry)
        }
        for index in ranges.indices where !isPlaced[index] {
            woven.append(contentsOf: queue[ranges[index].start..<ranges[index].end])
        }
        queue = woven
        return count
    }

    /// Parts the entries of `queue` stronger than `split` — the strongest level at which
    /// deferred required constraints go in (`Solver+Deferral.swift`) — again, from
    /// `links` and those entries' own ties only, and ranks every other entry's part
    /// (as `rank` set it) after them, all numbered from 0 without gaps. Returns the
    /// number of upper parts (entries with `part` below it are the upper phase) and of
    /// all parts.
    ///
    /// Why: a flow layout with a free container width ties every row to the width, by
    /// the rows' deferred end constraints and their wishes at the width's level, so the
    /// whole horizontal layout was one part, installed level by level across all rows,
    /// each level sweeping data far larger than the cache at 10,000 views. Above that
    /// level nothing installed names the width, and the rows are parts of their own
    /// again (`PartOrderTests.aFreeWidthTiesTheRowsOnlyBelowItsLevel`).
    ///
    /// The same optimum as the plain level order, not always the same pivots. The level
    /// order is the upper entries in level order, then the rest in level order (a
    /// deferred entry has the strength of the level it precedes, so every entry above
    /// `split` is optional and comes first). The upper phase, installed part by part,
    /// makes its level-order pivots by the type's argument: its parts come from the
    /// tableau's links and the upper entries' ties, all that its installs can reach.
    /// The lower phase keeps the whole queue's parts, but a part of it holds symbols of
    /// several upper parts, made part by part rather than level by level, so their ids
    /// are ordered differently, and its choices decided by ids (ties, degenerate pivots)
    /// can go the other way: another path to an optimal tableau, whose values differ from
    /// the level order's by rounding (and more only where the optimum is not unique).
    /// Where the hub is wished for only at the weakest levels, as a layout's trailing
    /// wishes are, the lower phase is small and the pivots are the level order's
    /// (`PartOrderTests.randomSystemsSharingADeferredWidth`); with the hub wished for at
    /// a strong level, most levels fall in the lower phase and only the optimum is kept
    /// (`PartOrderTests.aWidthWishedForStronglyKeepsTheOptimum`).
    /// - Complexity: O(terms of the upper entries + queue), nearly.
    static func splitAbove(_ split: Double, _ queue: inout [PendingInstall], links: DisjointSets,
                           duplicateTies: [(Int, Int)], in solver: Solver) -> (upper: Int32, all: Int) {
        func isUpper(_ entry: PendingInstall) -> Bool { !entry.isDeferred && entry.strength > split }
        var upper = PartTracker(links: links)
        for entry in queue {
            if isUpper(entry), let record = solver.records[entry.handle.index] {
                upper.tie(record.constraint.expression, in: solver)
            } else {
                upper.anchors.append(-1)
            }
        }
        for (index, other) in duplicateTies where isUpper(queue[index]) {
            upper.tieEntry(index, to: other)
        }
        let whole = queue.map(\.part)
        let rankCount = upper.rank(&queue)
        // Upper ranks renumbered in order of first appearance over the upper entries alone
        // (`rank` also gave each lower entry, which ties nothing here, one of its own);
        // the lower entries' whole-queue parts follow, in their order.
        var renumbered = [Int32](repeating: -1, count: rankCount)
        var isLowerPart = [Bool](repeating: false, count: queue.count)
        var upperCount: Int32 = 0
        for index in queue.indices {
            if isUpper(queue[index]) {
                let rank = Int(queue[index].part)
                if renumbered[rank] < 0 {
                    renumbered[rank] = upperCount
                    upperCount += 1
                }
                queue[index].part = renumbered[rank]
            } else {
                isLowerPart[Int(whole[index])] = true
            }
        }
        var lowerRank = [Int32](repeating: -1, count: queue.count)
        var count = upperCount
        for part in isLowerPart.indices where isLowerPart[part] {
            lowerRank[part] = count
            count += 1
        }
        for index in queue.indices where !isUpper(queue[index]) {
            queue[index].part = lowerRank[Int(whole[index])]
        }
        return (upperCount, Int(count))
    }

    /// Puts the queued constraint at `index` into the part of the one at `other`: a
    /// merged duplicate and its representative, which must go in first (the duplicate
    /// adds its weight to the representative's errors), as one part's level-and-handle
    /// order guarantees for two constraints of one strength.
    mutating func tieEntry(_ index: Int, to other: Int) {
        let (a, b) = (anchors[index], anchors[other])
        switch (a >= 0, b >= 0) {
        case (true, true): sets.union(a, b)
        case (false, true): anchors[index] = b
        case (true, false): anchors[other] = a
        case (false, false):
            let node = sets.add()
            anchors[index] = node
            anchors[other] = node
        }
    }

    /// Sets each entry's `part`, the rank of its part. `queue` is in the order the
    /// constraints were tied. Returns the number of parts.
    mutating func rank(_ queue: inout [PendingInstall]) -> Int {
        var rankOfRoot = [Int32](repeating: -1, count: sets.count)
        var count: Int32 = 0
        for index in queue.indices {
            let anchor = anchors[index]
            var rank = count
            if anchor >= 0 {
                let root = sets.find(anchor)
                if rankOfRoot[root] < 0 { rankOfRoot[root] = rank } else { rank = rankOfRoot[root] }
            }
            if rank == count { count += 1 }
            queue[index].part = rank
        }
        return Int(count)
    }
}
