"""One hand-written strategy per built-in game, used by :class:`cardkit.bots.RuleBot`.

Each module has ``choose(seat_state) -> (action, explanation)``; it reads only what the
seat sees (its own hand and the public table from ``seat_state.masked``, whose concealed
cards are in a canonical order and never consulted).
"""
