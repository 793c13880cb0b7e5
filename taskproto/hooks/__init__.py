"""Adapters from git hooks, the pre-commit framework and agent clients to the engine."""
