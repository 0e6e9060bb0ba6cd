"""The user-facing flows built on the pipeline: wrap, batch, promote, wizard."""
