#!/usr/bin/env python3
"""Generate the costliest requests under the body limit, one kind each, for measuring
what one request costs before and during the solver's work budget (docs/operations.md,
"Scenes and solving"). Each is a valid scene of compact JSON, deterministic for its
arguments, at most --bytes (default 1 MiB) long.

Usage: gen_hostile.py KIND [--bytes N] > scene.json      (gen_hostile.py --list)

Kinds:
  conflicts-sizes  120 views, each with a required width that conflicts, at 1,000 sizes
                   (every size explains 100 conflicts; a 20 KB body)
  conflicts-filter 100 conflicts a size whose explanations run the deletion filter, at
                   1,000 sizes
  stack            one stack of as many arranged views as fit (`--views` to choose)
  stacks           as many two-view stacks as fit, each in its own parent
  nested-stacks    stacks nested 63 deep, repeated side by side
  guides           as many layout guides as fit, each owned by a view
  equations        as many one-term equations as fit, chained over 2,000 views
  vfl-chains       VFL chains of 64 KB over every view, as many as fit
  deep             views 64 deep in chains, side by side
  explain-sizes    explain every field of 100 views at 1,000 sizes
  wireframe-sizes  150 views at 1,000 sizes (the SVG's most frames)
  wireframe-overlap        2,000 views with long names on one spot (labels collide)
  wireframe-overlap-sizes  148 such views at 1,000 sizes
  unknown-metrics  equations naming unknown metrics close to 1,000 long ones (did you mean)
  unknown-arranged a stack arranging 1,000 unknown names among 12,000 long view names
  unknown-views    equations naming unknown views among 12,000 long view names
  long-equations   equations of 64 KB, each naming 6,000 views
  vfl-parents      VFL strings of 64 KB joining views of 6,000 different parents
"""
import argparse
import json
import sys

LIMIT = 1 << 20


def compact(scene):
    return json.dumps(scene, separators=(',', ':'))


def fill(make, budget, low=1, high=200_000):
    """The largest n with len(compact(make(n))) <= budget (binary search)."""
    while high - low > 1:
        middle = (low + high) // 2
        if len(compact(make(middle))) <= budget:
            low = middle
        else:
            high = middle
    return make(low)


def conflicts_sizes(budget, views=120, sizes=1000):
    names = ['v%d' % i for i in range(views)]
    constraints = ['H:|[%s(10)]' % v for v in names] + ['V:|[%s(20)]' % v for v in names]
    constraints += ['%s.width == 11' % v for v in names]
    return {'container': {'width': 375, 'height': 667}, 'views': names, 'constraints': constraints,
            'sizes': [{'width': 300 + i} for i in range(sizes)]}


def stack(budget, views=None):
    def make(n):
        names = ['v%d' % i for i in range(n)]
        objects = {'s': {'stack': {'axis': 'vertical', 'spacing': 1, 'arranged': names}}}
        for name in names:
            objects[name] = {'intrinsicSize': {'width': 10, 'height': 1}}
        return {'container': {'width': 375, 'height': 667}, 'views': objects,
                'constraints': ['s.top | leading | trailing == superview']}
    return make(views) if views else fill(make, budget, high=20_000)


def stacks(budget):
    def make(n):
        objects, constraints = {}, []
        for i in range(n):
            objects['s%d' % i] = {'stack': {'arranged': ['a%d' % i, 'b%d' % i]}}
            objects['a%d' % i] = {'intrinsicSize': {'width': 10, 'height': 10}}
            objects['b%d' % i] = {'intrinsicSize': {'width': 10, 'height': 10}}
            constraints.append('s%d.top | leading == superview' % i)
        return {'container': {'width': 375, 'height': 667}, 'views': objects, 'constraints': constraints}
    return fill(make, budget, high=7_000)


