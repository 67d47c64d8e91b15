# SPDX-License-Identifier: GPL-3.0-or-later
"""Make web/src/fonts/figurines.woff: the letters K Q R B N drawn as
DejaVu Sans's chess figurines (U+2654-U+2658), nothing else. With
``unicode-range`` the page uses it for those five letters of a SAN token
only (the move lists, when figurine notation is chosen); the text stays
"Nf3" for copying and for screen readers.

    pip install fonttools && python web/figurines.py [/path/to/DejaVuSans.ttf]

The output is committed (it changes only with this script); its licence
(Bitstream Vera, DejaVu changes in the public domain) is
web/src/fonts/LICENSE-DejaVu.txt, shipped in dist/LICENSES/.
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

FIGURINES = {"K": 0x2654, "Q": 0x2655, "R": 0x2656, "B": 0x2657, "N": 0x2658}
SOURCE = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
OUT = Path(__file__).resolve().parent / "src" / "fonts" / "figurines.woff"
NAME = "pychessdraw figurines"  # the licence asks for a name without "Bitstream" or "Vera"


def main() -> None:
    font = TTFont(sys.argv[1] if len(sys.argv) > 1 else SOURCE)
    cmap = font.getBestCmap()
    glyphs = {letter: cmap[code] for letter, code in FIGURINES.items()}
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.notdef_outline = True
    sub = subset.Subsetter(options)
    sub.populate(glyphs=list(glyphs.values()))
    sub.subset(font)
    for table in font["cmap"].tables:
        table.cmap = {ord(letter): glyph for letter, glyph in glyphs.items()}
    for record in font["name"].names:
        if record.nameID in (1, 3, 4, 16):
            record.string = NAME
        elif record.nameID == 6:
            record.string = NAME.replace(" ", "-")
    font.flavor = "woff"
    font.save(OUT)
    print(f"{OUT}: {OUT.stat().st_size} bytes, {' '.join(glyphs)}")


if __name__ == "__main__":
    main()
