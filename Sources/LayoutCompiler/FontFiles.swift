import TextLayout

/// The text engine's font checks for the service, which cannot import `TextLayout`
/// itself beside Foundation (their ICU module maps clash).
public enum FontFiles {
    /// Why `bytes` are not one TrueType or OpenType face with glyphs (``FontFileCheck``),
    /// or `nil` when they are one.
    public static func problem(_ bytes: [UInt8]) -> String? {
        do {
            _ = try FontFileCheck.check(bytes)
            return nil
        } catch {
            return error.message
        }
    }

    /// The built-in families (``FontCatalog/builtInFamilies``) and `system`, which stored
    /// families may not be named like.
    public static let reservedFamilies = FontCatalog.builtInFamilies + [FontCatalog.systemAlias]
}
