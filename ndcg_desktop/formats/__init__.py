"""Reading and writing files; every problem raises InputError with file and line."""
