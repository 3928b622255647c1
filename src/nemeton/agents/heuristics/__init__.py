"""Per-game heuristics; importing a module registers its game\x27s heuristic."""
