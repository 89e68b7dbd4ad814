"""python -m ndtile: the launcher (see ndtile._launch)."""
import sys

from ._launch import main

sys.exit(main())
