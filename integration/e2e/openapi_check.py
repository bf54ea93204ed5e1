"""Validate real HTTP responses against openapi.yaml.

`Spec(path).check_response(method, target, status, headers, body)` returns a list of
problems (empty when the response is what the document says): the operation is found by
method and path template, the status must be documented (exact code or `default`), the
Content-Type must be one of the documented media types (compared without parameters), the
body must match the media type's schema (JSON Schema 2020-12 through `jsonschema`, with
`format` checked), and every documented header must be present when required and match its
schema when present. A response to an unknown path is checked against
`components/responses/NotFound`, to a known path with an undocumented method against
`MethodNotAllowed` (405, with an `Allow` that lists the path's methods) or `Problem` (501).

Needs PyYAML, jsonschema and referencing (integration/requirements.txt).
"""
import json

import yaml
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

BASE_URI = 'urn:layoutd:openapi'
HTTP_METHODS = ('get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace')
JSON_TYPES = ('application/json', 'application/problem+json')
YAML_TYPES = ('application/yaml', 'application/x-yaml', 'text/yaml')


def _escape(token):
    """One JSON Pointer reference token (RFC 6901 §4)."""
    return str(token).replace('~', '~0').replace('/', '~1')


def media_essence(content_type):
    """`application/json; charset=utf-8` → `application/json` (RFC 9110 §8.3.1)."""
    return (content_type or '').split(';', 1)[0].strip().lower()


