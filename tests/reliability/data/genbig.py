"""The big-map generator of appendix B of the findings: python genbig.py N. As printed, but
for a private random source (the same maps) and the script part under __main__, so
tests/test_reliability_viewshed.py can call make()."""
# ruff: noqa


import random, sys
def make(n, name, seed=1):
    rng = random.Random(seed)
    rows = []
    elev = []
    for r in range(n):
        row = []; er = []
        for c in range(n):
            x = rng.random()
            sym = "W" if x < 0.08 else ("H" if x < 0.12 else ("~" if x < 0.14 else ("T" if x < 0.15 else ".")))
            row.append(sym)
            er.append(str(1 if sym == "H" else 0))
        rows.append("  " + " ".join(row)); elev.append("    " + " ".join(er))
    digits = max(2, len(str(n)))
    feats = ", ".join(f'"{c:0{digits}d}{r:0{digits}d}"' for c, r in [(i, i) for i in range(1, n + 1)])
    sides = ", ".join(f'"{c:0{digits}d}{r:0{digits}d}/{c:0{digits}d}{r+1:0{digits}d}"' for c, r in [(10, i) for i in range(1, n)])
    return f"""name: Big {n}x{n}
grid:
  orientation: flat
  offset: odd-q
  columns: {n}
  rows: {n}
  labels: {{first_column: 1, first_row: 1, digits: {digits}}}
terrain:
  open:  {{symbol: ".", colour: "#c8d89a", name: Open ground}}
  woods: {{symbol: "W", colour: "#3f7a3a", name: Woods, properties: {{los: block}}}}
  hill:  {{symbol: "H", colour: "#b39b6b", name: Hill}}
  water: {{symbol: "~", colour: "#4a7fb5", name: Water}}
  town:  {{symbol: "T", colour: "#9a8f87", name: Town, properties: {{los: hinder}}}}
rows: |
""" + "\n".join(rows) + """
elevation:
  default: 0
  rows: |
""" + "\n".join(elev) + f"""
features:
  road: {{colour: "#8a6d3b", name: Road, hexes: [{feats}]}}
hexsides:
  wall: {{colour: "#6b4226", name: Wall, between: [{sides}]}}
regions:
  west: {{kind: setup, columns: [1, 5]}}
  east: {{kind: setup, columns: [{n-4}, {n}]}}
"""
def scenario(n):
    d = max(2, len(str(n)))
    mid = n // 2
    return f"""name: Big {n} scenario
map: big{n}
units:
  - {{id: a1, type: infantry, side: blue, hex: "{mid:0{d}d}{mid:0{d}d}"}}
  - {{id: b1, type: infantry, side: red, hex: "{1:0{d}d}{1:0{d}d}"}}
  - {{id: c1, type: infantry, side: red, hex: "{n:0{d}d}{n:0{d}d}"}}
"""
if __name__ == "__main__":
    n = int(sys.argv[1])
    open(f"maps/big{n}.yaml", "w").write(make(n, f"big{n}"))
    open(f"scenarios/big{n}.yaml", "w").write(scenario(n))
