// The bulk load: the queue of optional constraints that ``Solver/autoSolve`` off
// collects, installed by ``Solver/solve()`` part by part, strongest level first.

extension Solver {
    /// Installs the queued optional constraints, optimising after each one: part by
    /// part, and within a part strongest level first and in handle order within a level.
    ///
    /// Stronger decisions are made before weaker rows can steer the pivots, and a row
    /// that agrees with the optimum so far enters without pivots.
    ///
    /// **Parts.** Constraints that no chain of rows ties together are installed one
    /// part after another (`PartTracker`): exactly the pivots and values of the level
    /// order over the whole queue, but a flow layout's rows are solved while their
    /// cells are in cache instead of once per strength level across the scene.
    ///
    /// **Weaving.** In a queue of ``BulkLoad/weaveMinimum`` or more, the other parts go in
    /// between the largest part's constraints, each where that part's sweep has just
    /// passed its handles (`PartTracker.weave`): the same pivots, with each small part's
    /// data still in cache from the sweep (`PartOrderTests.wovenPartsMakeTheLevelOrdersPivots`).
    /// And each install prefetches the cells of the merge key
    /// ``Solver/keyPrefetchDistance`` entries ahead and the key itself twice as far
    /// ahead (`Prefetch.swift`).
    ///
    /// **Deferred required constraints** (`Solver+Deferral.swift`) go in just before
    /// the strongest queued level that names their hub, ahead of that level's optional
    /// constraints, or after everything when none does. Above the strongest of those
    /// levels their hubs tie nothing, so those levels are parted again without them
    /// (`PartTracker.splitAbove`: a flow layout with a free width has its rows as parts
    /// again there). That keeps the optimum but not always the level order's pivots
    /// (`PartOrderTests.aWidthWishedForStronglyKeepsTheOptimum`).
    ///
    /// Within a part the order is the level order and nothing else: any order ends
    /// optimal in exact arithmetic, not in floating point, and the level order is the one
    /// the kiwi differential test and `ReducedCostRoundingTests` hold.
    ///
    /// What does not depend on the tableau of the moment — each constraint's merge
    /// key, whether it repeats an earlier one, and its part — is worked out first, in
    /// one pass in handle order, where consecutive constraints name neighbouring
    /// variables (`PendingInstall`).
    /// - Complexity: O(queued terms) besides the installs, nearly.
    mutating func installPending() throws(SolverError) {
        // A queue this long goes in by parts (unless ``BulkLoad/installsByPart`` is off, for tests).
        let isBulk = bulkLoad.pending.count + deferrals.count >= Self.partOrderMinimum
        var plan = InstallPlan(parts: PartTracker(links: bulkLoad.installsByPart && isBulk ? table.links : nil))
        plan.queue.reserveCapacity(bulkLoad.pending.count + deferrals.count)
        plan.keys.reserveCapacity(bulkLoad.pending.count)
        queuePending(into: &plan)
        queueDeferred(into: &plan)
        order(&plan)
        // Parts are independent only from an optimal start (the required constraints
        // added since the last solve may have left the objective improvable). The plain
        // level order that tests compare parts with starts there too: from a start not
        // known to be optimal, `insertRow` picks a degenerate row's subject by another
        // rule (`PartOrderPivotTests.partOrderMakesTheLevelOrdersPivotsOnTiedSystems`).
        if isBulk { try optimizeObjective() }
        try installInOrder(&plan.queue, keys: &plan.keys)
        try optimizeObjective()
    }

