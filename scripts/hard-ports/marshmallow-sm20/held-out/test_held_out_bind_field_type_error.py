"""Held-out tests, hand-written for GitBench (marshmallow-sm20): not in the attempt's repository.

2.x-line's #1376 ("Don't swallow TypeErrors raised by _bind_to_schema or on_bind_field"), as the ticket states it for
dev: a TypeError raised while a schema binds one of its fields, by the field's own binding (dev's `_bind_to_schema`,
also that of a field inside a container) or by the schema's `on_bind_field`, reaches the caller unchanged; only a
field declared as a class, not an instance, is still reported as such.
"""
import pytest

from marshmallow import Schema, fields


class BindingFails(fields.String):
    """A field whose own binding raises a TypeError."""

    def _bind_to_schema(self, field_name, schema):
        raise TypeError("binding failed")


def schema_with(field):
    return type("WithField", (Schema,), {"value": field})


def test_type_error_of_a_fields_own_binding_reaches_the_caller():
    with pytest.raises(TypeError, match="^binding failed$"):
        schema_with(BindingFails())()


@pytest.mark.parametrize(
    "container",
    [
        pytest.param(lambda: fields.List(BindingFails()), id="List"),
        pytest.param(lambda: fields.Tuple((fields.Int(), BindingFails())), id="Tuple"),
        pytest.param(lambda: fields.Dict(keys=fields.Str(), values=BindingFails()), id="Dict"),
    ],
)
def test_type_error_of_a_contained_fields_binding_reaches_the_caller(container):
    with pytest.raises(TypeError, match="^binding failed$"):
        schema_with(container())()


def test_type_error_of_on_bind_field_reaches_the_caller():
    class RaisesOnBind(Schema):
        name = fields.Str()

        def on_bind_field(self, field_name, field_obj):
            raise TypeError("on_bind_field failed")

    with pytest.raises(TypeError, match="^on_bind_field failed$"):
        RaisesOnBind()


def test_a_field_declared_as_a_class_is_still_reported_as_such():
    with pytest.raises(TypeError, match='Field for "value" must be declared as a Field instance'):
        schema_with(fields.String)()


def test_on_bind_field_still_sees_every_field_bound():
    seen = {}

    class Recording(Schema):
        name = fields.Str()
        tags = fields.List(fields.Str())

        def on_bind_field(self, field_name, field_obj):
            seen[field_name] = (field_obj.name, field_obj.parent is self)

    Recording()
    assert seen == {"name": ("name", True), "tags": ("tags", True)}
