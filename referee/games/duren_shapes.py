"""The shapes of what Dureń shows and of the events it brings, in JSON Schema, for the contract
(`Game.schemas`, `Game.event_schemas`; `python -m api.contract --write` writes them into openapi.yaml)."""

SCHEMAS = {
    "Player": {
        "description": "A player of Dureń; `score` is the deals they won in the series.",
        "required": ["points", "hand_size"],
        "properties": {
            "points": {
                "type": "integer",
                "minimum": 0,
                "description": "Deals won in the series (the same as `score`).",
            },
            "hand_size": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Cards in hand during a deal; null between deals.",
            },
        },
    },
    "Round": {
        "type": "object",
        "required": ["number", "attacker", "attack", "beats", "taken", "defended", "seq"],
        "additionalProperties": False,
        "description": "One attack and its defence.",
        "properties": {
            "number": {"type": "integer", "minimum": 1},
            "attacker": {"$ref": "Seat"},
            "attack": {"type": "array", "items": {"$ref": "Card"}},
            "beats": {"type": "array", "items": {"$ref": "Beat"}},
            "taken": {
                "type": "array",
                "items": {"$ref": "Card"},
                "description": "The cards the defender took into hand.",
            },
            "defended": {"type": "boolean", "description": "False while the attack waits for its defence."},
            "seq": {"type": "integer", "minimum": 1, "description": "The attack's event."},
        },
    },
    "Deal": {
        "type": "object",
        "required": ["number", "dealer", "trump", "trump_suit", "face_up", "face_up_holder", "stock",
                     "hand_sizes", "attacker", "defender", "turn", "round", "table", "rounds", "known",
                     "discards", "discarded", "exchange", "over", "result"],
        "additionalProperties": False,
        "description": ("The current (or last) deal of Dureń, as the referee knows it without seeing the hands: "
                        "both hand sizes, the stock, the discards and every card whose place is known."),
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "The deal's number in the series."},
            "dealer": {"$ref": "Seat"},
            "trump": {"$ref": "Card"},
            "trump_suit": {"$ref": "Suit"},
            "face_up": {
                "description": ("The card lying face up under the stock (the nine of trumps after an exchange); "
                                "null once drawn."),
                "oneOf": [{"$ref": "Card"}, {"type": "null"}],
            },
            "face_up_holder": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Who drew the last card of the stock, and with it the face-up card.",
            },
            "stock": {
                "type": "integer",
                "minimum": 0,
                "description": "Cards in the stock, the face-up card included while it lies there.",
            },
            "hand_sizes": {"$ref": "HandSizes"},
            "attacker": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Who attacks (or is attacking); null once the deal is over.",
            },
            "defender": {"type": ["integer", "null"], "minimum": 0},
            "turn": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Who acts: the attacker, or the defender while an attack waits.",
            },
            "round": {"type": "integer", "minimum": 0, "description": "Attacks so far in this deal."},
            "table": {
                "type": "array",
                "items": {"$ref": "Card"},
                "description": "The attack waiting for its defence; empty otherwise.",
            },
            "rounds": {"type": "array", "items": {"$ref": "Round"}},
            "known": {"$ref": "Known"},
            "discards": {"type": "integer", "minimum": 0, "description": "How many cards are discarded."},
            "discarded": {"type": "array", "items": {"$ref": "Card"}},
            "exchange": {
                "description": "The nine of trumps swapped for the face-up card, or null.",
                "oneOf": [{"$ref": "Exchange"}, {"type": "null"}],
            },
            "over": {"type": "boolean"},
            "result": {
                "description": "Once the deal is over: the winner and the loser, or a draw (both null); else null.",
                "oneOf": [{"$ref": "DealResult"}, {"type": "null"}],
            },
        },
    },
    "ExpectedAttack": {
        "type": "object",
        "required": ["type", "seat", "deal", "round", "sizes", "exchange"],
        "additionalProperties": False,
        "description": "An attack is due.",
        "properties": {
            "type": {"const": "attack"},
            "seat": {"$ref": "Seat"},
            "deal": {"type": "integer", "minimum": 1},
            "round": {"type": "integer", "minimum": 1, "description": "The number the attack will have."},
            "sizes": {
                "type": "array",
                "items": {"type": "integer", "enum": [1, 3, 5]},
                "description": "The attack sizes both hands allow.",
            },
            "exchange": {
                "description": ("Before the first attack, who may still swap the nine of trumps for the face-up "
                                "card; else null."),
                "oneOf": [{"$ref": "ExpectedExchange"}, {"type": "null"}],
            },
        },
    },
    "ExpectedDefend": {
        "type": "object",
        "required": ["type", "seat", "deal", "round", "cards", "trump"],
        "additionalProperties": False,
        "description": "The defence of the attack on the table is due.",
        "properties": {
            "type": {"const": "defend"},
            "seat": {"$ref": "Seat"},
            "deal": {"type": "integer", "minimum": 1},
            "round": {"type": "integer", "minimum": 1},
            "cards": {"type": "array", "items": {"$ref": "Card"}, "description": "The attacking cards."},
            "trump": {"$ref": "Suit"},
        },
    },
    "Expected": {"oneOf": [{"$ref": "ExpectedDeal"}, {"$ref": "ExpectedAttack"}, {"$ref": "ExpectedDefend"}]},
    "HandSizes": {
        "type": "object",
        "required": ["0", "1"],
        "additionalProperties": False,
        "description": "Cards in each hand, by seat (as text).",
        "properties": {"0": {"type": "integer", "minimum": 0}, "1": {"type": "integer", "minimum": 0}},
    },
    "Known": {
        "type": "object",
        "required": ["0", "1"],
        "additionalProperties": False,
        "description": ("By seat (as text), the cards known to be in each hand: dealt (when the deal gave the "
                        "hands), picked up, swapped for the nine, drawn as the face-up card, or the last unseen "
                        "cards."),
        "properties": {
            "0": {"type": "array", "items": {"$ref": "Card"}},
            "1": {"type": "array", "items": {"$ref": "Card"}},
        },
    },
    "DealResult": {
        "type": "object",
        "required": ["winner", "loser", "draw"],
        "additionalProperties": False,
        "properties": {
            "winner": {"type": ["integer", "null"], "minimum": 0},
            "loser": {"type": ["integer", "null"], "minimum": 0},
            "draw": {"type": "boolean"},
        },
    },
    "Exchange": {
        "type": "object",
        "required": ["seat", "nine", "face_up"],
        "additionalProperties": False,
        "properties": {"seat": {"$ref": "Seat"}, "nine": {"$ref": "Card"}, "face_up": {"$ref": "Card"}},
    },
    "ExpectedExchange": {
        "type": "object",
        "required": ["nine", "face_up", "seats"],
        "additionalProperties": False,
        "properties": {
            "nine": {"$ref": "Card"},
            "face_up": {"$ref": "Card"},
            "seats": {"type": "array", "items": {"$ref": "Seat"}},
        },
    },
}

