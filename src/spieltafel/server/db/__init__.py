"""Storage: SQLAlchemy 2 models, the async engine and the Alembic migrations shipped in this package."""

from .engine import Database, migrate
from .models import AccountRow, Base, MoveRow, SeatRow, SessionRow, TableRow, TokenRow

__all__ = ["AccountRow", "Base", "Database", "MoveRow", "SeatRow", "SessionRow", "TableRow", "TokenRow", "migrate"]