    /// The first step of ``installPending()``: the queued optional constraints into
    /// `plan.queue`, in handle order, each with its merge key or the earlier constraint
    /// it repeats, tied into its part; the strongest queued level naming each hub.
    private mutating func queuePending(into plan: inout InstallPlan) {
        for handle in bulkLoad.pending {
            guard let record = records[handle.index] else { continue }
            let constraint = record.constraint
            var entry = PendingInstall(handle: handle, strength: constraint.strength.value, key: -1, representative: .invalid)
            if plan.parts.isActive { plan.parts.tie(constraint.expression, in: self) }
            if deferrals.count > 0 {
                for term in constraint.expression.terms {
                    guard let symbol = variableSymbols[term.variable], table.deferral[symbol.id].hubDirection != 0 else { continue }
                    plan.hubLevels[symbol] = max(plan.hubLevels[symbol] ?? -.infinity, entry.strength)
                }
            }
            // Only constraints whose variables all have symbols: creating symbols here
            // would number them in handle order instead of install order.
            if record.isMergeable && !tracksMarkers, let key = mergeKey(constraint, creatingSymbols: false) {
                let (found, place) = merging.index.lookup(key)
                if let representative = found, records[representative.index] != nil {
                    // An earlier constraint with this key: a present one, or a queued one with
                    // the same strength (the key holds it) and a lower handle, installed first.
                    // Aliases of a pinned variable can give two constraints one key in two
                    // parts: a queued representative's part takes the duplicate in, so
                    // that level-and-handle order installs the representative first.
                    entry.representative = representative
                    if plan.parts.isActive, let index = Self.queueIndex(of: representative, in: plan.queue) {
                        plan.parts.tieEntry(plan.queue.count, to: index)
                        plan.duplicateTies.append((plan.queue.count, index))
                    }
                } else {
                    merging.index.insert(key, handle: handle, at: place)
                    entry.key = Int32(truncatingIfNeeded: plan.keys.count)
                    plan.keys.append(key)
                }
            }
            plan.queue.append(entry)
        }
        bulkLoad.pending = []
    }

    /// The second step of ``installPending()``: the deferred required constraints into
    /// `plan.queue`, each at the strongest queued level that names its hub, or after
    /// everything (`Solver+Deferral.swift`); no hub is left.
    private mutating func queueDeferred(into plan: inout InstallPlan) {
        for hub in deferrals.hubOrder where table.deferral[hub.id].hubDirection != 0 {
            let level = plan.hubLevels[hub] ?? -.infinity
            for handle in deferrals.byHub[hub] ?? [] {
                guard let record = records[handle.index] else { continue }
                plan.queue.append(PendingInstall(handle: handle, strength: level, key: -1, representative: .invalid,
                                                 isDeferred: true, hub: Int32(truncatingIfNeeded: hub.id)))
                if plan.parts.isActive { plan.parts.tie(record.constraint.expression, in: self) }
            }
            table.deferral[hub.id].hubDirection = 0
        }
        deferrals.byHub = [:]
        deferrals.hubOrder = []
    }

    /// The third step of ``installPending()``: ranks the parts, sorts `plan.queue` by
    /// part, level (strongest first), deferred first and handle, and weaves a long
    /// queue's parts into its largest part's sweep.
    private mutating func order(_ plan: inout InstallPlan) {
        bulkLoad.lastPartCount = plan.parts.isActive ? plan.parts.rank(&plan.queue) : 0
        // Above the strongest level at which deferred constraints go in, their hubs tie
        // nothing: those levels are parted again without them (`PartTracker.splitAbove`).
        var upperCount = 0
        if plan.parts.isActive, let split = plan.queue.lazy.filter(\.isDeferred).map(\.strength).max() {
            let counts = PartTracker.splitAbove(split, &plan.queue, links: table.links,
                                                duplicateTies: plan.duplicateTies, in: self)
            upperCount = Int(counts.upper)
            bulkLoad.lastPartCount = counts.all
        }
        if plan.parts.isActive || !Self.sortByLevels(&plan.queue) {
            plan.queue.sort { Self.installsBefore($0, $1) }
        }
        bulkLoad.lastWovenPartCount = 0
        if plan.parts.isActive && upperCount > 0 {
            // The two phases are woven each on its own: a part of one is not independent
            // of a part of the other.
            let end = plan.queue.firstIndex { $0.part >= upperCount } ?? plan.queue.count
            var upper = Array(plan.queue[..<end])
            var lower = Array(plan.queue[end...])
            if upper.count >= bulkLoad.weaveMinimum { bulkLoad.lastWovenPartCount += PartTracker.weave(&upper) }
            if lower.count >= bulkLoad.weaveMinimum { bulkLoad.lastWovenPartCount += PartTracker.weave(&lower) }
            plan.queue = upper + lower
        } else if plan.parts.isActive && plan.queue.count >= bulkLoad.weaveMinimum {
            bulkLoad.lastWovenPartCount = PartTracker.weave(&plan.queue)
        }
    }

