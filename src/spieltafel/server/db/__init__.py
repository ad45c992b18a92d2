"""Storage: SQLAlchemy 2 models, the async engine and the Alembic migrations shipped in this package."""

from spieltafel.server.db.engine import Database, migrate
from spieltafel.server.db.models import (
    AccountRow,
    AuditRow,
    Base,
    ChatRow,
    GuestRow,
    LinkRow,
    MoveRow,
    MuteRow,
    RatingChangeRow,
    RatingRow,
    ReportRow,
    SeatRow,
    SessionRow,
    TableRow,
    TokenRow,
)

__all__ = [
    "AccountRow", "AuditRow", "Base", "ChatRow", "Database", "GuestRow", "LinkRow", "MoveRow", "MuteRow",
    "RatingChangeRow", "RatingRow", "ReportRow", "SeatRow", "SessionRow", "TableRow", "TokenRow", "migrate",
]
