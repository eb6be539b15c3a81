"""Pickomino's score keeper: the grill and stacks on the table screen, takes, steals and busts."""
