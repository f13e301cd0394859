"""``python -m causalcheck`` runs the command line."""

import sys

from causalcheck.cli import main

sys.exit(main())
