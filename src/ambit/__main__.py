"""`python -m ambit ...`: the same as the `ambit` command."""

from ambit.cli import entry

if __name__ == "__main__":
    entry()
