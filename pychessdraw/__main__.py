import sys

from .batch.cli import main

sys.exit(main())
