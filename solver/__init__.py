"""Game-agnostic knowledge engine: hidden categorical variables, observations as gated CP-SAT constraints,
possible values, exact counting, explanations, and the brute-force reference. Never imports ``models``."""