    /// The last step of ``installPending()``: installs `queue` in its order, optimising
    /// after each constraint; a run of deferred constraints goes in most demanding
    /// first (``orderByDemand(_:)``).
    /// Each key is taken out of `keys` as its constraint goes in (its row becomes the
    /// tableau's row without a copy).
    private mutating func installInOrder(_ queue: inout [PendingInstall], keys: inout [MergeKey]) throws(SolverError) {
        // Keys resolve aliases (single-cell definition rows) as they were before the
        // install. A queued optional row always carries error symbols, so a definition it
        // adds is never an alias and the keys stay exact; were one to appear, a key
        // written without it still names only constraints identical as written, so it
        // could miss a merge but never make a wrong one.
        var position = 0
        while position < queue.count {
            if queue[position].isDeferred && (position == 0 || !queue[position - 1].isDeferred) {
                var end = position + 1
                while end < queue.count && queue[end].isDeferred { end += 1 }
                orderByDemand(&queue[position..<end])
            }
            // The keys of the next installs, ahead of time (`Prefetch.swift`).
            Self.prefetchKeys(queue, keys, at: position)
            let entry = queue[position]
            position += 1
            let handle = entry.handle
            if entry.isDeferred {
                try installDeferred(handle: handle)
                try optimizeObjective()
                continue
            }
            var certificate: [Symbol]? = nil
            let tag: Tag
            let isMerged: Bool
            if entry.representative.isValid, records[entry.representative.index] != nil,
               tags[entry.representative.index].marker.isValid {
                merging.mergedCount += 1
                addWeight(to: tags[entry.representative.index], level: objective.level(for: entry.strength))
                (tag, isMerged) = (tags[entry.representative.index], true)
            } else if entry.key >= 0 {
                // The constraint is read from its key alone (strength, relation, row): its
                // record is not touched until its tag is written.
                let key = keys[Int(entry.key)].take()
                let shell = Constraint(Expression(), key.relation, strength: Strength(key.strength))
                (tag, isMerged) = try insertOptional(shell, handle: handle, key: key, isKeyIndexed: true,
                                                     certificate: &certificate)
            } else {
                guard let record = records[handle.index] else { continue }
                (tag, isMerged) = try insertOrMerge(record.constraint, handle: handle, isMergeable: record.isMergeable,
                                                    certificate: &certificate)
            }
            tags[handle.index] = tag
            own(tag, isMerged: isMerged, by: handle)
            try optimizeObjective()
        }
    }

    /// The install order of the queue: part, level (strongest first), deferred first,
    /// handle. A strict total order (handles are distinct), so every sort of a queue
    /// ends in the same order.
    @inline(__always)
    static func installsBefore(_ a: PendingInstall, _ b: PendingInstall) -> Bool {
        if a.part != b.part { return a.part < b.part }
        if a.strength != b.strength { return a.strength > b.strength }
        if a.isDeferred != b.isDeferred { return a.isDeferred }
        return a.handle < b.handle
    }

    /// Sorts a queue whose entries are all in one part into ``installsBefore(_:_:)``
    /// order by distributing them over their (level, deferred) groups, at most
    /// ``levelSortLimit`` of them, and returns true; false, leaving `queue` as it was,
    /// when there are more groups or several parts.
    ///
    /// The distribution keeps the queue's order within a group, which is the handle
    /// order for the queued optional constraints (queued in handle order); the result
    /// is checked, and sorted again by the library's sort in the rare case that a group
    /// is not (deferred constraints of several hubs at one level): the same order in
    /// the end, in O(queue · groups) instead of the library sort's insertion runs
    /// (`BulkInstallOrderTests`).
    static func sortByLevels(_ queue: inout [PendingInstall]) -> Bool {
        let count = queue.count
        guard count > 1 else { return true }
        let part = queue[0].part
        // Stack space for the groups and each entry's group and place (the library's
        // array initialisers allocate through the generic runtime).
        let distributed = withUnsafeTemporaryAllocation(of: LevelGroup.self, capacity: levelSortLimit) { groups -> Bool in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { groupOf -> Bool in
                // The groups, in order of first appearance, with their sizes; each entry's group.
                var groupCount = 0
                let fits = queue.withUnsafeBufferPointer { entries -> Bool in
                    for index in 0..<count {
                        let entry = entries[index]
                        guard entry.part == part else { return false }
                        var group = 0
                        while group < groupCount
                                && (groups[group].strength != entry.strength || groups[group].isDeferred != entry.isDeferred) {
                            group += 1
                        }
                        if group == groupCount {
                            guard groupCount < levelSortLimit else { return false }
                            groups[group] = LevelGroup(strength: entry.strength, isDeferred: entry.isDeferred, size: 0, next: 0)
                            groupCount += 1
                        }
                        groups[group].size += 1
                        groupOf[index] = UInt8(truncatingIfNeeded: group)
                    }
                    return true
                }
                guard fits else { return false }
                // Each group's first position in install order: the sizes of the groups
                // before it (stronger, or the same level and deferred first).
                for group in 0..<groupCount {
                    var start = 0
                    for other in 0..<groupCount {
                        let (a, b) = (groups[other], groups[group])
                        if a.strength > b.strength || (a.strength == b.strength && a.isDeferred && !b.isDeferred) {
                            start += a.size
                        }
                    }
                    groups[group].next = start
                }
                withUnsafeTemporaryAllocation(of: PendingInstall.self, capacity: count) { sorted in
                    queue.withUnsafeBufferPointer { entries in
                        for index in 0..<count {
                            let group = Int(groupOf[index])
                            (sorted.baseAddress! + groups[group].next).initialize(to: entries[index])
                            groups[group].next += 1
                        }
                    }
                    queue.withUnsafeMutableBufferPointer { entries in
                        for index in 0..<count { entries[index] = sorted[index] }
                    }
                    _ = sorted.deinitialize()
                }
                return true
            }
        }
        guard distributed else { return false }
        if !isInInstallOrder(queue) { queue.sort { installsBefore($0, $1) } }
        return true
    }

