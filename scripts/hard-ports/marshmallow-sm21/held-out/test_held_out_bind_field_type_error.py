"""Held-out tests, hand-written for GitBench (marshmallow-sm21): not in the attempt's repository.

2.x-line's #1376 ("Don't swallow TypeErrors raised by _bind_to_schema or on_bind_field"), as the ticket states it for
dev at 3.0.0rc7: a TypeError raised while a schema binds one of its fields, by the field's own binding (dev's
`_bind_to_schema`; rc7's containers do not bind their inner fields yet, so only a top-level field is tried) or by the
schema's `on_bind_field`, reaches the caller unchanged; only a field declared as a class is still reported as such.
"""
import pytest

from marshmallow import Schema, fields


class BindingFails(fields.String):
    def _bind_to_schema(self, field_name, schema):
        raise TypeError("binding failed")


def on_bind_field_fails(schema, field_name, field_obj):
    raise TypeError("on_bind_field failed")


def declaring(**attributes):
    """A schema class made of the given fields and methods."""
    return type("Declared", (Schema,), attributes)


@pytest.mark.parametrize(
    ("schema_class", "message"),
    [
        pytest.param(declaring(value=BindingFails()), "^binding failed$", id="the field's own binding"),
        pytest.param(declaring(name=fields.Str(), on_bind_field=on_bind_field_fails), "^on_bind_field failed$",
                     id="on_bind_field"),
        pytest.param(declaring(value=fields.String), 'Field for "value" must be declared as a Field instance',
                     id="a field class"),
    ],
)
def test_a_type_error_while_binding_reaches_the_caller(schema_class, message):
    with pytest.raises(TypeError, match=message):
        schema_class()


def test_on_bind_field_is_called_for_each_field_once_bound():
    calls = []

    def record(schema, field_name, field_obj):
        calls.append((field_name, field_obj.name, field_obj.parent is schema))

    declaring(name=fields.Str(), tags=fields.List(fields.Str()), on_bind_field=record)()
    assert sorted(calls) == [("name", "name", True), ("tags", "tags", True)]
