"""Rules pages: /rules and /rules/{game}."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
