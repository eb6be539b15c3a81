"""The catalog and the rules pages."""
