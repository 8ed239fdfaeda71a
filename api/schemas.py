"""The shapes of request bodies: a new match, and one schema per event type.

These check JSON shapes and size caps only (a seat is a whole number, a card a short text, no unknown
fields). Ranges, cards and seats are the engine's to say, so that each mistake has one code: `bad_seat`,
`bad_card`, `bid_out_of_range`, `bad_points`.

The events of every game (deal, play, end) and the correction are the contract's, written here; an event a game
brings is read from the game's own description of it (`Game.event_schemas`, from which the contract is written
too): `event_schema` makes its schema from that description, so a new event needs nothing here. marshmallow
reads the bodies: its fields say what is wrong with each field in the words every 422 `invalid_input` has. A play
whose fields are all plainly what its schema takes (the body of almost every tap) is read without it, to the same
result (`plain_play`); any other body, and every mistake, is marshmallow's.
"""

from __future__ import annotations

import functools

from marshmallow import Schema, ValidationError, fields, validate

from referee import GAMES

MAX_PLAYERS = 8
MAX_CARDS = 55  # the largest deck: 52 cards and three jokers
MAX_TEXT = 200


class StrictBoolean(fields.Boolean):
    "true or false, and nothing that merely looks like it"

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class WholeNumber(fields.Integer):
    "A whole number: 2, and 2.0 (the same JSON number, an integer in JSON Schema); not 2.5, \"2\" or true"

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _validated(self, value):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._validated(value)


class CardText(fields.String):
    "A card in the API's notation: 10H, QS, K, X"

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if len(text) > 10:
            raise ValidationError("A card is at most a few characters, like 10H or K.")
        return text  # whether it is a card of the game's deck is the engine's to say (`bad_card`)


class Stake(fields.Field):
    "A decimal amount of money, written as text (\"0.50\") or as a JSON number; the engine reads the amount"

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise ValidationError('Write the stake as text, like "0.50".')
        if isinstance(value, str) and len(value) > 20:
            raise ValidationError("The stake is too long to be an amount.")
        return value


def Seat(**kwargs) -> fields.Integer:  # noqa: N802 - a field factory, named like the fields it makes
    """A seat is a whole number; which numbers are seats of the match is the engine's to say (`bad_seat`)."""
    return WholeNumber(**kwargs)


class MatchSchema(Schema):
    """POST /api/matches: the game, the players in clockwise order, options, stake and currency."""

    error_messages = {"type": "A new match is a JSON object with the game and the players."}

    game = fields.String(required=True, validate=validate.Length(max=MAX_TEXT))
    players = fields.List(fields.String(), required=True, validate=validate.Length(max=MAX_PLAYERS))
    options = fields.Dict(keys=fields.String(), allow_none=True)
    stake = Stake(allow_none=True)
    currency = fields.String(allow_none=True, validate=validate.Length(max=MAX_TEXT))
    evening = fields.String(allow_none=True, validate=validate.Length(max=MAX_TEXT))


class UndoSchema(Schema):
    """POST /api/matches/{id}/undo: optionally the seq the client last saw."""

    error_messages = {"type": 'An undo has no body, or a JSON object such as {"expect_seq": 7}.'}

    expect_seq = WholeNumber(validate=validate.Range(min=0))


class EventSchema(Schema):
    """What every event may carry: its type, `force` and `expect_seq`."""

    type = fields.String(required=True)
    force = StrictBoolean()
    expect_seq = WholeNumber(validate=validate.Range(min=0))


class DealSchema(EventSchema):
    dealer = Seat(allow_none=True)
    hands = fields.Dict(keys=fields.String(validate=validate.Regexp(r"^[0-9]{1,2}$", error="A seat number.")),
                        values=fields.List(CardText(), validate=validate.Length(max=MAX_CARDS)),
                        validate=validate.Length(max=MAX_PLAYERS))
    trump = CardText(allow_none=True)
    attacker = Seat(allow_none=True)


class PlaySchema(EventSchema):
    seat = Seat(required=True)
    card = CardText(required=True)


BeatSchema = Schema.from_dict({"card": CardText(required=True), "with": CardText(required=True)}, name="BeatSchema")


class EndSchema(EventSchema):
    pass


CorrectSchema = EventSchema.from_dict({
    "seq": WholeNumber(validate=validate.Range(min=1)),
    "before": WholeNumber(validate=validate.Range(min=1)),
    "remove": StrictBoolean(),
    "with": fields.Raw(),  # an event of the game, loaded by its own schema (`load_correction`)
    "insert": fields.Raw(),
}, name="CorrectSchema")
"""A correction: `seq` with `with` (the event as it should have been) or `remove`, or `before` with `insert`; which
of them go together, and which events they name, is the engine's to say (`bad_correction`, `not_correctable`)."""

SHARED_EVENTS: dict[str, type[EventSchema]] = {"deal": DealSchema, "play": PlaySchema, "end": EndSchema}
"""The events of every game, the contract's own (openapi.yaml's `DealEvent`, `PlayEvent`, `EndEvent`)."""

SHAPES = {"Seat": Seat, "Card": CardText, "Beat": lambda **kwargs: fields.Nested(BeatSchema, **kwargs)}
"""The shared shapes (openapi.yaml's) a game's description of an event may name (`{"$ref": "Seat"}`), as fields."""