EVENT_SCHEMAS = {
    "exchange": {
        "description": ("The nine of trumps swapped for the face-up card (Dureń), right after the deal. Recorded "
                        "with the cards swapped: `{\"type\": \"exchange\", \"seat\", \"nine\", \"face_up\"}`."),
        "required": ["seat"],
        "properties": {"seat": {"$ref": "Seat"}},
    },
    "attack": {
        "description": ("The cards an attacker lays. Dureń: 1, 3 with a pair, or 5 with two pairs; never more "
                        "than the defender holds. Durak: a lead (one card, or several of one rank) or a throw-in "
                        "of ranks already on the table, from any seat but the defender's."),
        "required": ["seat", "cards"],
        "properties": {
            "seat": {"$ref": "Seat"},
            "cards": {"type": "array", "minItems": 1, "maxItems": 55, "items": {"$ref": "Card"}},
        },
    },
    "defend": {
        "description": ("Which attacking cards the defender beat, and with what. Dureń: the rest are taken into "
                        "the hand (`beats: []` takes them all). Durak: one beat or more (the defender takes with "
                        "`take`). Drawing from the stock is not logged: it follows from the rules."),
        "required": ["seat", "beats"],
        "properties": {
            "seat": {"$ref": "Seat"},
            "beats": {"type": "array", "maxItems": 55, "items": {"$ref": "Beat"}},
        },
    },
}
