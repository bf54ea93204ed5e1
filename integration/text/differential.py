#!/usr/bin/env python3
"""Text measuring, checked against HarfBuzz driven from Python (uharfbuzz) and ICU.

    python3 integration/text/differential.py --binary .build/debug/layoutd-bench [--cases 600] [--seed 7]
    python3 integration/text/differential.py --bench CASES.jsonl   (used by `layoutd-bench text`)

Differential mode makes random labels (words with kerning pairs, ligatures, hyphens and
punctuation; sizes 9-40; widths 20-400; the built-in families at 400 and 700, upright and
italic where the family has italics), measures each with `layoutd-bench text-lines` and
here, by the contract's definition taken literally: each candidate line shaped on its
own with uharfbuzz (default features, scale = units per em, x advances x size / upem),
UAX #14 opportunities from ICU's line break iterator (libicuuc through ctypes), a line
running to the furthest opportunity whose line, trailing spaces left out, is at most W
wide, else broken between grapheme clusters (ICU's character break iterator). Widths must
agree to 1e-9 point and the line breaks exactly. Prints one FAIL line per mismatch and
"N passed, M failed".

Bench mode measures and wraps the labels of CASES.jsonl as layoutd does (the paragraph
shaped once, candidate lines estimated from its advances and confirmed by shaping the
chosen line alone) and prints the seconds it took, for `layoutd-bench text` to print
beside its own.
"""
import argparse
import ctypes
import ctypes.util
import json
import random
import subprocess
import sys
import time

import uharfbuzz as hb

ROOT = '/usr/share/fonts'
FACES = {
    ('inter', 400, False): 'opentype/inter/Inter-Regular.otf',
    ('inter', 700, False): 'opentype/inter/Inter-Bold.otf',
    ('inter', 400, True): 'opentype/inter/Inter-Italic.otf',
    ('inter', 700, True): 'opentype/inter/Inter-BoldItalic.otf',
    ('dejavu sans', 400, False): 'truetype/dejavu/DejaVuSans.ttf',
    ('dejavu sans', 700, False): 'truetype/dejavu/DejaVuSans-Bold.ttf',
    ('dejavu serif', 400, False): 'truetype/dejavu/DejaVuSerif.ttf',
    ('dejavu sans mono', 400, False): 'truetype/dejavu/DejaVuSansMono.ttf',
    ('liberation sans', 400, False): 'truetype/liberation2/LiberationSans-Regular.ttf',
    ('liberation sans', 700, True): 'truetype/liberation2/LiberationSans-BoldItalic.ttf',
    ('liberation serif', 400, False): 'truetype/liberation2/LiberationSerif-Regular.ttf',
    ('liberation serif', 400, True): 'truetype/liberation2/LiberationSerif-Italic.ttf',
    ('liberation mono', 400, False): 'truetype/liberation2/LiberationMono-Regular.ttf',
}
FAMILY_NAMES = {'inter': 'Inter', 'dejavu sans': 'DejaVu Sans', 'dejavu serif': 'DejaVu Serif',
                'dejavu sans mono': 'DejaVu Sans Mono', 'liberation sans': 'Liberation Sans',
                'liberation serif': 'Liberation Serif', 'liberation mono': 'Liberation Mono'}
WORDS = ['AV', 'To', 'office', 'fluffy', 'Wavy', 'ff', 'fi', 'yet,', 'T.', 'well-known', 'LTA', 'Ya', '(quoted)',
         'naïve', 'Tr', '"Ok"', '1/2', 'P.', 'AWAY', 'fjord', 'the', 'of', 'and', 'layout', 'constraint',
         'Your', 'order', 'has', 'shipped', 'tomorrow', 'will', 'be', 'sunny', 'x', 'supercalifragilistic',
         're-solve', 'e.g.', 'Wi-Fi', '42%', '—', 'A/B', 'café', 'Lj', 'VA']
HANGING = {0x20, 0x09, 0x1680, 0x205F, 0x3000} | set(range(0x2000, 0x2007)) | set(range(0x2008, 0x200B))

_fonts = {}


def font(path):
    if path not in _fonts:
        face = hb.Face(hb.Blob.from_file_path(ROOT + '/' + path))
        f = hb.Font(face)
        f.scale = (face.upem, face.upem)
        _fonts[path] = (f, face.upem)
    return _fonts[path]