def described_field(where: str, described: dict, required: bool = False) -> fields.Field:
    """The field of a value described in JSON Schema, as a game describes the fields of its events: a shared shape
    (`$ref`), a whole number, a text (`maxLength`), true or false, a list (`minItems`, `maxItems`) or an object of
    such fields. Its size caps are checked here; its range (`minimum`, `maximum`) is the engine's to say."""
    kwargs: dict = {"required": required}
    kind = described.get("type")
    if isinstance(kind, list):
        kwargs["allow_none"] = "null" in kind
        [kind] = [each for each in kind if each != "null"] or [None]
    if "$ref" in described:
        if described["$ref"] not in SHAPES:
            raise ValueError(f"{where} names the shape {described['$ref']!r}, which requests cannot have: one of "
                             f"{', '.join(SHAPES)} (api/schemas.py SHAPES)")
        return SHAPES[described["$ref"]](**kwargs)
    sizes = {"min": described.get("minLength", described.get("minItems")),
             "max": described.get("maxLength", described.get("maxItems"))}
    if any(size is not None for size in sizes.values()):
        kwargs["validate"] = validate.Length(**sizes)
    if kind == "integer":
        return WholeNumber(**kwargs)
    if kind == "string" and "enum" not in described and "pattern" not in described:
        return fields.String(**kwargs)
    if kind == "boolean":
        return StrictBoolean(**kwargs)
    if kind == "array" and "items" in described:
        return fields.List(described_field(f"{where}[]", described["items"]), **kwargs)
    if kind == "object" and "properties" in described:
        return fields.Nested(Schema.from_dict(described_fields(where, described)), **kwargs)
    raise ValueError(f"{where} is described in a way requests are not read: {described} (api/schemas.py reads a "
                     "shared shape, an integer, a string, a boolean, an array or an object)")


def described_fields(where: str, described: dict) -> dict[str, fields.Field]:
    required = set(described.get("required", ()))
    return {name: described_field(f"{where}.{name}", value, name in required)
            for name, value in described.get("properties", {}).items()}


def event_schema(kind: str, described: dict) -> type[EventSchema]:
    """The schema of an event a game brings, from the game's description of it (`Game.event_schemas`)."""
    return EventSchema.from_dict(described_fields(f"the {kind} event", described),
                                 name=f"{kind.title()}Schema")


def event_schemas() -> dict[str, EventSchema]:
    """Each event type of the games of the registry and its schema, in the contract's order (`Event`): those of
    every game, then each game's own."""
    return registry_schemas(tuple(GAMES.values()))


@functools.lru_cache(maxsize=4)
def registry_schemas(games: tuple) -> dict[str, EventSchema]:
    """The schemas of the events of `games` (made once for the games registered: a game registered later, as a
    test's, makes them again)."""
    described: dict[str, dict] = {}
    for game in games:
        for kind, description in game.event_schemas.items():
            if kind in SHARED_EVENTS:
                raise ValueError(f"{game.name} describes the {kind} event, which is every game's (api/schemas.py)")
            if described.setdefault(kind, description) != description:
                raise ValueError(f"the event {kind!r} is described twice, and differently ({game.name})")
    kinds = dict.fromkeys(kind for game in games for kind in game.event_fields)
    made: dict[str, EventSchema] = {}
    for kind in kinds:
        if kind in SHARED_EVENTS:
            made[kind] = schema(SHARED_EVENTS[kind])
        elif kind in described:
            made[kind] = event_schema(kind, described[kind])()
    return made


def load_event(body: object) -> dict:
    """One event, its shape checked against the schema of its type."""
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["An event is a JSON object with a type."]})
    kind = body.get("type")
    if kind == "undo":
        raise ValidationError({"type": ["Undo has its own route: POST /api/matches/{id}/undo."]})
    if kind == "correct":
        return load_correction(body)
    if kind == "play" and (plain := plain_play(body)) is not None:
        return plain
    known = event_schemas()
    if not isinstance(kind, str) or kind not in known:
        raise ValidationError({"type": [f"Must be one of: {', '.join([*known, 'correct'])}."]})
    return known[kind].load(body)


PLAIN_PLAY = {  # PlaySchema's fields, in its order, and what each takes as it is
    "type": lambda value: value == "play",
    "force": lambda value: type(value) is bool,
    "expect_seq": lambda value: type(value) is int and value >= 0,
    "seat": lambda value: type(value) is int,
    "card": lambda value: type(value) is str and len(value) <= 10,
}


def plain_play(body: dict) -> dict | None:
    """A play (the body of almost every tap) whose fields are all plainly what `PlaySchema` takes, as marshmallow
    would load it (the same values, in the schema's order), without marshmallow's cost; None for any other body,
    which marshmallow then reads and says what is wrong with, in its own words."""
    for name, value in body.items():
        takes = PLAIN_PLAY.get(name)
        if takes is None or not takes(value):
            return None
    if "seat" not in body or "card" not in body:
        return None
    return {name: body[name] for name in PLAIN_PLAY if name in body}


def load_correction(body: dict) -> dict:
    """A correction, and the event it puts in the log (`with`, `insert`) checked against the schema of its type."""
    correction = schema(CorrectSchema).load(body)
    known = event_schemas()
    for key in ("with", "insert"):
        if key not in correction:
            continue
        event = correction[key]
        kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(kind, str) or kind not in known:
            kinds = ", ".join(known)
            raise ValidationError({key: {"type": [f"The event as it should have been; one of: {kinds}."]}})
        try:
            correction[key] = known[kind].load(event)
        except ValidationError as invalid:
            raise ValidationError({key: invalid.messages}) from None
        if "expect_seq" in correction[key]:
            raise ValidationError({key: {"expect_seq": ["expect_seq goes with the correction, not with its event."]}})
    return correction


def load_match(body: object) -> dict:
    return schema(MatchSchema).load(body)


def load_undo(body: object) -> dict:
    """The undo's body; JSON null is not the empty body (no body at all is `{}`)."""
    return schema(UndoSchema).load(body)


@functools.cache
def schema(kind: type[Schema]) -> Schema:
    """One instance of each schema, made on first use: an instance loads any number of bodies, and making
    one costs more than a play's refereeing."""
    return kind()
