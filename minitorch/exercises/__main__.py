"""``python -m minitorch.exercises grade | checks | progress | classroom`` (see :mod:`.grading`)."""

import sys

from .grading import main

sys.exit(main())
