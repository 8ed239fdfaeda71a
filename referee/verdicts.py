"""What the referee says about an event: rejections, warnings and findings.

- A **rejection** is raised: the event cannot have happened, or breaks a rule that can be proven now.
  Nothing is recorded.
- A **warning** travels with a recorded event: something is off but the table let it stand.
- A **finding** names an earlier recorded play whose claim a later event proved false, with the proof.

Every verdict has a stable `code` that clients translate, the seat, a message for people, and `details`: the
values (seats as numbers, cards in the API's notation) a client needs to say it in the table's language.
No verdict names a card of an entered hand other than the card it is about (RULES.md, "Hidden cards stay
hidden").
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


class InvalidInput(ValueError):
    "Input that is malformed or makes no sense for this match"

    def __init__(self, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}


class Rejected(Exception):
    "An event the rules refuse: it cannot have happened, or is provably illegal"

    def __init__(self, code: str, message: str, *, seat: int | None = None, forceable: bool = False,
                 details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.seat = seat
        self.forceable = forceable
        self.details = details or {}

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "seat": self.seat, "forceable": self.forceable,
                "details": self.details}


@dataclass(frozen=True)
class RefereeWarning:
    "A recorded event that is off: forced through, or unusual but allowed"

    code: str
    message: str
    seat: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Finding:
    """An illegal play that stands in the record.

    `seq` is the offending event, `proof_seq` the event that proved it (its own seq when it was forced
    through). `deal` and `trick` say where it happened, for people.
    """

    seq: int
    seat: int
    code: str
    message: str
    proof_seq: int
    deal: int | None = None
    trick: int | None = None
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return asdict(self)
