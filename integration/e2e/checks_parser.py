"""Apple's parser errors, to the character (`parser/*`): each row of the caret
table of docs/scene-format.md ("VFL errors, to the character") posted to
/validate, with the code, the column (0-based, in Unicode scalars, as the contract
counts them) and the message's beginning asserted; the direction options on
`V:` strings and SwiftLayoutConstraints' `~==`, `~>=`, `~<=` relations over HTTP.

Every column is derived by hand in a comment from the string. Every response is validated
against openapi.yaml by the harness's client.
"""
from harness import check

EXPECTED_COLON_V = "Expected ':' after 'V' to specify vertical arrangement"
EXPECTED_COLON_H = "Expected ':' after 'H' to specify horizontal arrangement"
UNKNOWN_RELATION = 'Unknown relation. Must be ==, >=, or <='
INVALID_PRIORITY = 'Invalid priority'
VIEW_AS_SPACE = "It's not possible to set a space equal to the width or height of a view"


def _scene(constraint, metrics=None):
    """Views a, b, c in a 300 × 200 container, with `constraint` as constraint 0."""
    scene = {'container': {'width': 300, 'height': 200}, 'views': ['a', 'b', 'c'],
             'constraints': [constraint]}
    if metrics:
        scene['metrics'] = metrics
    return scene


def _validate(ctx, scene, what):
    r = ctx.request('POST', '/validate', scene)
    ctx.expect_status(r, 200, what)
    return r.json()


def _expect_error(ctx, constraint, code, column, message, what, metrics=None):
    """`constraint` (a string or a vfl object) gives exactly one error: `code` at `column`
    of constraint 0, its message starting with `message`; returns that diagnostic."""
    doc = _validate(ctx, _scene(constraint, metrics), what)
    ctx.expect_equal(doc['valid'], False, '%s: valid' % what)
    errors = [d for d in doc['diagnostics'] if d['severity'] == 'error']
    ctx.expect_equal([(d['code'], d.get('column'), d.get('constraint')) for d in errors],
                     [(code, column, 0)], '%s: the errors (code, column, constraint)' % what)
    ctx.expect(errors[0]['message'].startswith(message),
               '%s: message %r does not start with %r' % (what, errors[0]['message'], message))
    return errors[0]


@check('parser/orientation-without-colon')
def orientation_without_colon(ctx):
    """`V|[a]|` as a vfl object: Apple's message, caret at column 1 (the '|' after the 'V',
    the first character the parser cannot take); the same for `H`, for `V[a]`, and for a
    bare string `V|[a]|` (an equation by the contract's rule, which says it is VFL)."""
    for constraint, message in (({'vfl': 'V|[a]|'}, EXPECTED_COLON_V),
                                ({'vfl': 'H|[a]|'}, EXPECTED_COLON_H),
                                ({'vfl': 'V[a]-|'}, EXPECTED_COLON_V),
                                ('V|[a]|', EXPECTED_COLON_V),
                                ('H[a][b]', EXPECTED_COLON_H)):
        d = _expect_error(ctx, constraint, 'vfl_syntax', 1, message, repr(constraint))
        ctx.expect_equal(d['message'], message, '%r: the whole message' % (constraint,))


@check('parser/unknown-relation')
def unknown_relation(ctx):
    """A relation that is `>`, `<` or `=` alone: caret one past that character.
    `H:[a(>44)]`: '(' is 4, '>' 5 → 6. `H:|-=5-[a]`: '-' 3, '=' 4 → 5.
    `H:[a]-(<=5,<9)-[b]`: '(' 6, '<' 7, '=' 8, '5' 9, ',' 10, '<' 11 → 12.
    `V:[a]->5-|`: '-' 5, '>' 6 → 7. `H:[a(=>30)]`: '=' 5, '>' 6 → 6 (corpus 025's rule)."""
    for source, column in (('H:[a(>44)]', 6), ('H:[a(<44)]', 6), ('H:[a(=44)]', 6), ('H:|-=5-[a]', 5),
                           ('H:[a]-(<=5,<9)-[b]', 12), ('V:[a]->5-|', 7), ('H:[a(=>30)]', 6)):
        d = _expect_error(ctx, source, 'vfl_syntax', column, UNKNOWN_RELATION, source)
        ctx.expect_equal(d['message'], UNKNOWN_RELATION, '%s: the whole message' % source)
    # A whole relation before a simple connection's number is read: `[a]->=5-[b]` is valid.
    doc = _validate(ctx, _scene('H:|[a(10)]->=5-[b(10)]'), 'a relation in a simple connection')
    ctx.expect_equal([d for d in doc['diagnostics'] if d['severity'] == 'error'], [],
                     'H:|[a(10)]->=5-[b(10)]: errors')


@check('parser/priority-out-of-range')
def priority_out_of_range(ctx):
    """A priority outside 1...1000: caret just after the number (or the metric's name).
    `H:[a(50@0)]`: '@' 7, '0' 8 → 9. `H:[a(50@1001)]`: '1001' 8-11 → 12.
    `H:[a]-(>=5@1001)-[b]`: '@' 10, '1001' 11-14 → 15. `H:[a(50@p)]` with p = 5000: 'p' 8 → 9."""
    for source, column in (('H:[a(50@0)]', 9), ('H:[a(50@1001)]', 12), ('H:[a]-(>=5@1001)-[b]', 15),
                           ('H:[a(50@p)]', 9)):
        _expect_error(ctx, source, 'vfl_syntax', column, INVALID_PRIORITY, source, metrics={'p': 5000})
    # The same in the object form.
    _expect_error(ctx, {'vfl': 'H:[a(50@1001)]'}, 'vfl_syntax', 12, 'Invalid priority 1001', 'vfl object')


