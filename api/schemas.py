"""The shapes of request bodies: a new match, and one schema per event type.

These check JSON shapes and size caps only (a seat is a whole number, a card a short text, no unknown
fields). Ranges, cards and seats are the engine's to say, so that each mistake has one code: `bad_seat`,
`bad_card`, `bid_out_of_range`, `bad_points`.
"""

from __future__ import annotations

import functools

from marshmallow import Schema, ValidationError, fields, validate

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


class BidSchema(EventSchema):
    seat = Seat(required=True)
    bid = WholeNumber(required=True)  # 0 to the hand size: the engine's to say (`bid_out_of_range`)


class ExchangeSchema(EventSchema):
    seat = Seat(required=True)


class AttackSchema(EventSchema):
    seat = Seat(required=True)
    cards = fields.List(CardText(), required=True, validate=validate.Length(min=1, max=MAX_CARDS))


BeatSchema = Schema.from_dict({"card": CardText(required=True), "with": CardText(required=True)}, name="BeatSchema")


class DefendSchema(EventSchema):
    seat = Seat(required=True)
    beats = fields.List(fields.Nested(BeatSchema), required=True, validate=validate.Length(max=MAX_CARDS))


class TransferSchema(EventSchema):
    seat = Seat(required=True)
    cards = fields.List(CardText(), required=True, validate=validate.Length(min=1, max=MAX_CARDS))


class TakeSchema(EventSchema):
    seat = Seat(required=True)


class DoneSchema(EventSchema):
    pass


class PenaltySchema(EventSchema):
    seat = Seat(required=True)
    points = WholeNumber()  # 1 to 1000: the engine's to say (`bad_points`)
    reason = fields.String(allow_none=True, validate=validate.Length(max=MAX_TEXT))


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

EVENT_SCHEMAS: dict[str, type[EventSchema]] = {
    "deal": DealSchema,
    "play": PlaySchema,
    "bid": BidSchema,
    "exchange": ExchangeSchema,
    "attack": AttackSchema,
    "defend": DefendSchema,
    "transfer": TransferSchema,
    "take": TakeSchema,
    "done": DoneSchema,
    "penalty": PenaltySchema,
    "end": EndSchema,
}


def load_event(body: object) -> dict:
    """One event, its shape checked against the schema of its type."""
    if not isinstance(body, dict):
        raise ValidationError({"_schema": ["An event is a JSON object with a type."]})
    kind = body.get("type")
    if kind == "undo":
        raise ValidationError({"type": ["Undo has its own route: POST /api/matches/{id}/undo."]})
    if kind == "correct":
        return load_correction(body)
    if not isinstance(kind, str) or kind not in EVENT_SCHEMAS:
        raise ValidationError({"type": [f"Must be one of: {', '.join([*EVENT_SCHEMAS, 'correct'])}."]})
    return schema(EVENT_SCHEMAS[kind]).load(body)


def load_correction(body: dict) -> dict:
    """A correction, and the event it puts in the log (`with`, `insert`) checked against the schema of its type."""
    correction = schema(CorrectSchema).load(body)
    for key in ("with", "insert"):
        if key not in correction:
            continue
        event = correction[key]
        kind = event.get("type") if isinstance(event, dict) else None
        if not isinstance(kind, str) or kind not in EVENT_SCHEMAS:
            kinds = ", ".join(EVENT_SCHEMAS)
            raise ValidationError({key: {"type": [f"The event as it should have been; one of: {kinds}."]}})
        try:
            correction[key] = schema(EVENT_SCHEMAS[kind]).load(event)
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
