"""Spieltafel: faithful rule engines, bots and interfaces for Iquazú, Haleakala and Niagara."""

from spieltafel.build import warn_if_stale

__version__ = "0.1.0"

warn_if_stale()