def nested_stacks(budget):
    def make(n):
        objects, constraints = {}, []
        for k in range(n):
            for depth in range(62):
                inner = 's%d_%d' % (k, depth + 1) if depth < 61 else 'l%d' % k
                objects['s%d_%d' % (k, depth)] = {'stack': {'axis': 'vertical' if depth % 2 else 'horizontal',
                                                            'arranged': [inner, 'x%d_%d' % (k, depth)]}}
                objects['x%d_%d' % (k, depth)] = {'intrinsicSize': {'width': 1, 'height': 1}}
            objects['l%d' % k] = {'intrinsicSize': {'width': 1, 'height': 1}}
            constraints.append('s%d_0.top | leading == superview' % k)
        return {'container': {'width': 375, 'height': 667}, 'views': objects, 'constraints': constraints}
    return fill(make, budget, high=200)


def guides(budget):
    def make(n):
        views = ['v%d' % i for i in range(n // 2)]
        return {'container': {'width': 375, 'height': 667}, 'views': views,
                'guides': {'g%d' % i: {'owner': views[i % len(views)]} for i in range(n - n // 2)},
                'constraints': ['g%d.edges == v%d' % (i, i % len(views)) for i in range(n - n // 2)]}
    return fill(make, budget, low=2, high=20_000)


def equations(budget):
    def make(n):
        views = ['v%d' % i for i in range(2000)]
        return {'container': {'width': 375, 'height': 667}, 'views': views,
                'constraints': ['v%d.left==v%d.right' % ((i + 1) % 2000, i % 2000) for i in range(n)]}
    return fill(make, budget, high=100_000)


def vfl_chains(budget):
    views = ['v%d' % i for i in range(6000)]
    chain = 'H:|' + ''.join('[%s]' % v for v in views[:5400]) + '|'
    def make(n):
        return {'container': {'width': 375, 'height': 667}, 'views': views, 'constraints': [chain] * n}
    return fill(make, budget, high=100)


def deep(budget):
    def make(n):
        objects = {}
        for k in range(n):
            for depth in range(64):
                objects['d%d_%d' % (k, depth)] = {'parent': 'd%d_%d' % (k, depth - 1)} if depth else {}
        constraints = ['d%d_%d.edges == d%d_%d' % (k, d, k, d - 1) if d else 'd%d_0.edges == superview' % k
                       for k in range(n) for d in range(64)]
        return {'container': {'width': 375, 'height': 667}, 'views': objects, 'constraints': constraints}
    return fill(make, budget, high=400)


def explain_sizes(budget):
    views = ['v%d' % i for i in range(100)]
    return {'container': {'width': 375, 'height': 667}, 'views': views,
            'constraints': ['H:|[%s]|' % v for v in views] + ['V:|[%s]|' % v for v in views],
            'explain': views, 'sizes': [{'width': 300 + i, 'height': 500} for i in range(1000)]}


def wireframe_sizes(budget):
    views = ['v%d' % i for i in range(148)]
    return {'container': {'width': 375, 'height': 667}, 'views': views,
            'constraints': ['H:|-%d-[%s(10)]' % (i, v) for i, v in enumerate(views)] +
                           ['V:|-%d-[%s(10)]' % (i, v) for i, v in enumerate(views)],
            'sizes': [{'width': 300 + i, 'height': 700} for i in range(1000)]}


def long_equations(budget):
    """Equations of as many terms as a 64 KB constraint holds, each naming every view."""
    views = ['v%d' % i for i in range(6000)]
    text = ' + '.join('%s.left' % v for v in views)
    text = text[:65000].rsplit(' + ', 1)[0] + ' == 0'
    def make(n):
        return {'container': {'width': 375, 'height': 667}, 'views': views,
                'options': {'ambiguity': 'ignore'}, 'constraints': [text] * n}
    return fill(make, budget, high=100)


def vfl_parents(budget):
    """VFL strings joining views that each have a parent of their own (a 422 naming them)."""
    pairs = 6000
    objects = {}
    for i in range(pairs):
        objects['p%d' % i] = {}
        objects['c%d' % i] = {'parent': 'p%d' % i}
    chain = 'H:' + ''.join('[c%d]' % i for i in range(pairs))
    chain = chain[:65000].rsplit('[', 1)[0]
    def make(n):
        return {'container': {'width': 375, 'height': 667}, 'views': objects, 'constraints': [chain] * n}
    return fill(make, budget, high=100)


def wireframe_overlap(budget, views=2000, sizes=None):
    """Views with long names all on one spot: every label collides with every other."""
    names = ['overlapping_view_%04d' % i for i in range(views)]
    scene = {'container': {'width': 375, 'height': 667}, 'views': names,
             'constraints': ['H:|-10-[%s(100)]' % v for v in names] + ['V:|-10-[%s(40)]' % v for v in names]}
    if sizes:
        scene['sizes'] = [{'width': 300 + i, 'height': 700} for i in range(sizes)]
    return scene


def conflicts_filter(budget, groups=100, length=30, sizes=1000):
    """Conflicts whose explanations run the deletion filter: chains of inequalities,
    each closed by a bound they cannot meet (about 60 candidates a conflict)."""
    views, constraints = [], []
    for g in range(groups):
        names = ['g%d_%d' % (g, i) for i in range(length)]
        views += names
        constraints.append('H:|-(>=0)-' + '-(>=0)-'.join('[%s(>=1)]' % v for v in names))
        constraints.append('V:|' + ''.join('[%s(1)]' % v for v in names))
        constraints.append('%s.trailing <= %d' % (names[-1], length - 1))
    return {'container': {'width': 375, 'height': 667}, 'views': views, 'constraints': constraints,
            'options': {'ambiguity': 'ignore'},
            'sizes': [{'width': 300 + i} for i in range(min(sizes, 1_000_000 // (len(views) + 1)))]}


def unknown_metrics(budget):
    """Equations each naming an unknown metric close to 1,000 long metric names."""
    metrics = {('metric_%04d_' % i) + 'm' * 50: 1 for i in range(1000)}
    def make(n):
        return {'container': {'width': 375, 'height': 667}, 'views': ['a'], 'metrics': metrics,
                'constraints': [('a.width == metric_%04d_' % (i % 1000)) + 'm' * 49 + 'x' for i in range(n)]}
    return fill(make, budget, high=20_000)


def unknown_arranged(budget):
    """A stack arranging 1,000 unknown names close to 12,000 long view names."""
    views = {('view_%05d_' % i) + 'x' * 48: {} for i in range(12000)}
    views['s'] = {'stack': {'arranged': [('unkn_%05d_' % i) + 'y' * 48 for i in range(1000)]}}
    return {'container': {'width': 375, 'height': 667}, 'views': views, 'constraints': []}


def unknown_views(budget):
    """Equations each naming an unknown view close to 12,000 long view names."""
    views = [('view_%05d_' % i) + 'x' * 48 for i in range(12000)]
    def make(n):
        return {'container': {'width': 375, 'height': 667}, 'views': views,
                'constraints': [('view_%05d_' % i) + 'x' * 47 + 'y.width == 1' for i in range(n)]}
    return fill(make, budget, high=12_000)


KINDS = {'unknown-metrics': unknown_metrics, 'unknown-arranged': unknown_arranged,
         'unknown-views': unknown_views, 'conflicts-filter': conflicts_filter, 'wireframe-overlap': wireframe_overlap,
         'wireframe-overlap-sizes': lambda budget: wireframe_overlap(budget, views=148, sizes=1000), 'long-equations': long_equations, 'vfl-parents': vfl_parents, 'conflicts-sizes': conflicts_sizes, 'stack': stack, 'stacks': stacks,
         'nested-stacks': nested_stacks, 'guides': guides, 'equations': equations,
         'vfl-chains': vfl_chains, 'deep': deep, 'explain-sizes': explain_sizes,
         'wireframe-sizes': wireframe_sizes}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('kind', nargs='?', choices=sorted(KINDS))
    parser.add_argument('--bytes', type=int, default=LIMIT)
    parser.add_argument('--views', type=int, default=None, help='stack: arranged views')
    parser.add_argument('--list', action='store_true')
    args = parser.parse_args()
    if args.list or not args.kind:
        print('\n'.join(sorted(KINDS)))
        return
    scene = stack(args.bytes, args.views) if args.kind == 'stack' else KINDS[args.kind](args.bytes)
    text = compact(scene)
    if len(text) > args.bytes:
        sys.exit('%s: %d bytes, over %d' % (args.kind, len(text), args.bytes))
    sys.stdout.write(text)


if __name__ == '__main__':
    main()
