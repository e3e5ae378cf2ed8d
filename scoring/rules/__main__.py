import sys

from scoring.rules.cli import main

sys.exit(main())
