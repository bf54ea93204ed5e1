import Testing
@testable import LayoutStore
