"""Replays: /tables/{id}/replay, /tables/{id}/history, /replay/upload."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
