import CICUBreak
import Synchronization

/// Line-break opportunities of Unicode UAX #14, from ICU's line break iterator
/// (`ubrk_open(UBRK_LINE, "")`, the root locale's rules). Opening an iterator loads its
/// rules, so iterators are pooled and reused with `ubrk_setText`; the pool holds at most
/// `poolLimit` idle ones.
final class LineBreaker: Sendable {
    private struct Iterator: @unchecked Sendable { let pointer: OpaquePointer }
    private let pool = Mutex<[Iterator]>([])
    private let poolLimit = 16

    /// The UTF-16 offsets after which a line may break, ascending, ending with
    /// `text.count` (the end of the text is always one). Empty for empty text.
    /// O(n) in the text's length.
    func opportunities(_ text: [UInt16]) -> [Int] {
        guard !text.isEmpty else { return [] }
        let iterator = take()
        defer { give(iterator) }
        var result: [Int] = []
        text.withUnsafeBufferPointer { buffer in
            guard layoutd_ubrk_set_text(iterator.pointer, buffer.baseAddress, Int32(buffer.count)) == 0 else { return }
            _ = layoutd_ubrk_first(iterator.pointer)
            let done = layoutd_ubrk_done()
            while true {
                let next = layoutd_ubrk_next(iterator.pointer)
                if next == done { break }
                result.append(Int(next))
            }
        }
        // Without ICU's answer (it fails only on allocation), the end of the text alone.
        if result.last != text.count { result.append(text.count) }
        return result
    }

    private func take() -> Iterator {
        if let pooled = pool.withLock({ $0.popLast() }) { return pooled }
        guard let pointer = layoutd_ubrk_open_line() else {
            fatalError("ICU cannot open a line break iterator: its data library is missing")
        }
        return Iterator(pointer: pointer)
    }

    private func give(_ iterator: Iterator) {
        let kept = pool.withLock { pool -> Bool in
            guard pool.count < poolLimit else { return false }
            pool.append(iterator)
            return true
        }
        if !kept { layoutd_ubrk_close(iterator.pointer) }
    }

    deinit {
        for iterator in pool.withLock({ $0 }) { layoutd_ubrk_close(iterator.pointer) }
    }
}
