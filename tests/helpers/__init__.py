"""Plain modules shared by tests (data, independent checkers, runners): test modules import
these, never another `test_*` module; fixtures live in conftest.py."""
