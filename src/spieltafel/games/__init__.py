"""The built-in games; importing this package registers each of them.

A new game package joins by adding its module name to ``BUILTIN`` (and registering its Game in
its own ``__init__``); the conformance suite then covers it automatically.
"""

from importlib import import_module

BUILTIN = ("iquazu", "haleakala", "niagara")

for _name in BUILTIN:
    import_module(f"{__name__}.{_name}")
