"""Matches at a table: their log, the services that write it, the pages and the API."""