    /// One (level, deferred) group of ``sortByLevels(_:)``: its size, and the next
    /// position in install order for its entries.
    struct LevelGroup {
        var strength: Double
        var isDeferred: Bool
        var size: Int
        var next: Int
    }

    /// Whether `queue` is sorted by ``installsBefore(_:_:)``.
    static func isInInstallOrder(_ queue: [PendingInstall]) -> Bool {
        queue.withUnsafeBufferPointer { entries in
            for index in entries.indices.dropFirst() where !installsBefore(entries[index - 1], entries[index]) { return false }
            return true
        }
    }

    /// The most (level, deferred) groups ``sortByLevels(_:)`` distributes a queue over.
    static var levelSortLimit: Int { 32 }

    /// The index of the entry for `handle` in `queue` (ascending handles, as the first
    /// pass of `installPending` builds it), if queued.
    /// - Complexity: O(log queue).
    static func queueIndex(of handle: ConstraintHandle, in queue: [PendingInstall]) -> Int? {
        var low = 0
        var high = queue.count
        while low < high {
            let mid = (low + high) / 2
            if queue[mid].handle < handle { low = mid + 1 } else { high = mid }
        }
        return low < queue.count && queue[low].handle == handle ? low : nil
    }

    /// Queues shorter than this install in plain level order (parts would not pay).
    static var partOrderMinimum: Int { 64 }
}

/// What ``Solver/installPending()`` works out before it installs anything.
struct InstallPlan {
    /// The constraints to install: queued optional ones, then deferred required ones;
    /// sorted into install order by `Solver.order(_:)`.
    var queue: [PendingInstall] = []
    /// The merge keys of the queued constraints that have one (``PendingInstall/key``).
    var keys: [MergeKey] = []
    /// The parts of the queue (inactive for a short queue).
    var parts: PartTracker
    /// The strongest queued level that names each hub (lookups only).
    var hubLevels: [Symbol: Double] = [:]
    /// Merged duplicates tied to their representatives' parts (queue indices).
    var duplicateTies: [(Int, Int)] = []
}

/// A queued optional constraint as `installPending` installs it: its handle and
/// strength (the install order), and what was worked out in handle order before the
/// install: the earlier constraint with the same merge key (or
/// ``ConstraintHandle/invalid``), else the index of
/// its key in the install's key list (or -1 for a constraint that names a variable
/// without a symbol yet or is not mergeable). Plain values, cheap to sort.
struct PendingInstall {
    var handle: ConstraintHandle
    var strength: Double
    var key: Int32
    var representative: ConstraintHandle
    /// Rank of the constraint's part of the bulk load (`PartTracker`), in order of
    /// first appearance; 0 when parts are not worked out.
    var part: Int32 = 0
    /// A deferred required constraint (`Solver+Deferral.swift`), not a queued optional one.
    var isDeferred = false
    /// A deferred constraint's hub symbol (its id: 4 bytes, not 8), else -1.
    var hub: Int32 = -1
}
