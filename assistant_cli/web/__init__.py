"""The web companion (``assist serve``): every registered game's session on a phone-sized page."""
