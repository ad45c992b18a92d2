"""Spieltafel: faithful rule engines, bots and interfaces for Iquazú, Haleakala and Niagara."""

__version__ = "0.1.0"
