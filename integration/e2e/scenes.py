"""Scenes the checks share, and the frames the contract implies for them."""
import itertools
import json

_counter = itertools.count(1)

# The README's curl example, verbatim.
README_BODY = ('{"container":{"width":320,"height":480},"views":["red","green"],'
               '"constraints":["H:|-[red]-[green(==red)]-|","V:|-[red]-|","V:|-[green]-|"]}')


def readme_scene(width=320, height=480):
    scene = json.loads(README_BODY)
    scene['container'] = {'width': width, 'height': height}
    return scene


def readme_frames(width=320, height=480):
    """Standard spacing: 20 to the superview edge, 8 between siblings (contract defaults),
    red and green of equal width sharing what is left."""
    w = (width - 20 - 8 - 20) / 2
    h = height - 40
    return {'superview': {'x': 0, 'y': 0, 'width': width, 'height': height},
            'red': {'x': 20, 'y': 20, 'width': w, 'height': h},
            'green': {'x': 20 + w + 8, 'y': 20, 'width': w, 'height': h}}


def unique_readme_scene():
    """A README-shaped scene no other check in this run posts (a container width of its
    own), for checks that need a cold cache."""
    n = next(_counter)
    width = 1000 + 8 * n
    return readme_scene(width, 480), readme_frames(width, 480)


def frames_close(actual, expected, tol=1e-6):
    """None when every expected view/field is within tol, else a message."""
    if not isinstance(actual, dict):
        return 'no frames object'
    for view, ef in expected.items():
        af = actual.get(view)
        if not isinstance(af, dict):
            return 'view %r missing' % view
        for k, v in ef.items():
            a = af.get(k)
            if not isinstance(a, (int, float)) or isinstance(a, bool) or abs(a - v) > tol:
                return '%s.%s = %r, expected %r' % (view, k, a, v)
    return None


SYNTAX_ERROR_SCENE = {
    'container': {'width': 320, 'height': 480},
    'views': ['red'],
    'constraints': ['H:|-0-[red-0-|'],   # the contract's caret example: column 10
}
