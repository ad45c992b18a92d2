"""The built-in games; importing this package registers each of them."""

from . import iquazu

__all__ = ["iquazu"]
