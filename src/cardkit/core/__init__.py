"""The game-independent engine: the Rules protocol, chance, the Game aggregate and logs."""
