"""What the batch tools and the page both do with a game's record: replay it
and report its events (:mod:`.scan`), judge its recorded result
(:mod:`.judge`, with the final position's search in :mod:`.final_search`),
and follow a live round as its text grows (:mod:`.tracker`). Pure: no file,
no network; the CLI's sources are :mod:`pychessdraw.batch.watch`."""
