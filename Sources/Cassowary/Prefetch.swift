// Software prefetch for the bulk load's install (`Solver.installPending`).
//
// When the solver's tables exceed the last-level cache, each queued constraint's install
// starts with a chain of dependent loads that miss: its merge key, the key's cells, the
// rows those cells name. A prefetch instruction asks for a line and retires at once, so
// issued a few constraints ahead, the key is in cache by the time its install reads it.
// A prefetch changes no value (`PrefetchTests`).
import CLayoutdSystem

/// Starts loading the cache line (64 bytes) holding `address` (`__builtin_prefetch`
/// through the `CLayoutdSystem` shim: read, kept in every cache level). A hint: it never
/// faults, whatever the address, and changes no value.
@inline(__always)
func prefetch(_ address: UnsafeRawPointer) {
    layoutd_prefetch(address)
}

/// Starts loading the first two cache lines of the heap storage of the array stored at
/// `address` (its 32-byte header and first elements: all the cells of a short row).
///
/// The storage reference is read as plain bits. Copying the array to ask for its buffer
/// would retain the storage, and a retain is an atomic write to the storage's reference
/// count: on a line not in cache, exactly the blocking miss the prefetch is meant to hide.
/// `PrefetchTests` checks that the bits are the storage's address.
/// - Precondition: `address` points at a live `Array` value (8-byte aligned).
@inline(__always)
func prefetchStorage(ofArrayAt address: UnsafeRawPointer) {
    let bits = address.load(as: UInt.self)
    // Plain integer arithmetic for the second line: the storage may be shorter than 64
    // bytes (the shared empty array's is 32), and a pointer `+` past its end would let
    // the optimiser drop the prefetch as undefined.
    guard let storage = UnsafeRawPointer(bitPattern: bits),
          let next = UnsafeRawPointer(bitPattern: bits &+ 64) else { return }
    prefetch(storage)
    prefetch(next)
}

extension Solver {
    /// How many queue entries ahead `installPending` prefetches a key's cells; twice as
    /// far ahead it prefetches the key itself (`keys` is in handle order, the install in
    /// part order). A tuning constant, chosen on the solver kit's mixed-10000 system.
    static var keyPrefetchDistance: Int { 8 }

    /// Byte offset of a ``MergeKey``'s cell array within the key (-1 if the layout query
    /// failed or an array is not one word, which turns the prefetch off).
    static let keyCellsOffset: Int = {
        guard MemoryLayout<[Cell]>.size == MemoryLayout<UInt>.size,
              let row = MemoryLayout<MergeKey>.offset(of: \MergeKey.row),
              let cells = MemoryLayout<Row>.offset(of: \Row.cells) else { return -1 }
        return row + cells
    }()

    /// Prefetches for the install of `queue[position]` onwards: the cells of the key one
    /// ``keyPrefetchDistance`` ahead and the key two distances ahead. No effect on values.
    /// - Complexity: O(1).
    @inline(__always)
    static func prefetchKeys(_ queue: [PendingInstall], _ keys: [MergeKey], at position: Int) {
        let offset = keyCellsOffset
        guard offset >= 0, position >= 0 else { return }
        queue.withUnsafeBufferPointer { entries in
            keys.withUnsafeBufferPointer { stored in
                guard let base = stored.baseAddress else { return }
                let near = position + keyPrefetchDistance
                if near < entries.count, entries[near].key >= 0, Int(entries[near].key) < stored.count {
                    prefetchStorage(ofArrayAt: UnsafeRawPointer(base + Int(entries[near].key)) + offset)
                }
                let far = position + 2 * keyPrefetchDistance
                if far < entries.count, entries[far].key >= 0, Int(entries[far].key) < stored.count {
                    prefetch(UnsafeRawPointer(base + Int(entries[far].key)))
                }
            }
        }
    }
}
