"""Upper bounds on every size that input can ask for, checked before work starts.

Why: a data file, a save or a command-line argument must never make tabletop hang or
exhaust memory. Each bound is far above anything a real game needs, lives here once, and
is named in the error that enforces it, so a player who meets one knows what to change.
"""

from __future__ import annotations

#: nesting levels (mappings and lists inside each other) in a YAML data file
YAML_DEPTH = 64
#: values in a YAML data file once its aliases are expanded (a billion-laughs guard)
YAML_NODES = 1_000_000
#: bytes of a YAML data file
YAML_BYTES = 64 * 1024 * 1024
#: characters of one number in a YAML data file (Python refuses to print ints past 4300 digits)
YAML_DIGITS = 100

#: columns and rows of a map (each)
MAP_SIDE = 999

#: pieces one setup or reinforcement entry may ask for, and pieces a scenario may make in all
PIECE_COUNT = 10_000

#: setup entries times map hexes: the setup solver shuffles every hex of the map once for
#: each setup entry (a group of interchangeable pieces), before it places anything
SETUP_HEXES = 1_000_000

#: movement points a `reach --budget` may give (the search allocates one bucket a point)
REACH_BUDGET = 100_000

#: height levels `los`/`viewshed` --from-level and --to-level may give, either sign
LEVEL = 999
#: lines and bytes of a `los --pairs` file (each line is checked before any is answered)
PAIRS_LINES = 100_000
PAIRS_BYTES = 16 * 1024 * 1024
#: games a `sim` group may ask for, and processes it may play in
SIM_GAMES = 100_000
SIM_JOBS = 64
#: the largest dice seed an argument may give (seeds are whole numbers from 0)
SEED = 2**63 - 1
#: bytes of a path argument, and of each name in it (Linux PATH_MAX and NAME_MAX)
PATH_BYTES = 4095

#: nesting levels of a save's JSON, log entries in a save, bytes of a save file
SAVE_DEPTH = 64
SAVE_ENTRIES = 2_000_000
SAVE_BYTES = 1024 * 1024 * 1024

#: characters of a name or path that a data file or an argument gives
NAME_CHARS = 255

#: characters of one error message (a value it echoes is cut out of the middle past this)
MESSAGE_CHARS = 600

#: the largest whole number (either sign) a save may hold: its seed, turns, tracks, hexes
SAVE_INT = 2**63 - 1

#: pixels a side, and in all, of a picture an import reads (a board, a counter face, a tile set)
IMAGE_SIDE = 16_384
IMAGE_PIXELS = 64 * 1024 * 1024
#: bytes a VASSAL module may unpack to in all, members it may hold, bytes of its buildFile
IMPORT_BYTES = 512 * 1024 * 1024
IMPORT_MEMBERS = 100_000
BUILDFILE_BYTES = 64 * 1024 * 1024
