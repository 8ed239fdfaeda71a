"""The shapes of what Durak shows and of the events it brings, in JSON Schema, for the contract (`Game.schemas`,
`Game.event_schemas`; `python -m api.contract --write` writes them into openapi.yaml). Its attack and defence are
Dureń's events, described once for both."""

from .duren_shapes import EVENT_SCHEMAS as DUREN_EVENTS

SEAT_OR_NULL = {"type": ["integer", "null"], "minimum": 0}
BY_SEAT = {"type": "object", "propertyNames": {"pattern": "^[0-5]$"}, "minProperties": 2, "maxProperties": 6}

BOUT_FIELDS = {
    "number": {"type": "integer", "minimum": 1, "description": "The bout's number in the deal."},
    "leader": {"$ref": "Seat"},
    "attacker": {"$ref": "Seat", "description": "The leader, or the last player who passed the bout on."},
    "defender": {"$ref": "Seat"},
    "limit": {"type": "integer", "minimum": 0, "description": "The most attacking cards this bout holds."},
    "attacks": {"type": "array", "items": {"$ref": "Attack"}},
    "taking": {"type": "boolean", "description": "The defender said \"I take\"."},
    "transfers": {"type": "integer", "minimum": 0, "description": "How often the bout was passed on."},
}

EXPECTED_IN_BOUT = {
    "bout": {"type": "integer", "minimum": 1},
    "defender": {"$ref": "Seat"},
    "cards": {"type": "array", "items": {"$ref": "Card"}, "description": "The attacking cards not beaten."},
    "ranks": {"type": "array", "items": {"type": "string"}, "description": "The ranks on the table: what may be "
              "thrown in."},
    "room": {"type": "integer", "minimum": 0, "description": "How many more cards may be thrown in."},
    "throw_in": {"type": "array", "items": {"$ref": "Seat"}, "description": "Who may throw in."},
    "taking": {"type": "boolean"},
    "deal": {"type": "integer", "minimum": 1},
    "trump": {"$ref": "Suit"},
}

