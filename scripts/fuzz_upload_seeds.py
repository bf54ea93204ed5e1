#!/usr/bin/env python3
"""Writes the seed corpora of the upload fuzz targets (scripts/fuzz-upload-smoke.sh).

    fuzz_upload_seeds.py font OUT [--fonts /usr/share/fonts]
    fuzz_upload_seeds.py ib OUT [--corpus ../shared/corpus/ib/files]

font: Debian's fonts (fonts-dejavu-core, fonts-liberation2, fonts-inter), each first made
small with uharfbuzz's subsetter when it is installed (a few glyphs: a few KB, so the
fuzzer's mutations stay cheap; the whole file otherwise), then cut at several lengths and
corrupted where a hostile upload would aim: the sfnt version, numTables, each table
record's tag, offset and length, head.unitsPerEm, maxp.numGlyphs, hhea.numberOfHMetrics,
the extents, the cmap, and bytes of the table directory flipped at random (a fixed seed).

ib: every document of the Interface Builder corpus (read here at run time, never copied
into the repository: several are copyleft), and mutated copies of some: truncated,
nested far deeper, with a DTD declaring entities (an exponential "billion laughs" and an
external entity naming a local file), a constraint naming an id that does not exist, a
stack view arranging a view twice and malformed multipliers.

The output is deterministic: the same inputs give the same files.
"""
import argparse
import hashlib
import os
import random
import re
import struct
import sys

FONT_FILES = [
    "truetype/dejavu/DejaVuSans.ttf",
    "truetype/liberation2/LiberationSans-Regular.ttf",
    "opentype/inter/Inter-Regular.otf",
]
SUBSET_TEXT = "Hello, world! fi fl – well-known W ✓"


def write(out, data, label):
    name = "seed-%s-%s" % (re.sub(r"[^A-Za-z0-9_.-]+", "_", label), hashlib.sha1(data).hexdigest()[:12])
    with open(os.path.join(out, name), "wb") as handle:
        handle.write(data)


def subset(path):
    try:
        import uharfbuzz as hb
    except ImportError:
        return None
    face = hb.Face(hb.Blob.from_file_path(path))
    request = hb.SubsetInput()
    for character in SUBSET_TEXT:
        request.unicode_set.add(ord(character))
    result = hb.subset(face, request)
    return bytes(result.blob.data) if result is not None else None


def tables(data):
    """(tag, record offset, table offset, table length) of each table record."""
    count = struct.unpack_from(">H", data, 4)[0]
    records = []
    for index in range(count):
        record = 12 + 16 * index
        if record + 16 > len(data):
            break
        tag = data[record:record + 4].decode("latin-1")
        offset, length = struct.unpack_from(">II", data, record + 8)
        records.append((tag, record, offset, length))
    return records


def patched(data, at, fmt, value):
    copy = bytearray(data)
    if at + struct.calcsize(fmt) <= len(copy):
        struct.pack_into(fmt, copy, at, value)
    return bytes(copy)


