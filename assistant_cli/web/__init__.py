"""The web companion (``assist serve``): the four games' sessions on a phone-sized page."""
