"""Helpers a unit-test file shares with its live twin in tests/live/ (one module per area).

A test that runs a real tool lives in tests/live/ while the pure tests beside it stay in their area
folder; what both use is defined once here, imported under the name the tests already call."""