def font_seeds(out, fonts_root):
    rng = random.Random(20261206)
    for relative in FONT_FILES:
        path = os.path.join(fonts_root, relative)
        if not os.path.exists(path):
            print("fuzz_upload_seeds: %s is missing (install-deps.sh installs it)" % path, file=sys.stderr)
            continue
        whole = open(path, "rb").read()
        label = os.path.basename(relative).split(".")[0]
        small = subset(path) or whole
        write(out, small, label)
        write(out, whole[:65536], label + "-first-64k")
        directory_end = 12 + 16 * struct.unpack_from(">H", small, 4)[0]
        for cut in sorted({0, 4, 11, 12, 28, directory_end // 2, directory_end, directory_end + 1,
                           100, 1000, len(small) // 4, len(small) // 2, len(small) - 1}):
            write(out, small[:cut], "%s-cut-%d" % (label, cut))
        for version in (b"ttcf", b"wOFF", b"true", b"OTTO", b"\x00\x01\x00\x00"):
            write(out, version + small[4:], label + "-version")
        for count in (0, 1, 0xFFFF, 1025):
            write(out, patched(small, 4, ">H", count), "%s-numTables-%d" % (label, count))
        records = tables(small)
        for tag, record, offset, length in records:
            flipped = bytearray(small)
            flipped[record] ^= 0x20
            write(out, bytes(flipped), "%s-%s-tag" % (label, tag.strip()))
            for bad in (0xFFFFFFF0,):
                write(out, patched(small, record + 8, ">I", bad), "%s-%s-offset" % (label, tag.strip()))
            for bad in (length + 1,):
                write(out, patched(small, record + 12, ">I", bad), "%s-%s-length" % (label, tag.strip()))
        where = {tag: offset for tag, _, offset, _ in records}
        if "head" in where:
            for upem in (0, 1, 15, 16, 16384, 16385, 0xFFFF):
                write(out, patched(small, where["head"] + 18, ">H", upem), "%s-unitsPerEm-%d" % (label, upem))
        if "maxp" in where:
            for glyphs in (0, 1, 0xFFFF):
                write(out, patched(small, where["maxp"] + 4, ">H", glyphs), "%s-numGlyphs-%d" % (label, glyphs))
        if "hhea" in where:
            for metrics in (0, 1, 0xFFFF):
                write(out, patched(small, where["hhea"] + 34, ">H", metrics), "%s-numberOfHMetrics-%d" % (label, metrics))
            for ascender, descender in ((0x7FFF, -0x8000), (-0x8000, 0x7FFF), (0, 0)):
                copy = patched(small, where["hhea"] + 4, ">h", ascender)
                write(out, patched(copy, where["hhea"] + 6, ">h", descender), "%s-extents" % label)
        if "cmap" in where:
            for count in (0, 0xFFFF):
                write(out, patched(small, where["cmap"] + 2, ">H", count), "%s-cmap-subtables" % label)
            write(out, patched(small, where["cmap"] + 8, ">I", 0xFFFFFFF0), "%s-cmap-offset" % label)
        for round_ in range(8):
            copy = bytearray(small)
            for _ in range(1 + round_ % 4):
                at = rng.randrange(0, min(directory_end, len(copy)))
                copy[at] ^= 1 << rng.randrange(8)
            write(out, bytes(copy), "%s-directory-flip" % label)


LAUGHS = (b'<!DOCTYPE document [\n<!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">\n'
          + b"".join(b'<!ENTITY %s "%s">\n' % (bytes([c + 1]), (b"&" + bytes([c]) + b";") * 10) for c in range(ord("a"), ord("i")))
          + b"]>\n")
EXTERNAL = b'<!DOCTYPE document [\n<!ENTITY secret SYSTEM "file:///etc/passwd">\n]>\n'


def after_declaration(document, insert):
    end = document.find(b"?>")
    return document[:end + 2] + b"\n" + insert + document[end + 2:] if end >= 0 else insert + document


def ib_seeds(out, corpus):
    files = sorted(name for name in os.listdir(corpus) if name.endswith((".xib", ".storyboard")))
    if not files:
        print("fuzz_upload_seeds: no Interface Builder documents in %s" % corpus, file=sys.stderr)
        return
    documents = [(name, open(os.path.join(corpus, name), "rb").read()) for name in files]
    for name, data in documents:
        write(out, data, "corpus")
    # Mutated copies of the smallest documents of each kind and of the largest storyboard.
    by_size = sorted(documents, key=lambda entry: len(entry[1]))
    chosen = [entry for entry in by_size if entry[0].endswith(".xib")][:6]
    chosen += [entry for entry in by_size if entry[0].endswith(".storyboard")][:3]
    chosen += [entry for entry in by_size if b"<stackView" in entry[1]][:2]
    chosen.append(by_size[-1])
    for name, data in chosen:
        label = re.sub(r"[^A-Za-z0-9]+", "-", name)[-40:]
        for fraction in (3, 2):
            write(out, data[: len(data) * (fraction - 1) // fraction], label + "-truncated")
        depth = 400
        opening = b"".join(b'<view key="view" id="deep-%d"><rect key="frame" x="0" y="0" width="10" height="10"/><subviews>' % i for i in range(depth))
        closing = b"</subviews></view>" * depth
        position = data.find(b"<subviews>")
        if position >= 0:
            position += len(b"<subviews>")
            write(out, data[:position] + opening + closing + data[position:], label + "-deepened")
        write(out, after_declaration(data, LAUGHS).replace(b"<document ", b'<document userLabel="&i;" ', 1), label + "-laughs")
        write(out, after_declaration(data, EXTERNAL).replace(b"<document ", b'<document userLabel="&secret;" ', 1), label + "-external")
        write(out, re.sub(rb'firstItem="[^"]*"', b'firstItem="no-such-id"', data, count=1), label + "-unknown-id")
        for multiplier in (b"1:0", b"abc", b"1e400", b"-0:-0", b"1:2:3"):
            replaced = re.sub(rb'(<constraint )', b'\\1multiplier="' + multiplier + b'" ', data, count=1)
            write(out, replaced, label + "-multiplier")
        # A stack view's subviews are its arranged views: one of them again, with the same id.
        stack = re.search(rb"<stackView[^>]*>\s*(?:<rect[^>]*/>\s*)?<subviews>\s*<\w+[^>]*\bid=\"([^\"]+)\"", data)
        if stack:
            again = b'<view id="' + stack.group(1) + b'" translatesAutoresizingMaskIntoConstraints="NO"><rect key="frame" x="0" y="0" width="1" height="1"/></view>'
            at = data.index(b"<subviews>", stack.start()) + len(b"<subviews>")
            write(out, data[:at] + again + data[at:], label + "-arranged-twice")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("kind", choices=["font", "ib"])
    parser.add_argument("out")
    parser.add_argument("--fonts", default="/usr/share/fonts")
    parser.add_argument("--corpus", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus", "ib", "files"))
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    if arguments.kind == "font":
        font_seeds(arguments.out, arguments.fonts)
    else:
        ib_seeds(arguments.out, arguments.corpus)
    print("fuzz_upload_seeds: %d seeds in %s" % (len(os.listdir(arguments.out)), arguments.out))


if __name__ == "__main__":
    main()
