"""Held-out tests, hand-written for GitBench (marshmallow-sm18): not in the attempt's repository.

2.x-line's #1392 ("Respect `many` when set on a Nested instance"), as the ticket states it for dev: a field built on
`Nested` and given a schema instance with `many=True` behaves exactly as the same field given the schema class and
`many=True` itself, when dumping, when loading and when rejecting input that is not a list. 2.x plucked one field of
each item with `Nested(..., only="name")`, which dev does with `Pluck`.
"""
import pytest

from marshmallow import Schema, ValidationError, fields


class BookSchema(Schema):
    id = fields.Int()
    title = fields.Str()


BOOKS = [{"id": 1, "title": "First book"}, {"id": 2, "title": "Second book"}]


def holder(field):
    """A schema whose only field, `books`, is `field`."""
    return type("Holder", (Schema,), {"books": field})()


def load_errors(schema, data):
    with pytest.raises(ValidationError) as excinfo:
        schema.load(data)
    return excinfo.value.messages


class TestNestedGivenAManyInstance:
    def test_dumps_like_a_many_field(self):
        given = holder(fields.Nested(BookSchema(many=True)))
        many = holder(fields.Nested(BookSchema, many=True))
        assert given.dump({"books": BOOKS}) == many.dump({"books": BOOKS}) == {"books": BOOKS}

    def test_loads_like_a_many_field(self):
        given = holder(fields.Nested(BookSchema(many=True)))
        many = holder(fields.Nested(BookSchema, many=True))
        assert given.load({"books": BOOKS}) == many.load({"books": BOOKS}) == {"books": BOOKS}

    def test_rejects_a_single_object_like_a_many_field(self):
        given = holder(fields.Nested(BookSchema(many=True)))
        many = holder(fields.Nested(BookSchema, many=True))
        assert load_errors(given, {"books": BOOKS[0]}) == load_errors(many, {"books": BOOKS[0]})


class TestPluckGivenAManyInstance:
    def test_dumps_the_plucked_values_like_a_many_field(self):
        given = holder(fields.Pluck(BookSchema(many=True), "id"))
        many = holder(fields.Pluck(BookSchema, "id", many=True))
        assert given.dump({"books": BOOKS}) == many.dump({"books": BOOKS}) == {"books": [1, 2]}

    def test_loads_the_plucked_values_like_a_many_field(self):
        given = holder(fields.Pluck(BookSchema(many=True), "id"))
        many = holder(fields.Pluck(BookSchema, "id", many=True))
        assert given.load({"books": [1, 2]}) == many.load({"books": [1, 2]}) == {"books": [{"id": 1}, {"id": 2}]}

    def test_rejects_a_single_value_like_a_many_field(self):
        given = holder(fields.Pluck(BookSchema(many=True), "id"))
        many = holder(fields.Pluck(BookSchema, "id", many=True))
        assert load_errors(given, {"books": 1}) == load_errors(many, {"books": 1})
