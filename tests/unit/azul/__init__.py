"""Unit tests of the Azul rules engine (domain/azul)."""
