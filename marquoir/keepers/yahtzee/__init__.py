"""Yahtzee’s score keeper: a sheet per player, the dice pad, the box list, the assistant."""
