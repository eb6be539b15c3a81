"""Pure game knowledge, one package per game: rules engines, box facts, content."""