SCHEMAS = {
    "Player": {
        "description": "A player of Durak; `score` is how many times they were the durak in the series.",
        "required": ["hand_size"],
        "properties": {
            "hand_size": {**SEAT_OR_NULL, "description": "Cards in hand during a deal; null between deals."},
        },
    },
    "Attack": {
        "type": "object",
        "required": ["card", "seat", "beaten_by"],
        "additionalProperties": False,
        "description": "An attacking card on the table: who laid it, and the card that beat it (null while unbeaten).",
        "properties": {"card": {"$ref": "Card"}, "seat": {"$ref": "Seat"},
                       "beaten_by": {"oneOf": [{"$ref": "Card"}, {"type": "null"}]}},
    },
    "Bout": {
        "type": "object",
        "required": list(BOUT_FIELDS),
        "additionalProperties": False,
        "description": "The bout on the table.",
        "properties": BOUT_FIELDS,
    },
    "EndedBout": {
        "type": "object",
        "required": [*BOUT_FIELDS, "taken"],
        "additionalProperties": False,
        "description": "The last bout ended: beaten and discarded, or taken by its defender.",
        "properties": {**BOUT_FIELDS, "taken": {"type": "boolean"}},
    },
    "Deal": {
        "type": "object",
        "required": ["number", "dealer", "trump", "trump_suit", "trump_holder", "stock", "hand_sizes", "attacker",
                     "defender", "leader", "bout", "bouts", "last_bout", "out", "known", "discards", "discarded",
                     "over", "result"],
        "additionalProperties": False,
        "description": ("The current (or last) deal of Durak, as the referee knows it without seeing the hands: "
                        "every hand size, the talon, the bout, the discards and every card whose place is known."),
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "The deal's number in the series."},
            "dealer": {"$ref": "Seat"},
            "trump": {"$ref": "Card"},
            "trump_suit": {"$ref": "Suit"},
            "trump_holder": {**SEAT_OR_NULL, "description": ("Who holds the turned trump: who drew the talon's last "
                                                             "card, or the dealer when the whole pack was dealt.")},
            "stock": {"type": "integer", "minimum": 0,
                      "description": "Cards in the talon, the turned trump included while it lies there."},
            "hand_sizes": {**BY_SEAT, "additionalProperties": {"type": "integer", "minimum": 0},
                           "description": "Cards in each hand, by seat (as text)."},
            "attacker": {**SEAT_OR_NULL, "description": "Who attacks (leads the next bout, or attacks in this one); "
                                                         "null once the deal is over."},
            "defender": {**SEAT_OR_NULL, "description": "Who defends (the next bout's, or this one's)."},
            "leader": {**SEAT_OR_NULL, "description": "Who led the bout on the table (or leads the next)."},
            "bout": {"oneOf": [{"$ref": "Bout"}, {"type": "null"}], "description": "The bout on the table, or null."},
            "bouts": {"type": "integer", "minimum": 0, "description": "Bouts ended in this deal."},
            "last_bout": {"oneOf": [{"$ref": "EndedBout"}, {"type": "null"}]},
            "out": {"type": "array", "items": {"$ref": "Seat"},
                    "description": "Who is out of the deal (no cards once the talon is gone), in the order they left."},
            "known": {**BY_SEAT, "additionalProperties": {"type": "array", "items": {"$ref": "Card"}},
                      "description": ("By seat (as text), the cards known to be in each hand: dealt (when the deal "
                                      "gave the hands), taken, the turned trump, or the last unseen cards.")},
            "discards": {"type": "integer", "minimum": 0, "description": "How many cards are discarded."},
            "discarded": {"type": "array", "items": {"$ref": "Card"}},
            "over": {"type": "boolean"},
            "result": {"description": "Once the deal is over, its durak (null for a draw); else null.",
                       "oneOf": [{"$ref": "DealResult"}, {"type": "null"}]},
        },
    },
    "DealResult": {
        "type": "object",
        "required": ["durak"],
        "additionalProperties": False,
        "properties": {"durak": SEAT_OR_NULL},
    },
    "ExpectedDeal": {
        "type": "object",
        "required": ["type", "dealer", "deal", "cards", "attacker"],
        "additionalProperties": False,
        "description": "A deal is due.",
        "properties": {
            "type": {"const": "deal"},
            "dealer": {**SEAT_OR_NULL, "description": "The dealer the rule names (the last durak); null when free."},
            "deal": {"type": "integer", "minimum": 1},
            "cards": {"type": "integer", "minimum": 1},
            "attacker": {**SEAT_OR_NULL, "description": ("The first attacker the rule names; null when the deal names "
                                                         "one (the first deal, after a draw).")},
        },
    },
    "ExpectedAttack": {
        "type": "object",
        "required": ["type", "seat", "defender", "bout", "limit", "deal", "trump"],
        "additionalProperties": False,
        "description": "A bout's lead is due.",
        "properties": {
            "type": {"const": "attack"},
            "seat": {"$ref": "Seat"},
            "defender": {"$ref": "Seat"},
            "bout": {"type": "integer", "minimum": 1},
            "limit": {"type": "integer", "minimum": 0, "description": "The most attacking cards the bout holds."},
            "deal": {"type": "integer", "minimum": 1},
            "trump": {"$ref": "Suit"},
        },
    },
    "ExpectedDefend": {
        "type": "object",
        "required": ["type", "seat", "transfer", *EXPECTED_IN_BOUT],
        "additionalProperties": False,
        "description": ("The defender beats, takes (or, with transfers, passes the bout on); the others may throw "
                        "in meanwhile."),
        "properties": {"type": {"const": "defend"}, "seat": {"$ref": "Seat"},
                       "transfer": {"type": "boolean", "description": "Whether the bout may be passed on now."},
                       **EXPECTED_IN_BOUT},
    },
    "ExpectedDone": {
        "type": "object",
        "required": ["type", "seat", *EXPECTED_IN_BOUT],
        "additionalProperties": False,
        "description": ("Every attacking card is beaten, or the defender takes: the bout is `done` unless someone "
                        "throws in more (the defender may still take a beaten bout)."),
        "properties": {"type": {"const": "done"}, "seat": {"$ref": "Seat"}, **EXPECTED_IN_BOUT},
    },
    "Expected": {"oneOf": [{"$ref": "ExpectedDeal"}, {"$ref": "ExpectedAttack"}, {"$ref": "ExpectedDefend"},
                           {"$ref": "ExpectedDone"}]},
}

EVENT_SCHEMAS = {
    "attack": DUREN_EVENTS["attack"],
    "defend": DUREN_EVENTS["defend"],
    "transfer": {
        "description": ("The defender passes the bout on (Durak with `transfer`): cards of the attacking cards' rank, "
                        "before any card of the bout is beaten; the next player holding cards defends them all."),
        "required": ["seat", "cards"],
        "properties": {"seat": {"$ref": "Seat"},
                       "cards": {"type": "array", "minItems": 1, "maxItems": 55, "items": {"$ref": "Card"}}},
    },
    "take": {
        "description": ("\"I take\" (Durak): the defender will take every card of the bout; the others may still "
                        "throw in, within the limit, until `done`."),
        "required": ["seat"],
        "properties": {"seat": {"$ref": "Seat"}},
    },
    "done": {
        "description": ("The bout is over (Durak): beaten and discarded, or taken by a defender who said `take`. The "
                        "draws from the talon follow from the rules and are not logged."),
        "properties": {},
    },
}
