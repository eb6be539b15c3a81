"""Marquoir: a companion for board games played around a real table."""
