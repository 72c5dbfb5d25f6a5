"""Unit tests of the Risk foundation (domain/risk): map data and the dice engine."""