class ICU:
    """ICU's C break iterators through ctypes (ICU renames its symbols by major version)."""
    def __init__(self):
        name = ctypes.util.find_library('icuuc') or 'libicuuc.so'
        self.lib = ctypes.CDLL(name)
        self.suffix = next(s for s in ['_%d' % v for v in range(80, 50, -1)] + ['']
                           if hasattr(self.lib, 'ubrk_open' + s))
        self.open = self.fn('ubrk_open', ctypes.c_void_p,
                            [ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(ctypes.c_int)])
        self.next = self.fn('ubrk_next', ctypes.c_int32, [ctypes.c_void_p])
        self.close = self.fn('ubrk_close', None, [ctypes.c_void_p])

    def fn(self, name, restype, argtypes):
        f = getattr(self.lib, name + self.suffix)
        f.restype, f.argtypes = restype, argtypes
        return f

    def boundaries(self, units, kind):
        """UTF-16 offsets after position 0 where `kind` (0 character, 2 line) allows a break."""
        if not units:
            return []
        buf = (ctypes.c_uint16 * len(units))(*units)
        status = ctypes.c_int(0)
        it = self.open(kind, b'', buf, len(units), ctypes.byref(status))
        out = []
        while True:
            n = self.next(it)
            if n == -1:
                break
            out.append(n)
        self.close(it)
        return out


def utf16(s):
    data = s.encode('utf-16-le')
    return [data[i] | data[i + 1] << 8 for i in range(0, len(data), 2)]


def text_of(units):
    return bytes(b for u in units for b in (u & 0xFF, u >> 8)).decode('utf-16-le')


def width_of(units, path, size):
    if not units:
        return 0.0
    f, upem = font(path)
    buf = hb.Buffer()
    buf.add_str(text_of(units))
    buf.guess_segment_properties()
    hb.shape(f, buf)
    return sum(p.x_advance * size / upem for p in buf.glyph_positions)


def trim(units, s, e):
    while e > s and units[e - 1] in HANGING:
        e -= 1
    return e


def paragraphs(units):
    out, start, i = [], 0, 0
    while i < len(units):
        u = units[i]
        if u == 0x0A or u == 0x2028:
            out.append((start, i)); start = i + 1
        elif u == 0x0D and i + 1 < len(units) and units[i + 1] == 0x0A:
            out.append((start, i)); start = i + 2; i += 1
        i += 1
    out.append((start, len(units)))
    return out


def reference_lines(icu, string, path, size, width, number_of_lines):
    """The contract's definition, literally: every candidate line shaped on its own."""
    units = utf16(string)
    limit = number_of_lines if number_of_lines > 0 else 1 << 60
    wrap = None if number_of_lines == 1 else width
    lines, truncated = [], False
    if not units:
        return lines, False
    pars = paragraphs(units)
    for pi, (a, b) in enumerate(pars):
        if len(lines) == limit:
            truncated = True; break
        par = units[a:b]
        if wrap is None or a == b:
            e = trim(units, a, b)
            lines.append((a, e, width_of(units[a:e], path, size)))
            continue
        ops = [a + o for o in icu.boundaries(par, 2)]
        graphemes = [a + o for o in icu.boundaries(par, 0)]
        s = a
        while s < b:
            if len(lines) == limit:
                truncated = True; break
            best = None
            for o in ops:
                if o <= s:
                    continue
                e = trim(units, s, o)
                w = width_of(units[s:e], path, size)
                if w <= wrap + 1e-6:
                    best = (o, e, w)
                elif w > wrap + size:   # no kerning brings a line back by an em
                    break
            if best:
                lines.append((s, best[1], best[2])); s = best[0]; continue
            first = next(o for o in ops if o > s)
            piece_end = trim(units, s, first)
            chosen = None
            for g in graphemes:
                if g <= s or g > piece_end:
                    continue
                w = width_of(units[s:g], path, size)
                if w <= wrap + 1e-6:
                    chosen = (g, w)
                elif w > wrap + size:
                    break
            if chosen is None:
                g = next(g for g in graphemes if g > s)
                chosen = (g, width_of(units[s:g], path, size))
            lines.append((s, chosen[0], chosen[1])); s = chosen[0]
        if truncated:
            break
    return lines, truncated


