"""One judge: the scanners and parsers of guest logs, and the result file."""
