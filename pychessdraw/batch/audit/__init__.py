"""``pychessdraw audit``: whole PGN archives audited on Dask distributed.

Needs the ``audit`` extra (``pip install "pychessdraw[audit]"``: dask,
distributed, zstandard, pyarrow). Modules: ``chunks`` (cutting inputs into
independently read chunks), ``schema`` (the Parquet columns), ``work``
(what a worker does with a chunk), ``run`` (the job, its manifest and
summary).
"""
