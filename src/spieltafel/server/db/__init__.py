"""Storage: SQLAlchemy 2 models, the async engine and the Alembic migrations shipped in this package."""

from spieltafel.server.db.engine import Database, migrate
from spieltafel.server.db.models import (
    AccountRow,
    Base,
    ChatRow,
    GuestRow,
    LinkRow,
    MoveRow,
    MuteRow,
    RatingChangeRow,
    RatingRow,
    SeatRow,
    SessionRow,
    TableRow,
    TokenRow,
)

__all__ = [
    "AccountRow", "Base", "ChatRow", "Database", "GuestRow", "LinkRow", "MoveRow", "MuteRow", "RatingChangeRow",
    "RatingRow", "SeatRow", "SessionRow", "TableRow", "TokenRow", "migrate",
]
