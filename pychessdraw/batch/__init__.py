"""The batch tools: the `pychessdraw` CLI (status, scan, watch, audit), reading PGN
files and archives, one report per game and the verdict on its recorded result."""