def fast_lines(icu, string, path, size, width):
    """What layoutd does: one shaping of the text, estimates, the chosen lines shaped alone."""
    units = utf16(string)
    f, upem = font(path)
    buf = hb.Buffer()
    buf.add_codepoints([ord(c) for c in string])
    buf.guess_segment_properties()
    hb.shape(f, buf)
    # cluster indices are code points; map to UTF-16 offsets
    offsets, o = [], 0
    for c in string:
        offsets.append(o); o += 2 if ord(c) > 0xFFFF else 1
    prefix = [0.0] * (len(units) + 1)
    adv = [0.0] * (len(units) + 1)
    for info, pos in zip(buf.glyph_infos, buf.glyph_positions):
        adv[offsets[info.cluster]] += pos.x_advance * size / upem
    for i in range(len(units)):
        prefix[i + 1] = prefix[i] + adv[i]
    ops = icu.boundaries(units, 2)
    lines, s, j = [], 0, 0
    slack = 0.5 * size
    while s < len(units):
        while j < len(ops) and ops[j] <= s:
            j += 1
        k = j
        while k < len(ops) and prefix[trim(units, s, ops[k])] - prefix[s] <= width + slack:
            k += 1
        chosen = None
        for c in range(k - 1, j - 1, -1):
            e = trim(units, s, ops[c])
            w = width_of(units[s:e], path, size)
            if w <= width + 1e-6:
                chosen = (ops[c], e, w); break
        if chosen is None:   # (a long word: one line for it, enough for timing)
            e = trim(units, s, ops[j])
            chosen = (ops[j], e, width_of(units[s:e], path, size))
        lines.append(chosen); s = chosen[0]
    return lines


def random_case(rng):
    key = rng.choice(sorted(FACES))
    words = [rng.choice(WORDS) for _ in range(rng.randint(1, 14))]
    text = ''.join(w + rng.choice([' ', ' ', ' ', '  ', '-', '\n', ' ']) for w in words)
    if rng.random() < 0.7:
        text = text.rstrip(' -\n')
    return {'string': text, 'family': FAMILY_NAMES[key[0]], 'weight': key[1], 'italic': key[2],
            'size': rng.choice([9, 11, 12.5, 13, 14, 15, 17, 20, 24, 31, 40]),
            'width': round(rng.uniform(20, 400), 3), 'numberOfLines': rng.choice([0, 0, 0, 2, 3, 1])}


def differential(args):
    icu = ICU()
    rng = random.Random(args.seed)
    cases = [random_case(rng) for _ in range(args.cases)]
    payload = ''.join(json.dumps(c) + '\n' for c in cases)
    out = subprocess.run([args.binary, 'text-lines'], input=payload.encode(), capture_output=True, check=True).stdout
    answers = [json.loads(line) for line in out.decode().splitlines()]
    assert len(answers) == len(cases), 'text-lines answered %d of %d' % (len(answers), len(cases))
    passed = failed = 0
    for case, got in zip(cases, answers):
        path = FACES[(case['family'].lower(), case['weight'], case['italic'])]
        want, truncated = reference_lines(icu, case['string'], path, case['size'], case['width'], case['numberOfLines'])
        problems = []
        if [(l[0], l[1]) for l in want] != [(l[0], l[1]) for l in got['lines']]:
            problems.append('breaks %r != %r' % ([l[:2] for l in got['lines']], [l[:2] for l in want]))
        else:
            for (_, _, w1), (_, _, w2) in zip(want, got['lines']):
                if abs(w1 - w2) > 1e-9:
                    problems.append('width %r != %r' % (w2, w1))
        if truncated != got['truncated']:
            problems.append('truncated %r != %r' % (got['truncated'], truncated))
        if problems:
            failed += 1
            print('FAIL %s: %s' % (json.dumps(case), '; '.join(problems)))
        else:
            passed += 1
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def bench(path_file):
    icu = ICU()
    cases = [json.loads(line) for line in open(path_file)]
    for c in cases:   # faces loaded before timing, as layoutd's are after its first label
        font(FACES[(c['family'].lower(), c['weight'], c['italic'])])
    start = time.perf_counter()
    lines = 0
    for c in cases:
        lines += len(fast_lines(icu, c['string'], FACES[(c['family'].lower(), c['weight'], c['italic'])], c['size'], c['width']))
    elapsed = time.perf_counter() - start
    print(json.dumps({'seconds': elapsed, 'labels': len(cases), 'lines': lines}))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--binary', default='.build/debug/layoutd-bench')
    parser.add_argument('--cases', type=int, default=600)
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--bench')
    args = parser.parse_args()
    return bench(args.bench) if args.bench else differential(args)


if __name__ == '__main__':
    sys.exit(main())
