"""The built-in games; importing this package registers each of them.

Every subpackage here is a game that registers its Game in its own ``__init__`` (with its kit:
``spieltafel.core.kit``); the conformance suite then covers it automatically. A game outside the project
registers through the ``spieltafel.games`` entry point instead (docs/games.md).
"""

import pkgutil
from importlib import import_module

BUILTIN = tuple(sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg))

for _name in BUILTIN:
    import_module(f"{__name__}.{_name}")
