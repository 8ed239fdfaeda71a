"""A play's body is read without marshmallow when every field is plainly what `PlaySchema` takes
(`schemas.plain_play`): the same fields and values marshmallow loads, in the same order; any other body goes to
marshmallow, which says what is wrong in its own words."""

from __future__ import annotations

import pytest
from marshmallow import ValidationError

from api import schemas

PLAIN = [
    {"type": "play", "seat": 1, "card": "K"},
    {"card": "10H", "seat": 0, "type": "play"},
    {"type": "play", "seat": 3, "card": "QS", "force": True, "expect_seq": 0},
    {"expect_seq": 12, "force": False, "card": "X", "seat": 7, "type": "play"},
    {"type": "play", "seat": 99, "card": "nocardhere"},  # a seat or card the engine refuses, not the shape
]
NOT_PLAIN = [
    {"type": "play", "seat": 1.0, "card": "K"},  # loaded as 1 by marshmallow
    {"type": "play", "seat": True, "card": "K"},
    {"type": "play", "seat": "1", "card": "K"},
    {"type": "play", "seat": 1, "card": "K" * 11},
    {"type": "play", "seat": 1, "card": 10},
    {"type": "play", "seat": 1},
    {"type": "play", "card": "K"},
    {"type": "play", "seat": 1, "card": "K", "force": 1},
    {"type": "play", "seat": 1, "card": "K", "expect_seq": -1},
    {"type": "play", "seat": 1, "card": "K", "expect_seq": 2.0},
    {"type": "play", "seat": 1, "card": "K", "cards": ["K"]},
    {"type": "play", "seat": None, "card": "K"},
]


def test_the_plain_play_takes_the_fields_of_the_play_schema_in_its_order():
    assert list(schemas.PLAIN_PLAY) == list(schemas.event_schemas()["play"].fields)


@pytest.mark.parametrize("body", PLAIN)
def test_a_plain_play_is_loaded_as_marshmallow_loads_it(body):
    plain = schemas.plain_play(body)
    loaded = schemas.schema(schemas.PlaySchema).load(body)
    assert plain == loaded and list(plain) == list(loaded)
    assert schemas.load_event(body) == loaded


@pytest.mark.parametrize("body", NOT_PLAIN)
def test_any_other_play_is_left_to_marshmallow(body):
    assert schemas.plain_play(body) is None
    try:
        expected = schemas.schema(schemas.PlaySchema).load(body)
    except ValidationError as refused:
        with pytest.raises(ValidationError) as said:
            schemas.load_event(body)
        assert said.value.messages == refused.messages
    else:
        assert schemas.load_event(body) == expected
