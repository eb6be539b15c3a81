"""End-to-end tests: Debian's Chromium, driven by Playwright, against a real server process."""