@check('parser/view-as-space')
def view_as_space(ctx):
    """A view's name as a connection's space: `vfl_syntax` just after the name, whether the
    string brackets the view or not. `H:[a]-(b)-[c]`: '(' 6, 'b' 7 → 8. `H:|-c-[a]`: 'c' 4
    → 5. `V:[a]-(>=b@750)-|`: '(' 6, '>' 7, '=' 8, 'b' 9 → 10. A metric of that name is a
    metric (no error)."""
    for source, column in (('H:[a]-(b)-[c]', 8), ('H:|-c-[a]', 5), ('V:[a]-(>=b@750)-|', 10)):
        _expect_error(ctx, source, 'vfl_syntax', column, VIEW_AS_SPACE, source)
    doc = _validate(ctx, _scene('H:|[a(10)]-(b)-[c(10)]', metrics={'b': 5}), 'a metric named b')
    ctx.expect_equal([d for d in doc['diagnostics'] if d['severity'] == 'error'], [],
                     'H:|[a(10)]-(b)-[c(10)] with metric b: errors')


@check('parser/unknown-metric')
def unknown_metric(ctx):
    """A name in a predicate, a connection or a priority that is neither a metric nor a
    view: `unknown_metric` at its first character, Apple's message.
    `H:[a(m)]`: 'm' 5. `H:[a(>=m@750)]`: '>' 5, '=' 6, 'm' 7. `H:[a]-m-[b]`: 'm' 6.
    `H:[a]-(<=m)-[b]`: '(' 6, '<' 7, '=' 8, 'm' 9. `H:[a(50@m)]`: 'm' 8."""
    message = ('Encountered metric with name "m", but value was not specified in metrics or '
               'views dictionaries')
    for source, column in (('H:[a(m)]', 5), ('H:[a(>=m@750)]', 7), ('H:[a]-m-[b]', 6),
                           ('H:[a]-(<=m)-[b]', 9), ('H:[a(50@m)]', 8)):
        d = _expect_error(ctx, source, 'unknown_metric', column, message, source)
        ctx.expect_equal(d['message'], message, '%s: the whole message' % source)
    # A bracketed unknown name is a view: unknown_view, at the name ('[' 2, 'm' 3).
    _expect_error(ctx, 'H:[m]', 'unknown_view', 3, "Unknown view 'm'", 'H:[m]')


@check('parser/direction-on-vertical')
def direction_on_vertical(ctx):
    """The direction options are legal on `V:` strings and change nothing there: the same
    frames as without the option. `V:|-10-[a(20)]-5-[b(30)]` in a 300 × 200 container: a.y
    = 10, b.y = 10 + 20 + 5 = 35 (heights 20 and 30); `H:|[a(40)]`, `H:|[b(50)]` fix x and
    widths (a 0/40, b 0/50)."""
    def scene(options):
        vfl = {'vfl': 'V:|-10-[a(20)]-5-[b(30)]'}
        if options:
            vfl['options'] = options
        return {'container': {'width': 300, 'height': 200}, 'views': ['a', 'b'],
                'constraints': [vfl, 'H:|[a(40)]', 'H:|[b(50)]']}
    want = {'superview': {'x': 0, 'y': 0, 'width': 300, 'height': 200},
            'a': {'x': 0, 'y': 10, 'width': 40, 'height': 20},
            'b': {'x': 0, 'y': 35, 'width': 50, 'height': 30}}
    for options in ([], ['directionLeadingToTrailing'], ['directionLeftToRight'],
                    ['directionRightToLeft'], ['directionRightToLeft', 'alignAllLeading']):
        r = ctx.request('POST', '/solve', scene(options))
        ctx.expect_status(r, 200, 'V: with %r' % (options,))
        doc = r.json()
        ctx.expect_equal(doc['frames'], want, 'V: with %r: frames' % (options,))
        ctx.expect_equal([d for d in doc['diagnostics'] if d['severity'] == 'error'], [],
                         'V: with %r: errors' % (options,))
    # Two different directions still conflict, on V: as on H:.
    r = ctx.request('POST', '/validate', scene(['directionLeftToRight', 'directionRightToLeft']))
    ctx.expect_status(r, 200, 'two directions')
    ctx.expect_diagnostic(r.json(), 'vfl_syntax', constraint=0)


@check('parser/swiftlayoutconstraints-relations')
def swift_layout_constraints_relations(ctx):
    """`~==`, `~>=`, `~<=` are `==`, `>=`, `<=`: `a.width ~== 100` gives a width of 100;
    `b.width ~>= 120` with `b.width ~<= 60 @250` gives 120 (the required one wins)."""
    scene = {'container': {'width': 300, 'height': 200}, 'views': ['a', 'b'],
             'constraints': ['a.width ~== 100', 'a.left ~== 10', 'b.width ~>= 120',
                             {'equation': 'b.width ~<= 60', 'priority': 250}, 'b.left ~== a.right',
                             'V:|[a(10)]', 'V:|[b(10)]']}
    r = ctx.request('POST', '/solve', scene)
    ctx.expect_status(r, 200, '~ relations')
    frames = r.json()['frames']
    ctx.expect_equal((frames['a']['x'], frames['a']['width']), (10, 100), 'a: x, width')
    ctx.expect_equal((frames['b']['x'], frames['b']['width']), (110, 120), 'b: x, width')
