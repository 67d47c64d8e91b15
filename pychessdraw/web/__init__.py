"""The browser page's Python (run in Pyodide): the bridge (JSON in, JSON out), its
contract, and the facts in words."""
