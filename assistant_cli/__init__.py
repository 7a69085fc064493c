"""The ``assist`` command: companion sessions, simulations and the demo."""
