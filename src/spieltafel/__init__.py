"""Spieltafel: faithful rule engines, bots and interfaces for Iquazú, Haleakala and Niagara."""

from importlib.metadata import PackageNotFoundError, version

from spieltafel.build import warn_if_stale

try:
    __version__ = version("spieltafel")
    """The installed distribution's version (the package metadata, as ``spieltafel --version`` says)."""
except PackageNotFoundError:  # the sources on the path without an installation
    __version__ = "0+unknown"

warn_if_stale()
