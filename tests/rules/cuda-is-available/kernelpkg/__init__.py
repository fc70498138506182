# A package of the project for input-triton-project.py: its kernel module imports Triton.
