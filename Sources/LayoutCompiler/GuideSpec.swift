/// One layout guide of the scene (`guides`: UIKit's `UILayoutGuide`): an invisible
/// rectangle owned by a view, with the position and size attributes of a view and no
/// intrinsic size, hugging, compression resistance, margins or baselines (contract,
/// "Layout guides and the safe area").
///
/// Its frame is answered relative to its owner (or to the container with
/// `coordinates: root`), like a child view of the owner.
public struct GuideSpec: Sendable, Hashable {
    /// The guide's name: `[A-Za-z_][A-Za-z0-9_]*`, no view's name, not `superview` or `safeArea`.
    public var name: String
    /// The owning view's name, or `nil` for the container.
    public var owner: String?

    public init(name: String, owner: String? = nil) {
        self.name = name
        self.owner = owner
    }

    /// The name of the container's safe-area layout guide (`view.safeAreaLayoutGuide`),
    /// reserved: its frame is the container's bounds inset by `container.safeArea`.
    public static let safeAreaName = "safeArea"
}
