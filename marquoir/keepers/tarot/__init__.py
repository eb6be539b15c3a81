"""French Tarot's score keeper: a Django app the match core finds through its AppConfig."""
