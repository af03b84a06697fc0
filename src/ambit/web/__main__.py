"""`python -m ambit.web`: the web page's own process, started by `ambit serve --http` (`web.process`)."""

import sys

from ambit.web.process import main

if __name__ == "__main__":
    sys.exit(main())
