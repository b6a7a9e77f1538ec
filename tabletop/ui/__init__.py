"""The table: a pygame-ce window over the geometry core. The only package that imports
pygame. It never decides a rule: it asks the engine and draws the answer."""
