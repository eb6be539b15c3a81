"""What `make bench` runs; each benchmark prints its figures and a baseline from the same run."""
