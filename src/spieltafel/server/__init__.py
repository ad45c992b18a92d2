"""The online platform: accounts, tables, live games and bots in seats (``spieltafel serve``).

``create_app`` (in :mod:`spieltafel.server.app`) builds the FastAPI application; every change to a
game goes through :class:`spieltafel.server.tables.service.TableService`.
"""
