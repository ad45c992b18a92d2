"""Tables: the table service (:mod:`.service`, ``TableService``) and its parts, one responsibility each:
:mod:`.live` (a table in memory), :mod:`.cache`, :mod:`.moves`, :mod:`.invitations`, :mod:`.leavers` with
:mod:`.clocks`, :mod:`.results`, :mod:`.payload`, :mod:`.creation` and :mod:`.rows` (every SQL statement)."""