class Spec:
    """openapi.yaml, loaded once; validators are built per schema pointer and cached."""

    def __init__(self, path):
        with open(path, encoding='utf-8') as fh:
            self.doc = yaml.safe_load(fh)
        resource = Resource.from_contents(self.doc, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(BASE_URI, resource)
        self._validators = {}
        self.templates = []   # (segments, template)
        for template in self.doc.get('paths', {}):
            self.templates.append((template.strip('/').split('/'), template))

    # ------------------------------------------------------------ navigation
    def resolve(self, obj, pointer):
        """Follow `$ref`s of OpenAPI objects (responses, parameters, headers)."""
        seen = 0
        while isinstance(obj, dict) and '$ref' in obj and seen < 16:
            ref = obj['$ref']
            if not ref.startswith('#/'):
                raise ValueError('only local $refs are supported: %r' % ref)
            pointer = ref[1:]
            obj = self.doc
            for token in pointer.lstrip('/').split('/'):
                obj = obj[token.replace('~1', '/').replace('~0', '~')]
            seen += 1
        return obj, pointer

    def validator(self, pointer):
        """A validator for the schema at JSON pointer `pointer` of the document."""
        v = self._validators.get(pointer)
        if v is None:
            v = Draft202012Validator({'$ref': BASE_URI + '#' + pointer},
                                     registry=self.registry, format_checker=FormatChecker())
            self._validators[pointer] = v
        return v

    def schema_errors(self, pointer, instance, limit=3):
        errors = sorted(self.validator(pointer).iter_errors(instance), key=lambda e: list(e.path))
        out = []
        for e in errors[:limit]:
            while e.context:   # oneOf/anyOf: show the sub-error that got deepest
                e = max(e.context, key=lambda c: len(c.absolute_path))
            where = '$' + ''.join('[%r]' % p if isinstance(p, int) else '.%s' % p
                                  for p in e.absolute_path)
            out.append('%s: %s' % (where, e.message[:200]))
        return out

    def match_path(self, path):
        """The path template for `path`, literal segments preferred, or None."""
        segs = path.strip('/').split('/')
        best = None
        for tsegs, template in self.templates:
            if len(tsegs) != len(segs):
                continue
            score = 0
            for t, s in zip(tsegs, segs):
                if t.startswith('{') and t.endswith('}'):
                    if not s:
                        break
                else:
                    if t != s:
                        break
                    score += 1
            else:
                if best is None or score > best[0]:
                    best = (score, template)
        return best[1] if best else None

    def methods(self, template):
        item = self.doc['paths'][template]
        return sorted(m.upper() for m in item if m in HTTP_METHODS)

    # ------------------------------------------------------------ checking
    def check_response(self, method, target, status, headers, body):
        """Problems with one response; `headers` maps lower-case names to values."""
        method = method.upper()
        path = target.split('?', 1)[0]
        if status == 421:   # the Host check comes before routing: any path, any method
            return self._check_against('/components/responses/MisdirectedRequest', status, headers,
                                       body, is_head=method == 'HEAD')
        template = self.match_path(path)
        if template is None:
            if status != 404:
                return ['unknown path %s answered %d, not 404' % (path, status)]
            return self._check_against('/components/responses/NotFound', status, headers, body,
                                       is_head=method == 'HEAD')
        item = self.doc['paths'][template]
        op_key = method.lower()
        is_head = method == 'HEAD'
        if is_head and 'head' not in item and 'get' in item:
            op_key = 'get'
        if op_key not in item or op_key not in HTTP_METHODS:
            if status == 501:
                return self._check_against('/components/responses/Problem', status, headers, body,
                                           is_head=is_head)
            if status != 405:
                return ['%s %s: method not in the document, answered %d (expected 405 or 501)'
                        % (method, template, status)]
            problems = self._check_against('/components/responses/MethodNotAllowed', status,
                                           headers, body, is_head=is_head)
            allow = {m.strip().upper() for m in headers.get('allow', '').split(',') if m.strip()}
            want = set(self.methods(template))
            if 'GET' in want:
                want.add('HEAD')
            if not want <= allow:
                problems.append('Allow %r lacks %s' % (headers.get('allow'), sorted(want - allow)))
            extra = allow - want - {'HEAD', 'OPTIONS'}
            if extra:
                problems.append('Allow %r names methods the path does not have: %s'
                                % (headers.get('allow'), sorted(extra)))
            return problems
        op_pointer = '/paths/%s/%s' % (_escape(template), op_key)
        responses = item[op_key].get('responses', {})
        key = str(status)
        if key not in responses:
            key = '%dXX' % (status // 100) if '%dXX' % (status // 100) in responses else 'default'
        if key not in responses:
            return ['%s %s: status %d is not documented' % (method, template, status)]
        if key == 'default' and status < 400:
            return ['%s %s: status %d is not documented (only errors fall to default)'
                    % (method, template, status)]
        return self._check_against('%s/responses/%s' % (op_pointer, _escape(key)), status,
                                   headers, body, is_head=is_head)

    def _check_against(self, pointer, status, headers, body, is_head=False):
        obj = self.doc
        for token in pointer.lstrip('/').split('/'):
            obj = obj[token.replace('~1', '/').replace('~0', '~')]
        resp, pointer = self.resolve(obj, pointer)
        problems = []
        # headers
        for name, hobj in (resp.get('headers') or {}).items():
            hres, hptr = self.resolve(hobj, '%s/headers/%s' % (pointer, _escape(name)))
            value = headers.get(name.lower())
            if value is None:
                if hres.get('required'):
                    problems.append('header %s missing' % name)
                continue
            schema = hres.get('schema', {})
            if '$ref' in schema:
                schema, _ = self.resolve(schema, hptr + '/schema')
            instance = value
            if schema.get('type') == 'integer':
                try:
                    instance = int(value)
                except ValueError:
                    problems.append('header %s: %r is not an integer' % (name, value))
                    continue
            for err in self.schema_errors(hptr + '/schema', instance):
                problems.append('header %s %r: %s' % (name, value, err))
        # body
        content = resp.get('content')
        if not content:
            if body:
                problems.append('status %d must have no body, got %d bytes' % (status, len(body)))
            return problems
        if is_head:
            if body:
                problems.append('HEAD answered with %d body bytes' % len(body))
            return problems
        ctype = media_essence(headers.get('content-type'))
        if ctype not in content:
            problems.append('Content-Type %r is not one of %s'
                            % (headers.get('content-type'), sorted(content)))
            return problems
        schema_ptr = '%s/content/%s/schema' % (pointer, _escape(ctype))
        if ctype in JSON_TYPES or ctype.endswith('+json'):
            try:
                instance = json.loads(body.decode('utf-8'))
            except (UnicodeDecodeError, ValueError) as e:
                problems.append('body is not UTF-8 JSON: %s' % e)
                return problems
        elif ctype in YAML_TYPES:
            try:
                instance = yaml.safe_load(body.decode('utf-8'))
            except (UnicodeDecodeError, yaml.YAMLError) as e:
                problems.append('body is not UTF-8 YAML: %s' % e)
                return problems
        elif (content[ctype].get('schema') or {}).get('format') == 'binary':
            # Bytes (a font file): any octets are the body; nothing more to check.
            return problems
        else:
            try:
                instance = body.decode('utf-8')
            except UnicodeDecodeError as e:
                problems.append('body is not UTF-8: %s' % e)
                return problems
        if 'schema' in content[ctype]:
            problems += ['body %s' % e for e in self.schema_errors(schema_ptr, instance)]
        return problems
