"""Stand-in for simplejson in marshmallow's tests (the sandbox has no simplejson): the standard library's json,
with what the tests rely on from simplejson: Decimal values are written as JSON numbers (as floats).
"""

import decimal
import json
from json import JSONDecodeError, JSONDecoder, load, loads  # noqa: F401

__all__ = ["dumps", "dump", "loads", "load", "JSONDecodeError", "JSONEncoder", "JSONDecoder"]


class JSONEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, decimal.Decimal):
            return float(o)
        return super().default(o)


def dumps(obj, *args, **kwargs):
    kwargs.setdefault("cls", JSONEncoder)
    return json.dumps(obj, *args, **kwargs)


def dump(obj, fp, *args, **kwargs):
    kwargs.setdefault("cls", JSONEncoder)
    return json.dump(obj, fp, *args, **kwargs)
