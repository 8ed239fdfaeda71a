"""The shapes of what Oh Hell shows and of the events it brings, in JSON Schema, for the contract
(`Game.schemas`, `Game.event_schemas`; `python -m api.contract --write` writes them into openapi.yaml)."""

SCHEMAS = {
    "Player": {
        "description": "A player of Oh Hell; `score` is their running total.",
        "required": ["bid", "tricks"],
        "properties": {
            "bid": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Their bid in the current hand; null until they bid.",
            },
            "tricks": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": ("Tricks taken in the current hand (the last one, between hands); null before the "
                                "first hand."),
            },
        },
    },
    "Deal": {
        "type": "object",
        "required": ["number", "hands", "cards", "dealer", "seats", "trump_card", "trump", "phase", "bids",
                     "taken", "trick", "led", "table", "tricks", "turn", "over", "known_hands", "result"],
        "additionalProperties": False,
        "description": "The current (or last) hand of Oh Hell.",
        "properties": {
            "number": {"type": "integer", "minimum": 1, "description": "The hand's number in the match."},
            "hands": {
                "type": "integer",
                "minimum": 1,
                "description": "How many hands the match has (by `sequence`).",
            },
            "cards": {"type": "integer", "minimum": 1, "description": "Cards dealt to each player in this hand."},
            "dealer": {"$ref": "Seat"},
            "seats": {
                "type": "array",
                "items": {"$ref": "Seat"},
                "description": "Everyone, from the dealer's left: the order of bidding and of the first trick.",
            },
            "trump_card": {
                "description": "The card the dealer turned up; null in a hand without trump.",
                "oneOf": [{"$ref": "Card"}, {"type": "null"}],
            },
            "trump": {
                "oneOf": [{"$ref": "Suit"}, {"type": "null"}],
                "description": "The trump suit, or null.",
            },
            "phase": {"type": "string", "enum": ["bidding", "playing", "over"]},
            "bids": {
                "type": "array",
                "items": {"type": ["integer", "null"], "minimum": 0},
                "description": "Bids by seat; null until given.",
            },
            "taken": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "description": "Tricks taken in this hand, by seat.",
            },
            "trick": {
                "type": "integer",
                "minimum": 1,
                "description": "The current trick's number (the last one once the hand is over).",
            },
            "led": {
                "oneOf": [{"$ref": "Suit"}, {"type": "null"}],
                "description": "The suit led in the current trick; null before its first card.",
            },
            "table": {
                "type": "array",
                "items": {"$ref": "TablePlay"},
                "description": "The cards of the current trick so far.",
            },
            "tricks": {"type": "array", "items": {"$ref": "Trick"}},
            "turn": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": ("The seat to bid or to play; null while simultaneous bids are awaited, and once "
                                "the hand is over."),
            },
            "over": {"type": "boolean"},
            "known_hands": {
                "type": "array",
                "items": {"$ref": "Seat"},
                "description": "The seats whose dealt hand the `deal` event gave; their plays are checked at once.",
            },
            "result": {
                "description": ("Once the hand is over, by seat, the bid, the tricks taken and the points "
                                "scored; else null."),
                "oneOf": [{"type": "array", "items": {"$ref": "HandResult"}}, {"type": "null"}],
            },
        },
    },
    "ExpectedDeal": {
        "type": "object",
        "required": ["type", "dealer", "deal", "cards", "turn_trump"],
        "additionalProperties": False,
        "description": "A hand is due.",
        "properties": {
            "type": {"const": "deal"},
            "dealer": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": ("The dealer the rule names; null before the first hand, when the table chooses "
                                "(or the server draws one by lot)."),
            },
            "deal": {"type": "integer", "minimum": 1, "description": "The number the hand will have."},
            "cards": {"type": "integer", "minimum": 1, "description": "Cards dealt to each player."},
            "turn_trump": {
                "type": "boolean",
                "description": ("Whether the dealer turns up a trump card; then the `deal` must name it "
                                "(`trump`), else it must not."),
            },
        },
    },
    "ExpectedBid": {
        "type": "object",
        "required": ["type", "seat", "seats", "deal", "allowed", "forbidden"],
        "additionalProperties": False,
        "description": "Bids are due.",
        "properties": {
            "type": {"const": "bid"},
            "seat": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "Who bids now; null with `simultaneous_bids` (any of `seats`).",
            },
            "seats": {
                "type": "array",
                "items": {"$ref": "Seat"},
                "description": "Who has still to bid, in bidding order.",
            },
            "deal": {"type": "integer", "minimum": 1},
            "allowed": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "description": "The bids allowed to `seat`.",
            },
            "forbidden": {
                "type": ["integer", "null"],
                "minimum": 0,
                "description": "The bid the hook forbids the dealer, bidding last.",
            },
        },
    },
    "ExpectedPlay": {
        "type": "object",
        "required": ["type", "seat", "deal", "trick", "led", "trump"],
        "additionalProperties": False,
        "description": "A card is due.",
        "properties": {
            "type": {"const": "play"},
            "seat": {"$ref": "Seat"},
            "deal": {"type": "integer", "minimum": 1},
            "trick": {"type": "integer", "minimum": 1},
            "led": {
                "oneOf": [{"$ref": "Suit"}, {"type": "null"}],
                "description": "The suit to follow; null for a lead.",
            },
            "trump": {"oneOf": [{"$ref": "Suit"}, {"type": "null"}]},
            "legal": {
                "type": "array",
                "items": {"$ref": "Card"},
                "description": "With the player's hand known, the cards allowed; absent when blind.",
            },
        },
    },
    "Expected": {"oneOf": [{"$ref": "ExpectedDeal"}, {"$ref": "ExpectedBid"}, {"$ref": "ExpectedPlay"}]},
    "HandResult": {
        "type": "object",
        "required": ["seat", "bid", "taken", "points"],
        "additionalProperties": False,
        "properties": {
            "seat": {"$ref": "Seat"},
            "bid": {"type": "integer", "minimum": 0},
            "taken": {"type": "integer", "minimum": 0},
            "points": {"type": "integer", "minimum": 0},
        },
    },
}

EVENT_SCHEMAS = {
    "bid": {
        "description": "A bid (Oh Hell), 0 to the hand size; the hook's forbidden bid is refused unless forced.",
        "required": ["seat", "bid"],
        "properties": {
            "seat": {"$ref": "Seat"},
            "bid": {"type": "integer", "minimum": 0, "description": "Tricks the player says they will take."},
        },
    },
}
