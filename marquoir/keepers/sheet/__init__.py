"""The score keeper of a score sheet for any game (``"game": "sheet"``): rounds × players."""
