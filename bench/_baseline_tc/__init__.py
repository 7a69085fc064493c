"""Frozen copies of the Thirteen Clues advisor and the allocation counter as they were before issue 12: the
baseline bench/speed_thirteen_clues.py plays against in the same run. Not used by the assistant."""
