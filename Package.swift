// swift-tools-version:6.0
// layoutd — Auto Layout as a service: a Cassowary solver, VFL and equation
// parsers, a scene compiler, an SVG wireframe, SQLite and PostgreSQL stores and an
// HTTP/1.1 server.
import PackageDescription

/// One settings list, applied to every target (docs/style.md, "Package shape").
let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "layoutd",
    products: [
        .executable(name: "layoutd", targets: ["layoutd"]),
        .executable(name: "layoutd-bench", targets: ["layoutd-bench"]),
    ],
    targets: [
        // C headers: the system calls and libraries the Glibc module does not export.
        .systemLibrary(name: "CLayoutdSystem", path: "Sources/CLayoutdSystem"),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto"),
        // Leaf modules: they know none of ours.
        .target(name: "Cassowary", dependencies: ["CLayoutdSystem"], swiftSettings: swiftSettings),
        .target(name: "LayoutSyntax", swiftSettings: swiftSettings),
        .target(name: "HTTP1", dependencies: ["CLayoutdSystem"], swiftSettings: swiftSettings),
        // libpq (Debian: libpq-dev). pkg-config, when installed, adds the header folder;
        // shim.h finds Debian's /usr/include/postgresql without it.
        .systemLibrary(name: "CPostgreSQL", path: "Sources/CPostgreSQL", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // libxml2 (Debian: libxml2-dev): the XML reader of Interface Builder documents.
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // HarfBuzz (Debian: libharfbuzz-dev) shapes text; ICU's line break iterator (libicu-dev)
        // gives UAX #14 line-break opportunities (docs/decisions.md, "Line breaking from ICU").
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .target(name: "CICUBreak", path: "Sources/CICUBreak", linkerSettings: [.linkedLibrary("icuuc")]),
        // Text measuring: fonts, shaping, wrapping. Knows no other layoutd module.
        .target(name: "TextLayout", dependencies: ["CHarfBuzz", "CICUBreak"], swiftSettings: swiftSettings),
        // Built on the leaves.
        .target(name: "LayoutCompiler", dependencies: ["Cassowary", "LayoutSyntax", "TextLayout"], swiftSettings: swiftSettings),
        .target(name: "InterfaceBuilder", dependencies: ["CLibXML2", "LayoutCompiler"], swiftSettings: swiftSettings),
        .target(name: "LayoutStore", dependencies: ["CSQLite", "CPostgreSQL"], swiftSettings: swiftSettings),
        // The SVG wireframe of solved layouts: it reads compiled scenes and layouts (may
        // import LayoutCompiler, LayoutSyntax, Foundation) and knows nothing of HTTP or the stores.
        .target(name: "Wireframe", dependencies: ["LayoutCompiler"], swiftSettings: swiftSettings),
        // The only module that knows all of them.
        .target(
            name: "LayoutService",
            dependencies: ["LayoutCompiler", "LayoutSyntax", "LayoutStore", "Wireframe", "InterfaceBuilder", "HTTP1", "CCrypto"],
            // A symlink to the top-level openapi.yaml, the one source of the API's
            // description: compiled in as `PackageResources.openapi_yaml`, served by
            // GET /openapi.yaml (HandlerTests.servedOpenAPIDocumentIsTheFile); and the
            // playground page served at GET / (PlaygroundPage).
            resources: [.embedInCode("openapi.yaml"), .embedInCode("Playground/playground.html")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "layoutd", dependencies: ["LayoutService", "CLayoutdSystem"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "layoutd-bench",
            dependencies: ["Cassowary", "LayoutSyntax", "LayoutCompiler", "LayoutService", "TextLayout", "InterfaceBuilder", "HTTP1", "LayoutStore"],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "CassowaryTests", dependencies: ["Cassowary"], swiftSettings: swiftSettings),
        .testTarget(name: "LayoutSyntaxTests", dependencies: ["LayoutSyntax"], swiftSettings: swiftSettings),
        .testTarget(name: "LayoutCompilerTests", dependencies: ["LayoutCompiler", "LayoutSyntax", "Cassowary", "TextLayout"], swiftSettings: swiftSettings),
        .testTarget(name: "InterfaceBuilderTests", dependencies: ["InterfaceBuilder", "LayoutCompiler"], swiftSettings: swiftSettings),
        .testTarget(name: "LayoutStoreTests", dependencies: ["LayoutStore"], swiftSettings: swiftSettings),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout", "CHarfBuzz"], swiftSettings: swiftSettings),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "CLayoutdSystem"], swiftSettings: swiftSettings),
        .testTarget(name: "LayoutServiceTests", dependencies: ["LayoutService", "HTTP1", "LayoutStore", "Wireframe", "TextLayout", "InterfaceBuilder"], swiftSettings: swiftSettings),
    ]
)
