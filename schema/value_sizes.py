"""What a scalar of the answer counts in the cost: one unit per COST_VALUE_BYTES it may take.

Numbers, dates, enums and short ids take less than COST_VALUE_BYTES and count 1. A field
whose values can be longer counts the units its longest value takes (4 bytes a character: a
character outside the BMP takes 4 in UTF-8 and in a Python string), so that the cost bounds
the bytes an answer can hold and not only its values: counted 1, a message's text let a
6 KB query (100 `nodes` naming one session, its last 100 messages) build 160 MB. (A long response
key counts too, in `runtime/limits/cost.py`.)
"""

from __future__ import annotations

import math

from resolvers.chat_messages import MESSAGE_CURSOR
from resolvers.chat_sessions import SESSION_CURSOR
from resolvers.global_ids import MAX_GLOBAL_ID_LENGTH
from resolvers.orders import ORDER_CURSOR
from resolvers.sensors import CURSORS
from resolvers.trades import TRADE_CURSOR
from settings import (
    COST_VALUE_BYTES,
    MAX_AUTHOR_LENGTH,
    MAX_MESSAGE_TEXT_LENGTH,
    MAX_ORDER_INFO_LENGTH,
    MAX_TAG_VALUE_LENGTH,
    MAX_TITLE_LENGTH,
    MAX_USER_ID_LENGTH,
    MAX_USER_TEXT_LENGTH,
)

BYTES_PER_CHARACTER = 4


def _units(size: int) -> int:
    return max(1, math.ceil(size / COST_VALUE_BYTES))


def _text(characters: int) -> int:
    return _units(characters * BYTES_PER_CHARACTER)


# A cursor and a global id are ASCII: a character each.
_LONGEST_CURSOR = max(
    *(codec.longest for codec in CURSORS.values()),
    *(codec.longest for codec in (ORDER_CURSOR, SESSION_CURSOR, MESSAGE_CURSOR, TRADE_CURSOR)),
)

# The scalar fields whose values may take more than COST_VALUE_BYTES, by type and field; a
# list of them (`tagValues`) counts each item so.
VALUE_UNITS: dict[tuple[str, str], int] = {
    ("Sensor", "title"): _text(MAX_TITLE_LENGTH),
    ("ChatSession", "title"): _text(MAX_TITLE_LENGTH),
    ("Message", "author"): _text(MAX_AUTHOR_LENGTH),
    ("Message", "text"): _text(MAX_MESSAGE_TEXT_LENGTH),
    ("Order", "info"): _text(MAX_ORDER_INFO_LENGTH),
    ("Order", "userId"): _text(MAX_USER_ID_LENGTH),
    ("User", "userId"): _text(MAX_USER_ID_LENGTH),
    ("User", "userType"): _text(MAX_USER_TEXT_LENGTH),
    ("User", "name"): _text(MAX_USER_TEXT_LENGTH),
    ("Measurement", "tagValues"): _text(MAX_TAG_VALUE_LENGTH),
    # Ids that hold a user id (and an order id).
    ("User", "id"): _units(MAX_GLOBAL_ID_LENGTH),
    ("Order", "id"): _units(MAX_GLOBAL_ID_LENGTH),
    ("SensorEdge", "cursor"): _units(max(c.longest for c in CURSORS.values())),
    ("OrderEdge", "cursor"): _units(ORDER_CURSOR.longest),
    ("PageInfo", "startCursor"): _units(_LONGEST_CURSOR),
    ("PageInfo", "endCursor"): _units(_LONGEST_CURSOR),
}
