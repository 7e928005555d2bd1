"""Deterministic sizing and cost calculators (issue 3): pure functions over the catalog."""
