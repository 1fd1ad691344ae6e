"""Held-out tests for GitBench (tomli-bp11): not in the attempt's repository.

Upstream's later test data of the fix, each document as upstream wrote it and each expectation as its ``.json``
gives it (an offset date-time in UTC for ``z``/``Z``, a local date-time without an offset), compared with the
values tomli returns rather than through the lines' burntsushi helpers, whose format changed between releases.
"""
from datetime import datetime, timezone

import pytest

import tomli

UTC = timezone.utc

CASES = [
    pytest.param(
        # tomli's tests/data/extras/valid/dates-and-times/datetimes.toml, 417f3357 (#174, 2022-01)
        "local-dt=1988-10-27t01:01:01\nzulu-dt=1988-10-27t01:01:01z\n",
        {"local-dt": datetime(1988, 10, 27, 1, 1, 1), "zulu-dt": datetime(1988, 10, 27, 1, 1, 1, tzinfo=UTC)},
        id="tomli-datetimes",
    ),
    pytest.param(
        # toml-test's valid/datetime/datetime.toml as tomli took it in, 5701c0be (2022-01)
        "space = 1987-07-05 17:45:00Z\nlower = 1987-07-05t17:45:00z\n",
        {"space": datetime(1987, 7, 5, 17, 45, tzinfo=UTC), "lower": datetime(1987, 7, 5, 17, 45, tzinfo=UTC)},
        id="toml-test-datetime",
    ),
]


@pytest.mark.parametrize("doc,expected", CASES)
def test_lower_case_t_and_z_read_as_upper_case(doc, expected):
    loaded = tomli.loads(doc)
    assert loaded == expected
    # A naive and an aware datetime are never equal; say which one the key got.
    for key, value in expected.items():
        assert (loaded[key].tzinfo is None) == (value.tzinfo is None), key
