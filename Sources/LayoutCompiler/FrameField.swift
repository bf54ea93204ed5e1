import Cassowary

/// One number of one frame: the `x`, `y`, `width` or `height` of an item of the
/// ``ViewHierarchy`` (the container, a view or a layout guide, by hierarchy index).
///
/// The one place that numbers frame fields. Every table keyed by field uses ``key``,
/// `4 × view + field`: the solver's variables (``variable``), the index of constraint
/// mentions (a view's attributes on one axis are filed under that axis's origin field,
/// ``origin(of:horizontal:)``), the fields `explain` asks for, and the reported fields
/// (``reportedIndex``, the key less the container's `x` and `y`, which are never
/// reported).
public struct FrameField: Hashable, Sendable {
    /// Which of the four numbers, in the order frames list them
    /// (``FieldReference/fieldNames``).
    public enum Field: Int, CaseIterable, Sendable {
        case x, y, width, height

        /// The field's name in frames and `explain`: `x`, `y`, `width` or `height`.
        public var name: String { FieldReference.fieldNames[rawValue] }

        /// The field named `name`, if it is one of the four.
        public init?(name: String) {
            guard let index = FieldReference.fieldNames.firstIndex(of: name) else { return nil }
            self.init(rawValue: index)
        }

        /// Whether the field lies on the horizontal axis (`x`, `width`).
        public var isHorizontal: Bool { self == .x || self == .width }
    }

    /// The item's index in ``ViewHierarchy``: 0 the container, then the views, the
    /// layout guides and `safeArea`.
    public var view: Int
    /// Which of its four numbers.
    public var field: Field

    /// The field `field` of item `view`.
    @inline(__always) public init(view: Int, _ field: Field) {
        self.view = view
        self.field = field
    }

    /// The field whose ``key`` is `key` (≥ 0).
    @inline(__always) public init(key: Int) {
        self.init(view: key >> 2, Field(rawValue: key & 3)!)
    }

    /// `4 × view + field`: dense from 0 over the hierarchy's items, 4 per item.
    @inline(__always) public var key: Int { 4 &* view &+ field.rawValue }

    /// Number of keys of a hierarchy of `items` items (the size of a table keyed by ``key``).
    @inline(__always) public static func keyCount(items: Int) -> Int { 4 * items }

    /// The origin field (`x` or `y`) of `view` on one axis: the key under which the
    /// constraints mentioning the view's attributes on that axis are filed.
    @inline(__always) public static func origin(of view: Int, horizontal: Bool) -> FrameField {
        FrameField(view: view, horizontal ? .x : .y)
    }

    /// The size field (`width` or `height`) of `view` on one axis.
    @inline(__always) public static func size(of view: Int, horizontal: Bool) -> FrameField {
        FrameField(view: view, horizontal ? .width : .height)
    }

    /// The solver variable of the field (id ``key``; the container's `x` and `y` have
    /// variables but no constraint names them).
    @inline(__always) public var variable: Variable { Variable(id: key) }

    /// The variable of this field of an internal stack guide numbered `view` (ids −1,
    /// −2, …, never a hierarchy item's).
    @inline(__always) var stackGuideVariable: Variable { Variable(id: -1 - key) }

    /// The field's position among the reported fields
    /// (``ViewHierarchy/frameFields(relativeToRoot:)``: the container's width and
    /// height, then every other reported item's four fields in hierarchy order). Not
    /// defined for the container's `x` and `y`, which are not reported.
    @inline(__always) var reportedIndex: Int { key - 2 }
}
