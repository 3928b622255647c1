"""The game server: rooms of seats (people with secret tokens, or agents), live play over
HTTP and WebSockets, and durable storage in any SQLAlchemy database (SQLite by default).

Nothing here knows a game's rules: rooms are game records played through the engine's
protocol, the table loop (:mod:`nemeton.table`) and agent specs. See ``docs/server.md``.

- :mod:`.db`: tables, migrations and the optimistic version check;
- :mod:`.rooms`: rooms in memory, their tokens, the agents' moves and the subscribers;
- :mod:`.app`: the FastAPI application (``create_app``).
"""
