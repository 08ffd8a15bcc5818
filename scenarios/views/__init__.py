"""The scenarios app's screens: the rulebook reader and the practice quiz."""
